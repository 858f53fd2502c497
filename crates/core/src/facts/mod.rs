//! The fact store: the repository's own instructions for its commit messages, as
//! `CLASS.key=value` predicates kept in `.commit-context.md` (ordinary Markdown) or in
//! the convention's `facts` table, validated where they enter and selected just in
//! time for each draft (docs/facts.md).
//!
//! [`parse`] reads a store in one pass ([`scan`]) and checks every fact (grammar, one
//! line, length cap, globs, unique IDs); the draft side (`jitcommit_drafter::select`)
//! picks the facts that apply to a staged change and builds the prompt's facts
//! fragment, whose values stay data inside evidence blocks marked with their source.
//! A store is repository text: not trusted (docs/trust.md).

pub mod scan;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The store's file name, at the work tree's root.
pub const FILE: &str = ".commit-context.md";
/// The generated index's file name, at the work tree's root.
pub const INDEX_FILE: &str = ".commit-context.index.json";
/// The source name of the facts in the convention's `facts` table.
pub const TABLE_SOURCE: &str = "commit-convention.facts";
/// The longest value, in characters.
pub const MAX_VALUE: usize = 200;
/// The longest ID, in characters.
pub const MAX_ID: usize = 120;
/// The most facts a store holds (the Markdown file and the convention's table
/// together): a larger store is a problem, so no push, draft or `facts --check` pays
/// for more.
pub const MAX_FACTS: usize = 1_000;
/// The largest Markdown store that is read, in bytes.
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// The classes the drafter gives a meaning to; any other class is kept and shown.
pub const KNOWN_CLASSES: &[&str] = &["SCOPE", "RULE", "PATH", "TERM"];

/// One fact.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fact {
    /// `CLASS.key`, unique in the store.
    pub id: String,
    /// `SCOPE`, `TERM`, `RULE`, `PATH`, or a class the drafter does not know.
    pub class: String,
    /// Everything after the class and its dot.
    pub key: String,
    /// One line of text.
    pub value: String,
    /// The file it was read from ([`FILE`] or [`TABLE_SOURCE`]).
    pub file: String,
    /// Its 1-based line (0 for the convention table, whose lines the config reader checks).
    pub line: usize,
}

impl Fact {
    /// `file:ID`, the source mark of its block in the prompt.
    pub fn source(&self) -> String {
        format!("{}:{}", self.file, self.id)
    }

    /// The glob a `SCOPE`, `PATH` or scoped `RULE` applies to.
    pub fn glob(&self) -> Option<&str> {
        match self.class.as_str() {
            "SCOPE" | "PATH" => Some(&self.key),
            "RULE" => rule_parts(&self.key).0,
            _ => None,
        }
    }

    /// Its glob as a matcher (`None` for a fact without one): compile it once and
    /// match every path with it, a compile costs far more than a match.
    pub fn matcher(&self) -> Option<Matcher> {
        self.glob().and_then(|g| compile(g).ok())
    }
}

/// A problem in a store, with the file and line it is on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// The store file.
    pub file: String,
    /// 1-based line (0: the convention table).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

/// Why a store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum FactsError {
    /// The file could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The reason.
        #[source]
        source: std::io::Error,
    },
    /// The store has problems (the first is shown, with the count of the rest).
    #[error("{}{}", .0[0], if .0.len() > 1 { format!(" (and {} more problems)", .0.len() - 1) } else { String::new() })]
    Invalid(Vec<Problem>),
}

/// The facts of a repository, in the order they were written.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Store {
    /// Every valid fact.
    pub facts: Vec<Fact>,
}

/// A `RULE` key's glob (when scoped) and name: the name is the part after the last
/// dot, `RULE.<name>` is unscoped.
fn rule_parts(key: &str) -> (Option<&str>, &str) {
    match key.rsplit_once('.') {
        Some((glob, name)) => (Some(glob), name),
        None => (None, key),
    }
}

/// A store glob compiled ([`compile`]).
#[derive(Debug, Clone)]
pub enum Matcher {
    /// A glob without a wildcard (`docs`, `crates/core/`): the path itself and every
    /// path under it, as its glob set would match them.
    Literal(String),
    /// Any other glob.
    Set(GlobSet),
}

impl Matcher {
    /// Whether `path` matches.
    pub fn is_match(&self, path: &str) -> bool {
        match self {
            Matcher::Literal(dir) => path
                .strip_prefix(dir.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
            Matcher::Set(set) => set.is_match(path),
        }
    }
}

/// A store glob as a matcher: `*` stays within a directory, `**` crosses them, and a
/// directory (with or without its trailing `/`) matches every file under it.
///
/// A glob of plain path characters only is matched by comparing bytes: building its
/// glob set (the glob and `glob/**`, a prefix search) cost ~130,000 instructions, a
/// few per cent of a one-file `--print-context` (docs/benchmarks.md, section
/// `print-context-speed`). Each other glob is built once per thread: a draft checks a
/// store's globs when it loads the store, then matches the staged paths against them
/// for the prompt and for the scopes, and building a glob set costs far more than
/// copying one.
pub fn compile(glob: &str) -> Result<Matcher, globset::Error> {
    let g = glob.trim_end_matches('/');
    if is_plain(g) {
        return Ok(Matcher::Literal(g.to_owned()));
    }
    Ok(Matcher::Set(compile_set(glob)?))
}

/// Whether `glob` is made only of characters no glob syntax gives a meaning to (and is
/// not empty), so that it matches itself and what lies under it, nothing else.
fn is_plain(glob: &str) -> bool {
    !glob.is_empty()
        && glob.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/' | b'+' | b'@')
        })
        && !glob.contains("//")
}

/// `glob` as globset builds it: the glob and everything under it.
fn compile_set(glob: &str) -> Result<GlobSet, globset::Error> {
    thread_local! {
        static BUILT: std::cell::RefCell<std::collections::HashMap<String, Result<GlobSet, globset::Error>>> =
            Default::default();
    }
    if let Some(built) = BUILT.with(|b| b.borrow().get(glob).cloned()) {
        return built;
    }
    let build = || {
        let mut b = GlobSetBuilder::new();
        for p in patterns(glob) {
            b.add(GlobBuilder::new(&p).literal_separator(true).build()?);
        }
        b.build()
    };
    let built = build();
    BUILT.with(|b| b.borrow_mut().insert(glob.to_owned(), built.clone()));
    built
}

/// Whether `path` can match `glob` as [`compile`] builds it: every path it matches
/// starts with the directories its literal start names ([`literal_dir`]), so a path
/// that does not is ruled out without compiling the glob.
pub fn may_match(glob: &str, path: &str) -> bool {
    path.starts_with(literal_dir(glob.trim_end_matches('/')))
}

/// Whether [`compile`] builds `glob`, found by parsing its two patterns without
/// compiling them: the error is the one [`compile`] gives (a parsed glob of at most
/// [`MAX_ID`] characters always compiles: the tests try that).
pub fn check_glob(glob: &str) -> Result<(), globset::Error> {
    for p in patterns(glob) {
        GlobBuilder::new(&p).literal_separator(true).build()?;
    }
    Ok(())
}

/// The two patterns a store glob stands for: itself, and everything under it.
fn patterns(glob: &str) -> [String; 2] {
    let g = glob.trim_end_matches('/');
    [g.to_owned(), format!("{g}/**")]
}

/// The directories a glob's literal start names (`crates/core/` for
/// `crates/core/**/*.rs` and for `crates/core/x`, empty for `**/*.md` or `docs`): every
/// path the glob matches starts with it.
fn literal_dir(glob: &str) -> &str {
    let literal = glob
        .find(['*', '?', '[', '{', '\\'])
        .map_or(glob, |at| &glob[..at]);
    literal.rfind('/').map_or("", |at| &glob[..=at])
}

/// What is wrong with `id` = `value` as a fact, if anything: the one check every
/// store form goes through (the Markdown file and the convention's table).
pub fn check_fact(id: &str, value: &str) -> Result<(), String> {
    let Some((class, key)) = id.split_once('.') else {
        return Err(format!("{id:?} is not CLASS.key"));
    };
    let class_ok = class.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && class
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !class_ok {
        return Err(format!(
            "class {class:?} must be upper case letters, digits or _"
        ));
    }
    if key.is_empty() {
        return Err(format!("{id:?} has nothing after {class}."));
    }
    if id.chars().count() > MAX_ID {
        return Err(format!("the ID is longer than {MAX_ID} characters"));
    }
    if let Some(c) = key
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>' | '`' | '='))
    {
        return Err(format!("the key {key:?} must not hold {c:?}"));
    }
    if value.trim().is_empty() {
        return Err(format!("{id} has no value after ="));
    }
    if value
        .chars()
        .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return Err(format!(
            "the value of {id} must be one line of printable text"
        ));
    }
    let n = value.chars().count();
    if n > MAX_VALUE {
        return Err(format!(
            "the value of {id} is {n} characters; at most {MAX_VALUE}"
        ));
    }
    match class {
        "SCOPE" | "PATH" => {
            check_glob(key).map_err(|e| format!("bad glob {key:?}: {}", e.kind()))?;
        }
        "RULE" => {
            let (glob, name) = rule_parts(key);
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(format!(
                    "rule name {name:?} must be letters, digits, - or _ (RULE.<glob>.<name>)"
                ));
            }
            if let Some(g) = glob {
                check_glob(g).map_err(|e| format!("bad glob {g:?}: {}", e.kind()))?;
            }
        }
        _ => {}
    }
    if class == "SCOPE" {
        check_scope(value)?;
    }
    Ok(())
}

/// A `SCOPE` value reaches the drafted subject `type(scope): summary` (the offline
/// draft's scope, the model's scope list), so it must be a scope the validator reads
/// back from that subject as itself: [`crate::message::reads_back_as_scope`], the grammar's own answer
/// (no `(` or `)`, no character the renderer replaces because it breaks or reorders
/// the line). It is also one word of at most 40 characters, without `<`, `>` or a
/// backtick (it is shown in the prompt), nor the subject's own delimiters `:` and `!`.
fn check_scope(value: &str) -> Result<(), String> {
    if value.chars().count() > 40
        || value
            .chars()
            .any(|c| c.is_whitespace() || "()<>`:!".contains(c))
    {
        return Err(format!(
            "the scope {value:?} must be one word of at most 40 characters, without ( ) < > ` : !"
        ));
    }
    if crate::message::reads_back_as_scope(value) {
        return Ok(());
    }
    let what = match value
        .chars()
        .find(|c| !crate::message::reads_back_as_scope(c.encode_utf8(&mut [0; 4])))
    {
        Some(c) => format!("holds {c:?}, which"),
        None => "is a scope that".to_owned(),
    };
    Err(format!(
        "the scope {value:?} {what} a subject \"type(scope): summary\" does not keep"
    ))
}

/// Reads a Markdown store: every valid fact, and every problem with its line
/// (grammar, one line, length, globs, duplicate IDs naming both lines).
pub fn parse(file: &str, bytes: &[u8]) -> (Store, Vec<Problem>) {
    let mut store = Store::default();
    let mut problems = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    if bytes.len() > MAX_FILE_BYTES {
        problems.push(Problem {
            file: file.to_owned(),
            line: 1,
            message: format!(
                "the store is {} bytes; at most {MAX_FILE_BYTES} are read (trim it)",
                bytes.len()
            ),
        });
        return (store, problems);
    }
    for c in scan::candidates(bytes) {
        let problem = |message: String| Problem {
            file: file.to_owned(),
            line: c.line,
            message,
        };
        if !c.utf8 {
            problems.push(problem("the fact is not UTF-8".into()));
            continue;
        }
        let Some((id, value)) = c.text.split_once('=') else {
            problems.push(problem(format!("{:?} has no = and value", c.text)));
            continue;
        };
        let (id, value) = (id.trim(), value.trim());
        if let Err(m) = check_fact(id, value) {
            problems.push(problem(m));
            continue;
        }
        if let Some(first) = seen.get(id) {
            problems.push(problem(format!(
                "duplicate ID {id}: first at {file}:{first}, again at {file}:{}",
                c.line
            )));
            continue;
        }
        if store.facts.len() == MAX_FACTS {
            problems.push(problem(too_many()));
            break;
        }
        seen.insert(id.to_owned(), c.line);
        store.facts.push(fact(id, value, file, c.line));
    }
    (store, problems)
}

fn too_many() -> String {
    format!(
        "the store holds more than {MAX_FACTS} facts; this one and the ones after it are \
         not read (trim the store)"
    )
}

/// `file:line`, or the file alone for the convention table.
fn place(f: &Fact) -> String {
    if f.line == 0 {
        f.file.clone()
    } else {
        format!("{}:{}", f.file, f.line)
    }
}

fn fact(id: &str, value: &str, file: &str, line: usize) -> Fact {
    let (class, key) = id.split_once('.').unwrap_or((id, ""));
    Fact {
        id: id.to_owned(),
        class: class.to_owned(),
        key: key.to_owned(),
        value: value.to_owned(),
        file: file.to_owned(),
        line,
    }
}

impl Store {
    /// The facts of a convention's `facts` table (already checked by the config reader).
    pub fn from_table(table: &[crate::config::Fact]) -> Store {
        Store {
            facts: table
                .iter()
                .filter(|f| check_fact(&f.id, &f.value).is_ok())
                .map(|f| fact(&f.id, &f.value, TABLE_SOURCE, f.line))
                .collect(),
        }
    }

    /// `self` then `other`; an ID in both is a problem naming both places.
    pub fn merge(mut self, other: Store) -> (Store, Vec<Problem>) {
        let mut problems = Vec::new();
        for f in other.facts {
            match self.facts.iter().find(|g| g.id == f.id) {
                Some(g) => problems.push(Problem {
                    file: f.file.clone(),
                    line: f.line,
                    message: format!("duplicate ID {}: also at {}", f.id, place(g)),
                }),
                None if self.facts.len() == MAX_FACTS => {
                    problems.push(Problem {
                        file: f.file.clone(),
                        line: f.line,
                        message: too_many(),
                    });
                    break;
                }
                None => self.facts.push(f),
            }
        }
        (self, problems)
    }

    /// Globs that match none of `paths` (a `SCOPE`, `PATH` or scoped `RULE` that can
    /// never apply is a typo or a stale entry). Every glob is compiled once, into one
    /// set per literal directory prefix (`crates/core/` for `crates/core/**/*.rs`, the
    /// empty prefix for `**/*.md`): a path can match a glob only under its prefix, so
    /// each path is matched once against the sets of its own ancestor directories. The
    /// cost grows with the paths, not with facts × paths, and it stops once every glob
    /// has matched.
    pub fn unmatched_globs(&self, paths: &[String]) -> Vec<Problem> {
        let globbed: Vec<&Fact> = self.facts.iter().filter(|f| f.glob().is_some()).collect();
        let mut matched = vec![false; globbed.len()];
        let mut builders: HashMap<&str, (GlobSetBuilder, Vec<usize>)> = HashMap::new();
        for (i, f) in globbed.iter().enumerate() {
            let g = f.glob().unwrap_or_default().trim_end_matches('/');
            let (builder, owner) = builders
                .entry(literal_dir(g))
                .or_insert_with(|| (GlobSetBuilder::new(), Vec::new()));
            for p in [g.to_owned(), format!("{g}/**")] {
                // A glob that does not build never matches (the store's check refused
                // it already).
                if let Ok(glob) = GlobBuilder::new(&p).literal_separator(true).build() {
                    builder.add(glob);
                    owner.push(i);
                }
            }
        }
        let sets: Option<HashMap<&str, (GlobSet, Vec<usize>)>> = builders
            .into_iter()
            .map(|(prefix, (b, owner))| b.build().ok().map(|set| (prefix, (set, owner))))
            .collect();
        match sets {
            Some(sets) => {
                let mut left = globbed.len();
                let mut hits = Vec::new();
                for p in paths {
                    if left == 0 {
                        break;
                    }
                    let ancestors =
                        std::iter::once("").chain(p.match_indices('/').map(|(at, _)| &p[..=at]));
                    for prefix in ancestors {
                        let Some((set, owner)) = sets.get(prefix) else {
                            continue;
                        };
                        set.matches_into(p, &mut hits);
                        for &h in &hits {
                            if let Some(&i) = owner.get(h)
                                && !matched[i]
                            {
                                matched[i] = true;
                                left -= 1;
                            }
                        }
                    }
                }
            }
            // A set too large to build: each glob on its own.
            None => {
                for (i, f) in globbed.iter().enumerate() {
                    matched[i] = f
                        .matcher()
                        .is_some_and(|m| paths.iter().any(|p| m.is_match(p)));
                }
            }
        }
        globbed
            .iter()
            .zip(&matched)
            .filter(|(_, m)| !**m)
            .map(|(f, _)| Problem {
                file: f.file.clone(),
                line: f.line,
                message: format!(
                    "{}: the glob {:?} matches no tracked file",
                    f.id,
                    f.glob().unwrap_or_default()
                ),
            })
            .collect()
    }

    /// The generated index: sorted by ID, no line numbers (an edit elsewhere in the
    /// file does not make it stale), pretty JSON ending in a newline.
    pub fn index(&self) -> String {
        let map: BTreeMap<&str, serde_json::Value> = self
            .facts
            .iter()
            .map(|f| {
                (
                    f.id.as_str(),
                    serde_json::json!({"class": f.class, "value": f.value, "file": f.file}),
                )
            })
            .collect();
        serde_json::to_string_pretty(&map).unwrap_or_default() + "\n"
    }
}

/// The store of a work tree: [`FILE`] at `root` (when there is one) and the
/// convention's `facts` table; any problem is an error.
pub fn load(root: &Path, table: &[crate::config::Fact]) -> Result<Store, FactsError> {
    let path = root.join(FILE);
    // A link that leaves the work tree is refused, not followed (crate::tree_file).
    let bytes = match crate::tree_file::read_in_tree(root, &path) {
        Ok(b) => b,
        Err(source) => return Err(FactsError::Read { path, source }),
    };
    from_parts(bytes.as_deref(), table)
}

/// The store from [`FILE`]'s bytes (when there is one) and the convention's table.
pub fn from_parts(
    bytes: Option<&[u8]>,
    table: &[crate::config::Fact],
) -> Result<Store, FactsError> {
    let (store, mut problems) = bytes.map(|b| parse(FILE, b)).unwrap_or_default();
    let (store, more) = store.merge(Store::from_table(table));
    problems.extend(more);
    if problems.is_empty() {
        Ok(store)
    } else {
        Err(FactsError::Invalid(problems))
    }
}

/// Whether a commit with `changes` can change its store's verdict, so that the
/// commit-msg check validates the store only then (docs/facts.md, "Validation in the
/// hooks"): the store itself changes ([`FILE`], or `convention_file`, the file holding
/// the convention's `facts` table), or the commit removes a path (a deletion, or a
/// rename's old side) that one of the store's globs matches, which could leave the glob
/// matching nothing. `store` is read only in that last case, and only when something
/// is removed.
pub fn commit_affects(
    changes: &[crate::repo::Change],
    convention_file: Option<&str>,
    store: impl FnOnce() -> Store,
) -> bool {
    use crate::repo::ChangeKind;
    let touches = |name: &str| {
        changes
            .iter()
            .any(|c| c.path == name || c.old_path.as_ref().is_some_and(|o| o == name))
    };
    if touches(FILE) || convention_file.is_some_and(touches) {
        return true;
    }
    let removed: Vec<String> = changes
        .iter()
        .filter_map(|c| match c.kind {
            ChangeKind::Deleted => Some(&c.path),
            ChangeKind::Renamed => c.old_path.as_ref(),
            _ => None,
        })
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    if removed.is_empty() {
        return false;
    }
    store()
        .facts
        .iter()
        .filter_map(Fact::matcher)
        .any(|set| removed.iter().any(|p| set.is_match(p)))
}

/// Every problem of a store as a tree holds it: the Markdown file `file` (when
/// there is one) and the convention's `facts` table, `SCOPE` values outside the
/// convention's scopes (when it lists any: the validator would reject the drafts),
/// then the globs against the tree's `paths` (when given). The one check of
/// `jitcommit facts --check`, the commit-msg hook (the index) and pre-receive (a
/// pushed tip).
pub fn check_all(
    file: &str,
    bytes: Option<&[u8]>,
    conv: &crate::config::Convention,
    paths: Option<&[String]>,
) -> (Store, Vec<Problem>) {
    let (store, mut problems) = bytes.map(|b| parse(file, b)).unwrap_or_default();
    let (store, more) = store.merge(Store::from_table(&conv.facts));
    problems.extend(more);
    if !conv.scopes.is_empty() {
        for f in store.facts.iter().filter(|f| f.class == "SCOPE") {
            if !conv.scopes.contains(&f.value) {
                problems.push(Problem {
                    file: f.file.clone(),
                    line: f.line,
                    message: format!(
                        "{}: {:?} is not one of the convention's scopes ({})",
                        f.id,
                        f.value,
                        conv.scopes.join(", ")
                    ),
                });
            }
        }
    }
    if let Some(paths) = paths {
        problems.extend(store.unmatched_globs(paths));
    }
    problems.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    (store, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(doc: &str) -> Vec<String> {
        parse(FILE, doc.as_bytes())
            .1
            .into_iter()
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn only_a_change_to_the_store_or_a_removal_its_globs_match_affects_it() {
        use crate::repo::{Change, ChangeKind};
        let change = |kind, path: &str, old: Option<&str>| Change {
            kind,
            path: path.into(),
            old_path: old.map(Into::into),
            old_mode: None,
            new_mode: None,
        };
        let store = || parse(FILE, b"SCOPE.src/**=core\nTERM.gix=git\n").0;
        let never = || -> Store { panic!("the store was read") };
        let m = |p| change(ChangeKind::Modified, p, None);
        let d = |p| change(ChangeKind::Deleted, p, None);
        assert!(!commit_affects(
            &[m("src/lib.rs"), m("README.md")],
            None,
            never
        ));
        assert!(commit_affects(&[m(FILE)], None, never));
        assert!(commit_affects(&[d(FILE)], None, never));
        assert!(commit_affects(
            &[m("pyproject.toml")],
            Some("pyproject.toml"),
            never
        ));
        assert!(!commit_affects(&[m("pyproject.toml")], None, never));
        let moved = change(ChangeKind::Renamed, "docs/x.md", Some(FILE));
        assert!(commit_affects(&[moved], None, never));
        // A removal is weighed against the globs: only a matched path can empty one.
        assert!(commit_affects(&[d("src/lib.rs")], None, store));
        assert!(!commit_affects(&[d("docs/gix.md")], None, store));
        let renamed = change(ChangeKind::Renamed, "lib/lib.rs", Some("src/lib.rs"));
        assert!(commit_affects(&[renamed], None, store));
        let added = change(ChangeKind::Added, "src/new.rs", None);
        assert!(!commit_affects(&[added], None, never));
    }

    #[test]
    fn duplicates_name_both_lines() {
        let p = problems("SCOPE.src/**=core\n\nprose\nSCOPE.src/**=other\n");
        assert_eq!(
            p,
            vec![
                ".commit-context.md:4: duplicate ID SCOPE.src/**: first at .commit-context.md:1, again at .commit-context.md:4"
            ]
        );
    }

    #[test]
    fn a_scope_is_one_the_subject_reads_back() {
        for ok in ["core", "api-v2", "ns/sub", "ünï", "a.b_c"] {
            assert!(check_fact("SCOPE.src/**", ok).is_ok(), "{ok}");
            assert!(crate::message::reads_back_as_scope(ok), "{ok}");
        }
        // The renderer turns bidi controls into spaces: the subject would show another
        // scope than the store's.
        for bad in ["a\u{202e}b", "\u{2066}x", "x\u{2069}", "a\u{202a}"] {
            assert!(!crate::message::reads_back_as_scope(bad), "{bad:?}");
            let e = check_fact("SCOPE.src/**", bad).expect_err(bad);
            assert!(e.contains("does not keep"), "{e}");
        }
        for bad in ["x): evil", "x)!", "a:b", "x!", "(x", "a b", ""] {
            assert!(check_fact("SCOPE.src/**", bad).is_err(), "{bad:?}");
        }
        let p = problems("- `SCOPE.src/**=core`\n- `SCOPE.docs/**=do\u{202e}cs`\n");
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with(".commit-context.md:2: the scope \"do\\u{202e}cs\" holds '\\u{202e}'"),
            "{p:?}"
        );
    }

    #[test]
    fn values_are_checked() {
        let long = "x".repeat(MAX_VALUE + 1);
        let doc = format!(
            "TERM.a={long}\n- `TERM.b`\nTERM.c=\nSCOPE.src/[=x\nSCOPE.src=two words\n- `RULE.x.bad!=y`\nlower.x=y\nTERM.ok=fine\nTERM.d=bell\u{7}\n"
        );
        let p = problems(&doc);
        assert_eq!(p.len(), 7, "{p:#?}");
        assert!(p[0].starts_with(".commit-context.md:1: the value of TERM.a is 201 characters"));
        assert!(p[1].starts_with(".commit-context.md:2: "));
        assert!(p[2].contains(":3: TERM.c has no value"));
        assert!(p[3].contains(":4: bad glob"));
        assert!(p[4].contains(":5: the scope"));
        assert!(p[5].contains(":6: rule name \"bad!\""));
        assert!(p[6].contains(":9: the value of TERM.d must be one line"));
        let (store, _) = parse(FILE, doc.as_bytes());
        assert_eq!(store.facts.len(), 1);
        assert_eq!(store.facts[0].id, "TERM.ok");
    }

    #[test]
    fn newline_in_a_table_value_is_rejected() {
        assert!(check_fact("RULE.x", "one\n# Output contract").is_err());
        assert!(check_fact("RULE.x", "one line").is_ok());
        assert!(check_fact("RULE.src/**.x", "scoped").is_ok());
        assert!(check_fact("NOTE.anything", "kept").is_ok());
    }

    #[test]
    fn merge_names_both_places() {
        let (md, _) = parse(FILE, b"\n\nTERM.gix=git library\n");
        let table = [crate::config::Fact {
            id: "TERM.gix".to_owned(),
            value: "other".to_owned(),
            line: 0,
        }];
        let (_, p) = md.merge(Store::from_table(&table));
        assert_eq!(
            p[0].to_string(),
            "commit-convention.facts: duplicate ID TERM.gix: also at .commit-context.md:3"
        );
    }

    #[test]
    fn globs_and_directories() {
        let s = compile("crates/core").expect("glob");
        assert!(s.is_match("crates/core/src/lib.rs"));
        assert!(!s.is_match("crates/corex/a.rs"));
        let s = compile("src/*.rs").expect("glob");
        assert!(s.is_match("src/a.rs") && !s.is_match("src/x/a.rs"));
        let (store, _) = parse(
            FILE,
            b"SCOPE.src/**=core\nPATH.nowhere/**=x\nRULE.tense=y\n",
        );
        let p = store.unmatched_globs(&["src/a.rs".to_owned()]);
        assert_eq!(p.len(), 1);
        assert!(
            p[0].to_string()
                .starts_with(".commit-context.md:2: PATH.nowhere/**")
        );
    }

    /// The one set answers as each glob on its own did, for every kind of glob.
    #[test]
    fn one_glob_set_finds_what_each_glob_finds() {
        let globs = [
            "src/**",
            "src/*.rs",
            "src",
            "docs/",
            "**/*.md",
            "a/b/c.txt",
            "x/**/y/*",
            "*.toml",
            "crates/*/src/**",
            "nowhere/**",
            "[ab]/*.rs",
            "{src,lib}/*.c",
        ];
        let mut doc = String::new();
        for (i, g) in globs.iter().enumerate() {
            doc.push_str(&format!("PATH.{g}=p{i}\n"));
        }
        doc.push_str("RULE.src/**.tense=y\nRULE.plain=z\nTERM.word=w\n");
        let (store, problems) = parse(FILE, doc.as_bytes());
        assert!(problems.is_empty(), "{problems:?}");
        let trees: [&[&str]; 4] = [
            &[],
            &["src/a.rs", "README.md"],
            &[
                "src/x/a.rs",
                "docs/guide.md",
                "Cargo.toml",
                "a/b/c.txt",
                "b/z.rs",
            ],
            &["x/q/y/z", "crates/core/src/lib.rs", "lib/m.c", "top.md"],
        ];
        for tree in trees {
            let paths: Vec<String> = tree.iter().map(|p| (*p).to_owned()).collect();
            let one_by_one: Vec<usize> = store
                .facts
                .iter()
                .filter(|f| {
                    f.glob().is_some()
                        && !f
                            .matcher()
                            .is_some_and(|m| paths.iter().any(|p| m.is_match(p)))
                })
                .map(|f| f.line)
                .collect();
            let lines: Vec<usize> = store
                .unmatched_globs(&paths)
                .iter()
                .map(|p| p.line)
                .collect();
            assert_eq!(lines, one_by_one, "{tree:?}");
        }
    }

    #[test]
    fn a_glob_s_literal_directory() {
        assert_eq!(literal_dir("crates/core/**/*.rs"), "crates/core/");
        assert_eq!(literal_dir("crates/core/x.rs"), "crates/core/");
        assert_eq!(literal_dir("crates/core"), "crates/");
        assert_eq!(literal_dir("**/*.md"), "");
        assert_eq!(literal_dir("docs"), "");
        assert_eq!(literal_dir("a/b*/c"), "a/");
        assert_eq!(literal_dir("{src,lib}/*.c"), "");
        assert_eq!(literal_dir("a/\\*/b"), "a/");
    }

    #[test]
    fn a_store_beyond_the_caps_is_a_problem() {
        let mut doc = String::new();
        for i in 0..=MAX_FACTS {
            doc.push_str(&format!("PATH.d{i}/**=p\n"));
        }
        let (store, problems) = parse(FILE, doc.as_bytes());
        assert_eq!(store.facts.len(), MAX_FACTS);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].line, MAX_FACTS + 1);
        assert!(
            problems[0].message.contains("more than 1000 facts"),
            "{problems:?}"
        );
        let big = "x".repeat(MAX_FILE_BYTES + 1);
        let (store, problems) = parse(FILE, big.as_bytes());
        assert!(store.facts.is_empty());
        assert!(
            problems[0].to_string().contains("at most 262144"),
            "{problems:?}"
        );
        // The file and the table together.
        let (file, _) = parse(
            FILE,
            doc.lines()
                .take(MAX_FACTS)
                .collect::<Vec<_>>()
                .join("\n")
                .as_bytes(),
        );
        let table = Store {
            facts: vec![fact("TERM.extra", "e", TABLE_SOURCE, 3)],
        };
        let (merged, problems) = file.merge(table);
        assert_eq!(merged.facts.len(), MAX_FACTS);
        assert!(problems[0].message.contains("more than"), "{problems:?}");
    }

    /// Pieces of globs and paths: names, separators, every glob metacharacter.
    const GLOB_PIECES: &[&str] = &[
        "a", "b", "src", "x.rs", ".", "/", "//", "*", "**", "?", "[", "]", "[!", "^", "-", "{",
        "}", ",", "\\", "é", " ",
    ];

    fn joined(parts: &[usize]) -> String {
        parts
            .iter()
            .map(|&i| GLOB_PIECES[i % GLOB_PIECES.len()])
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 4000, ..Default::default() })]

        /// The check without compiling refuses what compiling refuses, with its error.
        #[test]
        fn a_glob_checked_without_compiling_is_one_that_compiles(
            parts in proptest::collection::vec(0usize..1000, 0..24)
        ) {
            let g = joined(&parts);
            proptest::prop_assert_eq!(
                check_glob(&g).map_err(|e| e.to_string()),
                compile(&g).map(|_| ()).map_err(|e| e.to_string()),
                "{:?}", g
            );
        }

        /// A glob of plain characters, matched by comparing bytes, matches exactly the
        /// paths its glob set matches: the glob's own path, what lies under it, near
        /// misses (a longer name, a trailing or doubled `/`) and unrelated paths.
        #[test]
        fn a_plain_glob_matches_as_its_glob_set(
            glob in proptest::collection::vec(0usize..1000, 0..6),
            tail in proptest::collection::vec(0usize..1000, 0..6),
            slash in proptest::bool::ANY,
        ) {
            const PLAIN: &[&str] = &["a", "b.c", "x-y", "/", "//", "+", "@", "_", ".", "..", "1"];
            let pick = |parts: &[usize]| -> String {
                parts.iter().map(|&i| PLAIN[i % PLAIN.len()]).collect()
            };
            let g = pick(&glob) + if slash { "/" } else { "" };
            let set = compile_set(&g);
            let m = compile(&g);
            proptest::prop_assert_eq!(set.is_ok(), m.is_ok(), "{:?}", g);
            let (Ok(set), Ok(m)) = (set, m) else {
                return Ok(());
            };
            let base = g.trim_end_matches('/').to_owned();
            for p in [
                base.clone(),
                format!("{base}/{}", pick(&tail)),
                format!("{base}{}", pick(&tail)),
                format!("{base}/"),
                pick(&tail),
            ] {
                proptest::prop_assert_eq!(m.is_match(&p), set.is_match(&p), "{:?} {:?}", g, p);
            }
        }

        /// A path the literal start rules out is one the glob does not match.
        #[test]
        fn a_path_ruled_out_is_never_matched(
            glob in proptest::collection::vec(0usize..1000, 0..10),
            path in proptest::collection::vec(0usize..1000, 0..10),
        ) {
            let (g, p) = (joined(&glob), joined(&path));
            if let Ok(set) = compile(&g) {
                proptest::prop_assert!(may_match(&g, &p) || !set.is_match(&p), "{:?} {:?}", g, p);
            }
        }
    }

    #[test]
    fn the_longest_globs_that_parse_compile() {
        // The heaviest patterns a fact's key can hold compile too.
        let n = MAX_ID;
        for g in [
            "?".repeat(n),
            "[!a]".repeat(n / 4),
            "*".repeat(n),
            "**/".repeat(n / 3),
            format!("{{{}}}", vec!["?*"; n / 3 - 1].join(",")),
            "[^\u{10FFFF}]".repeat(n / 12),
        ] {
            assert!(check_glob(&g).is_ok() && compile(&g).is_ok(), "{g}");
        }
        assert!(may_match("crates/core/**/*.rs", "crates/core/src/a.rs"));
        assert!(!may_match("crates/core/**/*.rs", "crates/draft/a.rs"));
        assert!(may_match("docs/", "docs/draft.md"));
    }

    #[test]
    fn a_glob_built_again_matches_as_the_first_time() {
        for _ in 0..3 {
            let s = compile("docs/").expect("glob");
            assert!(s.is_match("docs/a.md") && s.is_match("docs") && !s.is_match("docsx/a.md"));
            let s = compile("src/*.rs").expect("glob");
            assert!(s.is_match("src/a.rs") && !s.is_match("src/x/a.rs"));
            // A bad glob is refused every time, with the same error.
            assert_eq!(compile("src/[a").map(|_| ()), compile("src/[a").map(|_| ()));
            assert!(compile("src/[a").is_err());
        }
    }

    #[test]
    fn scopes_must_be_the_conventions() {
        let conv = crate::config::Convention {
            scopes: vec!["core".into()],
            ..Default::default()
        };
        let doc = b"SCOPE.src/**=core\nSCOPE.docs=manual\n";
        let (_, p) = check_all(FILE, Some(doc), &conv, None);
        assert_eq!(p.len(), 1);
        assert_eq!(
            p[0].to_string(),
            ".commit-context.md:2: SCOPE.docs: \"manual\" is not one of the convention's scopes (core)"
        );
        let (_, p) = check_all(FILE, Some(doc), &crate::config::Convention::default(), None);
        assert!(p.is_empty());
    }

    #[test]
    fn index_has_no_lines_and_is_sorted() {
        let (a, _) = parse(FILE, b"TERM.b=2\nTERM.a=1\n");
        let (b, _) = parse(FILE, b"# moved\n\nTERM.a=1\n\nTERM.b=2\n");
        assert_eq!(a.index(), b.index());
        assert!(a.index().find("TERM.a") < a.index().find("TERM.b"));
    }

    #[test]
    fn convention_table_is_read_and_checked() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(".commit-convention.toml");
        std::fs::write(
            &path,
            "[facts]\n\"SCOPE.src/**\" = \"core\"\n\"RULE.tense\" = \"imperative\"\n",
        )
        .expect("write");
        let conv = crate::convention::load_file(&path)
            .expect("loads")
            .convention;
        let store = Store::from_table(&conv.facts);
        assert_eq!(store.facts.len(), 2);
        // In file order, as the table was written.
        assert_eq!(
            store.facts[1].source(),
            "commit-convention.facts:RULE.tense"
        );
        std::fs::write(
            &path,
            "[facts]\n\"SCOPE.src/**\" = \"core\"\n\"SCOPE.x\" = \"two words\"\n",
        )
        .expect("write");
        let e = crate::convention::load_file(&path)
            .expect_err("bad scope")
            .to_string();
        assert!(e.contains(":3:") && e.contains("facts.SCOPE.x"), "{e}");
    }
}
