//! Dependency bumps, read from the changed lines of the files that pin dependencies:
//! manifests (`pyproject.toml`, `requirements*.txt`, `Cargo.toml`, `package.json`,
//! `go.mod`), lock files (`Cargo.lock`, `uv.lock`, `poetry.lock`, `pdm.lock`,
//! `package-lock.json`, `yarn.lock`, `go.sum`), GitHub Actions `uses:` pins and
//! pre-commit `rev:`s. A change of such files only, whose manifests change no line but
//! dependency lines, is summarized by what it bumps, adds or removes (`bump rich from
//! 14.0 to 15.0`, `bump rich and httpx`): the manifests' entries first, a lock file's
//! packages when no manifest names one.

use std::sync::LazyLock;

use jitcommit_core::repo::Hunk;
use regex::Regex;

/// The kinds of file that pin dependencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `pyproject.toml`: PEP 508 strings in lists, Poetry's `name = "^1.2"` tables.
    Pyproject,
    /// `requirements*.txt`, `requirements/*.txt`, `constraints.txt`, `*.in`.
    Requirements,
    /// `Cargo.toml`: `name = "1.2"` and `name = { version = "1.2", … }`.
    Cargo,
    /// `package.json`: `"name": "^1.2.3"`.
    PackageJson,
    /// `go.mod`: `require module v1.2.3` and the lines of a `require (…)` block.
    GoMod,
    /// A GitHub Actions workflow or action: `uses: owner/repo@ref`.
    Workflow,
    /// `.pre-commit-config.yaml`: a `repo:` and its `rev:`.
    PreCommit,
    /// `Cargo.lock`, `uv.lock`, `poetry.lock`, `pdm.lock`: `name = "x"` then `version = "1"`.
    TomlLock,
    /// `package-lock.json`, `npm-shrinkwrap.json`: `"node_modules/x": {` then `"version"`.
    NpmLock,
    /// `yarn.lock`: `x@^1:` then `version "1.2"`.
    YarnLock,
    /// `go.sum`: `module v1.2.3 h1:…`.
    GoSum,
}

impl Kind {
    fn of(path: &str) -> Option<Kind> {
        let lower = path.to_ascii_lowercase();
        let name = lower.rsplit('/').next().unwrap_or(&lower);
        let dir = lower.strip_suffix(name).unwrap_or("");
        Some(match name {
            "pyproject.toml" => Kind::Pyproject,
            "cargo.toml" => Kind::Cargo,
            "package.json" => Kind::PackageJson,
            "go.mod" => Kind::GoMod,
            "go.sum" => Kind::GoSum,
            "cargo.lock" | "uv.lock" | "poetry.lock" | "pdm.lock" => Kind::TomlLock,
            "package-lock.json" | "npm-shrinkwrap.json" => Kind::NpmLock,
            "yarn.lock" => Kind::YarnLock,
            ".pre-commit-config.yaml" | ".pre-commit-config.yml" => Kind::PreCommit,
            "action.yml" | "action.yaml" => Kind::Workflow,
            _ if dir.ends_with(".github/workflows/")
                && (name.ends_with(".yml") || name.ends_with(".yaml")) =>
            {
                Kind::Workflow
            }
            _ if (name.starts_with("requirements") || name.starts_with("constraints"))
                && (name.ends_with(".txt") || name.ends_with(".in")) =>
            {
                Kind::Requirements
            }
            _ if dir.ends_with("requirements/") && name.ends_with(".txt") => Kind::Requirements,
            _ => return None,
        })
    }

    fn lock(self) -> bool {
        matches!(
            self,
            Kind::TomlLock | Kind::NpmLock | Kind::YarnLock | Kind::GoSum
        )
    }
}

/// What one changed line of a dependency file says.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// Dependencies it pins: name, version (`None`: unpinned).
    Deps(Vec<(String, Option<String>)>),
    /// The name the next version lines belong to (a lock's `name = "x"`, a `repo:`).
    Name(Option<String>),
    /// A version of the last named package (a lock's `version = "1"`, a `rev:`).
    Version(String),
    /// A line that is not about dependencies.
    Other,
    /// Blank, a comment, a bracket: says nothing either way.
    Nothing,
}

/// One file's dependency changes: (sign, name, version) in diff order, and how many of
/// its changed lines are about something else.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FileDeps {
    entries: Vec<(char, String, Option<String>)>,
    other: usize,
    lock: bool,
}

/// The dependency changes of the file at `path`, from its hunks; `None` for a file
/// that pins no dependencies.
pub fn read(path: &str, hunks: &[Hunk]) -> Option<FileDeps> {
    let kind = Kind::of(path)?;
    let mut out = FileDeps {
        lock: kind.lock(),
        ..FileDeps::default()
    };
    for h in hunks {
        // A lock's or pre-commit file's name line sets the package of the version lines
        // after it, on either side.
        let mut current: Option<String> = None;
        for (sign, text) in super::signed(h) {
            match line(kind, text) {
                Line::Name(n) => {
                    current = n;
                    if sign != ' ' && !out.lock && kind != Kind::PreCommit {
                        out.other += 1;
                    }
                }
                Line::Version(v) if sign != ' ' => {
                    if let Some(n) = &current {
                        out.entries.push((sign, n.clone(), Some(v)));
                    } else if !out.lock {
                        out.other += 1;
                    }
                }
                Line::Deps(deps) if sign != ' ' => {
                    for (n, v) in deps {
                        out.entries.push((sign, n, v));
                    }
                }
                Line::Other if sign != ' ' => out.other += 1,
                _ => {}
            }
        }
    }
    Some(out)
}

static PEP508: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:@\s*\S+|\(?\s*((?:===|==|~=|!=|<=|>=|<|>)\s*[^;)]*?)\)?)?\s*(?:;.*)?$",
    )
    .unwrap_or_else(|e| unreachable!("{e}"))
});
static TOML_KEY: LazyLock<Regex> = LazyLock::new(|| {
    // `=` and not `==`: `"mypy == 1.14.1",` is a list item, not a key.
    Regex::new(r#"^\s*"?([A-Za-z0-9_.@/-]+)"?\s*=((?:[^=].*?)?)\s*,?\s*$"#)
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"]*)"|'([^']*)'"#).unwrap_or_else(|e| unreachable!("{e}")));
static INLINE_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\bversion\s*=\s*"([^"]+)""#).unwrap_or_else(|e| unreachable!("{e}"))
});
static SPEC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\*|(?:[<>=!~^]{0,3}\s*v?\d[0-9A-Za-z.*+-]*)(?:\s*,?\s*[<>=!~^]{1,3}\s*v?\d[0-9A-Za-z.*+-]*)*|\d+\.x(?:\.x)?)$",
    )
    .unwrap_or_else(|e| unreachable!("{e}"))
});
static JSON_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*"([^"]+)"\s*:\s*"([^"]*)"\s*,?\s*$"#).unwrap_or_else(|e| unreachable!("{e}"))
});
static JSON_OPEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*"([^"]*)"\s*:\s*\{\s*$"#).unwrap_or_else(|e| unreachable!("{e}"))
});
static GO_REQUIRE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:require\s+)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}/\S+)\s+(v\d\S*)(?:\s*//.*)?$")
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static GO_SUM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S+)\s+(v[^\s/]+)(?:/go\.mod)?\s+h1:").unwrap_or_else(|e| unreachable!("{e}"))
});
static USES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r##"^\s*(?:-\s*)?uses:\s*['"]?([^@\s'"]+)@([^\s'"#]+)['"]?\s*(?:#\s*(.*))?$"##)
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static LOCAL_USES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*(?:-\s*)?uses:\s*['"]?(?:\./|docker://)"#)
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static VERSION_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bv?\d+(?:\.\d+)*(?:[-+.][0-9A-Za-z.]+)?\b")
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static REPO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*(?:-\s*)?repo:\s*['"]?([^'"\s#]+)"#).unwrap_or_else(|e| unreachable!("{e}"))
});
static REV: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*rev:\s*['"]?([^'"\s#]+)['"]?\s*(?:#\s*(.*))?$"#)
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static YARN_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^"?(@?[^@\s"]+)@[^:]*:\s*$"#).unwrap_or_else(|e| unreachable!("{e}"))
});
static YARN_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s+version:?\s+"?([^"\s]+)"?\s*$"#).unwrap_or_else(|e| unreachable!("{e}"))
});

/// A quiet line: blank, a comment, or brackets only.
fn nothing(t: &str) -> bool {
    let t = t.trim();
    t.is_empty()
        || t.starts_with('#')
        || t.starts_with("//")
        || t.chars().all(|c| "[]{}(),".contains(c))
}

/// A key whose value is the project's own version or toolchain, not a dependency.
fn own_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.contains("version")
        || k.contains("python")
        || matches!(
            k.as_str(),
            "edition" | "node" | "npm" | "yarn" | "pnpm" | "name" | "license" | "go" | "toolchain"
        )
}

/// A PEP 508 requirement with a version specifier (`rich ~= 14.0; python_version …`),
/// or without one where `bare` (a requirements file holds nothing else).
fn pep508(s: &str, bare: bool) -> Option<(String, Option<String>)> {
    let c = PEP508.captures(s)?;
    let spec = c.get(2).map(|m| m.as_str().trim().to_owned());
    if spec.is_none() && !bare && !s.contains('@') {
        return None;
    }
    Some((c[1].to_owned(), spec))
}

fn line(kind: Kind, text: &str) -> Line {
    if nothing(text) && kind != Kind::YarnLock {
        return Line::Nothing;
    }
    match kind {
        Kind::Pyproject | Kind::Cargo => toml_line(kind, text),
        Kind::Requirements => {
            let t = text.split(" #").next().unwrap_or(text).trim();
            let t = t.trim_end_matches('\\').trim();
            if t.starts_with("--hash") {
                Line::Nothing
            } else if t.starts_with('-') {
                Line::Other
            } else {
                pep508(t, true).map_or(Line::Other, |d| Line::Deps(vec![d]))
            }
        }
        Kind::PackageJson => match JSON_PAIR.captures(text) {
            Some(c) if !own_key(&c[1]) && SPEC.is_match(c[2].trim()) => {
                Line::Deps(vec![(c[1].to_owned(), Some(c[2].trim().to_owned()))])
            }
            _ if JSON_OPEN.is_match(text) => Line::Nothing,
            _ => Line::Other,
        },
        Kind::GoMod => {
            let t = text.trim();
            if let Some(c) = GO_REQUIRE.captures(t) {
                Line::Deps(vec![(c[1].to_owned(), Some(c[2].to_owned()))])
            } else if let Some(v) = t.strip_prefix("go ") {
                Line::Deps(vec![("go".to_owned(), Some(v.trim().to_owned()))])
            } else if t == "require (" || t == ")" {
                Line::Nothing
            } else {
                Line::Other
            }
        }
        Kind::GoSum => GO_SUM.captures(text).map_or(Line::Other, |c| {
            Line::Deps(vec![(c[1].to_owned(), Some(c[2].to_owned()))])
        }),
        // A local action or a container is no pinned dependency.
        Kind::Workflow if LOCAL_USES.is_match(text) => Line::Nothing,
        Kind::Workflow => match USES.captures(text) {
            Some(c) if !c[1].starts_with("./") && !c[1].starts_with("docker:") => {
                let reference = c[2].to_owned();
                // A commit pin names its version in the comment beside it.
                let pinned =
                    reference.len() >= 40 && reference.chars().all(|c| c.is_ascii_hexdigit());
                let version = match c.get(3) {
                    Some(comment) if pinned => VERSION_WORD
                        .find(comment.as_str())
                        .map_or(reference, |m| m.as_str().to_owned()),
                    _ => reference,
                };
                Line::Deps(vec![(c[1].to_owned(), Some(version))])
            }
            _ => Line::Other,
        },
        Kind::PreCommit => {
            if let Some(c) = REPO.captures(text) {
                // The repository's last segment, never its URL.
                let url = c[1].trim_end_matches('/');
                let name = url.rsplit('/').next().unwrap_or(url);
                Line::Name(Some(name.trim_end_matches(".git").to_owned()))
            } else if let Some(c) = REV.captures(text) {
                let reference = c[1].to_owned();
                let pinned =
                    reference.len() >= 40 && reference.chars().all(|c| c.is_ascii_hexdigit());
                let version = match c.get(2) {
                    Some(comment) if pinned => VERSION_WORD
                        .find(comment.as_str())
                        .map_or(reference, |m| m.as_str().to_owned()),
                    _ => reference,
                };
                Line::Version(version)
            } else {
                Line::Other
            }
        }
        Kind::TomlLock => match TOML_KEY.captures(text) {
            Some(c) if &c[1] == "name" => Line::Name(unquote(&c[2])),
            Some(c) if &c[1] == "version" => unquote(&c[2]).map_or(Line::Other, Line::Version),
            _ => Line::Other,
        },
        Kind::NpmLock => {
            if let Some(c) = JSON_OPEN.captures(text) {
                let key = c[1].rsplit("node_modules/").next().unwrap_or("");
                let structural = matches!(
                    key,
                    "" | "packages"
                        | "dependencies"
                        | "devDependencies"
                        | "peerDependencies"
                        | "optionalDependencies"
                        | "peerDependenciesMeta"
                        | "requires"
                        | "engines"
                        | "bin"
                        | "funding"
                );
                Line::Name((!structural).then(|| key.to_owned()))
            } else if let Some(c) = JSON_PAIR.captures(text).filter(|c| &c[1] == "version") {
                Line::Version(c[2].to_owned())
            } else {
                Line::Other
            }
        }
        Kind::YarnLock => {
            if let Some(c) = YARN_HEAD.captures(text) {
                Line::Name(Some(c[1].to_owned()))
            } else if let Some(c) = YARN_VERSION.captures(text) {
                Line::Version(c[1].to_owned())
            } else if text.trim().is_empty() {
                Line::Nothing
            } else {
                Line::Other
            }
        }
    }
}

fn unquote(v: &str) -> Option<String> {
    let v = v.trim();
    let inner = v
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .or_else(|| v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))?;
    Some(inner.to_owned())
}

/// A line of `pyproject.toml` or `Cargo.toml`.
fn toml_line(kind: Kind, text: &str) -> Line {
    let t = text.trim();
    if t.starts_with('[') && !t.starts_with("[\"") && t.ends_with(']') && !t.contains('"') {
        // A table header: a new section is more than a dependency.
        return Line::Other;
    }
    if let Some(c) = TOML_KEY.captures(t) {
        let (key, value) = (c[1].to_owned(), c[2].trim().to_owned());
        if value.starts_with('[') {
            // `requires = ["setuptools >= 75", "wheel ~= 0.42"]`: Cargo's lists are
            // features, not dependencies.
            if kind == Kind::Cargo {
                return Line::Other;
            }
            return strings_line(&value);
        }
        if own_key(&key) {
            return Line::Other;
        }
        if value.starts_with('{') {
            return match INLINE_VERSION.captures(&value) {
                Some(v) => Line::Deps(vec![(key, Some(v[1].to_owned()))]),
                None if value.contains("path") || value.contains("git") => {
                    Line::Deps(vec![(key, None)])
                }
                None => Line::Other,
            };
        }
        return match unquote(&value) {
            Some(v) if SPEC.is_match(v.trim()) => {
                Line::Deps(vec![(key, Some(v.trim().to_owned()))])
            }
            _ => Line::Other,
        };
    }
    if kind == Kind::Pyproject && (t.starts_with('"') || t.starts_with('\'')) {
        return strings_line(t);
    }
    Line::Other
}

/// The PEP 508 strings of a list line; [`Line::Other`] when one of them is not one.
fn strings_line(text: &str) -> Line {
    let mut deps = Vec::new();
    for c in QUOTED.captures_iter(text) {
        let s = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
        match pep508(s, false) {
            Some(d) => deps.push(d),
            None => return Line::Other,
        }
    }
    if deps.is_empty() {
        Line::Nothing
    } else {
        Line::Deps(deps)
    }
}

/// One dependency's change: its versions before and after (either empty when it was
/// added, removed or is unpinned).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bump {
    /// The dependency's name as the file writes it.
    pub name: String,
    /// It was on a removed line.
    pub was: bool,
    /// It is on an added line.
    pub is: bool,
    /// Versions it had that it no longer has.
    pub from: Vec<String>,
    /// Versions it has that it did not have.
    pub to: Vec<String>,
}

/// A version as a summary says it: one specifier without its operator (`~= 14.0` →
/// `14.0`, `v6` → `6`), several as written without spaces (`>=1.2,<3`).
fn spoken(v: &str) -> String {
    let clauses: Vec<String> = v
        .split(',')
        .map(|c| c.split_whitespace().collect::<String>())
        .filter(|c| !c.is_empty())
        .collect();
    if clauses.len() == 1 {
        let c = clauses[0].trim_start_matches(['=', '~', '^', '>']);
        let c = c
            .strip_prefix('v')
            .filter(|r| r.starts_with(|ch: char| ch.is_ascii_digit()));
        return c.map_or_else(
            || {
                clauses[0]
                    .trim_start_matches(['=', '~', '^', '>'])
                    .to_owned()
            },
            str::to_owned,
        );
    }
    clauses.join(",")
}

/// The changes of `entries`, one per name in the order first seen.
fn bumps(entries: &[(char, String, Option<String>)]) -> Vec<Bump> {
    let key = |n: &str| n.to_ascii_lowercase().replace(['_', '.'], "-");
    let mut out: Vec<Bump> = Vec::new();
    let mut old: Vec<Vec<String>> = Vec::new();
    let mut new: Vec<Vec<String>> = Vec::new();
    for (sign, name, version) in entries {
        let i = match out.iter().position(|b| key(&b.name) == key(name)) {
            Some(i) => i,
            None => {
                out.push(Bump {
                    name: name.clone(),
                    was: false,
                    is: false,
                    from: Vec::new(),
                    to: Vec::new(),
                });
                old.push(Vec::new());
                new.push(Vec::new());
                out.len() - 1
            }
        };
        let (seen, list) = if *sign == '-' {
            (&mut out[i].was, &mut old[i])
        } else {
            (&mut out[i].is, &mut new[i])
        };
        *seen = true;
        if let Some(v) = version.as_deref().map(spoken).filter(|v| !list.contains(v)) {
            list.push(v);
        }
    }
    for ((b, old), new) in out.iter_mut().zip(old).zip(new) {
        // Clauses a multi-clause range kept say nothing: `>=1.12,<3.7` → `>=1.12,<3.8`
        // is `<3.7` → `<3.8`.
        let (old, new) =
            if old.len() == 1 && new.len() == 1 && old[0].contains(',') && new[0].contains(',') {
                let o: Vec<&str> = old[0].split(',').collect();
                let n: Vec<&str> = new[0].split(',').collect();
                let gone: Vec<&str> = o.iter().copied().filter(|c| !n.contains(c)).collect();
                let came: Vec<&str> = n.iter().copied().filter(|c| !o.contains(c)).collect();
                (vec![gone.join(",")], vec![came.join(",")])
            } else {
                (old, new)
            };
        let gone: Vec<String> = old.iter().filter(|v| !new.contains(v)).cloned().collect();
        let came: Vec<String> = new.iter().filter(|v| !old.contains(v)).cloned().collect();
        if came.is_empty() && gone.is_empty() {
            continue;
        }
        b.from = if gone.is_empty() { old.clone() } else { gone };
        b.to = if came.is_empty() { new.clone() } else { came };
        b.from.retain(|v| !v.is_empty());
        b.to.retain(|v| !v.is_empty());
    }
    out
}

/// What a change of dependency files bumps, adds or removes: the manifests' changes, or
/// the lock files' when no manifest names one; `None` when a file is no dependency file,
/// a manifest changes a line that is no dependency, or nothing is named.
pub fn changes(files: &[(&str, &[Hunk])]) -> Option<Vec<Bump>> {
    let mut manifest = Vec::new();
    let mut lock = Vec::new();
    for (path, hunks) in files {
        let f = read(path, hunks)?;
        if f.lock {
            lock.extend(f.entries);
        } else if f.other > 0 {
            return None;
        } else {
            manifest.extend(f.entries);
        }
    }
    let named = |b: &Bump| b.was != b.is || !b.from.is_empty() || !b.to.is_empty();
    // A manifest's entry rewritten with its versions kept (a marker added, a group
    // moved) is still its change: `update importlib-resources`.
    let from_manifests: Vec<Bump> = bumps(&manifest);
    let out = if from_manifests.is_empty() {
        bumps(&lock).into_iter().filter(named).collect()
    } else {
        from_manifests
    };
    (!out.is_empty()).then_some(out)
}

/// A list as a sentence says it: `a`, `a and b`, `a, b and c`.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The summary of `bumps` in at most `room` characters, most detailed first: `bump rich
/// from 14.0 to 15.0`, `bump rich to 15.0`, `bump rich`; several: `bump rich and httpx`,
/// `bump rich, httpx and 3 more dependencies`; `add dependency x`, `remove dependency
/// y`; `None` when not even the shortest fits.
pub fn summary(bumps: &[Bump], room: usize) -> Option<String> {
    let mut changed: Vec<&Bump> = bumps.iter().filter(|b| b.was && b.is).collect();
    // An entry that kept its versions beside one that moved is collateral (`wheel` on
    // the line that bumps `setuptools`).
    if changed
        .iter()
        .any(|b| !b.from.is_empty() || !b.to.is_empty())
    {
        changed.retain(|b| !b.from.is_empty() || !b.to.is_empty());
    }
    let added: Vec<&str> = bumps
        .iter()
        .filter(|b| b.is && !b.was)
        .map(|b| b.name.as_str())
        .collect();
    let removed: Vec<&str> = bumps
        .iter()
        .filter(|b| b.was && !b.is)
        .map(|b| b.name.as_str())
        .collect();
    let mut candidates: Vec<String> = Vec::new();
    // One phrase per kind of change, each as short as `level` asks.
    let phrase = |level: usize| -> Vec<String> {
        let mut parts = Vec::new();
        if let [one] = changed.as_slice() {
            let verb = if one.from.is_empty() && one.to.is_empty() {
                "update"
            } else {
                "bump"
            };
            let from = (one.from.len() == 1).then(|| one.from[0].as_str());
            let to = (one.to.len() == 1).then(|| one.to[0].as_str());
            parts.push(match (level, from, to) {
                (0, Some(f), Some(t)) => format!("{verb} {} from {f} to {t}", one.name),
                (0 | 1, _, Some(t)) => format!("{verb} {} to {t}", one.name),
                _ => format!("{verb} {}", one.name),
            });
        } else if !changed.is_empty() {
            let names: Vec<&str> = changed.iter().map(|b| b.name.as_str()).collect();
            let shown = names.len().min(3usize.saturating_sub(level).max(1));
            parts.push(if shown >= names.len() {
                format!("bump {}", listed(&names))
            } else if shown == 1 && level > 2 {
                format!("bump {} dependencies", names.len())
            } else {
                format!(
                    "bump {} and {} more dependencies",
                    names[..shown].join(", "),
                    names.len() - shown
                )
            });
        }
        for (verb, names) in [("add", &added), ("remove", &removed)] {
            match names.as_slice() {
                [] => {}
                [one] => parts.push(format!("{verb} dependency {one}")),
                many if level < 2 && many.len() <= 3 => {
                    parts.push(format!("{verb} dependencies {}", listed(many)))
                }
                many => parts.push(format!("{verb} {} dependencies", many.len())),
            }
        }
        parts
    };
    for level in 0..4 {
        let parts = phrase(level);
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        candidates.push(listed(&refs));
    }
    candidates.push("update dependencies".to_owned());
    candidates
        .into_iter()
        .find(|c| !c.is_empty() && c.chars().count() <= room)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(body: &str) -> Vec<Hunk> {
        vec![Hunk {
            header: "@@ -1,5 +1,5 @@".to_owned(),
            body: body.to_owned(),
        }]
    }

    fn said(files: &[(&str, &str)]) -> Option<String> {
        let hunks: Vec<(&str, Vec<Hunk>)> = files.iter().map(|(p, b)| (*p, hunk(b))).collect();
        let refs: Vec<(&str, &[Hunk])> = hunks.iter().map(|(p, h)| (*p, h.as_slice())).collect();
        summary(&changes(&refs)?, 66)
    }

    #[test]
    fn a_pyproject_bump_names_the_dependency_and_versions() {
        // python-semantic-release's `rich` bump (#1464).
        let body = concat!(
            " dependencies = [\n",
            "   \"click ~= 8.1.0\",\n",
            "-  \"rich ~= 14.0\",\n",
            "+  \"rich ~= 14.0; python_version == '3.8'\",\n",
            "+  \"rich ~= 15.0; python_version >= '3.9'\",\n",
            "   \"shellingham ~= 1.5\",\n",
        );
        assert_eq!(
            said(&[("pyproject.toml", body)]).as_deref(),
            Some("bump rich from 14.0 to 15.0")
        );
        // A build requirement's range: only the clause that moved.
        let body = "-requires = [\"setuptools >= 75.3.0, < 83.0.0\", \"wheel ~= 0.42\"]\n+requires = [\"setuptools >= 75.3.0, < 84.0.0\", \"wheel ~= 0.42\"]\n";
        assert_eq!(
            said(&[("pyproject.toml", body)]).as_deref(),
            Some("bump setuptools from <83.0.0 to <84.0.0")
        );
        // A list item pinned with `==` is no key; a marker added keeps the versions.
        let body = " mypy = [\n-  \"mypy == 1.14.1\",\n+  \"mypy == 1.15.0\",\n";
        assert_eq!(
            said(&[("pyproject.toml", body)]).as_deref(),
            Some("bump mypy from 1.14.1 to 1.15.0")
        );
        let body = "-  \"importlib-resources ~= 6.0\",\n+  \"importlib-resources ~= 6.0; python_version == '3.8'\",  # backport\n";
        assert_eq!(
            said(&[("pyproject.toml", body)]).as_deref(),
            Some("update importlib-resources")
        );
        // Poetry's tables.
        let body = " [tool.poetry.dependencies]\n python = \"^3.8\"\n-httpx = \"^0.26\"\n+httpx = \"^0.27\"\n";
        assert_eq!(
            said(&[("pyproject.toml", body)]).as_deref(),
            Some("bump httpx from 0.26 to 0.27")
        );
    }

    #[test]
    fn a_manifest_that_changes_more_than_dependencies_is_not_a_bump() {
        let body = " [project]\n-version = \"1.2.0\"\n+version = \"1.3.0\"\n-  \"rich ~= 14.0\",\n+  \"rich ~= 15.0\",\n";
        assert_eq!(said(&[("pyproject.toml", body)]), None);
        let body = " [tool.ruff]\n-line-length = 88\n+line-length = 100\n";
        assert_eq!(said(&[("pyproject.toml", body)]), None);
        // A file that pins nothing.
        assert_eq!(said(&[("src/app.py", "-a = 1\n+a = 2\n")]), None);
        // The keywords of a project are no dependencies.
        let body = " keywords = [\n-  \"git\",\n+  \"git\", \"commit\",\n";
        assert_eq!(said(&[("pyproject.toml", body)]), None);
    }

    #[test]
    fn a_cargo_lock_bump_names_the_packages() {
        let body = concat!(
            " [[package]]\n",
            " name = \"serde\"\n",
            "-version = \"1.0.210\"\n",
            "+version = \"1.0.215\"\n",
            " source = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
            "-checksum = \"c8e3592472072e6e22e0a54d5904d9febf8508f65fb8552499a1abc7d1078c3a\"\n",
            "+checksum = \"6513c1ad0b11a9376da888e3e0baa0077f1aed55c17f50e7b2397136129fb88f\"\n",
        );
        assert_eq!(
            said(&[("Cargo.lock", body)]).as_deref(),
            Some("bump serde from 1.0.210 to 1.0.215")
        );
        let two = format!(
            "{body} [[package]]\n name = \"serde_json\"\n-version = \"1.0.128\"\n+version = \"1.0.133\"\n"
        );
        assert_eq!(
            said(&[("Cargo.lock", &two)]).as_deref(),
            Some("bump serde and serde_json")
        );
        // A manifest's entry names the change; the lock's transitive packages do not.
        let manifest = "-serde = { version = \"1.0.210\", features = [\"derive\"] }\n+serde = { version = \"1.0.215\", features = [\"derive\"] }\n";
        assert_eq!(
            said(&[("Cargo.lock", &two), ("Cargo.toml", manifest)]).as_deref(),
            Some("bump serde from 1.0.210 to 1.0.215")
        );
        // uv.lock, as dependabot leaves it (commitizen's gitpython bump).
        let uv = " [[package]]\n name = \"gitpython\"\n-version = \"3.1.54\"\n+version = \"3.1.57\"\n source = { registry = \"https://pypi.org/simple\" }\n";
        assert_eq!(
            said(&[("uv.lock", uv)]).as_deref(),
            Some("bump gitpython from 3.1.54 to 3.1.57")
        );
    }

    #[test]
    fn a_package_json_bump_and_its_lock() {
        let manifest = "   \"dependencies\": {\n-    \"rich-text\": \"^14.0.0\",\n+    \"rich-text\": \"^15.0.0\",\n     \"httpx\": \"~1.2.0\"\n";
        let lock = concat!(
            "     \"node_modules/rich-text\": {\n",
            "-      \"version\": \"14.0.0\",\n",
            "-      \"resolved\": \"https://registry.npmjs.org/rich-text/-/rich-text-14.0.0.tgz\",\n",
            "+      \"version\": \"15.0.0\",\n",
            "+      \"resolved\": \"https://registry.npmjs.org/rich-text/-/rich-text-15.0.0.tgz\",\n",
        );
        assert_eq!(
            said(&[("package.json", manifest), ("package-lock.json", lock)]).as_deref(),
            Some("bump rich-text from 14.0.0 to 15.0.0")
        );
        assert_eq!(
            said(&[("web/package-lock.json", lock)]).as_deref(),
            Some("bump rich-text from 14.0.0 to 15.0.0")
        );
        // The package's own version is no dependency.
        assert_eq!(
            said(&[(
                "package.json",
                "-  \"version\": \"1.0.0\",\n+  \"version\": \"1.1.0\",\n"
            )]),
            None
        );
    }

    #[test]
    fn a_workflow_pin_bump_names_the_action() {
        let body = "       - uses: actions/checkout@v4\n-      - uses: actions/setup-python@v5\n+      - uses: actions/setup-python@v6\n";
        assert_eq!(
            said(&[(".github/workflows/ci.yml", body)]).as_deref(),
            Some("bump actions/setup-python from 5 to 6")
        );
        // A commit pin says its version in the comment beside it.
        let body = "-        uses: python-semantic-release/publish-action@4f3c5d7f5caddf6535050c4bcb55f033f000a7dd  # v10.6.0\n+        uses: python-semantic-release/publish-action@5a5718ce47b892ef699f2972dae122297771d641  # v10.6.1\n";
        assert_eq!(
            said(&[(".github/workflows/cicd.yml", body)]).as_deref(),
            Some("bump python-semantic-release/publish-action from 10.6.0 to 10.6.1")
        );
        // Two workflows, one action: one name.
        let two = [
            (".github/workflows/a.yml", body),
            (".github/workflows/b.yml", body),
        ];
        assert_eq!(
            said(&two).as_deref(),
            Some("bump python-semantic-release/publish-action from 10.6.0 to 10.6.1")
        );
        // A local action replaced by the released one.
        let local = "-        uses: ./\n+        uses: python-semantic-release/python-semantic-release@1a324000f2251a9e722e77b128bf72712653813f  # v10.0.2\n";
        let other = "-        uses: python-semantic-release/python-semantic-release@917a2c730cb8f6c8cd3d00f23c876d724a4a844c  # v10.0.1\n+        uses: python-semantic-release/python-semantic-release@1a324000f2251a9e722e77b128bf72712653813f  # v10.0.2\n";
        assert_eq!(
            said(&[
                (".github/workflows/cicd.yml", local),
                (".github/workflows/validate.yml", other)
            ])
            .as_deref(),
            Some("bump python-semantic-release/python-semantic-release to 10.0.2")
        );
        // A workflow that changes a step is more than a bump.
        let body = "-      - uses: actions/setup-python@v5\n+      - uses: actions/setup-python@v6\n+        with:\n+          python-version: '3.13'\n";
        assert_eq!(said(&[(".github/workflows/ci.yml", body)]), None);
    }

    #[test]
    fn a_pre_commit_rev_names_the_hook_repository_not_its_url() {
        let body = "   - repo: https://github.com/astral-sh/ruff-pre-commit\n-    rev: v0.6.9\n+    rev: v0.7.0\n     hooks:\n";
        assert_eq!(
            said(&[(".pre-commit-config.yaml", body)]).as_deref(),
            Some("bump ruff-pre-commit from 0.6.9 to 0.7.0")
        );
    }

    #[test]
    fn requirements_go_and_yarn() {
        assert_eq!(
            said(&[(
                "requirements-dev.txt",
                "-pytest==8.3.2\n+pytest==8.3.3\n mypy==1.11\n"
            )])
            .as_deref(),
            Some("bump pytest from 8.3.2 to 8.3.3")
        );
        assert_eq!(
            said(&[("requirements.txt", "+httpx>=0.27\n")]).as_deref(),
            Some("add dependency httpx")
        );
        let gomod =
            " require (\n-\tgithub.com/spf13/cobra v1.8.0\n+\tgithub.com/spf13/cobra v1.8.1\n )\n";
        let gosum =
            "-github.com/spf13/cobra v1.8.0 h1:abc=\n+github.com/spf13/cobra v1.8.1 h1:def=\n";
        assert_eq!(
            said(&[("go.mod", gomod), ("go.sum", gosum)]).as_deref(),
            Some("bump github.com/spf13/cobra from 1.8.0 to 1.8.1")
        );
        let yarn = " \"@babel/core@^7.24.0\":\n-  version \"7.24.0\"\n+  version \"7.25.2\"\n";
        assert_eq!(
            said(&[("yarn.lock", yarn)]).as_deref(),
            Some("bump @babel/core from 7.24.0 to 7.25.2")
        );
    }

    #[test]
    fn many_bumps_are_shortened_by_phrase_never_by_word() {
        let names = [
            "alpha-package",
            "bravo-package",
            "charlie-package",
            "delta-package",
            "echo-package",
        ];
        let body: String = names
            .iter()
            .map(|n| format!(" name = \"{n}\"\n-version = \"1.0.0\"\n+version = \"1.1.0\"\n"))
            .collect();
        let hunks = hunk(&body);
        let b = changes(&[("uv.lock", hunks.as_slice())]).unwrap();
        assert_eq!(
            summary(&b, 66).as_deref(),
            Some("bump alpha-package, bravo-package, charlie-package and 2 more dependencies")
                .filter(|s| s.len() <= 66)
                .or(Some(
                    "bump alpha-package, bravo-package and 3 more dependencies"
                ))
        );
        assert_eq!(summary(&b, 30).as_deref(), Some("bump 5 dependencies"));
        assert_eq!(summary(&b, 10), None);
        // One name too long for its versions keeps the name.
        let one = &b[..1];
        assert_eq!(summary(one, 20).as_deref(), Some("bump alpha-package"));
    }
}
