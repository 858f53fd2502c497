//! What `jitcommit init` may show or write: a convention that the convention loader
//! (`jitcommit_core::convention`, the one every hook runs) reads back as itself, and
//! whose hooks accept a commit. Every proposal passes through [`loadable`], whatever
//! it came from (an imported config of any tool, the history's types and scopes): each
//! value the loader refuses is dropped and listed with the loader's reason, never
//! written, so no repository is left whose hooks refuse every commit (docs/trust.md,
//! "What init writes loads"). Nothing here touches the file system.

use jitcommit_core::config::{self, Convention};
use jitcommit_core::convention;

/// The shortest summary a subject must have room for after its type and `: `.
pub const MIN_SUMMARY: usize = 10;

/// The loader's verdict on `text` as a `.commit-convention.toml`.
fn load(text: &str) -> Result<Convention, config::ConfigError> {
    let mut read =
        |name: &str| Ok((name == ".commit-convention.toml").then(|| text.as_bytes().to_vec()));
    convention::discover(&mut read).map(|l| l.convention)
}

/// The loader's reason for refusing `key = value` on its own, if it refuses it.
fn refusal(key: &str, value: toml::Value) -> Option<String> {
    let mut t = toml::Table::new();
    t.insert(key.to_owned(), value);
    refusal_of(&t)
}

/// The loader's reason for refusing the convention table `t`, if it refuses it.
fn refusal_of(t: &toml::Table) -> Option<String> {
    let text = toml::to_string(t).unwrap_or_default();
    match load(&text) {
        Ok(_) => None,
        Err(config::ConfigError::Invalid { message, .. }) => Some(message),
        Err(e) => Some(e.to_string()),
    }
}

/// `list` (the convention's `key`) without the entries the loader refuses or repeats,
/// each listed in `unmapped` as a `what` with the reason. A list emptied this way is
/// `fallback` (the built-in one): an empty list would mean "any" or fail to load.
fn keep_list(
    list: &mut Vec<String>,
    key: &str,
    what: &str,
    fallback: &[String],
    unmapped: &mut Vec<String>,
) {
    let had = !list.is_empty();
    let mut kept: Vec<String> = Vec::new();
    for item in list.drain(..) {
        if kept.contains(&item) {
            continue;
        }
        match refusal(
            key,
            toml::Value::Array(vec![toml::Value::String(item.clone())]),
        ) {
            Some(reason) => unmapped.push(format!("the {what} {item:?}: {reason}")),
            None => kept.push(item),
        }
    }
    if had && kept.is_empty() {
        unmapped.push(format!(
            "{key}: none of the values loads; the built-in {key} are kept"
        ));
        kept = fallback.to_vec();
    }
    *list = kept;
}

/// `n` (the convention's `key`), or `fallback` with a line in `unmapped` when the
/// loader refuses it.
fn keep_int(n: &mut usize, key: &str, fallback: usize, unmapped: &mut Vec<String>) {
    let value = i64::try_from(*n).unwrap_or(i64::MAX);
    if let Some(reason) = refusal(key, toml::Value::Integer(value)) {
        unmapped.push(format!("{key} {n}: {reason}; {fallback} is kept"));
        *n = fallback;
    }
}

/// `c` as the loader reads it back, and with room for a commit: every value the loader
/// refuses is dropped (or the built-in one kept) and listed in `unmapped` with the
/// loader's reason. Whatever is returned loads as itself: a proposal still refused as a
/// whole after the values are dropped gives way to the built-in convention (with the
/// same adoption point), and says so.
pub fn loadable(mut c: Convention, unmapped: &mut Vec<String>) -> Convention {
    let builtin = Convention::default();
    keep_list(&mut c.types, "types", "type", &builtin.types, unmapped);
    keep_list(&mut c.scopes, "scopes", "scope", &[], unmapped);
    keep_list(&mut c.verbs, "verbs", "verb", &builtin.verbs, unmapped);
    keep_list(
        &mut c.placeholders,
        "placeholders",
        "placeholder",
        &builtin.placeholders,
        unmapped,
    );
    keep_int(
        &mut c.subject_max,
        "subject-max",
        builtin.subject_max,
        unmapped,
    );
    keep_int(&mut c.body_wrap, "body-wrap", builtin.body_wrap, unmapped);
    // The prompt's budget, from a model server's window: within the loader's range.
    let mut window = toml::Table::new();
    let budget = i64::try_from(c.context.budget_tokens).unwrap_or(i64::MAX);
    window.insert("budget-tokens".to_owned(), toml::Value::Integer(budget));
    if let Some(reason) = refusal("context", toml::Value::Table(window)) {
        unmapped.push(format!(
            "context.budget-tokens {}: {reason}; {} is kept",
            c.context.budget_tokens, builtin.context.budget_tokens
        ));
        c.context.budget_tokens = builtin.context.budget_tokens;
    }
    // A limit shorter than the shortest type, `: ` and a short summary refuses every
    // subject: the hooks would refuse every commit.
    let shortest = c.types.iter().map(|t| t.chars().count()).min().unwrap_or(1);
    let room = shortest + 2 + MIN_SUMMARY;
    if c.subject_max > 0 && c.subject_max < room {
        unmapped.push(format!(
            "subject-max {}: leaves no room for a subject (a type, \": \" and a summary of {MIN_SUMMARY} characters need {room}); {} is kept",
            c.subject_max,
            builtin.subject_max.max(room)
        ));
        c.subject_max = builtin.subject_max.max(room);
    }
    // Sections and bump levels name types: those of a dropped type go with it.
    let types = c.types.clone();
    let known = |ty: &String| types.is_empty() || types.iter().any(|t| t.eq_ignore_ascii_case(ty));
    c.sections.retain(|ty, _| known(ty));
    c.changelog.bump_types.retain(|ty, _| known(ty));
    let names: Vec<String> = c.sections.keys().cloned().collect();
    for ty in names {
        let Some(title) = c.sections.get(&ty).cloned() else {
            continue;
        };
        // With the types, which a section must name.
        let mut one = toml::Table::new();
        one.insert(ty.clone(), toml::Value::String(title));
        let mut t = toml::Table::new();
        let listed = c.types.iter().map(|t| toml::Value::String(t.clone()));
        t.insert("types".to_owned(), toml::Value::Array(listed.collect()));
        t.insert("sections".to_owned(), toml::Value::Table(one));
        if let Some(reason) = refusal_of(&t) {
            c.sections.remove(&ty);
            unmapped.push(format!("the changelog section of {ty}: {reason}"));
        }
    }
    match load(&c.to_toml()) {
        Ok(read) if read == c => c,
        other => {
            let why = match other {
                Ok(_) => "it does not read back as itself".to_owned(),
                Err(e) => e.to_string(),
            };
            unmapped.push(format!(
                "the proposed convention does not load ({why}); the built-in convention is shown instead"
            ));
            Convention {
                adopted: c.adopted,
                ..builtin
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::{Fit, propose};
    use crate::import::{Import, apply, cog, commitlint, versionrc};
    use proptest::prelude::*;

    /// The proposal for an import and a history, through [`loadable`] as `init` makes
    /// it, and the loader's reading of it.
    fn proposed(imp: &mut Import, fit: &Fit) -> (Convention, Convention) {
        let imported = loadable(apply(imp), &mut imp.unmapped);
        let conv = loadable(propose(&imported, fit), &mut imp.unmapped);
        let read = load(&conv.to_toml()).unwrap_or_else(|e| panic!("{e}\n{}", conv.to_toml()));
        (conv, read)
    }

    fn fit_of(types: &[&str], scopes: &[&str], longest: usize) -> Fit {
        let mut f = Fit {
            seen: jitcommit_core::fit::Observed {
                read: 10,
                spec: 10,
                longest_subject: longest,
                ..Default::default()
            },
            head: Some(jitcommit_core::repo::ObjectId::null(gix::hash::Kind::Sha1)),
            ..Fit::default()
        };
        for t in types {
            f.seen.types.insert((*t).to_owned(), 1);
        }
        for s in scopes {
            f.seen.scopes.insert((*s).to_owned(), 1);
        }
        f
    }

    #[test]
    fn the_attackers_examples_load_and_are_listed() {
        // commitlint: header-max-length 5000, a 41-character type, a scope list.
        let long_type = "t".repeat(41);
        let cfg = serde_json::json!({"rules": {
            "header-max-length": [2, "always", 5000],
            "body-max-line-length": [2, "always", 5000],
            "type-enum": [2, "always", ["feat", "fix", long_type]],
            "scope-enum": [2, "always", ["api", "cli"]],
        }});
        let mut imp = Import::default();
        commitlint(".commitlintrc.json", &cfg, &mut imp);
        // The history: a scope `api, cli`, a 41-character type.
        let fit = fit_of(&["feat", &long_type], &["api, cli", "core"], 60);
        let (conv, read) = proposed(&mut imp, &fit);
        assert_eq!(conv, read);
        assert_eq!(conv.types, ["feat", "fix"]);
        assert_eq!(conv.scopes, ["api", "cli", "core"]);
        assert_eq!(conv.subject_max, 72);
        let said = imp.unmapped.join("\n");
        for needle in [
            "subject-max 5000:",
            "body-wrap 5000:",
            &format!("the type \"{long_type}\":"),
            "the scope \"api, cli\":",
        ] {
            assert!(said.contains(needle), "{needle}\n{said}");
        }
        // A limit no subject fits under.
        let mut imp = Import::default();
        commitlint(
            ".commitlintrc.json",
            &serde_json::json!({"rules": {"header-max-length": [2, "always", 5]}}),
            &mut imp,
        );
        let (conv, _) = proposed(&mut imp, &fit_of(&[], &[], 0));
        assert_eq!(conv.subject_max, 72);
        assert!(imp.unmapped.iter().any(|u| u.contains("leaves no room")));
    }

    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z]{1,8}",
            "[a-z]{39,45}",
            ".{0,12}",
            Just("api, cli".to_owned()),
            Just("#x".to_owned()),
            Just("a\u{1b}[31m".to_owned()),
            Just("do\u{202e}cs".to_owned()),
            Just(String::new()),
        ]
    }

    fn number() -> impl Strategy<Value = u64> {
        prop_oneof![0u64..20, 20u64..1200, Just(5000u64), Just(u64::MAX)]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any commitlint, cog and .versionrc values and any history's types, scopes
        /// and subject lengths give a proposal the loader reads back as itself.
        #[test]
        fn every_proposal_loads(
            types in proptest::collection::vec(word(), 0..5),
            scopes in proptest::collection::vec(word(), 0..5),
            sections in proptest::collection::vec((word(), word()), 0..4),
            header in number(),
            wrap in number(),
            history_types in proptest::collection::vec(word(), 0..5),
            history_scopes in proptest::collection::vec(word(), 0..5),
            longest in 0usize..3000,
            prose in any::<bool>(),
        ) {
            let mut imp = Import::default();
            let cfg = serde_json::json!({"rules": {
                "type-enum": [2, "always", types],
                "scope-enum": [2, "always", scopes],
                "header-max-length": [2, "always", header],
                "body-max-line-length": [2, "always", wrap],
            }});
            commitlint(".commitlintrc.json", &cfg, &mut imp);
            let mut kinds = toml::Table::new();
            for (ty, title) in &sections {
                let mut t = toml::Table::new();
                t.insert("changelog_title".to_owned(), toml::Value::String(title.clone()));
                kinds.insert(ty.clone(), toml::Value::Table(t));
            }
            let mut doc = toml::Table::new();
            doc.insert("commit_types".to_owned(), toml::Value::Table(kinds));
            cog(&toml::to_string(&doc).unwrap(), &mut imp).unwrap();
            let rc: Vec<_> = sections
                .iter()
                .map(|(ty, s)| serde_json::json!({"type": ty, "section": s}))
                .collect();
            versionrc(".versionrc", &serde_json::json!({"types": rc}), &mut imp);
            let ht: Vec<&str> = history_types.iter().map(String::as_str).collect();
            let hs: Vec<&str> = history_scopes.iter().map(String::as_str).collect();
            let mut fit = fit_of(&ht, &hs, longest);
            fit.seen.prose_bodies = usize::from(prose);
            let (conv, read) = proposed(&mut imp, &fit);
            prop_assert_eq!(&conv, &read);
            let shortest = conv.types.iter().map(|t| t.chars().count()).min().unwrap_or(1);
            prop_assert!(conv.subject_max == 0 || conv.subject_max >= shortest + 2 + MIN_SUMMARY);
        }
    }
}
