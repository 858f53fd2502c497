//! `jitcommit facts`: the repository's fact store for people and tools — list and
//! filter it as JSON, show what a change of some paths selects and why, validate it
//! (`--check`, with its generated index) and write the index (`--write`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use jitcommit_core::facts::{self, Fact, Problem, Store};

use crate::error::{Error, text, usage};
use crate::repo::Context;
use crate::{Outcome, print};

const HELP: &str = "\
jitcommit facts: the repository's fact store (.commit-context.md and the convention's
[facts] table): CLASS.key=value predicates the drafter selects for each change

USAGE:
    jitcommit facts [FILTERS]             list the facts as JSON
    jitcommit facts --select PATH...      the facts a change of these paths selects, and why
    jitcommit facts --check               validate the store (grammar, duplicate IDs, globs
                                          that match nothing in HEAD) and its index
    jitcommit facts --write               write the generated index (.commit-context.index.json)

FILTERS (a fact must pass every one given):
    --class C          facts of class C (SCOPE, TERM, RULE, PATH or any other)
    --prefix P         IDs that start with P
    --contains TEXT    ID or value holds TEXT (ASCII case ignored)

OPTIONS:
    --file FILE        read this store instead of .commit-context.md at the work tree root
    --config FILE      use this convention file
    -h, --help         print this help

EXIT STATUS:
    0 ok, 1 the store has problems or its index is stale (each printed as file:line),
    2 usage or internal error

EXAMPLES:
    jitcommit facts --check
    jitcommit facts --select crates/core/src/lib.rs docs/facts.md
    jitcommit facts --class TERM --contains git
    jitcommit facts --write
";

#[derive(Default)]
struct Settings {
    check: bool,
    write: bool,
    select: bool,
    paths: Vec<String>,
    class: Option<String>,
    prefix: Option<String>,
    contains: Option<String>,
    file: Option<PathBuf>,
    config: Option<PathBuf>,
}

fn parse(args: Vec<OsString>) -> Result<Option<Settings>, Error> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut s = Settings::default();
    while let Some(arg) = p.next()? {
        match arg {
            Long("check") => s.check = true,
            Long("write") => s.write = true,
            Long("select") => s.select = true,
            Long("class") => s.class = Some(text(p.value()?, "--class")?),
            Long("prefix") => s.prefix = Some(text(p.value()?, "--prefix")?),
            Long("contains") => s.contains = Some(text(p.value()?, "--contains")?),
            Long("file") => s.file = Some(p.value()?.into()),
            Long("config") => s.config = Some(p.value()?.into()),
            Short('h') | Long("help") => return Ok(None),
            Value(v) if s.select => s.paths.push(text(v, "a path")?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if usize::from(s.check) + usize::from(s.write) + usize::from(s.select) > 1 {
        return Err(usage("--check, --write and --select exclude each other"));
    }
    if s.select && s.paths.is_empty() {
        return Err(usage("--select needs at least one PATH"));
    }
    Ok(Some(s))
}

/// Runs `jitcommit facts`.
pub fn run(args: Vec<OsString>) -> Result<Outcome, Error> {
    let Some(s) = parse(args)? else {
        return print(HELP);
    };
    let ctx = Context::open(s.config.as_deref())?;
    let root = ctx.root().to_owned();
    let (file_name, path) = match &s.file {
        Some(f) => (f.display().to_string(), f.clone()),
        None => (facts::FILE.to_owned(), root.join(facts::FILE)),
    };
    let bytes = match jitcommit_core::tree_file::read_in_tree(&root, &path) {
        Ok(Some(b)) => Some(b),
        Ok(None) if s.file.is_none() => None,
        Ok(None) => {
            return Err(Error::File {
                what: "read",
                path,
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            });
        }
        Err(source) => {
            return Err(Error::File {
                what: "read",
                path,
                source,
            });
        }
    };
    let paths = match (s.check, ctx.repo.head_commit()) {
        (false, _) => None,
        (true, Some(head)) => Some(ctx.repo.tree_paths(head)?),
        (true, None) => Some(ctx.repo.index_paths()?),
    };
    let (store, problems) = facts::check_all(
        &file_name,
        bytes.as_deref(),
        &ctx.convention,
        paths.as_deref(),
    );
    if s.check {
        return check(&root, &store, problems);
    }
    if !problems.is_empty() {
        return Err(Error::Message(format!(
            "the fact store has problems: {}; run `jitcommit facts --check`",
            problems[0]
        )));
    }
    if s.write {
        let index = root.join(facts::INDEX_FILE);
        // By rename, never through a link (jitcommit_core::tree_file).
        jitcommit_core::tree_file::write_in_tree(
            &root,
            ctx.repo.git_dir(),
            &index,
            store.index().as_bytes(),
        )
        .map_err(|source| Error::File {
            what: "write",
            path: index,
            source,
        })?;
        return Ok(Outcome::Ok);
    }
    let keep = |f: &Fact| {
        s.class
            .as_ref()
            .is_none_or(|c| f.class.eq_ignore_ascii_case(c))
            && s.prefix
                .as_ref()
                .is_none_or(|p| f.id.starts_with(p.as_str()))
            && s.contains.as_ref().is_none_or(|t| {
                let t = t.to_ascii_lowercase();
                f.id.to_ascii_lowercase().contains(&t) || f.value.to_ascii_lowercase().contains(&t)
            })
    };
    let json = if s.select {
        let sel: Vec<_> = jitcommit_drafter::select::select(&store, &s.paths, &[])
            .into_iter()
            .filter(|x| keep(&x.fact))
            .collect();
        serde_json::to_string_pretty(&sel)
    } else {
        let all: Vec<&Fact> = store.facts.iter().filter(|f| keep(f)).collect();
        serde_json::to_string_pretty(&all)
    }
    .map_err(|e| Error::Message(e.to_string()))?;
    print(&(json + "\n"))
}

/// `--check`: every problem as `file:line: message` on stdout, exit 1 if any; notes on
/// classes the drafter does not use go to stderr and do not fail.
fn check(root: &Path, store: &Store, mut problems: Vec<Problem>) -> Result<Outcome, Error> {
    let index = root.join(facts::INDEX_FILE);
    if problems.is_empty() {
        let message = match jitcommit_core::tree_file::read_in_tree(root, &index) {
            Ok(Some(committed)) if committed != store.index().as_bytes() => Some(
                "stale: it differs from what the store derives; run `jitcommit facts --write`"
                    .to_owned(),
            ),
            Ok(_) => None,
            Err(e) => Some(format!("cannot be read: {e}")),
        };
        if let Some(message) = message {
            problems.push(Problem {
                file: facts::INDEX_FILE.to_owned(),
                line: 1,
                message,
            });
        }
    }
    let mut out = String::new();
    for p in &problems {
        out.push_str(&format!(
            "{}\n",
            jitcommit_core::message::one_line(&p.to_string())
        ));
    }
    for f in store
        .facts
        .iter()
        .filter(|f| !facts::KNOWN_CLASSES.contains(&f.class.as_str()))
    {
        eprintln!(
            "jitcommit facts: note: {}:{}: class {} is kept and listed, never selected for a draft",
            f.file, f.line, f.class
        );
    }
    print(&out)?;
    if problems.is_empty() {
        Ok(Outcome::Ok)
    } else {
        eprintln!(
            "jitcommit facts: {} problem(s) in the fact store",
            problems.len()
        );
        Ok(Outcome::Failed)
    }
}
