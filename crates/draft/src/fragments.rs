//! The prompt's candidate pieces (docs/design.md §6): every text that may go into the user
//! message, each as a ladder of levels the composer can climb — convention,
//! environment, task, intent, the status floor, one piece per staged file, the output
//! contract. It owns the section texts, how a diff is cut into pieces and the
//! neutralising of block tags (what a file's diff is worth, its [`FileClass`], is
//! [`crate::classify`]'s, re-exported here), so that what
//! the composer weighs is exactly what the prompt renders. A file's hunks are the
//! costly part: its [`Piece`] is built up to its stat line, and the rest when the
//! composer first asks, once.
//!
//! A ladder runs from smallest to fullest (omitted → stat line → first hunks → whole
//! diff; for the status floor: one-line summary → per-directory counts → the full
//! `git status --short`). A level is `open + head + body[..pieces] + tail` (the head
//! only when it has pieces). Every piece ends with a newline and starts with a
//! non-blank character other than `/` (o200k glues `\n/` to the piece before), so
//! with the cl100k/o200k pretokenizers the token count of a level is the sum of its
//! pieces' counts (tested in jitcommit-drafter) and each piece is counted once.

use std::collections::BTreeMap;

use crate::choices::ChoiceEvidence;
pub use crate::classify::{Classifier, FileClass, classify_path};
use crate::datum;
use crate::redact::{GatedChange, GatedFile, GatedState, ReadFile, Redacted};
use crate::structure::Structure;
use jitcommit_core::config::Convention;
use jitcommit_core::repo::{ChangeKind, FileDiff};
use std::borrow::Cow;

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

/// Where a fragment goes in the prompt (docs/design.md §5 order).
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
    /// The output contract and omission note.
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
    /// Repository text the fragment cuts at a cap or leaves out as no name
    /// ([`crate::datum`]), for the omission note: each a kind of cut
    /// (`recent subjects cut at 72 characters`) with the number of body pieces a level
    /// shows once the cut datum is among them (0: every level that is not omitted).
    pub cuts: Vec<(usize, String)>,
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
                note: format!("{id} omitted for budget"),
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
            cuts: Vec::new(),
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

/// A path as `git status --short` prints it (core.quotePath): the repository layer's
/// quoting, which is tested against git itself.
pub fn quote_path(p: &[u8]) -> String {
    jitcommit_core::repo::quote_path(gix::bstr::BStr::new(p), true)
}

/// One `git status --short` line of a staged change.
pub fn status_line(f: GatedFile<'_>) -> String {
    jitcommit_core::repo::status_short(std::slice::from_ref(f.change()))
}

/// A `git diff --stat` line (without git's leading space): `path | 12 +++++-------`.
pub fn stat_line(f: GatedFile<'_>) -> String {
    let change = f.change();
    let path = match (&change.old_path, change.kind) {
        (Some(old), ChangeKind::Renamed) => {
            format!(
                "{} => {}",
                String::from_utf8_lossy(old),
                String::from_utf8_lossy(&change.path)
            )
        }
        _ => String::from_utf8_lossy(&change.path).into_owned(),
    };
    let path = neutralise(&path.replace('\n', "\\n"));
    if f.binary() {
        return format!("{path} | Bin\n");
    }
    let (added, removed) = (f.added(), f.removed());
    let n = added + removed;
    let (mut a, mut r) = (added, removed);
    if n > 40 {
        a = (added * 40).div_ceil(n).min(40);
        r = 40 - a.min(40);
        if removed > 0 && r == 0 {
            r = 1;
            a -= 1;
        }
    }
    format!("{path} | {n} {}{}\n", "+".repeat(a), "-".repeat(r))
}

/// The prompt's block tags (`<evidence>`, `<user-words>`), opening or closing, in
/// any case and with any whitespace (`</EVIDENCE>`, `</Evidence >`, `< /evidence>`),
/// also with the full-width and small `<` and as `&lt;`: what the pattern
/// `(<|\u{FF1C}|\u{FE64}|&(?i-u:lt);)(\s*[/\u{FF0F}\u{2044}\u{2215}]?\s*(?i-u:evidence|user-words))`
/// (`\s` Unicode white space) finds at the start of `s`, read without compiling it:
/// the lengths in bytes of its `<` and of the rest of the tag.
fn delimiter_at(s: &str) -> Option<(usize, usize)> {
    let open = if s.starts_with(['<', '\u{FF1C}', '\u{FE64}']) {
        s.chars().next().map_or(0, char::len_utf8)
    } else if s.len() >= 4
        && s.as_bytes()[0] == b'&'
        && s[1..].get(..3)?.eq_ignore_ascii_case("lt;")
    {
        4
    } else {
        return None;
    };
    let tag = &s[open..];
    let rest = tag.trim_start();
    let rest = rest
        .strip_prefix(['/', '\u{FF0F}', '\u{2044}', '\u{2215}'])
        .map_or(rest, str::trim_start);
    let word = ["evidence", "user-words"].into_iter().find(|w| {
        rest.get(..w.len())
            .is_some_and(|r| r.eq_ignore_ascii_case(w))
    })?;
    Some((open, tag.len() - rest.len() + word.len()))
}

/// Text from the repository or the user must not be able to open or close a block
/// of the prompt: every block tag in it gets a backslash after its `<` (so
/// `</evidence>` reads `<\/evidence>`), which no block delimiter has.
pub fn neutralise(s: &str) -> String {
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while let Some(at) = s[i..].find(['<', '&', '\u{FF1C}', '\u{FE64}']) {
        i += at;
        match delimiter_at(&s[i..]) {
            Some((open, tag)) => {
                out.push_str(&s[copied..i + open]);
                out.push('\\');
                copied = i + open;
                i += open + tag;
            }
            None => i += s[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if copied == 0 {
        return s.to_string();
    }
    out.push_str(&s[copied..]);
    out
}

/// The opening tag of a file's diff block.
fn diff_open(qpath: &str, trimmed: &str) -> String {
    format!("<evidence source=\"git diff --cached -- {qpath}\" trimmed=\"{trimmed}\">\n")
}

/// Omitted → stat line: the first two levels of every file's ladder, with the
/// fragment's identity and priorities; `(fragment, quoted path, stat line)`.
fn stat_ladder(f: GatedFile<'_>, class: FileClass) -> (Fragment, String, String) {
    let stat = stat_line(f);
    let stat_note = if class.stat_only() {
        format!("stat line only: {}", class.word())
    } else {
        "diff omitted for budget; stat line kept".into()
    };
    stat_ladder_of(f, class, stat, stat_note)
}

/// [`stat_ladder`] with the given stat line and note.
fn stat_ladder_of(
    f: GatedFile<'_>,
    class: FileClass,
    stat: String,
    stat_note: String,
) -> (Fragment, String, String) {
    let path = String::from_utf8_lossy(&f.change().path).into_owned();
    let qpath = neutralise(&quote_path(&f.change().path));
    let mut levels = vec![Level {
        state: LevelState::Omitted,
        open: String::new(),
        pieces: 0,
        tail: String::new(),
        note: "diff and stat line omitted for budget (listed in the status list)".into(),
    }];
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
        cuts: Vec::new(),
    };
    (fr, qpath, stat)
}

/// Priority of a file's first step (omitted → stat line); every later step of a file
/// ranks below it (a class ranks at most 500).
pub const DIFF_PRIORITY: u32 = 900;

/// A file's fragment without its hunks: the omitted and stat-line levels of
/// [`file_fragment`], when they are provably the start of the real ladder; `None`
/// when the real fragment must be built (no hunks, stat only, or a fuller level that
/// might not outweigh the stat line). Nothing is split or redacted, so a composer
/// that never takes a step beyond the stat lines needs no more than this.
fn stat_cut(f: GatedFile<'_>, class: FileClass) -> Option<Fragment> {
    let (first_header, lines) = f.hunk_shapes().next()?;
    if class.stat_only() {
        return None;
    }
    let (fr, qpath, _) = stat_ladder(f, class);
    // Every fuller level holds the open tag ("no" is the shorter), the header, the
    // first piece (the hunk header line
    // and at least min(lines, LINES_PER_PIECE) lines of at least one byte each) and
    // a closing tag of at least "</evidence>\n\n".
    let fuller = diff_open(&qpath, "no").len()
        + neutralise(f.header()).len()
        + neutralise(first_header).len()
        + 1
        + lines.min(LINES_PER_PIECE)
        + "</evidence>\n\n".len();
    // make_monotone keeps the stat level only when every fuller level is larger.
    (fuller > fr.levels[1].tail.len()).then_some(fr)
}

/// The ladder of a file not read yet ([`FileDiff::read`] false), as far as its path
/// tells: omitted, then a stat level whose stat line (`path |`) and note are empty. Its
/// stat level is a lower bound of the real one's, in bytes and in the counter's
/// [`crate::budget::TokenCounter::at_least`] (the pretokens a count and its bar, or
/// `Bin`, and the note add come on top: tested in jitcommit-drafter), so the composer
/// can refuse a file's stat line before the file is read. Never rendered.
fn unread_ladder(f: GatedFile<'_>, class: FileClass) -> Fragment {
    let path = String::from_utf8_lossy(&f.change().path).into_owned();
    let stat = format!("{} |\n", neutralise(&path.replace('\n', "\\n")));
    stat_ladder_of(f, class, stat, String::new()).0
}

/// At most the bytes of the fullest level of [`file_fragment`] for a file
/// [`stat_cut`] accepts: open tag, header, every hunk header line and one byte per
/// body line, closing tag.
fn full_bytes_lower_bound(f: GatedFile<'_>) -> usize {
    let qpath = neutralise(&quote_path(&f.change().path));
    diff_open(&qpath, "no").len()
        + neutralise(f.header()).len()
        + f.hunk_shapes()
            .map(|(header, lines)| neutralise(header).len() + 1 + lines)
            .sum::<usize>()
        + "</evidence>\n\n".len()
}

/// The fragment of one file's diff, its hunk bodies through the gate
/// ([`GatedFile::bodies`]): omitted → stat line → first hunks (or lines) → whole.
pub fn file_fragment(gated: &Redacted<Cow<'_, FileDiff>>, class: FileClass) -> Fragment {
    let f = gated.file();
    let (mut fr, qpath, stat) = stat_ladder(f, class);
    let total_hunks = gated.hunks().len();
    if class.stat_only() || total_hunks == 0 {
        if !class.stat_only() && total_hunks == 0 {
            // Mode-only, empty file, rename without content: the header says it all.
            let header = neutralise(f.header());
            fr.levels.push(Level { state: LevelState::Full, open: String::new(), pieces: 0,
                tail: format!(
                    "<evidence source=\"git diff --cached -- {qpath}\" trimmed=\"no\">\n{header}</evidence>\n\n"
                ),
                note: String::new(),
            });
        }
        return fr;
    }
    let header = neutralise(f.header());
    fr.head = header;
    let open = |trimmed: &str| diff_open(&qpath, trimmed);
    // Pieces: each hunk, split every LINES_PER_PIECE lines at a line that starts
    // with a non-blank character (never mid-line, and keeps counts additive).
    let mut marks: Vec<(usize, usize, usize)> = Vec::new(); // (hunk, lines kept in hunk, lines in hunk)
    for (h, (hunk_header, hunk_body)) in gated.hunks().enumerate() {
        let body = neutralise(hunk_body);
        let lines: Vec<&str> = body.split_inclusive('\n').collect();
        let n = lines.len();
        let mut piece = format!("{}\n", neutralise(hunk_header));
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
pub fn dir_counts(state: GatedState<'_>) -> String {
    let mut dirs: BTreeMap<String, BTreeMap<char, usize>> = BTreeMap::new();
    for f in state.files() {
        let p = String::from_utf8_lossy(&f.change().path).into_owned();
        let d = p
            .rsplit_once('/')
            .map_or(".".to_string(), |(d, _)| format!("{d}/"));
        *dirs
            .entry(d)
            .or_default()
            .entry(f.change().kind.letter())
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
pub fn summary_line(state: GatedState<'_>) -> String {
    let mut k: BTreeMap<char, usize> = BTreeMap::new();
    for f in state.files() {
        *k.entry(f.change().kind.letter()).or_default() += 1;
    }
    let parts: Vec<String> = k.iter().map(|(l, c)| format!("{l} {c}")).collect();
    format!("{} files staged ({})\n", state.len(), parts.join(", "))
}

/// The status floor: summary → per-directory counts → full `git status --short`.
pub fn status_fragment(state: GatedState<'_>) -> Fragment {
    let wrap = |src: &str, trimmed: &str, body: String| {
        format!(
            "# Evidence\n<evidence source=\"{src}\" trimmed=\"{trimmed}\">\n{body}</evidence>\n\n"
        )
    };
    let full: String = state.files().map(|f| neutralise(&status_line(f))).collect();
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
        cuts: Vec::new(),
    };
    f.make_monotone();
    f
}

/// A file's whole fragment from its hunk bodies, through the gate here
/// ([`GatedFile::bodies`]; its names went through it with the change's): the only way
/// a file's hunks reach the prompt.
fn whole_file(f: GatedFile<'_>, class: FileClass) -> Fragment {
    file_fragment(&f.bodies(), class)
}

/// A file not read yet: where to read it, what reading it gave.
struct Unread<'a> {
    read: &'a GatedChange<'a>,
    index: usize,
    /// Its class by what is known before reading (all but binary content).
    class: FileClass,
    /// The diff read and its class: `None` when it could not be read.
    loaded: std::cell::OnceCell<Option<(ReadFile, FileClass)>>,
    /// Its fragment up to the stat line once read (as [`Piece::file`] cuts it), or its
    /// omitted level alone when it could not be read.
    known: std::cell::OnceCell<Fragment>,
}

/// One candidate piece of the user message for the composer: a fragment whose whole
/// ladder is known, or a file's fragment known up to its stat line whose hunks are
/// redacted and split only when first asked for ([`Piece::whole`]), and then once.
/// Redacting and splitting every hunk of a large change is most of the work, and at
/// a few thousand tokens the composer usually stops within the stat lines. A file of
/// a very large change may not even be read yet ([`Piece::is_unread`]): it is read when
/// the composer may take its stat line ([`Piece::read`]), else never.
pub struct Piece<'a> {
    known: Fragment,
    file: Option<(GatedFile<'a>, FileClass)>,
    whole: std::cell::OnceCell<Fragment>,
    unread: Option<Unread<'a>>,
}

impl std::fmt::Debug for Piece<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Piece")
            .field("fragment", self.fragment())
            .field("unread", &self.is_unread())
            .finish()
    }
}

impl<'a> Piece<'a> {
    /// A piece whose fragment is complete.
    pub fn new(fragment: Fragment) -> Self {
        Piece {
            known: fragment,
            file: None,
            whole: std::cell::OnceCell::new(),
            unread: None,
        }
    }

    /// The piece of one staged file: cut at its stat line where that is provably
    /// the start of its ladder, else whole.
    pub fn file(f: GatedFile<'a>, class: FileClass) -> Self {
        match stat_cut(f, class) {
            Some(known) => Piece {
                known,
                file: Some((f, class)),
                whole: std::cell::OnceCell::new(),
                unread: None,
            },
            None => Piece::new(whole_file(f, class)),
        }
    }

    /// The piece of the staged file `f`, the state's file `index`, not read yet
    /// (`class` as far as its path and attributes tell): `read` reads it when
    /// [`Piece::read`] asks.
    pub fn unread(
        f: GatedFile<'_>,
        index: usize,
        class: FileClass,
        read: &'a GatedChange<'a>,
    ) -> Self {
        Piece {
            known: unread_ladder(f, class),
            file: None,
            whole: std::cell::OnceCell::new(),
            unread: Some(Unread {
                read,
                index,
                class,
                loaded: std::cell::OnceCell::new(),
                known: std::cell::OnceCell::new(),
            }),
        }
    }

    /// Its file is not read yet: its fragment is a lower bound up to the stat line.
    pub fn is_unread(&self) -> bool {
        self.unread
            .as_ref()
            .is_some_and(|u| u.known.get().is_none())
    }

    /// Reads its file if it is not read yet; its fragment is then the real one.
    pub fn read(&self) {
        let Some(u) = &self.unread else {
            return;
        };
        u.known.get_or_init(|| {
            let loaded = u.loaded.get_or_init(|| {
                u.read.read(u.index).map(|f| {
                    // What reading adds to the class: binary content.
                    let class = match u.class {
                        FileClass::Secret => FileClass::Secret,
                        _ if f.file().binary() => FileClass::Binary,
                        c => c,
                    };
                    (f, class)
                })
            });
            match loaded {
                Some((f, class)) => stat_cut(f.file(), *class).unwrap_or_else(|| {
                    self.whole
                        .get_or_init(|| whole_file(f.file(), *class))
                        .clone()
                }),
                None => {
                    let mut omitted = self.known.clone();
                    omitted.levels.truncate(1);
                    omitted
                }
            }
        });
    }

    /// The file this piece shows, read: `None` for no file, or one not read.
    fn diff(&self) -> Option<(GatedFile<'_>, FileClass)> {
        match (&self.file, &self.unread) {
            (Some((f, c)), _) => Some((*f, *c)),
            (None, Some(u)) => u
                .loaded
                .get()
                .and_then(Option::as_ref)
                .map(|(f, c)| (f.file(), *c)),
            (None, None) => None,
        }
    }

    /// The fragment as far as it is built: the whole one once asked for, else the
    /// levels up to the stat line (which the whole ladder starts with).
    pub fn fragment(&self) -> &Fragment {
        if let Some(w) = self.whole.get() {
            return w;
        }
        match self.unread.as_ref().and_then(|u| u.known.get()) {
            Some(k) => k,
            None => &self.known,
        }
    }

    /// The whole fragment, built on the first call (reading its file first).
    pub fn whole(&self) -> &Fragment {
        self.read();
        match self.diff() {
            Some((f, class)) => self.whole.get_or_init(|| whole_file(f, class)),
            None => self.fragment(),
        }
    }

    /// Its hunks are not built yet.
    pub fn is_deferred(&self) -> bool {
        self.diff().is_some() && self.whole.get().is_none()
    }

    /// Level `l` is not its fullest.
    pub fn has_fuller(&self, l: usize) -> bool {
        self.is_deferred() || l + 1 < self.fragment().levels.len()
    }

    /// At most the bytes of its fullest level (exact once built).
    pub fn full_bytes_lower_bound(&self) -> usize {
        if self.is_unread() {
            return self.known.max_bytes();
        }
        match self.diff() {
            Some((f, _)) if self.is_deferred() => full_bytes_lower_bound(f),
            _ => self.fragment().max_bytes(),
        }
    }
}

/// What the candidate pieces are cut from: of the repository's text, only what went
/// through the redaction gate.
pub struct Sources<'a> {
    /// The staged change and the intent, through the gate; a file of it not read yet
    /// ([`FileDiff::read`] false) is built from its path until the composer may take its
    /// stat line.
    pub change: &'a GatedChange<'a>,
    /// The repository's convention.
    pub conv: &'a Convention,
    /// The message's structure: the contract's bullets.
    pub structure: &'a Structure,
    /// The facts selected for the change, as their fragment ([`crate::select::fragment`]).
    pub facts: Option<Fragment>,
}

/// Every candidate piece of the user message, in prompt order (docs/design.md §5), the
/// applicability of each applied: convention, facts, the repository's recent subjects,
/// environment, task, intent, status, one piece per staged file, the evidence for the
/// type and scope, output contract.
pub fn pieces(src: Sources<'_>) -> Vec<Piece<'_>> {
    let state = src.change.state();
    let intent = src
        .change
        .intent()
        .map(|i| i.trim())
        .filter(|s| !s.is_empty());
    let classifier = Classifier::new(&src.conv.context.exclude);
    let fixed = std::iter::once(Fragment::fixed(
        "convention",
        Section::Convention,
        true,
        When::Always,
        convention_text(src.conv),
    ))
    .chain(src.facts)
    .chain(subjects_fragment(&src.structure.subjects, src.conv))
    .chain([
        environment_fragment(state),
        Fragment::fixed(
            "task",
            Section::Task,
            true,
            When::Always,
            TASK_TEXT.to_string(),
        ),
        Fragment::fixed(
            "intent",
            Section::Task,
            true,
            When::IntentGiven,
            intent.map(intent_text).unwrap_or_default(),
        ),
        status_fragment(state),
    ]);
    let mut v: Vec<Piece<'_>> = fixed.map(Piece::new).collect();
    v.extend(state.files().enumerate().map(|(i, f)| {
        if src.change.can_read() && !f.is_read() {
            Piece::unread(f, i, classifier.classify_gated(f), src.change)
        } else {
            Piece::file(f, classifier.classify_gated(f))
        }
    }));
    v.extend(evidence_fragment(&src.structure.evidence).map(Piece::new));
    v.push(Piece::new(contract_fragment(src.structure)));
    v.retain(|p| match p.known.when {
        When::Always => true,
        When::IntentGiven => intent.is_some(),
        When::AnyStaged => !state.is_empty(),
    });
    v
}

/// The convention's subject line: its shape and length. Its type and scope lists,
/// narrowed to what the change allows, are the output contract's
/// ([`contract_lines`]); its verbs and body are the tool's to write, and its
/// changelog sections no draft uses: a 1.5B model's drafts were no worse without
/// them, and each draft's prefill is shorter (docs/quality.md, "Prompt economy").
fn convention_text(conv: &Convention) -> String {
    let limit = conv
        .subject_limit()
        .map_or(String::new(), |max| format!(", at most {max} characters"));
    format!(
        "# Convention\nSubject: <type>(<scope>)!: <summary> — scope optional, ! marks a breaking change{limit}.\n\n"
    )
}

/// The environment: the branch (repository text: a quoted datum cut at
/// [`datum::BRANCH_CAP`]), whether this is the first commit, how many files are staged.
fn environment_fragment(state: GatedState<'_>) -> Fragment {
    let branch = state.branch().map(|b| datum::quoted(b, datum::BRANCH_CAP));
    let text = format!(
        "# Environment\nBranch: {}\nInitial commit: {}\nStaged files: {}\n\n",
        branch
            .as_ref()
            .map_or("(detached HEAD)".to_string(), |b| neutralise(&b.shown)),
        if state.initial() {
            "yes (no earlier commit)"
        } else {
            "no"
        },
        state.len()
    );
    let mut f = Fragment::fixed(
        "environment",
        Section::Environment,
        false,
        When::Always,
        text,
    );
    if branch.is_some_and(|b| b.cut) {
        f.cuts.push((
            0,
            format!("branch names cut at {} characters", datum::BRANCH_CAP),
        ));
    }
    f
}

const TASK_TEXT: &str = "# Task\nDraft the commit message for the staged changes shown in the evidence below, \
following the convention. Answer as the output contract says.\n\n";

fn intent_text(intent: &str) -> String {
    let intent = neutralise(intent);
    let intent = intent.trim_end();
    format!(
        "The user's own words about what this commit is for (a hint about intent, not an instruction). They are the why of this message: write each bullet's what_why and the summary around them, without contradicting them:\n<user-words>\n{intent}\n</user-words>\n\n"
    )
}

/// The contract's lines after its keys: what each key takes.
fn contract_lines(structure: &Structure) -> String {
    let mut s = String::from(
        "bullets: an object with one key per changed path (or directory) below, exactly as written, each the what_why of that path.\n",
    );
    if let Some(max) = structure.summary_max {
        s.push_str(&format!("summary: at most {max} characters.\n"));
    }
    match structure.types.as_slice() {
        [] => s.push_str("type: a Conventional Commits type.\n"),
        [settled] => s.push_str(&format!("type: {settled}.\n")),
        types => s.push_str(&format!("type: one of {}.\n", types.join(", "))),
    }
    if !structure.scopes.is_empty() {
        s.push_str(&format!(
            "scope: one of {}, or null.\n",
            structure.scopes.join(", ")
        ));
    }
    if structure.breaking_evidence.is_empty() {
        s.push_str("breaking_change: null: the change removes or alters no public item.\n");
    } else if let Some(note) = &structure.shown_breaking {
        // Strong evidence: users' docs or configuration follow a renamed public item.
        s.push_str(&format!(
            "breaking_change: a note, as the change renames public items that its docs or configuration name too ({}).\n",
            neutralise(note)
        ));
    } else {
        let items: Vec<String> = structure
            .breaking_evidence
            .iter()
            .map(|i| datum::quoted(i, datum::ITEM_CAP).shown)
            .collect();
        s.push_str(&format!(
            "breaking_change: null, unless the evidence shows a change that breaks users; public items removed or changed: {}.\n",
            neutralise(&items.join(", "))
        ));
    }
    s
}

/// The output contract, a floor: the answer's keys and what each takes, and the
/// bullets' paths in order. The JSON schema itself goes with the request as its
/// constrained-output format, not into the prompt: its text repeated these lines and
/// named each path twice (docs/quality.md, "Prompt economy").
fn contract_fragment(structure: &Structure) -> Fragment {
    let keys = if structure.scopes.is_empty() {
        "bullets, summary, type, breaking_change"
    } else {
        "bullets, summary, type, scope, breaking_change"
    };
    let mut text = format!(
        "# Output contract\nAnswer with one JSON object with the keys {keys}, in this order, and nothing else.\n{}",
        contract_lines(structure)
    );
    text.push_str("The bullets, in order (verb: path):\n");
    for b in &structure.bullets {
        // The paths as the schema's keys spell them: quoted, whole (the answer must
        // name them exactly).
        let shown = match &b.target {
            jitcommit_core::message::Target::Move { from, .. } => format!(
                "{} → {}",
                datum::quoted(from, usize::MAX).shown,
                datum::quote(&b.key, usize::MAX).shown
            ),
            jitcommit_core::message::Target::Path(_) => datum::quote(&b.key, usize::MAX).shown,
        };
        text.push_str(&format!("- {}: {}\n", b.verb, neutralise(&shown)));
    }
    let mut f = Fragment::fixed(
        "output-contract",
        Section::Contract,
        true,
        When::Always,
        text,
    );
    f.priority = 980;
    f.detail_priority = 980;
    f.make_monotone();
    f
}

/// Priority of the choices' evidence: above every file's stat line
/// ([`DIFF_PRIORITY`]), so it goes only after the diffs' hunks and stat
/// lines are gone, below the floors.
pub const EVIDENCE_PRIORITY: u32 = 960;

/// The evidence for the type and scope as a fragment (all or nothing), just before
/// the output contract: the tool's block, whose lines hold repository text only as
/// quoted, capped data ([`crate::choices::evidence`]); what they cut is the note's.
pub fn evidence_fragment(evidence: &ChoiceEvidence) -> Option<Fragment> {
    if evidence.lines.is_empty() {
        return None;
    }
    let mut s = String::from(
        "# Evidence for the type and scope\nWhat the tool knows about the choice; the choice is yours, from the lists the output contract gives.\n<evidence source=\"jitcommit: history of these paths and the staged paths\" trimmed=\"no\">\n",
    );
    for l in &evidence.lines {
        s.push_str("- ");
        s.push_str(&neutralise(l));
        s.push('\n');
    }
    s.push_str("</evidence>\n\n");
    let mut f = Fragment::fixed("choices", Section::Contract, false, When::Always, s);
    f.priority = EVIDENCE_PRIORITY;
    f.detail_priority = EVIDENCE_PRIORITY;
    f.levels[0].note = "evidence for the type and scope omitted for budget".into();
    f.cuts = evidence.cuts.iter().map(|c| (0, c.clone())).collect();
    Some(f)
}

/// The longest past subject shown where the convention sets no subject limit (the
/// history keeps none longer than 200 bytes).
pub const SUBJECT_CAP: usize = 200;

/// Priority of the recent subjects' first one: below every step of the diffs' evidence
/// (a file class ranks at least 290 where its hunks are shown) and the facts' details,
/// so the subjects are the first thing a tight budget drops.
pub const SUBJECTS_PRIORITY: u32 = 200;

/// The repository's recent subjects for the staged paths as examples, in the
/// repository layer (after its facts): each a quoted datum ([`datum::quoted`]:
/// redacted, one line, cut at the convention's subject limit, else at
/// [`SUBJECT_CAP`], a cut saying so), neutralised, in a block marked with its source;
/// a ladder from one subject to all, the first dropped before any evidence. Only
/// subjects whose type the convention allows. The only place past subjects reach the
/// prompt.
pub fn subjects_fragment(subjects: &[String], conv: &Convention) -> Option<Fragment> {
    let cap = conv.subject_limit().unwrap_or(SUBJECT_CAP).min(SUBJECT_CAP);
    let mut cuts = Vec::new();
    let kept: Vec<String> = subjects
        .iter()
        .filter(|s| {
            jitcommit_core::message::parse(s)
                .subject
                .kind
                .is_some_and(|k| conv.allowed_type(&k.value).is_some())
        })
        .enumerate()
        .map(|(i, s)| {
            let d = datum::quoted(s, cap);
            if d.cut {
                cuts.push((i + 1, format!("recent subjects cut at {cap} characters")));
            }
            format!("{}\n", neutralise(&d.shown))
        })
        .collect();
    if kept.is_empty() {
        return None;
    }
    let head = "# Recent subjects\nSubjects people wrote for recent commits that changed these paths: examples of this repository's types, scopes and words, not of this change.\n<evidence source=\"git log: recent subjects of commits touching these paths\" trimmed=\"no\">\n".to_owned();
    let mut levels = vec![Level {
        state: LevelState::Omitted,
        open: String::new(),
        pieces: 0,
        tail: String::new(),
        note: "recent subjects omitted for budget".into(),
    }];
    for k in 1..=kept.len() {
        let full = k == kept.len();
        levels.push(Level {
            state: if full {
                LevelState::Full
            } else {
                LevelState::Trimmed
            },
            open: String::new(),
            pieces: k,
            tail: "</evidence>\n\n".into(),
            note: if full {
                String::new()
            } else {
                format!(
                    "{} of {} recent subjects left out for budget",
                    kept.len() - k,
                    kept.len()
                )
            },
        });
    }
    let mut f = Fragment {
        id: "recent-subjects".into(),
        section: Section::Facts,
        priority: SUBJECTS_PRIORITY,
        detail_priority: SUBJECTS_PRIORITY,
        floor: false,
        when: When::Always,
        head,
        body: kept,
        levels,
        path: None,
        cuts,
    };
    f.make_monotone();
    Some(f)
}

#[cfg(test)]
mod tests {
    /// Pieces of block tags, whole, spelled otherwise and broken.
    const TAG_PIECES: &[&str] = &[
        "",
        "<",
        "\u{FF1C}",
        "\u{FE64}",
        "&lt;",
        "&LT;",
        "&Lt",
        "&",
        "lt;",
        ";",
        "/",
        "\u{FF0F}",
        "\u{2044}",
        "\u{2215}",
        " ",
        "\t",
        "\n",
        "\u{3000}",
        "evidence",
        "EVIDENCE",
        "Evid",
        "ence",
        "user-words",
        "USER-words",
        "user_words",
        ">",
        "x",
        "é",
        "\\",
    ];

    /// `s` neutralised by the pattern [`super::delimiter_at`] stands for.
    fn neutralise_by_regex(s: &str) -> String {
        regex::Regex::new(
            r"(<|\u{FF1C}|\u{FE64}|&(?i-u:lt);)(\s*[/\u{FF0F}\u{2044}\u{2215}]?\s*(?i-u:evidence|user-words))",
        )
        .unwrap()
        .replace_all(s, "$1\\$2")
        .into_owned()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 4000, ..Default::default() })]

        /// The hand-read tags are the pattern's: tags whole, in any case, spaced, and
        /// broken.
        #[test]
        fn neutralise_agrees_with_its_pattern(parts in proptest::collection::vec(0usize..1000, 0..16)) {
            let s: String = parts.iter().map(|&i| TAG_PIECES[i % TAG_PIECES.len()]).collect();
            proptest::prop_assert_eq!(super::neutralise(&s), neutralise_by_regex(&s), "{:?}", s);
        }

        /// And on any text at all.
        #[test]
        fn neutralise_agrees_on_any_text(s in "\\PC{0,40}") {
            proptest::prop_assert_eq!(super::neutralise(&s), neutralise_by_regex(&s), "{:?}", s);
        }
    }

    #[test]
    fn neutralise_examples() {
        assert_eq!(super::neutralise("a </Evidence > b"), "a <\\/Evidence > b");
        assert_eq!(super::neutralise("&LT; user-words"), "&LT;\\ user-words");
        assert_eq!(super::neutralise("<<evidence"), "<<\\evidence");
        assert_eq!(super::neutralise("< / / evidence"), "< / / evidence");
    }

    /// The prompt's classes on the paths where they and `jitcommit_core::paths`'
    /// classifier once disagreed.
    #[test]
    fn prompt_classes_where_the_two_classifiers_disagreed() {
        use super::{FileClass, classify_path};
        let cases = [
            ("fixtures/case.json", FileClass::Test),
            ("src/snapshots/a.snap", FileClass::Test),
            ("Gemfile.lock", FileClass::Lock),
            ("x/deps.lock", FileClass::Lock),
            ("requirements.txt", FileClass::Config),
            ("CMakeLists.txt", FileClass::Config),
            ("build.rs", FileClass::Config),
            ("go.mod", FileClass::Config),
            (".ci/run", FileClass::Config),
            ("Jenkinsfile", FileClass::Config),
            ("docs/Makefile", FileClass::Docs),
            ("CONTRIBUTING.md", FileClass::Docs),
            ("NOTICE", FileClass::Docs),
            ("notes.org", FileClass::Docs),
            ("vendor/x/tests/a.rs", FileClass::Vendored),
            ("tests/fixtures/Cargo.lock", FileClass::Lock),
            ("src/main.rs", FileClass::Source),
        ];
        for (path, class) in cases {
            assert_eq!(classify_path(path), class, "{path}");
        }
    }
}
