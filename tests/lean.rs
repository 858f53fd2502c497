//! The validator runs on every commit and every push, so it must stay lean: it links
//! neither the HTTP client nor the tokenizer (docs/design.md §1). Debug builds keep symbol names
//! that carry the crate name, so a linked crate leaves its name in the binary; the draft
//! binary, which does link both, is the control that shows the probe works.

fn binary(name: &str) -> Vec<u8> {
    let path = match name {
        "jitcommit-check" => env!("CARGO_BIN_EXE_jitcommit-check"),
        _ => env!("CARGO_BIN_EXE_jitcommit-draft"),
    };
    std::fs::read(path).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

/// A substring search through regex's optimised searcher: the debug binaries are large,
/// and a byte-by-byte window compare in an unoptimised test took minutes.
fn contains(haystack: &[u8], needle: &str) -> bool {
    regex::bytes::Regex::new(&regex::escape(needle))
        .expect("an escaped literal is a valid pattern")
        .is_match(haystack)
}

#[test]
fn the_validator_links_neither_http_client_nor_tokenizer() {
    let check = binary("jitcommit-check");
    let draft = binary("jitcommit-draft");
    for krate in ["ureq", "bpe_openai", "jitcommit_drafter"] {
        assert!(
            contains(&draft, krate),
            "control: jitcommit-draft should name {krate}"
        );
        assert!(!contains(&check, krate), "jitcommit-check links {krate}");
    }
}

/// What a server that installs only the check compiles
/// (`cargo install --path . --no-default-features --bin jitcommit-check`, as
/// `install.sh --server` does): not the draft crate (prompt, redaction, offline draft,
/// quality gate, model client), the HTTP stack or the tokenizer.
#[test]
fn a_check_only_build_compiles_no_model_crate() {
    let tree = |features: &[&str]| {
        let out = std::process::Command::new(env!("CARGO"))
            .args([
                "tree",
                "--offline",
                "--locked",
                "-e",
                "normal",
                "--prefix",
                "none",
            ])
            .args(["-p", "jitcommit"])
            .args(features)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("cargo tree runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let lean = tree(&["--no-default-features"]);
    let full = tree(&[]);
    for krate in ["jitcommit-drafter", "ureq", "bpe-openai"] {
        assert!(
            full.contains(krate),
            "control: the default build has {krate}"
        );
        assert!(
            !lean.contains(krate),
            "the check-only build compiles {krate}"
        );
    }
}
