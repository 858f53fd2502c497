//! The token budget: how many tokens a prompt may take, how they are counted, and
//! the composer that picks, by priority, how much of each fragment fits (DESIGN §6).
//!
//! Core links no tokenizer: counting comes in through [`TokenCounter`] (the model
//! crate implements it with exact OpenAI BPE). The composer walks the fragments'
//! upgrade steps in one fixed priority order; a step that does not fit is skipped
//! (with the later steps of its fragment) and the cheaper ones after it are still
//! tried, so a large change fills its budget with stat lines and first hunks instead
//! of stopping at the first step that is too big. Deterministic; see [`compose`].

use crate::config::ContextSettings;
use crate::fragments::{Fragment, LevelState};

/// Counts tokens of a text. Implemented outside core (exact BPE in jitcommit-model) so
/// the validator never links a tokenizer.
pub trait TokenCounter {
    /// The number of tokens `text` encodes to.
    fn count(&self, text: &str) -> usize;
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

/// The composer's choice: a level per fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// `levels[i]` is the chosen level index of fragment `i`.
    pub levels: Vec<usize>,
    /// Per-fragment token cost of the chosen level (bytes if not exact).
    pub costs: Vec<usize>,
    /// The walk ended before the detail steps (hunks, below
    /// [`DIFF_PRIORITY`](crate::fragments::DIFF_PRIORITY)): a step above them did not
    /// fit and the prompt already takes [`FILLED_PERCENT`] of the limit. The details of
    /// files that were cut at their stat line are then never needed.
    pub stopped_before_details: bool,
}

/// Once a step above the details has been skipped, the details (hunks) are still
/// tried while less than this share of the limit is used.
pub const FILLED_PERCENT: usize = 80;

/// Lazily counted costs: each head, body piece and tail is counted at most once.
struct Costs<'a> {
    frags: &'a [Fragment],
    counter: &'a dyn TokenCounter,
    head: Vec<Option<usize>>,
    pieces: Vec<Vec<Option<usize>>>,
    tails: Vec<Vec<Option<usize>>>,
}

impl<'a> Costs<'a> {
    fn new(frags: &'a [Fragment], counter: &'a dyn TokenCounter) -> Self {
        Costs {
            frags,
            counter,
            head: vec![None; frags.len()],
            pieces: frags.iter().map(|f| vec![None; f.body.len()]).collect(),
            tails: frags.iter().map(|f| vec![None; f.levels.len()]).collect(),
        }
    }

    /// Tokens of fragment `f` at level `l`: head + body pieces + tail, which equals the
    /// count of the rendered level because pieces are newline-aligned and start with
    /// a non-blank character (see `fragments`; tested against the BPE).
    fn level(&mut self, f: usize, l: usize) -> usize {
        let frag = &self.frags[f];
        let Some(level) = frag.levels.get(l) else {
            return 0;
        };
        if level.state == LevelState::Omitted && level.tail.is_empty() {
            return 0;
        }
        let counter = self.counter;
        let mut sum = if level.pieces > 0 {
            *self.head[f].get_or_insert_with(|| counter.count(&frag.head))
        } else {
            0
        };
        for i in 0..level.pieces.min(frag.body.len()) {
            sum += *self.pieces[f][i].get_or_insert_with(|| counter.count(&frag.body[i]));
        }
        sum + *self.tails[f][l]
            .get_or_insert_with(|| counter.count(&level.open) + counter.count(&level.tail))
    }
}

/// One upgrade of one fragment by one level, with its place in the global order.
#[derive(Debug, Clone, Copy)]
struct Step {
    frag: usize,
    to: usize,
    priority: u32,
}

fn steps(frags: &[Fragment]) -> Vec<Step> {
    let mut v = Vec::new();
    for (i, f) in frags.iter().enumerate() {
        for to in 1..f.levels.len() {
            v.push(Step {
                frag: i,
                to,
                priority: f.step_priority(to),
            });
        }
    }
    // Highest priority first; at equal priority, breadth first (every file's first
    // hunk before any file's second), then fragment order: deterministic.
    v.sort_by(|a, b| {
        b.priority
            .cmp(&a.priority)
            .then(a.to.cmp(&b.to))
            .then(a.frag.cmp(&b.frag))
    });
    v
}

/// Picks a level per fragment so that `fixed + Σ costs ≤ limit`, where `fixed` is what
/// the caller adds outside the fragments (system prompt, chat overhead, note reserve).
///
/// The walk takes the steps in [`steps`] order. A step that does not fit is skipped,
/// and so are the later steps of the same fragment (a ladder is climbed in order);
/// the walk goes on with the next, cheaper steps: the environment, each file's stat
/// line, the path enum still get in when the full status list does not. Before the
/// first detail step (a hunk piece, below `DIFF_PRIORITY`) the walk ends if a step
/// above it was skipped and [`FILLED_PERCENT`] of the limit is used: the budget then
/// holds every file's summary that fits, and a few more pieces would not change what
/// the model sees. The result depends only on the fragments, the counter and the
/// limit. `Err(needed)` when the floors alone do not fit.
pub fn compose(
    frags: &[Fragment],
    fixed: usize,
    limit: usize,
    counter: &dyn TokenCounter,
) -> Result<Selection, usize> {
    let mut costs = Costs::new(frags, counter);
    let mut used = fixed;
    for i in 0..frags.len() {
        used += costs.level(i, 0);
    }
    if used > limit {
        return Err(used);
    }
    let mut levels = vec![0usize; frags.len()];
    let mut cur: Vec<usize> = (0..frags.len()).map(|i| costs.level(i, 0)).collect();
    let mut skipped_above = false;
    let mut details = false;
    let mut stopped_before_details = false;
    let filled = |used: usize| used.saturating_mul(100) >= limit.saturating_mul(FILLED_PERCENT);
    for s in &steps(frags) {
        if !details && s.priority < crate::fragments::DIFF_PRIORITY {
            details = true;
            if skipped_above && filled(used) {
                stopped_before_details = true;
                break;
            }
        }
        if levels[s.frag] + 1 != s.to {
            continue; // an earlier step of this fragment was skipped
        }
        let next = costs.level(s.frag, s.to);
        let delta = next.saturating_sub(cur[s.frag]);
        if used + delta > limit {
            skipped_above |= !details;
            continue;
        }
        used += delta;
        cur[s.frag] = next.max(cur[s.frag]);
        levels[s.frag] = s.to;
    }
    if !details && skipped_above && filled(used) {
        stopped_before_details = true;
    }
    let costs = (0..frags.len())
        .map(|i| costs.level(i, levels[i]))
        .collect();
    Ok(Selection {
        levels,
        costs,
        stopped_before_details,
    })
}
