//! The token budget (docs/design.md §6): how many tokens a prompt may take, how they are
//! counted, and the composer that chooses a level for every candidate piece. It owns
//! the choice alone — the texts are [`crate::fragments`]'s, their render is
//! [`crate::prompt`]'s — so that the budget's promises (never over the limit, floors
//! kept, deterministic) hold in one place.
//!
//! Core links no tokenizer: counting comes in through [`TokenCounter`] (the model
//! crate implements it with exact BPE). When the bytes of everything fit, every piece
//! is kept whole and nothing is counted. Otherwise the composer walks the pieces'
//! upgrade steps in one fixed priority order; a step that does not fit is skipped
//! (with the later steps of its piece) and the cheaper ones after it are still tried,
//! so a large change fills its budget with stat lines and first hunks instead of
//! stopping at the first step that is too big. See [`choose`] and [`compose`].

use crate::fragments::{DIFF_PRIORITY, LevelState, Piece};
use jitcommit_core::config::ContextSettings;

/// Counts tokens of a text: exact BPE in [`crate::tokens`], a stand-in in tests.
pub trait TokenCounter {
    /// The number of tokens `text` encodes to.
    fn count(&self, text: &str) -> usize;

    /// A number `text` encodes to at least, cheaper than [`count`](Self::count) (for a
    /// BPE: its pretokens, each at least one token). The composer refuses a step this
    /// already puts over the limit without counting it. 0 unless a counter knows more.
    fn at_least(&self, _text: &str) -> usize {
        0
    }
}

/// One token per byte: an upper bound for every byte-level BPE (a token is at least
/// one byte), so a prompt that fits by this count fits by any such tokenizer.
#[derive(Debug, Clone, Copy, Default)]
pub struct ByteCounter;

impl TokenCounter for ByteCounter {
    fn count(&self, text: &str) -> usize {
        text.len()
    }
}

/// Tokens a chat request adds around the two messages (role markers, separators,
/// the assistant's priming). OpenAI documents 3–4 per message plus 3; this is a
/// rounded-up constant so the budget stays an upper bound across chat templates.
pub const CHAT_OVERHEAD_TOKENS: usize = 12;

/// Floors alone exceed the budget even at their smallest: the caller falls back to
/// the offline draft.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error(
    "the prompt does not fit: its floors need {needed} tokens, {budget} are available \
     (budget-tokens − reserve-output-tokens, after the safety margin)"
)]
pub struct DoesNotFit {
    /// Tokens the smallest possible prompt needs (margin included).
    pub needed: usize,
    /// Tokens available for the prompt.
    pub budget: usize,
}

/// The token limits of one run, derived from the convention's context settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// The model's context window.
    pub budget_tokens: usize,
    /// Kept free for the answer.
    pub reserve_output_tokens: usize,
    /// Extra percent assumed on top of the BPE count.
    pub safety_margin_percent: u32,
}

impl Limits {
    /// The limits a convention's context settings ask for.
    pub fn from_settings(s: &ContextSettings) -> Self {
        Limits {
            budget_tokens: s.budget_tokens,
            reserve_output_tokens: s.reserve_output_tokens,
            safety_margin_percent: s.safety_margin_percent,
        }
    }

    /// Tokens the prompt may take: `budget − reserve`.
    pub fn prompt_tokens(&self) -> usize {
        self.budget_tokens
            .saturating_sub(self.reserve_output_tokens)
    }

    /// The largest BPE count that still fits once the margin is added:
    /// `count × (100 + margin) ≤ (budget − reserve) × 100`.
    pub fn counted_limit(&self) -> usize {
        let margin = 100u128 + u128::from(self.safety_margin_percent);
        let lim = (self.prompt_tokens() as u128 * 100) / margin;
        usize::try_from(lim).unwrap_or(usize::MAX)
    }

    /// A count with the margin added, rounded up: what the report calls "needed".
    pub fn with_margin(&self, count: usize) -> usize {
        let m = u128::from(self.safety_margin_percent);
        let c = count as u128;
        usize::try_from(c + (c * m).div_ceil(100)).unwrap_or(usize::MAX)
    }
}

/// What happened to one fragment, for `--print-context`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FragmentReport {
    /// Stable id: `core-instructions`, `convention`, `status`, `diff:<path>`, …
    pub id: String,
    /// A floor: never dropped, only degraded.
    pub floor: bool,
    /// Kept whole, trimmed, stat line only, or omitted.
    pub state: LevelState,
    /// Tokens the kept part takes (bytes when `exact` is false: an upper bound).
    pub tokens: usize,
    /// What was cut, in words; empty when kept whole.
    pub note: String,
}

/// The composer's account of one prompt: every fragment and the total against the budget.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BudgetReport {
    /// The limits applied.
    pub limits: Limits,
    /// `budget − reserve`.
    pub available: usize,
    /// The largest raw count that fits after the margin.
    pub counted_limit: usize,
    /// The rendered prompt's count (system + user + chat overhead).
    pub total: usize,
    /// Counts are exact BPE counts; false when the bytes provably fit and no
    /// tokenizer ran (the figures are then byte counts, an upper bound).
    pub exact: bool,
    /// One row per applicable fragment, in prompt order.
    pub fragments: Vec<FragmentReport>,
}

/// A human table of a [`BudgetReport`], for `--print-context`.
pub fn render_report(r: &BudgetReport) -> String {
    let mut out = String::new();
    let w = r
        .fragments
        .iter()
        .map(|f| f.id.chars().count())
        .max()
        .unwrap_or(8)
        .clamp(8, 60);
    out.push_str(&format!(
        "{:<w$}  {:<9} {:>7}  note\n",
        "fragment", "state", "tokens"
    ));
    for f in &r.fragments {
        let id: String = if f.id.chars().count() > w {
            let tail: String =
                f.id.chars()
                    .rev()
                    .take(w - 1)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
            format!("…{tail}")
        } else {
            f.id.clone()
        };
        let state = format!("{}{}", f.state.label(), if f.floor { "*" } else { "" });
        out.push_str(&format!(
            "{id:<w$}  {state:<9} {:>7}  {}\n",
            f.tokens, f.note
        ));
    }
    out.push_str(&format!(
        "total {} {} of {} available (budget {} − reserve {}, margin {}%: counted limit {}){}\n",
        r.total,
        if r.exact {
            "tokens"
        } else {
            "bytes (≥ tokens; no tokenizer needed)"
        },
        r.available,
        r.limits.budget_tokens,
        r.limits.reserve_output_tokens,
        r.limits.safety_margin_percent,
        r.counted_limit,
        "  (* = floor)"
    ));
    out
}

/// The composer's choice: a level per piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// `levels[i]` is the chosen level index of piece `i`.
    pub levels: Vec<usize>,
    /// Per-piece cost of the chosen level: tokens when `exact`, else bytes.
    pub costs: Vec<usize>,
    /// Chosen by the counter's tokens; false when every piece fits whole by bytes
    /// and no tokenizer ran.
    pub exact: bool,
}

/// Once a step above the details has been skipped, the details (hunks) are still
/// tried while less than this share of the limit is used.
pub const FILLED_PERCENT: usize = 80;

/// What the prompt adds around its pieces, which the composer reserves: the system
/// message, the chat overhead and the omission note at its longest.
pub struct Frame<'a> {
    /// Its bytes: an upper bound of its tokens by any byte-level BPE.
    pub bytes: usize,
    /// Its tokens by the run's counter, asked only when the pieces do not fit by bytes.
    pub tokens: &'a dyn Fn() -> usize,
}

/// Chooses a level for every piece within `limits` (docs/design.md §6): every piece whole
/// when the bytes of everything fit (no tokenizer runs), else [`compose`]'s walk,
/// with `extra` tokens reserved beyond the frame's (the caller's correction for a
/// counter whose counts do not add up).
pub fn choose(
    pieces: &[Piece],
    frame: &Frame,
    extra: usize,
    limits: Limits,
    counter: &dyn TokenCounter,
) -> Result<Selection, DoesNotFit> {
    let limit = limits.counted_limit();
    if let Some(sel) = whole_by_bytes(pieces, frame.bytes, limit) {
        return Ok(sel);
    }
    compose(pieces, (frame.tokens)() + extra, limit, counter).map_err(|needed| DoesNotFit {
        needed: limits.with_margin(needed),
        budget: limits.prompt_tokens(),
    })
}

/// Every piece at its fullest level, when `frame` and the pieces' bytes fit `limit`.
/// Bytes bound tokens from above; the pieces' hunks are built only when a lower
/// bound of their bytes fits.
fn whole_by_bytes(pieces: &[Piece], frame: usize, limit: usize) -> Option<Selection> {
    // Past the limit the exact sum does not matter: stop adding there.
    let cap = limit.saturating_sub(frame);
    let within = |bytes: fn(&Piece) -> usize| {
        let mut sum = 0usize;
        pieces.iter().all(|p| {
            sum += bytes(p);
            sum <= cap
        })
    };
    if !within(|p| p.full_bytes_lower_bound()) || !within(|p| p.whole().max_bytes()) {
        return None;
    }
    let levels: Vec<usize> = pieces
        .iter()
        .map(|p| p.whole().levels.len().saturating_sub(1))
        .collect();
    let costs = pieces
        .iter()
        .zip(&levels)
        .map(|(p, &l)| p.whole().render(l).len())
        .collect();
    Some(Selection {
        levels,
        costs,
        exact: false,
    })
}

/// Lazily counted costs: each head, body piece and tail is counted at most once.
struct Costs<'a> {
    pieces: &'a [Piece<'a>],
    counter: &'a dyn TokenCounter,
    head: Vec<Option<usize>>,
    body: Vec<Vec<Option<usize>>>,
    tails: Vec<Vec<Option<usize>>>,
}

impl<'a> Costs<'a> {
    fn new(pieces: &'a [Piece<'a>], counter: &'a dyn TokenCounter) -> Self {
        let frags = pieces.iter().map(Piece::fragment);
        Costs {
            pieces,
            counter,
            head: vec![None; pieces.len()],
            body: frags.clone().map(|f| vec![None; f.body.len()]).collect(),
            tails: frags.map(|f| vec![None; f.levels.len()]).collect(),
        }
    }

    /// Builds piece `p`'s hunks. Its levels up to the stat line, counted already,
    /// are the same in the whole ladder.
    fn expand(&mut self, p: usize) {
        let f = self.pieces[p].whole();
        self.body[p] = vec![None; f.body.len()];
        self.tails[p].resize(f.levels.len(), None);
    }

    /// Reads piece `p`'s file if it is not read yet ([`Piece::read`]): its fragment,
    /// a lower bound until then and never counted, becomes the real one.
    fn read(&mut self, p: usize) {
        if self.pieces[p].is_unread() {
            self.pieces[p].read();
            let f = self.pieces[p].fragment();
            self.body[p] = vec![None; f.body.len()];
            self.tails[p] = vec![None; f.levels.len()];
        }
    }

    /// Tokens of piece `p` at level `l`: head + body pieces + tail, which equals the
    /// count of the rendered level because pieces are newline-aligned and start with
    /// a non-blank character (see `fragments`; tested against the BPE). Each part is
    /// counted once and kept.
    fn level(&mut self, p: usize, l: usize) -> usize {
        let counter = self.counter;
        self.parts(p, l, |slot, texts| {
            *slot.get_or_insert_with(|| texts.iter().map(|t| counter.count(t)).sum())
        })
    }

    /// At most [`Costs::level`]`(p, l)`: the parts counted already as counted, the
    /// others by [`TokenCounter::at_least`], which keeps nothing.
    fn at_least(&mut self, p: usize, l: usize) -> usize {
        let counter = self.counter;
        self.parts(p, l, |slot, texts| {
            slot.unwrap_or_else(|| texts.iter().map(|t| counter.at_least(t)).sum())
        })
    }

    /// The sum of `cost(slot, texts)` over the parts of piece `p` at level `l`: its
    /// head (when it shows hunks), the body pieces it shows, and its opening and tail
    /// (one slot for both).
    fn parts(
        &mut self,
        p: usize,
        l: usize,
        mut cost: impl FnMut(&mut Option<usize>, &[&str]) -> usize,
    ) -> usize {
        let frag = self.pieces[p].fragment();
        let Some(level) = frag.levels.get(l) else {
            return 0;
        };
        if level.state == LevelState::Omitted && level.tail.is_empty() {
            return 0;
        }
        let mut sum = if level.pieces > 0 {
            cost(&mut self.head[p], &[&frag.head])
        } else {
            0
        };
        for i in 0..level.pieces.min(frag.body.len()) {
            sum += cost(&mut self.body[p][i], &[&frag.body[i]]);
        }
        sum + cost(&mut self.tails[p][l], &[&level.open, &level.tail])
    }
}

/// One upgrade of one piece by one level, with its place in the global order.
#[derive(Debug, Clone, Copy)]
struct Step {
    piece: usize,
    to: usize,
    priority: u32,
}

/// The upgrade steps of the pieces' fragments as built so far whose priority `keep`
/// accepts, in walking order.
fn steps(pieces: &[Piece], keep: impl Fn(u32) -> bool) -> Vec<Step> {
    let mut v = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let f = p.fragment();
        for to in 1..f.levels.len() {
            let priority = f.step_priority(to);
            if keep(priority) {
                v.push(Step {
                    piece: i,
                    to,
                    priority,
                });
            }
        }
    }
    // Highest priority first; at equal priority, breadth first (every file's first
    // hunk before any file's second), then piece order: deterministic.
    v.sort_by(|a, b| {
        b.priority
            .cmp(&a.priority)
            .then(a.to.cmp(&b.to))
            .then(a.piece.cmp(&b.piece))
    });
    v
}

/// Picks a level per piece so that `fixed + Σ costs ≤ limit`, where `fixed` is what
/// the caller adds outside the pieces (system prompt, chat overhead, note reserve).
///
/// The walk takes the upgrade steps highest priority first. A step that does not
/// fit is skipped, and so are the later steps of the same piece (a ladder is
/// climbed in order); the walk goes on with the next, cheaper steps: the
/// environment, each file's stat line, the path enum still get in when the full
/// status list does not. The steps above the details (a file's hunks, the facts:
/// below [`DIFF_PRIORITY`]) come first. If one of them was skipped and
/// [`FILLED_PERCENT`] of the limit is used, the walk ends there: the budget then
/// holds every file's summary that fits, and a few more pieces would not change what
/// the model sees. Otherwise the files that got their stat line have their hunks
/// built (each piece once) and the walk goes on through the details. The result
/// depends only on the pieces, the counter and the limit. `Err(needed)` when the
/// floors alone do not fit.
pub fn compose(
    pieces: &[Piece],
    fixed: usize,
    limit: usize,
    counter: &dyn TokenCounter,
) -> Result<Selection, usize> {
    let mut costs = Costs::new(pieces, counter);
    let mut cur: Vec<usize> = (0..pieces.len()).map(|i| costs.level(i, 0)).collect();
    let used = fixed + cur.iter().sum::<usize>();
    if used > limit {
        return Err(used);
    }
    let mut walk = Walk {
        levels: vec![0usize; pieces.len()],
        used,
        skipped: false,
    };
    walk.take(
        &steps(pieces, |p| p >= DIFF_PRIORITY),
        &mut costs,
        &mut cur,
        limit,
    );
    let filled = walk.used.saturating_mul(100) >= limit.saturating_mul(FILLED_PERCENT);
    if !(walk.skipped && filled) {
        for (i, p) in pieces.iter().enumerate() {
            if walk.levels[i] == 1 && p.is_deferred() {
                costs.expand(i);
            }
        }
        walk.take(
            &steps(pieces, |p| p < DIFF_PRIORITY),
            &mut costs,
            &mut cur,
            limit,
        );
    }
    let levels = walk.levels;
    let costs = (0..pieces.len())
        .map(|i| costs.level(i, levels[i]))
        .collect();
    Ok(Selection {
        levels,
        costs,
        exact: true,
    })
}

/// The composer's walk so far: the levels taken, the tokens used, whether a step
/// was skipped.
struct Walk {
    levels: Vec<usize>,
    used: usize,
    skipped: bool,
}

impl Walk {
    /// Takes every step of `steps` that fits, in order.
    fn take(&mut self, steps: &[Step], costs: &mut Costs, cur: &mut [usize], limit: usize) {
        for s in steps {
            if self.levels[s.piece] + 1 != s.to {
                continue; // an earlier step of this piece was skipped
            }
            // What cannot fit by its lower bound is not counted, nor its file read.
            if self.used + costs.at_least(s.piece, s.to).saturating_sub(cur[s.piece]) > limit {
                self.skipped = true;
                continue;
            }
            if costs.pieces[s.piece].is_unread() {
                costs.read(s.piece);
                // Unreadable, the file keeps its omitted level; read, its real level
                // gets the same lower bound first.
                if s.to >= costs.pieces[s.piece].fragment().levels.len()
                    || self.used + costs.at_least(s.piece, s.to).saturating_sub(cur[s.piece])
                        > limit
                {
                    self.skipped = true;
                    continue;
                }
            }
            let next = costs.level(s.piece, s.to);
            let delta = next.saturating_sub(cur[s.piece]);
            if self.used + delta > limit {
                self.skipped = true;
                continue;
            }
            self.used += delta;
            cur[s.piece] = next.max(cur[s.piece]);
            self.levels[s.piece] = s.to;
        }
    }
}
