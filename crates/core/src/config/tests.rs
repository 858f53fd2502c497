//! Table-driven unit tests of discovery, strict parsing and `to_toml`.
#![allow(clippy::unwrap_used)]

use super::TypeCase;
use super::*;
use crate::convention::discover;

/// An in-memory tree: (repo-relative name, text).
type Files<'a> = &'a [(&'a str, &'a str)];

/// Runs `discover` over an in-memory tree of (name, text) files.
fn discover_files(files: &[(&str, &str)]) -> Result<Loaded, ConfigError> {
    let mut read = |name: &str| {
        Ok(files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_bytes().to_vec()))
    };
    discover(&mut read)
}

fn origin(path: &str, table: Option<&str>) -> Origin {
    Origin::File {
        path: PathBuf::from(path),
        table: table.map(str::to_owned),
    }
}

#[test]
fn no_file_gives_the_builtin_defaults() {
    let loaded = discover_files(&[]).unwrap();
    assert_eq!(loaded.origin, Origin::Builtin);
    assert_eq!(loaded.origin.to_string(), "built-in defaults");
    assert_eq!(loaded.convention, Convention::default());
}

#[test]
fn defaults_are_the_documented_ones() {
    let c = Convention::default();
    assert_eq!(
        c.types,
        [
            "feat", "fix", "perf", "refactor", "docs", "test", "build", "ci", "chore", "revert",
            "style"
        ]
    );
    assert!(c.scopes.is_empty());
    assert_eq!(
        c.verbs,
        [
            "Add", "Update", "Fix", "Remove", "Rename", "Move", "Refactor", "Document", "Test"
        ]
    );
    assert_eq!(
        (c.subject_max, c.body, c.body_wrap),
        (72, BodyPolicy::Required, 0)
    );
    assert!(c.trace_paths && !c.strict_separator);
    assert_eq!(c.exempt.len(), 5);
    assert_eq!(c.sections.get("feat").map(String::as_str), Some("Added"));
    assert_eq!(c.sections.get("fix").map(String::as_str), Some("Fixed"));
    assert_eq!(
        c.sections.get("refactor").map(String::as_str),
        Some("Changed")
    );
    assert_eq!(
        c.sections.get("revert").map(String::as_str),
        Some("Removed")
    );
    let ctx = &c.context;
    assert_eq!((ctx.budget_tokens, ctx.reserve_output_tokens), (4096, 512));
    assert_eq!(
        (ctx.encoding, ctx.safety_margin_percent),
        (Encoding::Cl100k, 10)
    );
    assert!(ctx.exclude.is_empty());
}

#[test]
fn each_source_kind_is_read_at_its_table() {
    let cases: &[(Files<'_>, Origin, &str)] = &[
        (
            &[(".commit-convention.toml", "subject-max = 50\n")],
            origin(".commit-convention.toml", None),
            ".commit-convention.toml",
        ),
        (
            &[(
                "pyproject.toml",
                "[project]\nname = \"x\"\n\n[tool.commit-convention]\nsubject-max = 50\n",
            )],
            origin("pyproject.toml", Some("tool.commit-convention")),
            "pyproject.toml [tool.commit-convention]",
        ),
        (
            &[(
                "Cargo.toml",
                "[workspace.metadata.commit-convention]\nsubject-max = 50\n",
            )],
            origin("Cargo.toml", Some("workspace.metadata.commit-convention")),
            "Cargo.toml [workspace.metadata.commit-convention]",
        ),
        (
            &[(
                "Cargo.toml",
                "[package]\nname = \"x\"\n[package.metadata.commit-convention]\nsubject-max = 50\n",
            )],
            origin("Cargo.toml", Some("package.metadata.commit-convention")),
            "Cargo.toml [package.metadata.commit-convention]",
        ),
        (
            // Workspace metadata wins over package metadata in the same file.
            &[(
                "Cargo.toml",
                "[package.metadata.commit-convention]\nsubject-max = 60\n\
                 [workspace.metadata.commit-convention]\nsubject-max = 50\n",
            )],
            origin("Cargo.toml", Some("workspace.metadata.commit-convention")),
            "Cargo.toml [workspace.metadata.commit-convention]",
        ),
    ];
    for (files, want, shown) in cases {
        let loaded = discover_files(files).unwrap();
        assert_eq!(&loaded.origin, want, "{files:?}");
        assert_eq!(loaded.origin.to_string(), *shown);
        assert_eq!(loaded.convention.subject_max, 50, "{files:?}");
        // Every other field keeps its default.
        assert_eq!(
            Convention {
                subject_max: 72,
                ..loaded.convention
            },
            Convention::default()
        );
    }
}

#[test]
fn first_found_wins_and_files_without_the_table_are_skipped() {
    let whole = (".commit-convention.toml", "subject-max = 41\n");
    let py = (
        "pyproject.toml",
        "[tool.commit-convention]\nsubject-max = 42\n",
    );
    let py_without = ("pyproject.toml", "[tool.black]\nline-length = 88\n");
    let cargo = (
        "Cargo.toml",
        "[workspace.metadata.commit-convention]\nsubject-max = 43\n",
    );
    let cargo_without = ("Cargo.toml", "[package]\nname = \"x\"\n");
    let cases: &[(Files<'_>, Option<usize>)] = &[
        (&[whole, py, cargo], Some(41)),
        (&[py, cargo], Some(42)),
        (&[py_without, cargo], Some(43)),
        (&[cargo], Some(43)),
        (&[py_without, cargo_without], None),
        (&[cargo_without], None),
    ];
    for (files, want) in cases {
        let loaded = discover_files(files).unwrap();
        match want {
            Some(n) => assert_eq!(loaded.convention.subject_max, *n, "{files:?}"),
            None => assert_eq!(loaded.origin, Origin::Builtin, "{files:?}"),
        }
    }
}

#[test]
fn every_key_is_read() {
    let text = r#"
types = ["feat", "fix", "wip"]
scopes = ["core", "cli"]
verbs = ["Add", "Fix"]
subject-max = 60
body = "optional"
body-wrap = 72
trace-paths = false
strict-separator = true
exempt = ["merge", "fixup"]

[sections]
feat = "Added"
wip = "Work in progress"

[context]
budget-tokens = 8192
reserve-output-tokens = 1024
exclude = ["*.lock", "dist/**"]
encoding = "o200k"
safety-margin-percent = 25
"#;
    let c = discover_files(&[(".commit-convention.toml", text)])
        .unwrap()
        .convention;
    assert_eq!(c.types, ["feat", "fix", "wip"]);
    assert_eq!(c.scopes, ["core", "cli"]);
    assert_eq!(c.verbs, ["Add", "Fix"]);
    assert_eq!(
        (c.subject_max, c.body, c.body_wrap),
        (60, BodyPolicy::Optional, 72)
    );
    assert!(!c.trace_paths && c.strict_separator);
    assert_eq!(c.exempt, [Exemption::Merge, Exemption::Fixup]);
    assert_eq!(c.sections.len(), 2);
    assert_eq!(c.sections["wip"], "Work in progress");
    assert_eq!(c.context.budget_tokens, 8192);
    assert_eq!(c.context.reserve_output_tokens, 1024);
    assert_eq!(c.context.exclude, ["*.lock", "dist/**"]);
    assert_eq!(c.context.encoding, Encoding::O200k);
    assert_eq!(c.context.safety_margin_percent, 25);
    // And it survives a round trip through to_toml.
    let again = discover_files(&[(".commit-convention.toml", &c.to_toml())])
        .unwrap()
        .convention;
    assert_eq!(again, c);
}

/// The settings a project adopting jitcommit on an existing history needs (issue 13):
/// each is read, and each survives `to_toml`.
#[test]
fn policy_settings_for_existing_histories_are_read() {
    let text = r#"
types = []
type-case = "lower"
subject-max = 0
subject-period = false
subject-summary = false
body = "free"
placeholders = ["<type>", "<summary>"]

[sections]
anything = "Changed"
"#;
    let c = discover_files(&[(".commit-convention.toml", text)])
        .unwrap()
        .convention;
    assert!(c.types.is_empty());
    assert_eq!(c.type_case, TypeCase::Lower);
    assert_eq!((c.subject_max, c.subject_limit()), (0, None));
    assert!(!c.subject_period);
    assert!(!c.subject_summary);
    assert_eq!(c.body, BodyPolicy::Free);
    assert_eq!(c.placeholders, ["<type>", "<summary>"]);
    assert_eq!(c.allowed_type("Whatever"), Some("Whatever"));
    let again = discover_files(&[(".commit-convention.toml", &c.to_toml())])
        .unwrap()
        .convention;
    assert_eq!(again, c);
    let d = Convention::default();
    assert_eq!(d.allowed_type("FEAT"), Some("feat"));
    assert_eq!(d.allowed_type("feature"), None);
}

/// (file, text, expected Display, expected dotted key)
const ERRORS: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "pyproject.toml",
        "[project]\nname = \"x\"\n\n[tool.commit-convention]\ntypes = [\"feat\"]\ntype = [\"fix\"]\n",
        "pyproject.toml:6:1: tool.commit-convention.type: unknown field `type`, expected one of `types`, `type-case`, `scopes`, `verbs`, `subject-max`, \
         `subject-period`, `subject-summary`, `body`, `body-wrap`, `trace-paths`, `strict-separator`, `coverage`, \
         `exempt`, `placeholders`, `adopted`, `sections`, `facts`, `context`, `changelog`",
        Some("tool.commit-convention.type"),
    ),
    (
        ".commit-convention.toml",
        "\n\n  colour = true\n",
        ".commit-convention.toml:3:3: colour: unknown field `colour`, expected one of `types`, `type-case`, `scopes`, `verbs`, `subject-max`, \
         `subject-period`, `subject-summary`, `body`, `body-wrap`, `trace-paths`, `strict-separator`, `coverage`, \
         `exempt`, `placeholders`, `adopted`, `sections`, `facts`, `context`, `changelog`",
        Some("colour"),
    ),
    (
        "pyproject.toml",
        "[tool.commit-convention.context]\nbudget-tokens = 100\nbudget = 3\n",
        "pyproject.toml:3:1: tool.commit-convention.context.budget: unknown field `budget`, expected \
         one of `budget-tokens`, `reserve-output-tokens`, `exclude`, `encoding`, `safety-margin-percent`",
        Some("tool.commit-convention.context.budget"),
    ),
    (
        "pyproject.toml",
        "[tool.commit-convention]\nsubject-max = \"72\"\n",
        "pyproject.toml:2:15: tool.commit-convention.subject-max: invalid type: string \"72\", expected an integer",
        Some("tool.commit-convention.subject-max"),
    ),
    (
        "Cargo.toml",
        "[workspace.metadata.commit-convention.context]\nbudget-tokens = 1.5\n",
        "Cargo.toml:2:17: workspace.metadata.commit-convention.context.budget-tokens: invalid \
         type: floating point `1.5`, expected an integer",
        Some("workspace.metadata.commit-convention.context.budget-tokens"),
    ),
    // The package's table is read by the same walk as the workspace's and pyproject's.
    (
        "Cargo.toml",
        "[package]\nname = \"x\"\n\n[package.metadata.commit-convention]\nsubject-max = true\n",
        "Cargo.toml:5:15: package.metadata.commit-convention.subject-max: invalid type: \
         boolean `true`, expected an integer",
        Some("package.metadata.commit-convention.subject-max"),
    ),
    // A table on the way to the convention must be a table.
    (
        "pyproject.toml",
        "tool = \"commit-convention\"\n",
        "pyproject.toml:1:8: tool: invalid type: string \"commit-convention\", expected a table",
        Some("tool"),
    ),
    (
        ".commit-convention.toml",
        "types = \"feat\"\n",
        ".commit-convention.toml:1:9: types: invalid type: string \"feat\", expected a sequence",
        Some("types"),
    ),
    (
        ".commit-convention.toml",
        "verbs = [\"Add\", 3]\n",
        ".commit-convention.toml:1:17: verbs: invalid type: integer `3`, expected a string",
        Some("verbs"),
    ),
    (
        ".commit-convention.toml",
        "trace-paths = \"yes\"\n",
        ".commit-convention.toml:1:15: trace-paths: invalid type: string \"yes\", expected a boolean",
        Some("trace-paths"),
    ),
    (
        ".commit-convention.toml",
        "context = 3\n",
        ".commit-convention.toml:1:11: context: invalid type: integer `3`, expected a table",
        Some("context"),
    ),
    (
        "pyproject.toml",
        "[tool]\ncommit-convention = \"strict\"\n",
        "pyproject.toml:2:21: tool.commit-convention: invalid type: string \"strict\", expected a table",
        Some("tool.commit-convention"),
    ),
    (
        "pyproject.toml",
        "[tool.commit-convention]\nscopes = []\ntype-case = \"upper\"\n",
        "pyproject.toml:3:13: tool.commit-convention.type-case: unknown variant `upper`, expected `any` or `lower`",
        Some("tool.commit-convention.type-case"),
    ),
    (
        // A right-to-left override reaches the drafted subject as a space.
        ".commit-convention.toml",
        "scopes = [\"core\", \"a\u{202e}b\"]\n",
        ".commit-convention.toml:1:19: scopes: invalid value \"a\\u{202e}b\": a scope reads back from `type(scope): …` as itself: no invisible or bidi control characters",
        Some("scopes"),
    ),
    (
        ".commit-convention.toml",
        "verbs = []\n",
        ".commit-convention.toml:1:9: verbs: the list must not be empty",
        Some("verbs"),
    ),
    (
        ".commit-convention.toml",
        "types = [\n  \"feat\",\n  \"fix\",\n  \"feat\",\n]\n",
        ".commit-convention.toml:4:3: types: duplicate entry \"feat\"",
        Some("types"),
    ),
    (
        ".commit-convention.toml",
        "exempt = [\"merge\", \"merge\"]\n",
        ".commit-convention.toml:1:20: exempt: duplicate entry \"merge\"",
        Some("exempt"),
    ),
    (
        ".commit-convention.toml",
        "[context]\nexclude = [\"*.lock\", \"*.lock\"]\n",
        ".commit-convention.toml:2:22: context.exclude: duplicate entry \"*.lock\"",
        Some("context.exclude"),
    ),
    (
        "pyproject.toml",
        "[tool.commit-convention.context]\nbudget-tokens = 1000\nreserve-output-tokens = 1000\n",
        "pyproject.toml:3:25: tool.commit-convention.context.reserve-output-tokens: \
         reserve-output-tokens (1000) must be less than budget-tokens (1000)",
        Some("tool.commit-convention.context.reserve-output-tokens"),
    ),
    (
        // Only the budget is set, and it is below the default reserve: blame the budget.
        ".commit-convention.toml",
        "[context]\nbudget-tokens = 100\n",
        ".commit-convention.toml:2:17: context.budget-tokens: reserve-output-tokens (512) must be \
         less than budget-tokens (100)",
        Some("context.budget-tokens"),
    ),
    (
        ".commit-convention.toml",
        "[context]\nexclude = [\"ok/**\", \"src/{a,b\"]\n",
        ".commit-convention.toml:2:21: context.exclude: invalid glob \"src/{a,b\": unclosed \
         alternate group; missing '}' (maybe escape '{' with '[{]'?)",
        Some("context.exclude"),
    ),
    (
        ".commit-convention.toml",
        "body = \"mandatory\"\n",
        ".commit-convention.toml:1:8: body: unknown variant `mandatory`, expected one of `required`, `optional`, `free`",
        Some("body"),
    ),
    (
        ".commit-convention.toml",
        "exempt = [\"merge\", \"cherry-pick\"]\n",
        ".commit-convention.toml:1:20: exempt: unknown variant `cherry-pick`, expected one of \
         `merge`, `revert`, `fixup`, `squash`, `amend`, `release`",
        Some("exempt"),
    ),
    (
        ".commit-convention.toml",
        "types = [\"feat\", \"fix\"]\n[changelog.bump-types]\nfix = \"patch\"\nchore = \"patch\"\n",
        ".commit-convention.toml:4:1: changelog.bump-types: invalid value \"chore\": not one of the \
         types (feat, fix)",
        Some("changelog.bump-types"),
    ),
    (
        ".commit-convention.toml",
        "[changelog]\nbump-types = { chore = \"micro\" }\n",
        ".commit-convention.toml:2:24: changelog.bump-types.chore: unknown variant `micro`, expected \
         one of `none`, `patch`, `minor`, `major`",
        Some("changelog.bump-types.chore"),
    ),
    (
        ".commit-convention.toml",
        "[context]\nencoding = \"p50k\"\n",
        ".commit-convention.toml:2:12: context.encoding: unknown variant `p50k`, expected `cl100k` \
         or `o200k`",
        Some("context.encoding"),
    ),
    (
        ".commit-convention.toml",
        "subject-max = -5\n",
        ".commit-convention.toml:1:15: subject-max: invalid value \"-5\": expected an integer from 0 \
         to 1000",
        Some("subject-max"),
    ),
    (
        ".commit-convention.toml",
        "[context]\nsafety-margin-percent = 101\n",
        ".commit-convention.toml:2:25: context.safety-margin-percent: invalid value \"101\": expected \
         an integer from 0 to 100",
        Some("context.safety-margin-percent"),
    ),
    (
        ".commit-convention.toml",
        "types = [\"feat\", \"new feature\"]\n",
        ".commit-convention.toml:1:18: types: invalid value \"new feature\": a type is a non-empty word \
         without spaces, '(', ')', ':' or '!'",
        Some("types"),
    ),
    (
        ".commit-convention.toml",
        "types = [\"feat\", \"fix\"]\n[sections]\nfeat = \"Added\"\nperf = \"Changed\"\n",
        ".commit-convention.toml:4:1: sections.perf: invalid value \"perf\": not one of the types (feat, fix)",
        Some("sections.perf"),
    ),
];

#[test]
fn each_error_names_file_key_line_and_column() {
    for (file, text, want, key) in ERRORS {
        let err = discover_files(&[(file, text)]).unwrap_err();
        assert_eq!(err.to_string(), *want, "{text:?}");
        assert_eq!(err.key(), *key, "{text:?}");
        assert_eq!(err.path(), Path::new(file));
    }
}

#[test]
fn invalid_toml_is_an_error_with_its_line() {
    let cases: &[(&str, &str, usize)] = &[
        (
            ".commit-convention.toml",
            "types = [\"feat\"\nverbs = 3\n",
            2,
        ),
        (
            "pyproject.toml",
            "[project]\nname = \"x\"\nname = \"y\"\n[tool.commit-convention]\n",
            3,
        ),
        (
            "Cargo.toml",
            "[package]\nname = \n[package.metadata.commit-convention]\n",
            2,
        ),
        // Broken outside the convention, but naming it: parsed, and the error reported.
        (
            "pyproject.toml",
            "[tool.black]\nline-length = = 88\n[tool.commit-convention]\n",
            2,
        ),
    ];
    for (file, text, line) in cases {
        let err = discover_files(&[(file, text)]).unwrap_err();
        assert!(matches!(err, ConfigError::Syntax { .. }), "{err}");
        assert_eq!(err.location().map(|l| l.line), Some(*line), "{err}");
        assert!(
            err.to_string().starts_with(&format!("{file}:{line}:")),
            "{err}"
        );
    }
}

#[test]
fn non_utf8_is_an_error_naming_the_file_and_line() {
    let mut read = |name: &str| {
        Ok((name == "pyproject.toml")
            .then(|| b"[tool.commit-convention]\ntypes = [\"f\xe9at\"]\n".to_vec()))
    };
    let err = discover(&mut read).unwrap_err();
    assert!(matches!(err, ConfigError::NotUtf8 { .. }));
    assert_eq!(
        err.to_string(),
        "pyproject.toml:2:12: not UTF-8 text (a config file must be UTF-8)"
    );
}

#[test]
fn a_read_error_names_the_file() {
    let mut read = |name: &str| {
        if name == "pyproject.toml" {
            Err(io::Error::new(io::ErrorKind::PermissionDenied, "denied"))
        } else {
            Ok(None)
        }
    };
    let err = discover(&mut read).unwrap_err();
    assert_eq!(err.to_string(), "pyproject.toml: cannot read: denied");
}

/// Two stages report errors: serde's (unknown keys, wrong types, unknown choices) and
/// then the value checks. Within each stage the error nearest the top of the file is
/// the one reported, whatever order the keys are checked in.
#[test]
fn the_first_error_in_the_file_is_reported() {
    let cases = [
        // serde reads the keys in file order (toml's `preserve_order`).
        ("type-case = \"upper\"\nbody = \"x\"\n", 1),
        ("body = \"x\"\ntype-case = \"upper\"\n", 1),
        // The value checks run types before verbs; the earlier line still wins.
        ("verbs = []\ntypes = [\"new feature\"]\n", 1),
        ("[context]\nbudget-tokens = 0\n[sections]\nperf = \"\"\n", 2),
        // A wrong type is found before any value is checked.
        ("verbs = []\nbody = \"x\"\n", 2),
    ];
    for (text, line) in cases {
        let err = discover_files(&[(".commit-convention.toml", text)]).unwrap_err();
        assert_eq!(err.location().map(|l| l.line), Some(line), "{err}");
    }
}

#[test]
fn default_to_toml_parses_back_to_the_default() {
    let text = Convention::default().to_toml();
    let loaded = discover_files(&[(".commit-convention.toml", &text)]).unwrap();
    assert_eq!(loaded.convention, Convention::default());
    insta::assert_snapshot!(text);
}

#[test]
fn to_toml_quotes_what_needs_quoting() {
    let mut c = Convention::default();
    c.types.push("wip.x".to_owned());
    c.sections.insert(
        "wip.x".to_owned(),
        // (a tab or newline is refused: a section name is one plain line)
        "Odd \"quoted\" \\ section".to_owned(),
    );
    c.context.exclude = vec!["a b/**".to_owned(), "\u{e9}t\u{e9}/*".to_owned()];
    let again = discover_files(&[(".commit-convention.toml", &c.to_toml())])
        .unwrap()
        .convention;
    assert_eq!(again, c);
}

/// `coverage` (issue 15's rule branch) and `[facts]` (issue 17) are read by the same
/// serde schema: facts keep the file's order and each key's line, and both survive
/// `to_toml`.
#[test]
fn coverage_and_facts_are_read_in_file_order() {
    let text = "coverage = true\n\n[facts]\n\"SCOPE.crates/core/**\" = \"core\"\n\
                \"TERM.draft\" = \"the message jitcommit writes\"\n\"PATH.docs/**\" = \"the manual\"\n";
    let c = discover_files(&[(".commit-convention.toml", text)])
        .unwrap()
        .convention;
    assert!(c.coverage);
    assert!(!Convention::default().coverage);
    let facts: Vec<(&str, &str, usize)> = c
        .facts
        .iter()
        .map(|f| (f.id.as_str(), f.value.as_str(), f.line))
        .collect();
    assert_eq!(
        facts,
        [
            ("SCOPE.crates/core/**", "core", 4),
            ("TERM.draft", "the message jitcommit writes", 5),
            ("PATH.docs/**", "the manual", 6),
        ]
    );
    let again = discover_files(&[(".commit-convention.toml", &c.to_toml())])
        .unwrap()
        .convention;
    assert!(again.coverage);
    let ids = |c: &Convention| -> Vec<(String, String)> {
        c.facts
            .iter()
            .map(|f| (f.id.clone(), f.value.clone()))
            .collect()
    };
    assert_eq!(ids(&again), ids(&c));
}

#[test]
fn facts_and_coverage_errors_name_key_and_line() {
    let cases = [
        (
            "coverage = \"yes\"\n",
            ".commit-convention.toml:1:12: coverage: invalid type: string \"yes\", expected a boolean",
        ),
        (
            "[facts]\n\"TERM.a\" = \"one\"\n\"TERM.b\" = \"two\\nlines\"\n",
            ".commit-convention.toml:3:12: facts.TERM.b: invalid value \"two\\nlines\": a fact is \
             non-empty text on one line",
        ),
        (
            "[facts]\nTERM = 3\n",
            ".commit-convention.toml:2:8: facts.TERM: invalid type: integer `3`, expected a string",
        ),
    ];
    for (text, want) in cases {
        let err = discover_files(&[(".commit-convention.toml", text)]).unwrap_err();
        assert_eq!(err.to_string(), want);
    }
}

#[test]
fn changelog_settings_are_read_and_written_back() {
    let text = "[changelog]\ntag-pattern = '^v(?P<version>.+)$'\ncommit-url = 'https://x/c/{id}'\n\
                compare-url = 'https://x/{from}...{to}'\nothers = \"list\"\n";
    let c = discover_files(&[(".commit-convention.toml", text)])
        .unwrap()
        .convention;
    assert_eq!(c.changelog.others, Some(crate::changelog::Others::List));
    assert_eq!(c.changelog.commit_url.as_deref(), Some("https://x/c/{id}"));
    let again = discover_files(&[(".commit-convention.toml", &c.to_toml())])
        .unwrap()
        .convention;
    assert_eq!(again, c);
    assert!(!Convention::default().to_toml().contains("[changelog]"));
}

/// The values a feature keeps in the convention are checked by the feature's own
/// check (`crate::convention` hands them to the reader), placed and ordered as the
/// reader's own errors: the one nearest the top of the file is reported.
#[test]
fn features_check_their_values_where_the_reader_reads_them() {
    let err = |text: &str| {
        discover_files(&[(".commit-convention.toml", text)])
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err("[facts]\n\"scope.x\" = \"core\"\n"),
        ".commit-convention.toml:2:13: facts.scope.x: class \"scope\" must be upper case \
         letters, digits or _"
    );
    let tag = err("[changelog]\ntag-pattern = '('\n");
    assert!(
        tag.starts_with(
            ".commit-convention.toml:2:15: changelog.tag-pattern: invalid value \"(\": regex parse error"
        ),
        "{tag}"
    );
    // Two features' errors: the earlier in the file wins, whichever feature owns it.
    let fact_first = err("[facts]\n\"x\" = \"v\"\n[changelog]\ntag-pattern = '('\n");
    assert!(
        fact_first.starts_with(".commit-convention.toml:2:7: facts.x: "),
        "{fact_first}"
    );
    let tag_first = err("[changelog]\ntag-pattern = '('\n[facts]\n\"x\" = \"v\"\n");
    assert!(
        tag_first.starts_with(".commit-convention.toml:2:15: changelog.tag-pattern: "),
        "{tag_first}"
    );
    // And the reader's own error above a feature's wins over it.
    let own_first = err("types = ['a b']\n[facts]\n\"x\" = \"v\"\n");
    assert!(
        own_first.starts_with(".commit-convention.toml:1:10: types: "),
        "{own_first}"
    );
}
