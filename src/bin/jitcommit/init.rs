//! `jitcommit init`: writes the repository's convention where the project keeps its
//! tool config, importing what commitlint, cocogitto or standard-version already say.
//! It shows the text first; `--write` writes it, and an existing convention is only
//! replaced with `--force`.

use std::ffi::OsString;
use std::path::Path;

use jitcommit_core::config::{self, Convention, Origin};
use jitcommit_core::convention;
use jitcommit_core::term::printable;

use crate::error::{Error, usage};
use crate::import::{
    Import, apply, cog, commitizen, commitlint, git_cliff, parse_json_or_yaml, release_please,
    semantic_release, versionrc,
};
use crate::proposal::loadable;
use crate::{Outcome, print};

const HELP: &str = "\
jitcommit init: write the repository's commit convention

USAGE:
    jitcommit init            show the convention and where it would go
    jitcommit init --write    write it (an existing convention needs --force)

Where: pyproject.toml [tool.commit-convention] when there is a pyproject.toml,
Cargo.toml [workspace.metadata.commit-convention] (or [package.metadata…]) in a Rust
project, else .commit-convention.toml. It reads the last 500 commits of HEAD first:
how many pass the convention and the Conventional Commits grammar, which types and
scopes they use; it proposes the convention that fits them (their types, body = \"free\"
where bodies are prose, exempt \"release\" where release commits are titled with a bare
version, bump-types where a recent release was tagged on commits such as chore alone,
budget-tokens = the configured model's window where its server says it) and the
adoption point `adopted` = HEAD: that commit and its
history are accepted as they are, and every later commit is held to the convention
(docs/check.md). Imported: commitlint (.commitlintrc,
.commitlintrc.json/.yaml/.yml; a JavaScript config is a program and is never run:
convert it to .commitlintrc.json), cog.toml, .versionrc(.json): types, scopes,
subject length, changelog sections. The release tool: python-semantic-release
(pyproject.toml [tool.semantic_release], releaserc.toml), commitizen ([tool.commitizen],
.cz.toml, cz.json, .cz.yaml), git-cliff (cliff.toml, [tool.git-cliff],
[workspace.metadata.git-cliff]) and release-please (release-please-config.json): its
types, the sections it lists and the types it hides, the commits it excludes, what
each type bumps and a breaking change before 1.0.0, its tag format and the tags it
ignores. `Mapped:` lines say what each setting became; whatever cannot be mapped is
listed.

OPTIONS:
    --write          write the file
    --force          replace a convention that is already there
    --to pyproject|cargo|file   choose the file yourself
    -h, --help       print this help

EXAMPLES:
    jitcommit init
    jitcommit init --write
    jitcommit init --to file --write --force
";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Pyproject,
    Cargo { workspace: bool },
    File,
}

impl Target {
    fn file(self) -> &'static str {
        match self {
            Target::Pyproject => "pyproject.toml",
            Target::Cargo { .. } => "Cargo.toml",
            Target::File => ".commit-convention.toml",
        }
    }

    fn table(self) -> Option<&'static str> {
        match self {
            Target::Pyproject => Some("tool.commit-convention"),
            Target::Cargo { workspace: true } => Some("workspace.metadata.commit-convention"),
            Target::Cargo { workspace: false } => Some("package.metadata.commit-convention"),
            Target::File => None,
        }
    }
}

/// A file of the work tree, `None` when there is none (or it is not UTF-8). A link
/// that leaves the work tree is an error, never followed (`jitcommit_core::tree_file`).
fn read(root: &Path, name: &str) -> Result<Option<String>, Error> {
    let path = root.join(name);
    match jitcommit_core::tree_file::read_in_tree(root, &path) {
        Ok(bytes) => Ok(bytes.and_then(|b| String::from_utf8(b).ok())),
        Err(source) => Err(Error::File {
            what: "read",
            path,
            source,
        }),
    }
}

fn import(root: &Path) -> Result<Import, Error> {
    let mut imp = Import::default();
    let bad = Error::Message;
    for name in [
        ".commitlintrc",
        ".commitlintrc.json",
        ".commitlintrc.yaml",
        ".commitlintrc.yml",
    ] {
        if let Some(text) = read(root, name)? {
            let v =
                parse_json_or_yaml(&root.join(name).display().to_string(), &text).map_err(bad)?;
            commitlint(name, &v, &mut imp);
            imp.read.push(name.to_owned());
        }
    }
    for name in [
        "commitlint.config.js",
        "commitlint.config.cjs",
        "commitlint.config.mjs",
        "commitlint.config.ts",
        ".commitlintrc.js",
        ".commitlintrc.cjs",
    ] {
        if !root.join(name).is_file() {
            continue;
        }
        // A JavaScript config is a program of the repository, and commitlint would
        // run it (npx runs the repository's own node_modules/.bin/commitlint first):
        // init never executes repository code, so it says how to convert the file.
        imp.unmapped.push(format!(
            "{name}: not read (a JavaScript config is a program, and jitcommit runs no \
             code from the repository; after reviewing it, convert it to \
             .commitlintrc.json, e.g. with `npx commitlint --print-config json > \
             .commitlintrc.json`, and run jitcommit init again)"
        ));
        break;
    }
    if let Some(text) = read(root, "cog.toml")? {
        cog(&text, &mut imp).map_err(bad)?;
        imp.read.push("cog.toml".to_owned());
    }
    for name in [".versionrc", ".versionrc.json"] {
        if let Some(text) = read(root, name)? {
            let v: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| bad(format!("{name}: {e}")))?;
            versionrc(name, &v, &mut imp);
            imp.read.push(name.to_owned());
        }
    }
    release_tools(root, &mut imp)?;
    Ok(imp)
}

/// A TOML file of the work tree as JSON; a parse error names the file, line and column.
fn toml_file(root: &Path, name: &str) -> Result<Option<serde_json::Value>, Error> {
    let Some(text) = read(root, name)? else {
        return Ok(None);
    };
    let table: toml::Table = toml::from_str(&text).map_err(|e| {
        Error::Message(format!(
            "{}: {}",
            root.join(name).display(),
            e.to_string().trim_end()
        ))
    })?;
    Ok(Some(serde_json::to_value(table).unwrap_or_default()))
}

/// A JSON or YAML file of the work tree; a parse error names the file and line.
fn json_file(root: &Path, name: &str) -> Result<Option<serde_json::Value>, Error> {
    let Some(text) = read(root, name)? else {
        return Ok(None);
    };
    parse_json_or_yaml(&root.join(name).display().to_string(), &text)
        .map(Some)
        .map_err(Error::Message)
}

/// The value at a dotted path of `v`.
fn at<'a>(v: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(v, |v, k| v.get(k))
}

/// The project's release tool: python-semantic-release, commitizen, git-cliff and
/// release-please, wherever each keeps its config (docs/changelog.md, "Importing a
/// release tool").
fn release_tools(root: &Path, imp: &mut Import) -> Result<(), Error> {
    type Reader = fn(&str, &serde_json::Value, &mut Import);
    let pyproject = toml_file(root, "pyproject.toml")?;
    let cargo = toml_file(root, "Cargo.toml")?;
    let mut found: Vec<(String, serde_json::Value, Reader)> = Vec::new();
    let mut take =
        |file: &str, doc: Option<&serde_json::Value>, tables: &[&str], reader: Reader| {
            for table in tables {
                if let Some(v) = doc.and_then(|d| {
                    if table.is_empty() {
                        Some(d)
                    } else {
                        at(d, table)
                    }
                }) {
                    let name = if table.is_empty() {
                        file.to_owned()
                    } else {
                        format!("{file} [{table}]")
                    };
                    found.push((name, v.clone(), reader));
                    return true;
                }
            }
            false
        };
    // python-semantic-release: pyproject.toml, else releaserc.toml / releaserc.json.
    if !take(
        "pyproject.toml",
        pyproject.as_ref(),
        &["tool.semantic_release"],
        semantic_release,
    ) {
        let toml = toml_file(root, "releaserc.toml")?;
        if !take(
            "releaserc.toml",
            toml.as_ref(),
            &["tool.semantic_release", "semantic_release"],
            semantic_release,
        ) {
            let json = json_file(root, "releaserc.json")?;
            take(
                "releaserc.json",
                json.as_ref(),
                &["semantic_release"],
                semantic_release,
            );
        }
    }
    // commitizen: pyproject.toml, .cz.toml, cz.toml, .cz.json, cz.json, .cz.yaml, cz.yaml.
    let mut cz = take(
        "pyproject.toml",
        pyproject.as_ref(),
        &["tool.commitizen"],
        commitizen,
    );
    for name in [".cz.toml", "cz.toml"] {
        if !cz {
            let doc = toml_file(root, name)?;
            cz = take(name, doc.as_ref(), &["tool.commitizen"], commitizen);
        }
    }
    for name in [".cz.json", "cz.json", ".cz.yaml", "cz.yaml"] {
        if !cz {
            let doc = json_file(root, name)?;
            cz = take(name, doc.as_ref(), &["commitizen"], commitizen);
        }
    }
    // git-cliff: cliff.toml, else the manifests' tables.
    let cliff = toml_file(root, "cliff.toml")?;
    if !take("cliff.toml", cliff.as_ref(), &[""], git_cliff)
        && !take(
            "pyproject.toml",
            pyproject.as_ref(),
            &["tool.git-cliff"],
            git_cliff,
        )
    {
        take(
            "Cargo.toml",
            cargo.as_ref(),
            &["workspace.metadata.git-cliff", "package.metadata.git-cliff"],
            git_cliff,
        );
    }
    let rp = json_file(root, "release-please-config.json")?;
    take(
        "release-please-config.json",
        rp.as_ref(),
        &[""],
        release_please,
    );
    for (name, v, reader) in found {
        reader(&name, &v, imp);
        imp.read.push(name);
    }
    Ok(())
}

/// The convention as the text of `target`'s table.
fn text_for(c: &Convention, target: Target) -> String {
    let body = c.to_toml();
    let Some(table) = target.table() else {
        return body;
    };
    let mut out = format!("[{table}]\n");
    for line in body.lines() {
        match line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            Some(sub) => out.push_str(&format!("[{table}.{sub}]\n")),
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// `text` without the `[table]` block and its sub-tables (up to the next other header).
fn without_table(text: &str, table: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') {
            let name = t.trim_start_matches('[').trim_end_matches(']').trim();
            skipping = name == table || name.starts_with(&format!("{table}."));
        }
        if !skipping {
            out.push_str(line);
        }
    }
    out
}

/// What the history told: how many of its last commits pass the convention before and
/// after fitting and at the spec's level, the types and scopes it uses, its bodies, and
/// the adoption point.
fn history_report(before: &crate::fit::Fit, after: &crate::fit::Fit, conv: &Convention) -> String {
    use crate::fit::counts;
    let (seen, n) = (&before.seen, before.seen.read);
    if n == 0 {
        return "History: no commits yet; the convention holds from the first one\n".to_owned();
    }
    let mut r = format!(
        "History: the last {n} commits: {} pass the convention as imported, {} the Conventional Commits grammar, {} the proposed convention ({} merges, reverts or fixups exempt)\n",
        before.gate, seen.spec, after.gate, seen.exempt
    );
    if seen.release_subjects > 0 {
        r.push_str(&format!(
            "Release commits: {} titled with a bare version (v1.2.3): exempt = [… \"release\"]\n",
            seen.release_subjects
        ));
    }
    r.push_str(&format!("Types used: {}\n", counts(&seen.types, 12)));
    r.push_str(&format!("Scopes used: {}\n", counts(&seen.scopes, 12)));
    r.push_str(&format!(
        "Bodies: {} prose, {} with bullets, {} subject only{}\n",
        seen.prose_bodies,
        seen.bullet_bodies,
        seen.subject_only,
        match conv.body {
            config::BodyPolicy::Free => ": body = \"free\"",
            config::BodyPolicy::Optional => ": body = \"optional\"",
            config::BodyPolicy::Required => "",
        }
    ));
    if let Some(point) = &conv.adopted {
        r.push_str(&format!(
            "Adoption point: {point} (HEAD): it and the history before it are accepted as they are; the convention holds for every commit after it (adopted = …)\n"
        ));
    }
    r
}

/// The context window of the configured model (git config `jitcommit.model`, or
/// `JITCOMMIT_MODEL`) as its server says it, asked as a draft asks it
/// (`jitcommit_drafter::discover`), with where it came from; `None` without a model or
/// an answer within five seconds.
fn model_window(repo: &jitcommit_core::repo::Repo) -> Option<(usize, String)> {
    use jitcommit_drafter::{Client, Flags, Settings, Window};
    let git =
        jitcommit_drafter::settings::git_lookup(|k| repo.config_string(k), |k| repo.config_bool(k));
    let settings = Settings::from_process_env(&Flags::default(), &git).ok()?;
    settings.model.as_ref()?;
    let ctx = config::ContextSettings::default();
    let mut client = Client::new(&settings, Window::of(&ctx)).ok()?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let info = client.discover(deadline);
    Some((info.window?, info.window_from.clone()?))
}

/// Runs `jitcommit init`.
pub fn run(args: Vec<OsString>) -> Result<Outcome, Error> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let (mut write, mut force, mut to) = (false, false, None);
    while let Some(arg) = p.next()? {
        match arg {
            Long("write") => write = true,
            Long("force") => force = true,
            Long("to") => {
                let v = p.value()?.to_string_lossy().into_owned();
                to = Some(match v.as_str() {
                    "pyproject" => Target::Pyproject,
                    "cargo" => Target::Cargo { workspace: false },
                    "file" => Target::File,
                    _ => {
                        return Err(usage(format!(
                            "invalid value {v:?} for --to (expected pyproject, cargo or file)"
                        )));
                    }
                });
            }
            Short('h') | Long("help") => return print(HELP),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let repo = crate::repo::discover_here()?;
    let root = repo
        .work_dir()
        .ok_or_else(|| usage("init needs a work tree (this is a bare repository)"))?
        .to_owned();
    let cargo_text = read(&root, "Cargo.toml")?;
    let workspace = cargo_text
        .as_deref()
        .is_some_and(|t| t.lines().any(|l| l.trim() == "[workspace]"));
    let target = match to {
        Some(Target::Cargo { .. }) => Target::Cargo { workspace },
        Some(t) => t,
        None if root.join("pyproject.toml").is_file() => Target::Pyproject,
        None if cargo_text.is_some() => Target::Cargo { workspace },
        None => Target::File,
    };
    let existing = match convention::discover_in_dir(&root) {
        Ok(l) => match l.origin {
            Origin::File { path, table } => {
                let path = path.strip_prefix(&root).unwrap_or(&path).to_owned();
                Some(Origin::File { path, table }.to_string())
            }
            Origin::Builtin | Origin::Fitted { .. } => None,
        },
        Err(e) => Some(format!(
            "{} (which does not parse: {e})",
            e.path().display()
        )),
    };
    let mut imp = import(&root)?;
    let imported = loadable(apply(&imp), &mut imp.unmapped);
    // The history it adopts: how the last commits fit, and the convention that fits.
    let before = crate::fit::read(&repo, &imported, crate::fit::LAST)?;
    let conv = crate::fit::propose(&imported, &before);
    let (no_bump_releases, release_types) = crate::fit::release_bumps(&repo, &conv)?;
    let mut conv = crate::fit::propose_bumps(&conv, &release_types);
    // The prompt's budget: the configured model's window, where its server says it.
    let window = model_window(&repo);
    if let Some((w, _)) = &window {
        conv.context.budget_tokens = *w;
    }
    // What the history and the server added is checked as the imports were: what is
    // shown loads.
    let conv = loadable(conv, &mut imp.unmapped);
    let after = crate::fit::read(&repo, &conv, crate::fit::LAST)?;
    let text = text_for(&conv, target);
    let place = match target.table() {
        Some(t) => format!("{} [{t}]", target.file()),
        None => target.file().to_owned(),
    };

    let mut report = String::new();
    if imp.read.is_empty() {
        report.push_str(
            "Imported: nothing (no commitlint, cog, standard-version, python-semantic-release, commitizen, git-cliff or release-please config found)\n",
        );
    } else {
        report.push_str(&format!("Imported: {}\n", imp.read.join(", ")));
    }
    for m in &imp.mapped {
        report.push_str(&format!("Mapped: {m}\n"));
    }
    for u in &imp.unmapped {
        report.push_str(&format!("Not mapped: {u}\n"));
    }
    report.push_str(&history_report(&before, &after, &conv));
    if no_bump_releases > 0 {
        report.push_str(&format!(
            "Releases: {no_bump_releases} of the last {} tagged releases held only commits that ask for no release ({}): bump-types = {{ {} }}\n",
            crate::fit::RELEASES,
            crate::fit::counts(&release_types, 8),
            release_types
                .keys()
                .map(|t| format!("{t} = \"patch\""))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some((w, from)) = &window {
        report.push_str(&format!(
            "Budget: the configured model's window is {w} tokens ({from}): budget-tokens = {w}\n"
        ));
    }
    // The report quotes the history (its types and scopes) and the imported files.
    eprint!("{}", printable(&report));
    if !write {
        print(&printable(&format!("# {place}\n{text}")))?;
        eprintln!(
            "Write it with: jitcommit init --write{}",
            if existing.is_some() { " --force" } else { "" }
        );
        if let Some(e) = &existing {
            eprintln!("A convention already exists: {e}");
        }
        return Ok(Outcome::Ok);
    }
    if let Some(e) = &existing
        && !force
    {
        eprintln!(
            "jitcommit init: a convention already exists: {e}; nothing written (replace it with --write --force)"
        );
        return Ok(Outcome::Failed);
    }
    let path = root.join(target.file());
    let new = match target.table() {
        None => text.clone(),
        Some(table) => {
            let old = read(&root, target.file())?.unwrap_or_default();
            let mut kept = without_table(&old, table);
            // A convention elsewhere (say .commit-convention.toml) would still win.
            while kept.ends_with("\n\n") {
                kept.pop();
            }
            if !kept.is_empty() && !kept.ends_with('\n') {
                kept.push('\n');
            }
            if kept.is_empty() {
                text.clone()
            } else {
                format!("{kept}\n{text}")
            }
        }
    };
    if force && target != Target::File && root.join(".commit-convention.toml").is_file() {
        eprintln!(
            "note: .commit-convention.toml is still there and is read first; remove it for {place} to take effect"
        );
    }
    // By rename, keeping the file's mode, never through a link.
    jitcommit_core::tree_file::write_in_tree(&root, repo.git_dir(), &path, new.as_bytes())
        .map_err(|source| Error::File {
            what: "write",
            path: path.clone(),
            source,
        })?;
    // What was written must read back as the convention shown.
    let loaded = convention::load_file(&path)?;
    if loaded.convention != conv {
        return Err(Error::Message(format!(
            "{}: the written convention does not read back the same",
            path.display()
        )));
    }
    eprintln!("wrote {place}");
    Ok(Outcome::Ok)
}
