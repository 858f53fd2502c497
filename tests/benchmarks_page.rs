//! docs/benchmarks.md is generated: `bench/record.py` writes every section from the run
//! of the bench it names. This keeps the page to that promise. It opens with the
//! recorder's own header, and then holds nothing but recorder sections, sorted by name,
//! each headed with the date and revision of its run and the command that reproduces
//! it. Every `bench/` script and `cargo bench --bench` target a command names exists,
//! so a section cannot outlive the bench that would regenerate it.

use std::path::Path;

use crate::docs_refs::bench_paths;
use crate::install_support::source_root;

fn read(path: &str) -> String {
    std::fs::read_to_string(source_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The header record.py writes at the top of the page (its `HEADER` constant).
fn recorder_header() -> String {
    let source = read("bench/record.py");
    let start = source
        .find("HEADER = \"\"\"")
        .expect("bench/record.py defines HEADER")
        + "HEADER = \"\"\"".len();
    let len = source[start..]
        .find("\"\"\"")
        .expect("HEADER's string closes");
    source[start..start + len].to_string()
}

/// The `[[bench]]` targets of the root package.
fn cargo_benches() -> Vec<String> {
    let manifest: toml::Table = read("Cargo.toml").parse().expect("Cargo.toml parses");
    manifest["bench"]
        .as_array()
        .expect("Cargo.toml declares its benches")
        .iter()
        .map(|b| b["name"].as_str().expect("a bench has a name").to_string())
        .collect()
}

/// One section: its name, its heading line, its "Measured …" lines and its body.
struct Section<'a> {
    name: &'a str,
    measured: &'a str,
}

/// Splits the page after its header into sections; anything between them is an error.
fn sections(rest: &str) -> Result<Vec<Section<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = rest;
    while !rest.is_empty() {
        let body = rest
            .strip_prefix("\n<!-- bench:")
            .ok_or_else(|| format!("text outside a recorded section: {:.80?}", rest))?;
        let (name, body) = body
            .split_once(" begin -->\n")
            .ok_or("a begin marker without its name")?;
        let end = format!("<!-- bench:{name} end -->\n");
        let at = body
            .find(&end)
            .ok_or_else(|| format!("section {name} has no end marker"))?;
        let text = &body[..at];
        rest = &body[at + end.len()..];
        let after_title = text
            .strip_prefix("## ")
            .and_then(|t| t.split_once("\n\n"))
            .ok_or_else(|| format!("section {name} does not open with its title"))?
            .1;
        let measured = after_title
            .split_once("\n\n")
            .map_or(after_title, |(m, _)| m);
        out.push(Section { name, measured });
    }
    Ok(out)
}

/// The command of a section's "Measured … with\n`command`." lines.
fn command_of<'a>(s: &Section<'a>) -> Result<&'a str, String> {
    let m = s.measured;
    let rest = m
        .strip_prefix("Measured ")
        .ok_or_else(|| format!("section {}: not measured by a bench: {m:.80?}", s.name))?;
    let date_ok = rest.len() > 10
        && rest.as_bytes()[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !date_ok || !rest[10..].starts_with(" at ") {
        return Err(format!(
            "section {}: no date and revision: {m:.80?}",
            s.name
        ));
    }
    let cmd = m
        .split_once(", with\n`")
        .and_then(|(_, c)| c.strip_suffix("`."))
        .ok_or_else(|| format!("section {}: no command: {m:.120?}", s.name))?;
    Ok(cmd)
}

/// The problems with a page's text: empty when it is what record.py writes.
fn problems(page: &str, header: &str, benches: &[String], root: &Path) -> Vec<String> {
    let Some(rest) = page.strip_prefix(header) else {
        return vec!["the page does not open with bench/record.py's HEADER".into()];
    };
    let sections = match sections(rest) {
        Ok(s) => s,
        Err(e) => return vec![e],
    };
    let mut bad = Vec::new();
    let names: Vec<&str> = sections.iter().map(|s| s.name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if names != sorted {
        bad.push(format!(
            "sections not sorted by name, or repeated: {names:?}"
        ));
    }
    for s in &sections {
        let cmd = match command_of(s) {
            Ok(c) => c,
            Err(e) => {
                bad.push(e);
                continue;
            }
        };
        for path in bench_paths(cmd) {
            if !root.join(path).exists() {
                bad.push(format!("section {}: {path} does not exist", s.name));
            }
        }
        for (i, _) in cmd.match_indices("--bench ") {
            let name: String = cmd[i + 8..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if !benches.contains(&name) {
                bad.push(format!(
                    "section {}: Cargo.toml has no bench {name:?}",
                    s.name
                ));
            }
        }
    }
    bad
}

#[test]
fn the_benchmarks_page_holds_only_what_a_bench_regenerates() {
    let header = recorder_header();
    let benches = cargo_benches();
    assert!(benches.len() >= 2, "{benches:?}");
    let bad = problems(
        &read("docs/benchmarks.md"),
        &header,
        &benches,
        &source_root(),
    );
    assert!(bad.is_empty(), "docs/benchmarks.md:\n{}", bad.join("\n"));
}

#[test]
fn the_page_check_refuses_what_no_bench_regenerates() {
    let root = source_root();
    let header = "# B\n\nGenerated.\n";
    let benches = vec!["check".to_string()];
    let section = |name: &str, measured: &str| {
        format!(
            "\n<!-- bench:{name} begin -->\n## T\n\n{measured}\n\n| a |\n<!-- bench:{name} end -->\n"
        )
    };
    let good = |name: &str, cmd: &str| {
        section(
            name,
            &format!("Measured 2026-12-07 at abc1234 on 2 cores, with\n`{cmd}`."),
        )
    };
    let ok = format!(
        "{header}{}{}",
        good("a", "cargo bench --bench check; python3 bench/record.py a"),
        good(
            "b",
            "PATH=~/.cache/jitcommit-bench/bin:$PATH sh bench/check.sh"
        ),
    );
    assert_eq!(problems(&ok, header, &benches, &root), Vec::<String>::new());

    let hand = format!(
        "{header}{}",
        section(
            "h",
            "Recorded by hand (2026-12-01), before this page was generated. Command:\n`x`."
        )
    );
    let cases = [
        (format!("# Other\n{ok}"), "HEADER"),
        (
            format!("{ok}\nA note by hand.\n"),
            "outside a recorded section",
        ),
        (hand, "not measured by a bench"),
        (
            format!(
                "{header}{}",
                section("a", "Measured 2026-12-07 at abc1234 on 2 cores.")
            ),
            "no command",
        ),
        (
            format!("{header}{}", section("a", "Measured lately, with\n`true`.")),
            "no date and revision",
        ),
        (
            format!("{header}{}", good("a", "sh benches/check.rs")),
            "benches/check.rs does not exist",
        ),
        (
            format!("{header}{}", good("a", "sh bench/gone.sh")),
            "bench/gone.sh does not exist",
        ),
        (
            format!("{header}{}", good("a", "cargo bench --bench gone")),
            "no bench \"gone\"",
        ),
        (
            format!("{header}{}{}", good("b", "true"), good("a", "true")),
            "not sorted",
        ),
    ];
    for (page, want) in cases {
        let bad = problems(&page, header, &benches, &root);
        assert!(bad.iter().any(|b| b.contains(want)), "{want}: {bad:?}");
    }
}
