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
        let mut args = vec!["-e", "normal", "-p", "jitcommit"];
        args.extend(features);
        cargo_tree(&args)
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

/// `./test.sh` builds the tests on the dependencies `./install.sh` built
/// (tests/release-build.toml). A crate shares its artifact only when it is built with
/// the same features, so the tests' dev-dependencies must not turn on a feature the
/// release build leaves off: one such feature on a crate below gix rebuilds gix and
/// everything above it, minutes of the test command. Every crate `cargo install` of
/// the default build compiles must have the same feature sets in the test build.
#[test]
fn the_tests_build_every_dependency_as_install_sh_does() {
    let tree = |args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["-f", "{p} [{f}]"]);
        // package (name, version) -> the feature sets it is built with
        let mut sets: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
            Default::default();
        for line in cargo_tree(&args).lines() {
            let line = line.trim_end_matches(" (*)").replace(" (proc-macro)", "");
            let Some((pkg, features)) = line.split_once(" [") else {
                continue;
            };
            let pkg: String = pkg.split(" (").next().unwrap_or(pkg).to_owned();
            sets.entry(pkg)
                .or_default()
                .insert(features.trim_end_matches(']').to_owned());
        }
        sets
    };
    let install = tree(&["-p", "jitcommit", "-e", "normal,build"]);
    let tests = tree(&["--workspace", "-e", "normal,build,dev"]);
    assert!(
        install.keys().any(|p| p.starts_with("gix v")),
        "control: install.sh's build has gix: {:?}",
        install.keys().take(5).collect::<Vec<_>>()
    );
    let differ: Vec<String> = install
        .iter()
        .filter(|(pkg, _)| !pkg.starts_with("jitcommit"))
        .filter(|(pkg, sets)| tests.get(*pkg) != Some(*sets))
        .map(|(pkg, sets)| format!("{pkg}: install {sets:?}, tests {:?}", tests.get(pkg)))
        .collect();
    assert!(
        differ.is_empty(),
        "the test build turns on features install.sh's build does not, so it rebuilds \
         these and every crate above them; turn them on in a normal dependency \
         (crates/draft/Cargo.toml does for regex and getrandom):\n{}",
        differ.join("\n")
    );
}

/// `cargo tree --offline --locked --prefix none ARGS` in this package, its output.
fn cargo_tree(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--locked", "--prefix", "none"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
