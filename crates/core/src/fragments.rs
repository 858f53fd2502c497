//! Fragments: the prompt cut into pieces the budget composer can keep, trim or drop.
//!
//! Each fragment has a priority, a floor flag, an applicability condition and a
//! ladder of levels from smallest to fullest (omitted → stat line → first hunks →
//! whole diff; for the status floor: one-line summary → per-directory counts → the
//! full `git status --short`). A level is `open + head + body[..pieces] + tail`
//! (the head only when it has pieces). Every piece ends with a newline and starts
//! with a non-blank character other than `/` (o200k glues `\n/` to the piece
//! before), so with the cl100k/o200k pretokenizers the token count of a level is
//! the sum of its pieces' counts (tested in jitcommit-model) and each piece is
//! counted once.

use std::collections::BTreeMap;

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::config::Convention;
use crate::redact;
use crate::repo::{ChangeKind, FileDiff, StagedState};

/// How much of a fragment a level shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LevelState {
    /// Not in the prompt (a file then appears only in the status list and the note).
    Omitted,
    /// A `--stat` line only.
    Stat,
    /// Shortened: first hunks or lines, or a degraded floor.
    Trimmed,
    /// Everything.
    Full,
}

impl LevelState {
    /// The word the report table uses.
    pub fn label(self) -> &'static str {
        match self {
            LevelState::Omitted => "omitted",
            LevelState::Stat => "stat",
            LevelState::Trimmed => "trimmed",
            LevelState::Full => "kept",
        }
    }
}

/// One rung of a fragment's ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// What this level shows.
    pub state: LevelState,
    /// Text before the head (the evidence block's opening tag, which says whether
    /// the block is trimmed).
    pub open: String,
    /// How many body pieces it includes.
    pub pieces: usize,
    /// Text after the pieces (omission line, closing marker); for ladders of
    /// unrelated texts (the status floor) the whole level.
    pub tail: String,
    /// What was cut, in words, for the report and the omission note.
    pub note: String,
}

/// Where a fragment goes in the prompt (DESIGN §5 order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Section {
    /// The repository's convention.
    Convention,
    /// The facts selected from the repository's fact store.
    Facts,
    /// Branch, initial commit.
    Environment,
    /// The task and the user's intent.
    Task,
    /// `git status --short`.
    Status,
    /// One file's diff.
    Diff,
    /// The JSON schema and omission note.
    Contract,
}

/// When a fragment belongs in the prompt at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// Only when the user gave an intent.
    IntentGiven,
    /// Only when something is staged.
    AnyStaged,
}

/// What a file's diff is worth per token, best first; the last ones are stat-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileClass {
    /// Program source.
    Source,
    /// Tests.
    Test,
    /// Documentation.
    Docs,
    /// Configuration and build files.
    Config,
    /// Lock files (stat only).
    Lock,
    /// Generated output (stat only).
    Generated,
    /// Vendored third-party code (stat only).
    Vendored,
    /// Binary files and submodule pointers (stat only).
    Binary,
    /// Matched the convention's `context.exclude` (stat only).
    Excluded,
    /// Key and environment files: contents never shown (stat only).
    Secret,
}

impl FileClass {
    /// Stat line only, never hunks.
    pub fn stat_only(self) -> bool {
        self >= FileClass::Lock
    }

    fn rank(self) -> u32 {
        match self {
            FileClass::Source => 500,
            FileClass::Test => 400,
            FileClass::Docs => 300,
            FileClass::Config => 290,
            _ => 0,
        }
    }

    fn word(self) -> &'static str {
        match self {
            FileClass::Source => "source",
            FileClass::Test => "test",
            FileClass::Docs => "docs",
            FileClass::Config => "config",
            FileClass::Lock => "lock file",
            FileClass::Generated => "generated file",
            FileClass::Vendored => "vendored file",
            FileClass::Binary => "binary",
            FileClass::Excluded => "excluded by context.exclude",
            FileClass::Secret => "may hold secrets",
        }
    }
}

/// One composable piece of the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment {
    /// Stable id for the report.
    pub id: String,
    /// Where it goes.
    pub section: Section,
    /// Priority of its first upgrade; higher is kept first.
    pub priority: u32,
    /// Priority of its later upgrades (hunks after the stat line).
    pub detail_priority: u32,
    /// Never dropped: its level 0 is its smallest form, not "omitted".
    pub floor: bool,
    /// When it applies.
    pub when: When,
    /// Shared text of every non-omitted level.
    pub head: String,
    /// Pieces the levels take prefixes of.
    pub body: Vec<String>,
    /// Smallest first.
    pub levels: Vec<Level>,
    /// For a diff: the staged path, for the note.
    pub path: Option<String>,
}

impl Fragment {
    /// A fragment with one fixed text.
    pub fn fixed(id: &str, section: Section, floor: bool, when: When, text: String) -> Self {
        let mut levels = Vec::new();
        if !floor {
            levels.push(Level {
                state: LevelState::Omitted,
                open: String::new(),
                pieces: 0,
                tail: String::new(),
                note: "omitted".into(),
            });
        }
        levels.push(Level {
            state: LevelState::Full,
            open: String::new(),
            pieces: 0,
            tail: text,
            note: String::new(),
        });
        Fragment {
            id: id.into(),
            section,
            priority: 970,
            detail_priority: 970,
            floor,
            when,
            head: String::new(),
            body: Vec::new(),
            levels,
            path: None,
        }
    }

    /// The priority of upgrading to level `to`; never increases with `to`.
    pub fn step_priority(&self, to: usize) -> u32 {
        if to <= 1 {
            self.priority
        } else {
            self.detail_priority.min(self.priority)
        }
    }

    /// The text of level `l`.
    pub fn render(&self, l: usize) -> String {
        let Some(level) = self.levels.get(l) else {
            return String::new();
        };
        if level.state == LevelState::Omitted && level.tail.is_empty() {
            return String::new();
        }
        let mut s = level.open.clone();
        if level.pieces > 0 {
            s.push_str(&self.head);
        }
        for p in &self.body[..level.pieces.min(self.body.len())] {
            s.push_str(p);
        }
        s.push_str(&level.tail);
        s
    }

    /// Drops every level that is not smaller than a fuller one (an omission line can
    /// outweigh a short remainder; per-directory counts can outweigh a short status
    /// list), keeping the fullest. The ladder then grows in bytes at every step, so
    /// prefix totals grow and both cut strategies stop at the same place.
    pub fn make_monotone(&mut self) {
        let mut prefix = vec![0usize; self.body.len() + 1];
        for (i, p) in self.body.iter().enumerate() {
            prefix[i + 1] = prefix[i] + p.len();
        }
        let head = self.head.len();
        let size = |l: &Level| {
            let pieces = l.pieces.min(prefix.len() - 1);
            l.open.len() + if pieces > 0 { head } else { 0 } + prefix[pieces] + l.tail.len()
        };
        let mut keep = vec![true; self.levels.len()];
        let mut bound = usize::MAX;
        for (i, l) in self.levels.iter().enumerate().rev() {
            let b = size(l);
            keep[i] = b < bound || (l.state == LevelState::Omitted && b == 0 && i == 0);
            if keep[i] {
                bound = b;
            }
        }
        let mut it = keep.into_iter();
        self.levels.retain(|_| it.next().unwrap_or(true));
    }

    /// Bytes of its fullest level: an upper bound of its tokens.
    pub fn max_bytes(&self) -> usize {
        self.levels.last().map_or(0, |l| {
            l.open.len()
                + if l.pieces > 0 { self.head.len() } else { 0 }
                + self.body[..l.pieces.min(self.body.len())]
                    .iter()
                    .map(String::len)
                    .sum::<usize>()
                + l.tail.len()
        })
    }
}

/// Lines per piece when a single hunk is split (a huge new file must not block
/// everything ranked after it).
pub const LINES_PER_PIECE: usize = 40;

/// Classifies staged files; built once per run from the convention's excludes.
#[derive(Debug, Clone)]
pub struct Classifier {
    exclude: GlobSet,
}

impl Classifier {
    /// Compiles `context.exclude`; a bad glob is ignored here (the config reader
    /// rejects it with its file and line before we get here).
    pub fn new(exclude: &[String]) -> Self {
        let mut b = GlobSetBuilder::new();
        for g in exclude {
            if let Ok(g) = Glob::new(g) {
                b.add(g);
            }
        }
        Classifier {
            exclude: b.build().unwrap_or_else(|_| GlobSet::empty()),
        }
    }

    /// What a file is worth to the prompt.
    pub fn classify(&self, f: &FileDiff) -> FileClass {
        let path = String::from_utf8_lossy(&f.change.path).into_owned();
        if redact::is_secret_file(&path) {
            return FileClass::Secret;
        }
        if f.binary || f.submodule {
            return FileClass::Binary;
        }
        if self.exclude.is_match(&path) {
            return FileClass::Excluded;
        }
        match f.linguist {
            Some(crate::repo::Linguist::Generated) => FileClass::Generated,
            Some(crate::repo::Linguist::Vendored) => FileClass::Vendored,
            None => classify_path(&path),
        }
    }
}

/// Classification by path alone, from [`crate::paths::path_facts`]: what no budget
/// should spend hunks on first (lock, vendored, generated), then tests, docs, and
/// config, which takes CI and build files (shown after the source they build).
pub fn classify_path(path: &str) -> FileClass {
    let p = crate::paths::path_facts(path);
    if p.lock {
        FileClass::Lock
    } else if p.vendored {
        FileClass::Vendored
    } else if p.generated {
        FileClass::Generated
    } else if p.test {
        FileClass::Test
    } else if p.docs {
        FileClass::Docs
    } else if p.config || p.build || p.ci {
        FileClass::Config
    } else {
        FileClass::Source
    }
}

/// A path as `git status --short` prints it (core.quotePath): the repository layer's
/// quoting, which is tested against git itself.
pub fn quote_path(p: &[u8]) -> String {
    crate::repo::quote_path(gix::bstr::BStr::new(p), true)
}

/// One `git status --short` line of a staged change.
pub fn status_line(f: &FileDiff) -> String {
    crate::repo::status_short(std::slice::from_ref(&f.change))
}

/// A `git diff --stat` line (without git's leading space): `path | 12 +++++-------`.
pub fn stat_line(f: &FileDiff) -> String {
    let path = match (&f.change.old_path, f.change.kind) {
        (Some(old), ChangeKind::Renamed) => {
            format!(
                "{} => {}",
                String::from_utf8_lossy(old),
                String::from_utf8_lossy(&f.change.path)
            )
        }
        _ => String::from_utf8_lossy(&f.change.path).into_owned(),
    };
    let path = neutralise(&path.replace('\n', "\\n"));
    if f.binary {
        return format!("{path} | Bin\n");
    }
    let n = f.added + f.removed;
    let (mut a, mut r) = (f.added, f.removed);
    if n > 40 {
        a = (f.added * 40).div_ceil(n).min(40);
        r = 40 - a.min(40);
        if f.removed > 0 && r == 0 {
            r = 1;
            a -= 1;
        }
    }
    format!("{path} | {n} {}{}\n", "+".repeat(a), "-".repeat(r))
}

/// The prompt's block tags (`<evidence>`, `<user-words>`), opening or closing, in
/// any case and with any whitespace (`</EVIDENCE>`, `</Evidence >`, `< /evidence>`),
/// also with the full-width and small `<` and as `&lt;`.
#[allow(clippy::expect_used)] // constant pattern
static DELIMITER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(<|\u{FF1C}|\u{FE64}|&(?i-u:lt);)(\s*[/\u{FF0F}\u{2044}\u{2215}]?\s*(?i-u:evidence|user-words))")
        .expect("constant regex")
});

/// Text from the repository or the user must not be able to open or close a block
/// of the prompt: every block tag in it gets a backslash after its `<` (so
/// `</evidence>` reads `<\/evidence>`), which no block delimiter has.
pub fn neutralise(s: &str) -> String {
    if !s.contains(['<', '&', '\u{FF1C}', '\u{FE64}']) || !DELIMITER.is_match(s) {
        return s.to_string();
    }
    DELIMITER.replace_all(s, "$1\\$2").into_owned()
}

/// The opening tag of a file's diff block.
fn diff_open(qpath: &str, trimmed: &str) -> String {
    format!("<evidence source=\"git diff --cached -- {qpath}\" trimmed=\"{trimmed}\">\n")
}

/// Omitted → stat line: the first two levels of every file's ladder, with the
/// fragment's identity and priorities; `(fragment, quoted path, stat line)`.
fn stat_ladder(f: &FileDiff, class: FileClass) -> (Fragment, String, String) {
    let path = String::from_utf8_lossy(&f.change.path).into_owned();
    let qpath = neutralise(&quote_path(&f.change.path));
    let stat = stat_line(f);
    let mut levels = vec![Level {
        state: LevelState::Omitted,
        open: String::new(),
        pieces: 0,
        tail: String::new(),
        note: "diff and stat line omitted for budget (listed in the status list)".into(),
    }];
    let stat_note = if class.stat_only() {
        format!("stat line only: {}", class.word())
    } else {
        "diff omitted for budget; stat line kept".into()
    };
    levels.push(Level { state: LevelState::Stat, open: String::new(), pieces: 0,
        tail: format!(
            "<evidence source=\"git diff --cached --stat -- {qpath}\" trimmed=\"{stat_note}\">\n{stat}</evidence>\n\n"
        ),
        note: stat_note,
    });
    let fr = Fragment {
        id: format!("diff:{path}"),
        section: Section::Diff,
        priority: DIFF_PRIORITY,
        detail_priority: class.rank(),
        floor: false,
        when: When::Always,
        head: String::new(),
        body: Vec::new(),
        levels,
        path: Some(path),
    };
    (fr, qpath, stat)
}

/// Priority of a file's first step (omitted → stat line); every later step of a file
/// ranks below it (at most [`FileClass::rank`] 500).
pub const DIFF_PRIORITY: u32 = 900;

/// A file's fragment without its hunks: the omitted and stat-line levels of
/// [`file_fragment`] and a stand-in for the rest, when that is provably the start of
/// the real ladder; `None` when the real fragment must be built (no hunks, stat only,
/// or a fuller level that might not outweigh the
/// stat line). Nothing is split, so a composer that never takes a step
/// beyond the stat lines needs no more than this (`prompt::build`).
///
/// The stand-in (level 2, empty, never rendered) keeps `levels.len()` above 2, as in
/// the real ladder; its step ranks below [`DIFF_PRIORITY`] like every detail step.
pub fn stat_fragment(f: &FileDiff, class: FileClass) -> Option<Fragment> {
    let first = f.hunks.first()?;
    if class.stat_only() {
        return None;
    }
    let (mut fr, qpath, _) = stat_ladder(f, class);
    // Every fuller level holds the open tag ("no" is the shorter), the header, the
    // first piece (the hunk header line
    // and at least min(lines, LINES_PER_PIECE) lines of at least one byte each) and
    // a closing tag of at least "</evidence>\n\n".
    let lines = first.body.split_inclusive('\n').count();
    let fuller = diff_open(&qpath, "no").len()
        + neutralise(&f.header).len()
        + neutralise(&first.header).len()
        + 1
        + lines.min(LINES_PER_PIECE)
        + "</evidence>\n\n".len();
    // make_monotone keeps the stat level only when every fuller level is larger.
    if fuller <= fr.levels[1].tail.len() {
        return None;
    }
    fr.levels.push(Level {
        state: LevelState::Full,
        open: String::new(),
        pieces: 0,
        tail: String::new(),
        note: String::new(),
    });
    Some(fr)
}

/// At most the bytes of the fullest level of [`file_fragment`] for a file
/// [`stat_fragment`] accepts: open tag, header, every hunk header line and one byte
/// per body line, closing tag.
pub fn full_bytes_lower_bound(f: &FileDiff) -> usize {
    let qpath = neutralise(&quote_path(&f.change.path));
    diff_open(&qpath, "no").len()
        + neutralise(&f.header).len()
        + f.hunks
            .iter()
            .map(|h| neutralise(&h.header).len() + 1 + h.body.split_inclusive('\n').count())
            .sum::<usize>()
        + "</evidence>\n\n".len()
}

/// The fragment of one file's diff: omitted → stat line → first hunks (or lines) → whole.
pub fn file_fragment(f: &FileDiff, class: FileClass) -> Fragment {
    let (mut fr, qpath, stat) = stat_ladder(f, class);
    let total_hunks = f.hunks.len();
    if class.stat_only() || total_hunks == 0 {
        if !class.stat_only() && total_hunks == 0 {
            // Mode-only, empty file, rename without content: the header says it all.
            let header = neutralise(&f.header);
            fr.levels.push(Level { state: LevelState::Full, open: String::new(), pieces: 0,
                tail: format!(
                    "<evidence source=\"git diff --cached -- {qpath}\" trimmed=\"no\">\n{header}</evidence>\n\n"
                ),
                note: String::new(),
            });
        }
        return fr;
    }
    let header = neutralise(&f.header);
    fr.head = header;
    let open = |trimmed: &str| diff_open(&qpath, trimmed);
    // Pieces: each hunk, split every LINES_PER_PIECE lines at a line that starts
    // with a non-blank character (never mid-line, and keeps counts additive).
    let mut marks: Vec<(usize, usize, usize)> = Vec::new(); // (hunk, lines kept in hunk, lines in hunk)
    for (h, hunk) in f.hunks.iter().enumerate() {
        let body = neutralise(&hunk.body);
        let lines: Vec<&str> = body.split_inclusive('\n').collect();
        let n = lines.len();
        let mut piece = format!("{}\n", neutralise(&hunk.header));
        let mut since = 0;
        for (i, line) in lines.iter().enumerate() {
            if since >= LINES_PER_PIECE
                && !line.starts_with([' ', '\t', '\n', '\r', '/'])
                && !line.is_empty()
            {
                fr.body.push(std::mem::take(&mut piece));
                marks.push((h, i, n));
                since = 0;
            }
            piece.push_str(line);
            if !line.ends_with('\n') {
                piece.push('\n');
            }
            since += 1;
        }
        fr.body.push(piece);
        marks.push((h, n, n));
    }
    let pieces = fr.body.len();
    for (k, &(h, kept, n)) in marks.iter().enumerate() {
        let cut = k + 1;
        if cut == pieces {
            break;
        }
        let rest_hunks = total_hunks - h - 1;
        let note = if kept < n {
            format!(
                "trimmed: {} of {n} lines of hunk {} and {rest_hunks} later hunks omitted",
                n - kept,
                h + 1
            )
        } else {
            format!("trimmed: {rest_hunks} of {total_hunks} hunks omitted")
        };
        fr.levels.push(Level {
            state: LevelState::Trimmed,
            open: open("yes"),
            pieces: cut,
            tail: format!("[{note}; whole file {}]\n</evidence>\n\n", stat.trim_end()),
            note,
        });
    }
    fr.levels.push(Level {
        state: LevelState::Full,
        open: open("no"),
        pieces,
        tail: "</evidence>\n\n".into(),
        note: String::new(),
    });
    fr.make_monotone();
    fr
}

/// Per-directory counts: the status floor's first fallback.
pub fn dir_counts(state: &StagedState) -> String {
    let mut dirs: BTreeMap<String, BTreeMap<char, usize>> = BTreeMap::new();
    for f in &state.files {
        let p = String::from_utf8_lossy(&f.change.path).into_owned();
        let d = p
            .rsplit_once('/')
            .map_or(".".to_string(), |(d, _)| format!("{d}/"));
        *dirs
            .entry(d)
            .or_default()
            .entry(f.change.kind.letter())
            .or_default() += 1;
    }
    let mut s = String::new();
    for (d, k) in dirs {
        let n: usize = k.values().sum();
        let parts: Vec<String> = k.iter().map(|(l, c)| format!("{l} {c}")).collect();
        s.push_str(&format!(
            "{} | {n} files ({})\n",
            neutralise(&quote_path(d.as_bytes())),
            parts.join(", ")
        ));
    }
    s
}

/// A one-line summary: the status floor's last fallback.
pub fn summary_line(state: &StagedState) -> String {
    let mut k: BTreeMap<char, usize> = BTreeMap::new();
    for f in &state.files {
        *k.entry(f.change.kind.letter()).or_default() += 1;
    }
    let parts: Vec<String> = k.iter().map(|(l, c)| format!("{l} {c}")).collect();
    format!(
        "{} files staged ({})\n",
        state.files.len(),
        parts.join(", ")
    )
}

/// The status floor: summary → per-directory counts → full `git status --short`.
pub fn status_fragment(state: &StagedState) -> Fragment {
    let wrap = |src: &str, trimmed: &str, body: String| {
        format!(
            "# Evidence\n<evidence source=\"{src}\" trimmed=\"{trimmed}\">\n{body}</evidence>\n\n"
        )
    };
    let full: String = state
        .files
        .iter()
        .map(|f| neutralise(&status_line(f)))
        .collect();
    let levels = vec![
        Level {
            state: LevelState::Trimmed,
            open: String::new(),
            pieces: 0,
            tail: wrap(
                "git status --short",
                "collapsed to a one-line summary",
                summary_line(state),
            ),
            note: "collapsed to a one-line summary".into(),
        },
        Level {
            state: LevelState::Trimmed,
            open: String::new(),
            pieces: 0,
            tail: wrap(
                "git status --short",
                "collapsed to per-directory counts",
                dir_counts(state),
            ),
            note: "collapsed to per-directory counts".into(),
        },
        Level {
            state: LevelState::Full,
            open: String::new(),
            pieces: 0,
            tail: wrap("git status --short", "no", full),
            note: String::new(),
        },
    ];
    let mut f = Fragment {
        id: "status".into(),
        section: Section::Status,
        priority: 1000,
        detail_priority: 990,
        floor: true,
        when: When::Always,
        head: String::new(),
        body: Vec::new(),
        levels,
        path: None,
    };
    f.make_monotone();
    f
}

/// Every file fragment of the staged state, in path order.
pub fn file_fragments(state: &StagedState, conv: &Convention) -> Vec<Fragment> {
    let c = Classifier::new(&conv.context.exclude);
    state
        .files
        .iter()
        .map(|f| file_fragment(f, c.classify(f)))
        .collect()
}
