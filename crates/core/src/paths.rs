//! What a path's name says about its file: lock file, vendored, generated, CI, test,
//! docs, build or config. Each fact is decided here once, for the two readers that
//! weigh them differently: the prompt ranks a file's diff by what it tells per token
//! (`jitcommit_drafter::fragments::classify_path`: lock, vendored and generated files first,
//! as stat lines only), and the offline draft infers the commit's type from what the
//! change touches (CI, tests, docs, build files first).

/// The facts of one path, from its name alone (lower-cased; `/`-separated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathFacts {
    /// A dependency lock file (`Cargo.lock`, `package-lock.json`, any `*.lock`).
    pub lock: bool,
    /// Under a directory of third-party code (`vendor/`, `node_modules/`, …).
    pub vendored: bool,
    /// Build output or generated code (`dist/`, `*.min.js`, `*.pb.go`, …).
    pub generated: bool,
    /// A CI pipeline's definition or script (`.github/workflows/`, `.ci/`, `Jenkinsfile`, …).
    pub ci: bool,
    /// A test, its fixtures or its snapshots.
    pub test: bool,
    /// Documentation: under `docs/`, a prose extension, or a README, LICENSE, CHANGELOG….
    pub docs: bool,
    /// A build manifest or script (`Cargo.toml`, `build.rs`, `Makefile`, `go.mod`, …).
    pub build: bool,
    /// A configuration format (`*.toml`, `*.yaml`, `*.json`, …) or a git or GitHub file.
    pub config: bool,
}

/// What a directory name says: (test, docs, vendored, generated). Tests' inputs
/// (`fixtures`) and expected outputs (`snapshots`) are tests.
fn dir_facts(d: &str) -> (bool, bool, bool, bool) {
    (
        matches!(
            d,
            "tests" | "test" | "__tests__" | "spec" | "testdata" | "fixtures" | "snapshots"
        ),
        matches!(d, "docs" | "doc"),
        matches!(d, "vendor" | "third_party" | "third-party" | "node_modules"),
        matches!(d, "dist" | "generated" | "__generated__"),
    )
}

/// Lock files by name (any `*.lock` is one too).
fn is_lock_name(name: &str) -> bool {
    matches!(
        name,
        "cargo.lock"
            | "package-lock.json"
            | "npm-shrinkwrap.json"
            | "yarn.lock"
            | "pnpm-lock.yaml"
            | "poetry.lock"
            | "uv.lock"
            | "pipfile.lock"
            | "gemfile.lock"
            | "composer.lock"
            | "flake.lock"
            | "go.sum"
    )
}

/// Build manifests and scripts by name.
fn is_build_name(name: &str) -> bool {
    matches!(
        name,
        "cargo.toml"
            | "build.rs"
            | "makefile"
            | "cmakelists.txt"
            | "package.json"
            | "pyproject.toml"
            | "setup.py"
            | "setup.cfg"
            | "requirements.txt"
            | "go.mod"
            | "dockerfile"
            | "pom.xml"
            | "build.gradle"
            | "build.gradle.kts"
            | "meson.build"
            | "rust-toolchain.toml"
            | "justfile"
    )
}

/// CI definitions: their directories from the repository root, their file names.
fn is_ci(lower: &str, name: &str) -> bool {
    [".github/workflows/", ".circleci/", ".buildkite/", ".ci/"]
        .iter()
        .any(|p| lower.starts_with(p))
        || matches!(
            name,
            ".gitlab-ci.yml"
                | ".travis.yml"
                | "azure-pipelines.yml"
                | "jenkinsfile"
                | "appveyor.yml"
                | "bitbucket-pipelines.yml"
        )
}

/// Prose by extension, or by a project file's stem in any extension but a source
/// language's (`LICENSE-MIT` and `COPYING.LESSER` are prose; commitizen's
/// `commands/changelog.py` is code).
fn is_prose(ext: &str, stem: &str) -> bool {
    matches!(ext, "md" | "rst" | "adoc" | "txt" | "org")
        || (!is_code_ext(ext)
            && (matches!(
                stem,
                "readme"
                    | "license"
                    | "licence"
                    | "copying"
                    | "changelog"
                    | "contributing"
                    | "authors"
                    | "notice"
            ) || stem.starts_with("license-")
                || stem.starts_with("licence-")))
}

/// A source language's file extension.
fn is_code_ext(ext: &str) -> bool {
    matches!(
        ext,
        "py" | "pyi"
            | "rs"
            | "go"
            | "js"
            | "mjs"
            | "cjs"
            | "jsx"
            | "ts"
            | "tsx"
            | "java"
            | "kt"
            | "scala"
            | "c"
            | "h"
            | "cc"
            | "cpp"
            | "hpp"
            | "cs"
            | "rb"
            | "php"
            | "swift"
            | "lua"
            | "pl"
            | "sh"
    )
}

/// The facts of a repository-relative path.
pub fn path_facts(path: &str) -> PathFacts {
    let lower = path.to_ascii_lowercase();
    let (dirs, name) = lower.rsplit_once('/').unwrap_or(("", &lower));
    let (mut test, mut docs, mut vendored, mut generated) = (false, false, false, false);
    for d in dirs.split('/') {
        let (t, o, v, g) = dir_facts(d);
        (test, docs, vendored, generated) = (test | t, docs | o, vendored | v, generated | g);
    }
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    let stem = name.split('.').next().unwrap_or(name);
    let build = is_build_name(name) || lower.starts_with(".cargo/") || ext == "cmake";
    PathFacts {
        lock: is_lock_name(name) || ext == "lock",
        vendored,
        generated: generated
            || name.contains(".min.")
            || name.contains(".generated.")
            || name.ends_with(".pb.go")
            || name.ends_with("_pb2.py")
            || ext == "map",
        ci: is_ci(&lower, name),
        test: test
            || stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_spec")
            || name.contains("_test.")
            || name.contains("_spec.")
            || name.contains(".test.")
            || name.contains(".spec."),
        // `requirements.txt` and `CMakeLists.txt` are build files, not prose.
        docs: docs || (!build && is_prose(ext, stem)),
        build,
        config: matches!(
            ext,
            "toml" | "yaml" | "yml" | "json" | "ini" | "cfg" | "conf" | "xml"
        ) || name.starts_with(".git")
            || lower.starts_with(".github/"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paths on which the prompt's classifier and the offline draft's once
    /// disagreed, with the facts both now read.
    #[test]
    fn facts_of_the_paths_the_two_classifiers_disagreed_on() {
        let f = path_facts;
        // `fixtures/` was a test directory to the offline draft only, `snapshots/`
        // to the prompt only: both are tests' inputs and outputs.
        assert!(f("fixtures/case.json").test);
        assert!(f("crates/x/tests/fixtures/in.txt").test);
        assert!(f("src/snapshots/a.snap").test);
        // Every lock file, not only the ones the offline draft listed.
        for p in [
            "Gemfile.lock",
            "composer.lock",
            "flake.lock",
            "x/deps.lock",
            "go.sum",
        ] {
            assert!(f(p).lock, "{p}");
        }
        // Build files written in a prose extension are build files.
        for p in ["requirements.txt", "CMakeLists.txt"] {
            assert!(f(p).build && !f(p).docs, "{p}");
        }
        assert!(f("docs/Makefile").docs && f("docs/Makefile").build);
        // Prose the prompt did not know.
        for p in [
            "CONTRIBUTING.md",
            "AUTHORS",
            "NOTICE",
            "LICENSE-MIT",
            "notes.org",
        ] {
            assert!(f(p).docs, "{p}");
        }
        assert!(!f("src/notice_board.py").docs);
        // A source file named like a project file is code (commitizen's d86ec4c).
        for p in [
            "commitizen/commands/changelog.py",
            "src/license.rs",
            "lib/authors.js",
        ] {
            assert!(!f(p).docs, "{p}");
        }
        assert!(f("COPYING.LESSER").docs && f("CHANGELOG").docs);
        // CI the prompt did not know.
        assert!(f(".ci/run").ci && f("Jenkinsfile").ci);
        // Test names, by stem or by infix.
        for p in [
            "foo_test",
            "x.foo_test.rs",
            "test_a.py",
            "a.spec.ts",
            "b_spec.rb",
        ] {
            assert!(f(p).test, "{p}");
        }
        assert!(!f("src/latest.rs").test && !f("src/contest_x.rs").test);
        assert_eq!(f("src/main.rs"), PathFacts::default());
    }
}
