//! Arbitrary bytes as the configs `jitcommit init` imports from a repository
//! (commitlint's JSON or YAML, `.versionrc`, `cog.toml`, and the release tools':
//! python-semantic-release, commitizen, git-cliff, release-please): the readers never panic
//! (deep nesting included), and the convention they describe renders to TOML that
//! parses and reads back as a convention table; after `proposal::loadable` (what
//! `init` shows), the convention loader reads it back as itself. The readers are the
//! binary's own modules, included by path: they touch no file and run nothing.
#![no_main]

#[path = "../../src/bin/jitcommit/import.rs"]
#[allow(dead_code)]
mod import;

#[path = "../../src/bin/jitcommit/proposal.rs"]
#[allow(dead_code)]
mod proposal;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut imp = import::Import::default();
    if let Ok(v) = import::parse_json_or_yaml(".commitlintrc", text) {
        import::commitlint(".commitlintrc", &v, &mut imp);
        import::versionrc(".versionrc", &v, &mut imp);
        import::semantic_release("pyproject.toml", &v, &mut imp);
        import::commitizen(".cz.json", &v, &mut imp);
        import::git_cliff("cliff.toml", &v, &mut imp);
        import::release_please("release-please-config.json", &v, &mut imp);
    }
    let _ = import::cog(text, &mut imp);
    let conv = import::apply(&imp);
    let rendered = conv.to_toml();
    assert!(rendered.parse::<toml::Table>().is_ok(), "{rendered}");
    let shown = proposal::loadable(conv, &mut imp.unmapped).to_toml();
    let mut read = |name: &str| {
        Ok((name == ".commit-convention.toml").then(|| shown.clone().into_bytes()))
    };
    let loaded = jitcommit_core::convention::discover(&mut read);
    assert!(loaded.is_ok(), "{shown}\n{loaded:?}");
});
