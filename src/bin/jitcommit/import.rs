//! What `jitcommit init` reads from other tools' configs, as data: commitlint's JSON
//! and YAML files, cog.toml and .versionrc, and the release tools' configs:
//! python-semantic-release, commitizen, git-cliff and release-please. Nothing here touches the file system or
//! runs anything; `fuzz/fuzz_targets/init.rs` includes this file to feed it arbitrary
//! bytes.

use std::collections::BTreeMap;

use jitcommit_core::changelog::{Exclusions, TagPattern, check_exclusion};
use jitcommit_core::config::{BumpLevel, Convention, Prereleases, ZeroMajor};
use serde_json::Value;

/// What the imported files said.
#[derive(Debug, Default)]
pub struct Import {
    pub types: Option<Vec<String>>,
    pub extra_types: Vec<String>,
    pub scopes: Option<Vec<String>>,
    pub subject_max: Option<usize>,
    pub body_wrap: Option<usize>,
    pub sections: BTreeMap<String, Option<String>>,
    /// The order a release tool lists its sections in: these types first.
    pub type_order: Vec<String>,
    pub exclude_commits: Vec<String>,
    pub tag_pattern: Option<String>,
    pub ignore_tags: Option<String>,
    pub prereleases: Option<Prereleases>,
    pub breaking_before_1: Option<ZeroMajor>,
    pub bump_types: BTreeMap<String, BumpLevel>,
    pub read: Vec<String>,
    /// What a release tool's setting became: `file: key → convention key`.
    pub mapped: Vec<String>,
    pub unmapped: Vec<String>,
}

const CONVENTIONAL: &[&str] = &[
    "feat", "fix", "perf", "refactor", "docs", "test", "build", "ci", "chore", "revert", "style",
];

fn strings(v: &serde_json::Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_str().map(str::to_owned))
        .collect()
}

/// How deep a config may nest: commitlint's are three levels deep. A deeper document
/// is refused rather than converted, so no hostile file can exhaust the stack.
const MAX_DEPTH: usize = 32;

/// A YAML document as JSON, for the commitlint files that are YAML; `None` when it
/// nests deeper than [`MAX_DEPTH`].
fn yaml_to_json(y: &yaml_rust2::Yaml, depth: usize) -> Option<serde_json::Value> {
    use serde_json::Value;
    use yaml_rust2::Yaml;
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match y {
        Yaml::Real(r) => r.parse::<f64>().map_or(Value::Null, Value::from),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::from(s.clone()),
        Yaml::Boolean(b) => Value::from(*b),
        Yaml::Array(a) => Value::Array(
            a.iter()
                .map(|v| yaml_to_json(v, depth + 1))
                .collect::<Option<_>>()?,
        ),
        Yaml::Hash(h) => {
            let mut map = serde_json::Map::new();
            for (k, v) in h {
                let value = yaml_to_json(v, depth + 1)?;
                if let Some(k) = k.as_str() {
                    map.insert(k.to_owned(), value);
                }
            }
            Value::Object(map)
        }
        _ => Value::Null,
    })
}

/// The deepest nesting of `[`/`{` and of YAML block indentation in `text`, counted
/// without parsing, so that a document too deep to convert is refused before the
/// YAML loader builds (and later drops) a tree that deep.
fn nesting(text: &str) -> usize {
    let mut flow = 0usize;
    let mut deepest = 0usize;
    for line in text.lines() {
        // A block level is at least one column of indentation or one `- ` marker.
        let indent = line.len() - line.trim_start_matches([' ', '-']).len();
        deepest = deepest.max(indent);
        for b in line.bytes() {
            match b {
                b'[' | b'{' => {
                    flow += 1;
                    deepest = deepest.max(flow);
                }
                b']' | b'}' => flow = flow.saturating_sub(1),
                _ => {}
            }
        }
    }
    deepest
}

/// How many columns of nesting a file may have (indentation or brackets) before it is
/// refused unread: far more than any real config, far less than a stack.
const MAX_NESTING: usize = 512;

pub fn parse_json_or_yaml(name: &str, text: &str) -> Result<serde_json::Value, String> {
    if let Ok(v) = serde_json::from_str(text) {
        return Ok(v);
    }
    if nesting(text) > MAX_NESTING {
        return Err(format!(
            "{name}: nested more than {MAX_NESTING} levels deep; not read"
        ));
    }
    let docs = yaml_rust2::YamlLoader::load_from_str(text)
        .map_err(|e| format!("{name}: neither JSON nor YAML: {e}"))?;
    match docs.first() {
        None => Ok(serde_json::Value::Null),
        Some(doc) => yaml_to_json(doc, 0)
            .ok_or_else(|| format!("{name}: nested more than {MAX_DEPTH} levels deep; not read")),
    }
}

pub fn commitlint(name: &str, cfg: &serde_json::Value, imp: &mut Import) {
    if let Some(ext) = cfg.get("extends") {
        let list = match ext {
            serde_json::Value::String(s) => vec![s.clone()],
            other => strings(other).unwrap_or_default(),
        };
        for e in list {
            if e.contains("config-conventional") {
                imp.types
                    .get_or_insert_with(|| CONVENTIONAL.iter().map(|s| (*s).to_owned()).collect());
            } else {
                imp.unmapped.push(format!("{name}: extends {e:?} (not read: resolve it with `npx commitlint --print-config json`)"));
            }
        }
    }
    let Some(rules) = cfg.get("rules").and_then(|r| r.as_object()) else {
        return;
    };
    for (rule, v) in rules {
        let level = v.get(0).and_then(serde_json::Value::as_u64).unwrap_or(0);
        let when = v.get(1).and_then(|w| w.as_str()).unwrap_or("always");
        let value = v.get(2);
        if level == 0 {
            continue;
        }
        match (rule.as_str(), when) {
            ("type-enum", "always") => {
                if let Some(t) = value.and_then(strings) {
                    imp.types = Some(t);
                }
            }
            ("scope-enum", "always") => {
                if let Some(s) = value.and_then(strings) {
                    imp.scopes = Some(s);
                }
            }
            ("header-max-length", "always") => {
                imp.subject_max = value
                    .and_then(serde_json::Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok());
            }
            ("body-max-line-length", "always") => {
                imp.body_wrap = value
                    .and_then(serde_json::Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok());
            }
            ("subject-full-stop", "never")
            | ("type-empty", "never")
            | ("subject-empty", "never") => {}
            _ => imp.unmapped.push(format!(
                "{name}: rule {rule} ({when} {}) has no jitcommit setting",
                value.map(ToString::to_string).unwrap_or_default()
            )),
        }
    }
}

/// cocogitto's built-in commit types and their changelog titles, in its order
/// (`default_commit_config` in its settings): it lists every one unless told not to.
const COG_TYPES: &[(&str, &str)] = &[
    ("feat", "Features"),
    ("fix", "Bug Fixes"),
    ("perf", "Performance Improvements"),
    ("revert", "Revert"),
    ("docs", "Documentation"),
    ("test", "Tests"),
    ("build", "Build system"),
    ("ci", "Continuous Integration"),
    ("refactor", "Refactoring"),
    ("chore", "Miscellaneous Chores"),
    ("style", "Style"),
];

pub fn cog(text: &str, imp: &mut Import) -> Result<(), String> {
    let v: toml::Table = toml::from_str(text).map_err(|e| format!("cog.toml: {e}"))?;
    for (ty, title) in COG_TYPES {
        imp.sections
            .insert((*ty).to_owned(), Some((*title).to_owned()));
    }
    imp.type_order = COG_TYPES.iter().map(|(t, _)| (*t).to_owned()).collect();
    imp.mapped.push(
        "cog.toml: cocogitto's built-in types → a section each, with its titles (Features, Bug Fixes, Documentation, …)".to_owned(),
    );
    for (k, val) in &v {
        match k.as_str() {
            "commit_types" => {
                let Some(t) = val.as_table() else { continue };
                for (ty, spec) in t {
                    imp.extra_types.push(ty.clone());
                    let omit = spec
                        .get("omit_from_changelog")
                        .and_then(toml::Value::as_bool)
                        == Some(true);
                    let title = spec.get("changelog_title").and_then(|x| x.as_str());
                    // A built-in type keeps its title unless the file gives one.
                    let builtin = COG_TYPES.iter().find(|(t, _)| t == ty).map(|(_, n)| *n);
                    imp.sections.insert(
                        ty.clone(),
                        if omit {
                            None
                        } else {
                            title.or(builtin).map(str::to_owned)
                        },
                    );
                }
            }
            "scopes" => {
                imp.scopes = val.as_array().map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                });
            }
            "tag_prefix" => imp.unmapped.push(format!(
                "cog.toml: tag_prefix {val} (give `jitcommit changelog --tag-pattern` instead)"
            )),
            other => imp
                .unmapped
                .push(format!("cog.toml: {other} has no jitcommit setting")),
        }
    }
    Ok(())
}

pub fn versionrc(name: &str, v: &serde_json::Value, imp: &mut Import) {
    let Some(obj) = v.as_object() else { return };
    for (k, val) in obj {
        match k.as_str() {
            "types" => {
                let mut types = Vec::new();
                for t in val.as_array().into_iter().flatten() {
                    let Some(ty) = t.get("type").and_then(|x| x.as_str()) else {
                        continue;
                    };
                    types.push(ty.to_owned());
                    let hidden = t.get("hidden").and_then(serde_json::Value::as_bool) == Some(true);
                    let section = t.get("section").and_then(|x| x.as_str()).map(str::to_owned);
                    imp.sections
                        .insert(ty.to_owned(), if hidden { None } else { section });
                }
                imp.extra_types.extend(types);
            }
            "tagPrefix" => imp.unmapped.push(format!(
                "{name}: tagPrefix {val} (give `jitcommit changelog --tag-pattern` instead)"
            )),
            other => imp
                .unmapped
                .push(format!("{name}: {other} has no jitcommit setting")),
        }
    }
}

impl Import {
    /// `changelog.breaking-before-1` from the setting `from` names: `major` when a
    /// breaking change before 1.0.0 makes 1.0.0.
    fn zero_major(&mut self, from: String, major: bool) {
        let (level, word) = if major {
            (ZeroMajor::Major, "major")
        } else {
            (ZeroMajor::Minor, "minor")
        };
        self.breaking_before_1 = Some(level);
        self.mapped
            .push(format!("{from} → changelog.breaking-before-1 = \"{word}\""));
    }

    /// `changelog.tag-pattern` from a release tool's tag template `v` (`v{version}`,
    /// `v$version`), or why not.
    fn tag_format(&mut self, name: &str, v: &Value) {
        match v.as_str().and_then(tag_template) {
            Some(p) => {
                self.mapped
                    .push(format!("{name}: tag_format {v} → changelog.tag-pattern"));
                self.tag_pattern = Some(p);
            }
            None => self.unmapped.push(format!(
                "{name}: tag_format {v} (not a template of the whole version)"
            )),
        }
    }
}

/// The convention the imports describe, on top of the built-in one.
pub fn apply(imp: &Import) -> Convention {
    let mut c = Convention::default();
    if let Some(t) = &imp.types {
        c.types = t.clone();
    }
    let cl = &mut c.changelog;
    cl.exclude_commits.clone_from(&imp.exclude_commits);
    cl.tag_pattern.clone_from(&imp.tag_pattern);
    cl.ignore_tags.clone_from(&imp.ignore_tags);
    cl.prereleases = imp.prereleases;
    cl.breaking_before_1 = imp.breaking_before_1;
    for t in &imp.extra_types {
        if !c.types.contains(t) {
            c.types.push(t.clone());
        }
    }
    if let Some(s) = &imp.scopes {
        c.scopes = s.clone();
    }
    if let Some(n) = imp.subject_max.filter(|n| *n > 0) {
        c.subject_max = n;
    }
    if let Some(n) = imp.body_wrap {
        c.body_wrap = n;
    }
    for (ty, section) in &imp.sections {
        match section {
            Some(s) if !s.trim().is_empty() => {
                c.sections.insert(ty.clone(), s.clone());
            }
            _ => {
                c.sections.remove(ty);
            }
        }
    }
    let types = c.types.clone();
    c.sections.retain(|ty, _| types.contains(ty));
    for (ty, level) in &imp.bump_types {
        if types.contains(ty) {
            c.changelog.bump_types.insert(ty.clone(), *level);
        }
    }
    // The release tool's section order: its types first, in its order.
    let mut ordered: Vec<String> = imp
        .type_order
        .iter()
        .filter(|t| types.contains(t))
        .cloned()
        .collect();
    ordered.dedup();
    for t in types {
        if !ordered.contains(&t) {
            ordered.push(t);
        }
    }
    c.types = ordered;
    c
}

/// The semantic-version part of a tag pattern, as `TagPattern::DEFAULT` spells it.
const SEMVER: &str = r"[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?";

/// A tag pattern for tags written `{prefix}{version}{suffix}`.
fn tag_pattern_around(prefix: &str, suffix: &str) -> String {
    format!(
        "^{}(?P<version>{SEMVER}){}$",
        regex::escape(prefix),
        regex::escape(suffix)
    )
}

/// A release tool's tag template (`v{version}`, `v$version`, `v${version}`) as a tag
/// pattern; `None` when it names the parts (`$major.$minor`) or no version at all.
fn tag_template(template: &str) -> Option<String> {
    for mark in ["${version}", "$version", "{version}"] {
        if let Some((prefix, suffix)) = template.split_once(mark) {
            if prefix.contains(['$', '{', '}']) || suffix.contains(['$', '{', '}']) {
                return None;
            }
            return Some(tag_pattern_around(prefix, suffix));
        }
    }
    None
}

fn title_case(s: &str) -> String {
    s.split(' ')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn bool_at(v: &Value, key: &str) -> Option<bool> {
    v.get(key).and_then(Value::as_bool)
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// python-semantic-release's conventional (and angular) parser: its types and the
/// section titles its default templates give them (`LONG_TYPE_NAMES`, title-cased).
const PSR_TYPES: &[(&str, &str)] = &[
    ("feat", "features"),
    ("fix", "bug fixes"),
    ("perf", "performance improvements"),
    ("build", "build system"),
    ("chore", "chores"),
    ("ci", "continuous integration"),
    ("docs", "documentation"),
    ("style", "code style"),
    ("refactor", "refactoring"),
    ("test", "testing"),
];

/// python-semantic-release: `[tool.semantic_release]` of pyproject.toml, or the whole
/// of `releaserc.toml`/`.releaserc.toml`'s `[semantic_release]` (`name` says which).
pub fn semantic_release(name: &str, cfg: &Value, imp: &mut Import) {
    let Some(obj) = cfg.as_object() else { return };
    let parser = str_at(cfg, "commit_parser").unwrap_or("conventional");
    let conventional = matches!(parser, "conventional" | "angular");
    let opts = cfg
        .get("commit_parser_options")
        .cloned()
        .unwrap_or(Value::Null);
    if conventional {
        let list = |key: &str, default: &[&str]| -> Vec<String> {
            opts.get(key)
                .and_then(strings)
                .unwrap_or_else(|| default.iter().map(|s| (*s).to_owned()).collect())
        };
        let minor = list("minor_tags", &["feat"]);
        let patch = list("patch_tags", &["fix", "perf"]);
        let others = list(
            "other_allowed_tags",
            &["build", "chore", "ci", "docs", "style", "refactor", "test"],
        );
        let mut allowed = opts
            .get("allowed_tags")
            .and_then(strings)
            .unwrap_or_else(|| minor.iter().chain(&patch).chain(&others).cloned().collect());
        allowed.dedup();
        for t in &allowed {
            let long = PSR_TYPES
                .iter()
                .find(|(ty, _)| ty == t)
                .map_or(t.as_str(), |(_, l)| l);
            imp.sections.insert(t.clone(), Some(title_case(long)));
        }
        for t in &minor {
            imp.bump_types.insert(t.clone(), BumpLevel::Minor);
        }
        for t in &patch {
            imp.bump_types.insert(t.clone(), BumpLevel::Patch);
        }
        imp.type_order = allowed.clone();
        imp.mapped.push(format!(
            "{name}: commit_parser {parser:?} → types ({}), a section each, bump-types (minor: {}; patch: {})",
            allowed.join(", "),
            minor.join(", "),
            patch.join(", ")
        ));
        imp.types = Some(allowed);
    } else {
        imp.unmapped.push(format!(
            "{name}: commit_parser {parser:?} (jitcommit reads Conventional Commits; the types stay the built-in ones)"
        ));
    }
    for (k, v) in obj {
        match k.as_str() {
            "commit_parser" | "commit_parser_options" => {
                for (o, ov) in opts.as_object().into_iter().flatten() {
                    if !matches!(
                        o.as_str(),
                        "minor_tags"
                            | "patch_tags"
                            | "other_allowed_tags"
                            | "allowed_tags"
                            | "parse_squash_commits"
                            | "ignore_merge_commits"
                    ) && k == "commit_parser_options"
                    {
                        imp.unmapped.push(format!(
                            "{name}: commit_parser_options.{o} = {ov} has no jitcommit setting"
                        ));
                    }
                }
            }
            "major_on_zero" => {
                imp.zero_major(
                    format!("{name}: major_on_zero = {v}"),
                    v.as_bool() != Some(false),
                );
            }
            "tag_format" => imp.tag_format(name, v),
            "changelog" => psr_changelog(name, v, imp),
            // How it publishes, not what a commit or a release is.
            "version_variables"
            | "version_toml"
            | "version_source"
            | "build_command"
            | "commit_message"
            | "commit_author"
            | "remote"
            | "publish"
            | "branches"
            | "logging_use_named_masks"
            | "add_partial_tags"
            | "assets"
            | "upload_to_pypi"
            | "upload_to_release"
            | "upload_to_vcs_release"
            | "no_git_verify"
            | "allow_zero_version"
            | "build_command_env"
            | "repo_dir" => {}
            other => imp
                .unmapped
                .push(format!("{name}: {other} has no jitcommit setting")),
        }
    }
    if !obj.contains_key("major_on_zero") {
        // Its default: a breaking change before 1.0.0 makes 1.0.0.
        imp.zero_major(format!("{name}: major_on_zero (default true)"), true);
    }
    if !obj.contains_key("tag_format") {
        imp.tag_pattern = tag_template("v{version}");
    }
}

fn psr_changelog(name: &str, v: &Value, imp: &mut Import) {
    for (k, val) in v.as_object().into_iter().flatten() {
        match k.as_str() {
            "exclude_commit_patterns" => {
                let list = strings(val).unwrap_or_default();
                imp.mapped.push(format!(
                    "{name}: changelog.exclude_commit_patterns ({} patterns) → changelog.exclude-commits",
                    list.len()
                ));
                imp.exclude_commits.extend(list);
            }
            "template_dir" | "default_templates" | "changelog_file" | "environment" => {
                imp.unmapped.push(format!(
                    "{name}: changelog.{k} (jitcommit writes its own layout; the section titles are python-semantic-release's defaults)"
                ));
            }
            _ => {}
        }
    }
}

/// commitizen's `cz_conventional_commits` defaults (commitizen/defaults.py).
const CZ_TYPES: &[&str] = &[
    "build", "ci", "docs", "feat", "fix", "perf", "refactor", "style", "test", "chore", "revert",
    "bump",
];

/// commitizen: `[tool.commitizen]` of pyproject.toml, `.cz.toml`/`cz.toml`'s
/// `[tool.commitizen]`, or the `commitizen` object of `.cz.json`/`cz.json`/`.cz.yaml`.
pub fn commitizen(name: &str, cfg: &Value, imp: &mut Import) {
    let Some(obj) = cfg.as_object() else { return };
    let cz = str_at(cfg, "name").unwrap_or("cz_conventional_commits");
    if cz != "cz_conventional_commits" && cz != "cz_customize" {
        imp.unmapped.push(format!(
            "{name}: name {cz:?} (a plugin's rules are its code; the built-in types stay)"
        ));
        return;
    }
    let customize = cfg.get("customize").cloned().unwrap_or(Value::Null);
    let pick = |key: &str| customize.get(key).or_else(|| cfg.get(key)).cloned();
    let map: Vec<(String, String)> =
        match pick("change_type_map").as_ref().and_then(Value::as_object) {
            Some(m) => m
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                .collect(),
            None => [
                ("feat", "Feat"),
                ("fix", "Fix"),
                ("refactor", "Refactor"),
                ("perf", "Perf"),
            ]
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect(),
        };
    imp.types = Some(CZ_TYPES.iter().map(|s| (*s).to_owned()).collect());
    for t in CZ_TYPES {
        imp.sections.insert((*t).to_owned(), None);
    }
    for (t, title) in &map {
        imp.extra_types.push(t.clone());
        imp.sections.insert(t.clone(), Some(title.clone()));
    }
    let order: Vec<String> = pick("change_type_order")
        .as_ref()
        .and_then(strings)
        .unwrap_or_else(|| {
            ["Feat", "Fix", "Refactor", "Perf"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect()
        });
    imp.type_order = order
        .iter()
        .filter_map(|title| {
            map.iter()
                .find(|(_, t)| t == title)
                .map(|(ty, _)| ty.clone())
        })
        .collect();
    imp.mapped.push(format!(
        "{name}: {cz} change_type_map → sections ({}); other types are not listed",
        map.iter()
            .map(|(t, s)| format!("{t} = {s:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let bump_map = pick("bump_map");
    let levels: Vec<(String, String)> = match bump_map.as_ref().and_then(Value::as_object) {
        Some(m) => m
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
            .collect(),
        None => [
            ("feat", "MINOR"),
            ("fix", "PATCH"),
            ("refactor", "PATCH"),
            ("perf", "PATCH"),
        ]
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect(),
    };
    for (key, level) in &levels {
        let ty = key.trim_start_matches('^');
        if ty.starts_with("BREAKING") || ty.contains('!') {
            continue;
        }
        let Some(level) = BumpLevel::parse(&level.to_ascii_lowercase()) else {
            continue;
        };
        if ty
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            imp.bump_types.insert(ty.to_owned(), level);
        } else {
            imp.unmapped
                .push(format!("{name}: bump_map {key:?} (not a type)"));
        }
    }
    imp.mapped.push(format!(
        "{name}: bump_map → changelog.bump-types ({})",
        levels
            .iter()
            .map(|(t, l)| format!("{t} = {l}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for (k, v) in obj {
        match k.as_str() {
            "major_version_zero" => {
                imp.zero_major(
                    format!("{name}: major_version_zero = {v}"),
                    v.as_bool() != Some(true),
                );
            }
            "tag_format" => imp.tag_format(name, v),
            "changelog_merge_prerelease" => {
                let collect = v.as_bool() == Some(true);
                imp.prereleases = Some(if collect {
                    Prereleases::Collect
                } else {
                    Prereleases::Own
                });
                imp.mapped.push(format!(
                    "{name}: changelog_merge_prerelease = {v} → changelog.prereleases = \"{}\"",
                    if collect { "collect" } else { "own" }
                ));
            }
            "version_scheme" if v.as_str() == Some("pep440") => imp.unmapped.push(format!(
                "{name}: version_scheme \"pep440\" (a pre-release tag such as 1.0.0rc1 is \
                 not a semantic version: its commits fall to the release)"
            )),
            "name"
            | "customize"
            | "change_type_map"
            | "change_type_order"
            | "bump_map"
            | "version"
            | "version_files"
            | "version_provider"
            | "version_scheme"
            | "update_changelog_on_bump"
            | "annotated_tag"
            | "gpg_sign"
            | "changelog_file"
            | "changelog_incremental"
            | "changelog_start_rev"
            | "bump_message"
            | "pre_bump_hooks"
            | "post_bump_hooks"
            | "use_shortcuts"
            | "style"
            | "major_version_zero_bump_map"
            | "encoding"
            | "retry_after_failure"
            | "allow_abort"
            | "changelog_format"
            | "template"
            | "extras" => {}
            other => imp
                .unmapped
                .push(format!("{name}: {other} has no jitcommit setting")),
        }
    }
    if !obj.contains_key("changelog_merge_prerelease") {
        imp.prereleases = Some(Prereleases::Own);
    }
    if !obj.contains_key("tag_format") {
        imp.tag_pattern = tag_template("$version");
    }
}

/// The HTML comment git-cliff's templates sort groups by (`<!-- 0 -->Features`), cut.
fn cliff_group(group: &str) -> String {
    let g = group.trim();
    match g.strip_prefix("<!--").and_then(|r| r.split_once("-->")) {
        Some((_, rest)) => rest.trim().to_owned(),
        None => g.to_owned(),
    }
}

/// git-cliff: `cliff.toml`, `[tool.git-cliff]` or `[workspace.metadata.git-cliff]`
/// (`cfg` is the table that holds `[git]`).
pub fn git_cliff(name: &str, cfg: &Value, imp: &mut Import) {
    let Some(git) = cfg.get("git") else {
        imp.unmapped.push(format!("{name}: no [git] table"));
        return;
    };
    if bool_at(git, "conventional_commits") == Some(false) {
        imp.unmapped.push(format!(
            "{name}: git.conventional_commits = false (jitcommit reads Conventional Commits)"
        ));
    }
    let mut claimed: Vec<&str> = Vec::new();
    let mut groups = Vec::new();
    for (i, parser) in git
        .get("commit_parsers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let at = format!("{name}: git.commit_parsers[{i}]");
        let Some(message) = str_at(parser, "message") else {
            imp.unmapped.push(format!("{at} matches no message (body, footer, field or sha matchers have no jitcommit setting)"));
            continue;
        };
        if let Err(e) = check_exclusion(message) {
            imp.unmapped
                .push(format!("{at}: message {message:?} does not compile: {e}"));
            continue;
        }
        // Whether the parser takes every commit of type `t`, scoped or not.
        let re = Exclusions::of_patterns(&[message]);
        let matches = |t: &str| re.matches(&format!("{t}: x")) && re.matches(&format!("{t}(s): x"));
        if bool_at(parser, "skip") == Some(true) {
            // git-cliff searches the message anywhere; exclude-commits match from its start.
            let anchored = if message.starts_with('^') {
                message.to_owned()
            } else {
                format!("(?s:.*?)(?:{message})")
            };
            imp.exclude_commits.push(anchored);
            imp.mapped
                .push(format!("{at} skip {message:?} → changelog.exclude-commits"));
            continue;
        }
        let Some(group) = str_at(parser, "group") else {
            imp.unmapped.push(format!("{at}: neither a group nor skip"));
            continue;
        };
        let group = cliff_group(group);
        let types: Vec<&str> = CONVENTIONAL
            .iter()
            .copied()
            .filter(|t| !claimed.contains(t) && matches(t))
            .collect();
        if types.is_empty() {
            imp.unmapped.push(format!(
                "{at}: message {message:?} → group {group:?} names no whole type (a section is per type)"
            ));
            continue;
        }
        for t in &types {
            claimed.push(t);
            imp.sections.insert((*t).to_owned(), Some(group.clone()));
            groups.push((*t).to_owned());
        }
        imp.mapped.push(format!(
            "{at} {message:?} → sections.{} = {group:?}",
            types.join("/")
        ));
    }
    if !groups.is_empty() {
        // A type no parser groups is not listed (filter_commits) or listed under no
        // group: either way, no section.
        for t in CONVENTIONAL {
            if !claimed.contains(t) {
                imp.sections.insert((*t).to_owned(), None);
            }
        }
        imp.type_order = groups;
    }
    if let Some(p) = str_at(git, "tag_pattern").filter(|p| !p.is_empty()) {
        let bare = p.trim_start_matches('^');
        let prefix: String = bare
            .chars()
            .take_while(|c| {
                c.is_ascii_alphanumeric() && !c.is_ascii_digit() || matches!(c, '-' | '_' | '/')
            })
            .collect();
        let rest = &bare[prefix.len()..];
        if rest.starts_with("[0-9]") || rest.starts_with("\\d") || rest.is_empty() {
            imp.tag_pattern = Some(tag_pattern_around(&prefix, ""));
            imp.mapped.push(format!(
                "{name}: git.tag_pattern {p:?} → changelog.tag-pattern (tags {prefix}X.Y.Z)"
            ));
        } else {
            imp.unmapped.push(format!(
                "{name}: git.tag_pattern {p:?} (no version prefix read from it)"
            ));
        }
    }
    if let Some(p) = str_at(git, "ignore_tags").filter(|p| !p.is_empty()) {
        if TagPattern::new(p).is_ok() {
            imp.ignore_tags = Some(p.to_owned());
            imp.mapped.push(format!(
                "{name}: git.ignore_tags {p:?} → changelog.ignore-tags"
            ));
        } else {
            imp.unmapped
                .push(format!("{name}: git.ignore_tags {p:?} does not compile"));
        }
    }
    if let Some(p) = str_at(git, "skip_tags").filter(|p| !p.is_empty()) {
        imp.unmapped.push(format!(
            "{name}: git.skip_tags {p:?} (jitcommit never drops a release's commits; ignore-tags moves them to the next release)"
        ));
    }
}

/// release-please's default `changelog-sections` (src/changelog-notes.ts).
const RP_SECTIONS: &[(&str, &str, bool)] = &[
    ("feat", "Features", false),
    ("fix", "Bug Fixes", false),
    ("perf", "Performance Improvements", false),
    ("revert", "Reverts", false),
    ("chore", "Miscellaneous Chores", true),
    ("docs", "Documentation", true),
    ("style", "Styles", true),
    ("refactor", "Code Refactoring", true),
    ("test", "Tests", true),
    ("build", "Build System", true),
    ("ci", "Continuous Integration", true),
];

/// release-please: `release-please-config.json`, its top-level options with a single
/// package's (`packages["."]`) over them.
pub fn release_please(name: &str, cfg: &Value, imp: &mut Import) {
    let Some(top) = cfg.as_object() else { return };
    let mut opts = top.clone();
    if let Some(packages) = cfg.get("packages").and_then(Value::as_object) {
        match packages.len() {
            1 => {
                if let Some((path, p)) = packages.iter().next() {
                    opts.extend(p.as_object().cloned().unwrap_or_default());
                    if path != "." {
                        imp.unmapped.push(format!("{name}: packages.{path:?} (read as the repository's only package)"));
                    }
                }
            }
            n => imp.unmapped.push(format!(
                "{name}: {n} packages (a monorepo: one convention per repository; the top-level options were read)"
            )),
        }
    }
    let sections: Vec<(String, String, bool)> =
        match opts.get("changelog-sections").and_then(Value::as_array) {
            Some(list) => list
                .iter()
                .filter_map(|s| {
                    Some((
                        str_at(s, "type")?.to_owned(),
                        str_at(s, "section")?.to_owned(),
                        bool_at(s, "hidden") == Some(true),
                    ))
                })
                .collect(),
            None => RP_SECTIONS
                .iter()
                .map(|(t, s, h)| ((*t).to_owned(), (*s).to_owned(), *h))
                .collect(),
        };
    for t in CONVENTIONAL {
        imp.sections.insert((*t).to_owned(), None);
    }
    let mut shown = Vec::new();
    for (t, s, hidden) in &sections {
        imp.extra_types.push(t.clone());
        imp.sections.insert(t.clone(), (!hidden).then(|| s.clone()));
        if !hidden {
            shown.push(format!("{t} = {s:?}"));
        }
    }
    imp.type_order = sections.iter().map(|(t, ..)| t.clone()).collect();
    imp.mapped.push(format!(
        "{name}: changelog-sections{} → sections ({}); hidden types are not listed",
        if opts.contains_key("changelog-sections") {
            ""
        } else {
            " (release-please's defaults)"
        },
        shown.join(", ")
    ));
    let minor = opts.get("bump-minor-pre-major").and_then(Value::as_bool) == Some(true);
    imp.zero_major(format!("{name}: bump-minor-pre-major = {minor}"), !minor);
    if opts
        .get("bump-patch-for-minor-pre-major")
        .and_then(Value::as_bool)
        == Some(true)
    {
        imp.unmapped.push(format!(
            "{name}: bump-patch-for-minor-pre-major (before 1.0.0 a feat bumps the minor version in jitcommit)"
        ));
    }
    let v = opts.get("include-v-in-tag").and_then(Value::as_bool) != Some(false);
    imp.tag_pattern = Some(tag_pattern_around(if v { "v" } else { "" }, ""));
    if opts
        .get("include-component-in-tag")
        .and_then(Value::as_bool)
        == Some(true)
    {
        imp.unmapped.push(format!(
            "{name}: include-component-in-tag (tags `component-v1.2.3`: give changelog.tag-pattern by hand)"
        ));
    }
}
