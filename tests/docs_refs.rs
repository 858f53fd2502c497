//! The repository stands alone: its code and docs cite only files it has. A reference
//! to a file or a section that does not exist (a design section number, a doc page that
//! moved, a bench script or target that moved, a path outside the repository) fails
//! here, naming the file and line.
//! CHANGELOG.md is left out: it is generated from the history, and old subjects may
//! name what was true then.

use std::path::Path;

use crate::install_support::source_root;

/// Every tracked text file that may cite another, with its lines.
fn tracked_texts() -> Vec<(String, String)> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(source_root())
        .output()
        .expect("git ls-files runs");
    assert!(out.status.success(), "git ls-files failed");
    let cited_from = ["rs", "md", "sh", "py", "toml", "yml", "yaml"];
    out.stdout
        .split(|b| *b == 0)
        .filter_map(|p| std::str::from_utf8(p).ok())
        .filter(|p| !p.is_empty() && *p != "CHANGELOG.md" && !p.contains("/snapshots/"))
        .filter(|p| {
            Path::new(p)
                .extension()
                .is_some_and(|e| cited_from.iter().any(|c| e == *c))
                || p.starts_with(".ci/")
        })
        .filter_map(|p| {
            let text = std::fs::read_to_string(source_root().join(p)).ok()?;
            Some((p.to_string(), text))
        })
        .collect()
}

/// The `## N.` section numbers of docs/design.md.
fn design_sections() -> Vec<u32> {
    let text = std::fs::read_to_string(source_root().join("docs/design.md"))
        .expect("docs/design.md is readable");
    text.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|l| l.split('.').next()?.parse().ok())
        .collect()
}

/// The part of a line that is prose, where a cited path is a reference and not data:
/// a comment in code, any line of a Markdown page. (Comments in tests name their
/// fixtures' paths, so the caller leaves tests out.)
fn prose<'a>(file: &str, line: &'a str) -> &'a str {
    let comment = match Path::new(file).extension().and_then(|e| e.to_str()) {
        Some("md") => return line,
        Some("rs") => "//",
        _ => "#",
    };
    line.find(comment).map_or("", |i| &line[i..])
}

/// A Markdown line without its code spans, which quote text (a draft the bench
/// recorded, a command) rather than cite it.
fn outside_code_spans(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// `docs/<name>.md` (with subfolders) wherever it stands in a line.
fn doc_paths(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("docs/") {
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/_.-".contains(c)))
            .unwrap_or(tail.len());
        let cand = tail[..end].trim_end_matches('.');
        if cand.ends_with(".md") {
            found.push(cand);
        }
        rest = &tail[end.max(5)..];
    }
    found
}

/// The paths under `bench/` (or a `benches/` beside it) that a line names; not
/// `~/.cache/jitcommit-bench/bin` or `crates/draft/benches/…`, which only end like one.
pub(crate) fn bench_paths(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for prefix in ["bench/", "benches/"] {
        for (i, _) in line.match_indices(prefix) {
            let before = line[..i].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || "-_./~".contains(c)) {
                continue;
            }
            let tail = &line[i..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || "/_.-".contains(c)))
                .unwrap_or(tail.len());
            found.push(tail[..end].trim_end_matches('.'));
        }
    }
    found
}

/// Relative Markdown link targets `](target)` that name a file (no scheme, no anchor only).
fn relative_links(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(i, _)| {
            let tail = &line[i + 2..];
            let target = &tail[..tail.find(')')?];
            let file = target.split('#').next().unwrap_or("");
            let external = file.contains("://") || file.starts_with("mailto:");
            (!file.is_empty() && !external && !file.contains(' ')).then_some(file)
        })
        .collect()
}

/// Markdown link targets with an anchor, `](file.md#anchor)` or `](#anchor)`, as
/// (file, anchor); the file is empty for the page itself.
fn anchored_links(line: &str) -> Vec<(&str, &str)> {
    line.match_indices("](")
        .filter_map(|(i, _)| {
            let tail = &line[i + 2..];
            let target = &tail[..tail.find(')')?];
            let (file, anchor) = target.split_once('#')?;
            let page = file.is_empty() || file.ends_with(".md");
            (page && !anchor.is_empty() && !file.contains("://") && !file.contains(' '))
                .then_some((file, anchor))
        })
        .collect()
}

/// The anchors a Markdown page's headings get where it is read (GitHub, Gitea, GitLab):
/// lower case, punctuation dropped, spaces as dashes, a repeated one numbered (`-1`,
/// `-2`). A `#` line inside a code fence is no heading.
fn heading_anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.bytes().take_while(|b| *b == b'#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let slug: String = line[hashes..]
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || "-_ ".contains(*c))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.push(if *n == 0 { slug } else { format!("{slug}-{n}") });
        *n += 1;
    }
    out
}

/// A cited section of the design page (split so this file does not cite one itself).
const SECTION: &str = concat!("design.md ", "§");

#[test]
fn code_and_docs_cite_only_what_the_repository_has() {
    // Split so this file does not cite them itself.
    let foreign = [
        concat!("../", "shared"),
        concat!("DESIGN", " §"),
        concat!("DESIGN", ".md"),
        concat!("GIT-HOOKS", ".md"),
        concat!("STYLE", ".md"),
    ];
    let sections = design_sections();
    assert!(sections.len() >= 7, "docs/design.md has numbered sections");
    let mut bad = Vec::new();
    for (file, text) in tracked_texts() {
        for (n, line) in text.lines().enumerate() {
            let at = format!("{file}:{}", n + 1);
            let cited = outside_code_spans(line);
            for f in foreign {
                if cited.contains(f) {
                    bad.push(format!("{at}: cites {f:?}, which is not in the repository"));
                }
            }
            let dir = Path::new(&file).parent().unwrap_or(Path::new(""));
            let in_tests = file.starts_with("tests/") || file.contains("/tests/");
            let prose = if in_tests { "" } else { prose(&file, line) };
            for doc in doc_paths(prose) {
                let exists = [source_root().join(doc), source_root().join(dir).join(doc)];
                if !exists.iter().any(|p| p.is_file()) {
                    bad.push(format!("{at}: {doc} does not exist"));
                }
            }
            for bench in bench_paths(prose) {
                if !source_root().join(bench).exists() {
                    bad.push(format!("{at}: {bench} does not exist"));
                }
            }
            if file.ends_with(".md") {
                for link in relative_links(&cited) {
                    if !source_root().join(dir).join(link).exists() {
                        bad.push(format!("{at}: the link {link} leads nowhere"));
                    }
                }
                for (page, anchor) in anchored_links(&cited) {
                    let target = if page.is_empty() {
                        Some(text.clone())
                    } else {
                        std::fs::read_to_string(source_root().join(dir).join(page)).ok()
                    };
                    if target.is_some_and(|t| !heading_anchors(&t).iter().any(|a| a == anchor)) {
                        bad.push(format!("{at}: {page}#{anchor} names no heading"));
                    }
                }
            }
            let mut rest = line;
            while let Some(i) = rest.find(SECTION) {
                let tail = &rest[i + SECTION.len()..];
                let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
                match digits.parse::<u32>() {
                    Ok(s) if sections.contains(&s) => {}
                    _ => bad.push(format!("{at}: docs/design.md has no section §{digits}")),
                }
                rest = tail;
            }
        }
    }
    assert!(bad.is_empty(), "references to nothing:\n{}", bad.join("\n"));
}

#[test]
fn the_reference_scanner_finds_what_it_looks_for() {
    assert_eq!(
        doc_paths("see docs/check.md and (docs/forges/gitlab.md)."),
        ["docs/check.md", "docs/forges/gitlab.md"]
    );
    assert_eq!(
        relative_links("[a](check.md#ci) [b](https://x.invalid/y.md) [c](#top)"),
        ["check.md"]
    );
    assert_eq!(
        prose("a.rs", "let p = \"docs/a.md\"; // see docs/b.md"),
        "// see docs/b.md"
    );
    assert_eq!(outside_code_spans("see `X.md` and Y.md"), "see   and Y.md");
    assert_eq!(
        anchored_links("[a](check.md#ci-formats) [b](#top) [c](x.md) [d](https://h/y.md#z)"),
        [("check.md", "ci-formats"), ("", "top")]
    );
    assert_eq!(
        heading_anchors(
            "# A guide\n## Setting up: init and doctor\n```sh\n# not one\n```\n## FAQ\n## FAQ\n### install.sh refuses\n"
        ),
        [
            "a-guide",
            "setting-up-init-and-doctor",
            "faq",
            "faq-1",
            "installsh-refuses"
        ]
    );
    assert_eq!(
        bench_paths(
            "`cargo bench` (benches/check.rs, bench/record.py.) ~/.cache/jitcommit-bench/bin crates/draft/benches/context.rs"
        ),
        ["bench/record.py", "benches/check.rs"]
    );
}
