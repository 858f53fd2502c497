//! What `jitcommit init` reads from other tools' configs, as data: commitlint's JSON
//! and YAML files, cog.toml and .versionrc. Nothing here touches the file system or
//! runs anything; `fuzz/fuzz_targets/init.rs` includes this file to feed it arbitrary
//! bytes.

use std::collections::BTreeMap;

use jitcommit_core::config::Convention;

/// What the imported files said.
#[derive(Debug, Default)]
pub struct Import {
    pub types: Option<Vec<String>>,
    pub extra_types: Vec<String>,
    pub scopes: Option<Vec<String>>,
    pub subject_max: Option<usize>,
    pub body_wrap: Option<usize>,
    pub sections: BTreeMap<String, Option<String>>,
    pub read: Vec<String>,
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

pub fn cog(text: &str, imp: &mut Import) -> Result<(), String> {
    let v: toml::Table = toml::from_str(text).map_err(|e| format!("cog.toml: {e}"))?;
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
                    imp.sections.insert(
                        ty.clone(),
                        if omit { None } else { title.map(str::to_owned) },
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

/// The convention the imports describe, on top of the built-in one.
pub fn apply(imp: &Import) -> Convention {
    let mut c = Convention::default();
    if let Some(t) = &imp.types {
        c.types = t.clone();
    }
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
    c
}
