//! cl100k_base without a start-up cost: tiktoken's algorithm over static tables.
//!
//! bpe-openai deserialises its tables and compiles its pretokenizer regex on first
//! use (~25 ms, most of a one-file `--print-context`). Here the vocabulary is a
//! table written by the build script (from bpe-openai's own vocabulary; a token is
//! found by its hash) and read in place, the pretokenizer is cl100k's regex written
//! out by hand, and each pretoken is merged as tiktoken's `byte_pair_encode` does:
//! the lowest-ranked adjacent pair first, leftmost on ties.
//!
//! The hand pretokenizer classes a character by the build script's range tables of
//! `\p{L}`, `\p{N}` and `\s` (taken from regex-syntax, whose Unicode tables the
//! tokenizers' regexes use; a few KB read in place), so text in any script, emoji and
//! combining marks included, is counted exactly without bpe-openai. Only pretokens
//! longer than [`MAX_PIECE`] bytes go to the fallback (tiktoken's merge is quadratic
//! in a piece; bpe-openai's is linear). `crates/draft/tests/cl100k.rs` compares the
//! ids with tiktoken-rs, on every character of the planes in use.

use std::cell::RefCell;
use std::collections::HashMap;

const BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_bytes.bin"));
const STARTS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_starts.bin"));
const RANKS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_ranks.bin"));
const SLOTS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_slots.bin"));
const LONGEST: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_longest.bin"));

#[path = "../build/vocab_slot.rs"]
mod vocab_slot;

/// Longest pretoken merged here; a longer one sends the whole text to the fallback.
pub const MAX_PIECE: usize = 128;

fn u32_at(table: &[u8], i: usize) -> usize {
    let mut a = [0u8; 4];
    a.copy_from_slice(&table[4 * i..4 * i + 4]);
    u32::from_le_bytes(a) as usize
}

fn token(i: usize) -> &'static [u8] {
    &BYTES[u32_at(STARTS, i)..u32_at(STARTS, i + 1)]
}

/// The rank (the token id) of `bytes` when it is one token: a probe of the build
/// script's open-addressing table from [`vocab_slot::first_slot`] to the first empty
/// slot (a binary search of the sorted tokens cost four times the instructions).
pub fn rank(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() || bytes.len() > u32_at(LONGEST, 0) {
        return None;
    }
    let mask = SLOTS.len() / 4 - 1;
    let mut i = vocab_slot::first_slot(bytes);
    loop {
        let k = u32_at(SLOTS, i).checked_sub(1)?;
        if token(k) == bytes {
            return u32::try_from(u32_at(RANKS, k)).ok();
        }
        i = (i + 1) & mask;
    }
}

/// A character's class in cl100k's pretokenizer regex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// `\p{L}`
    Letter,
    /// `\p{N}`
    Number,
    /// `\s`
    Space,
    /// `[^\s\p{L}\p{N}]`
    Other,
}

const LETTERS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_letters.bin"));
const NUMBERS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_numbers.bin"));
const SPACES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_spaces.bin"));

/// Whether `cp` is in a table of sorted (start, end) code-point pairs.
fn in_ranges(table: &[u8], cp: u32) -> bool {
    let n = table.len() / 8;
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let (a, b) = (
            u32_at(table, 2 * mid) as u32,
            u32_at(table, 2 * mid + 1) as u32,
        );
        if cp < a {
            hi = mid;
        } else if cp > b {
            lo = mid + 1;
        } else {
            return true;
        }
    }
    false
}

/// The class of `c`: ASCII by its byte, anything else from the build script's
/// tables of `\p{L}`, `\p{N}` and `\s` (regex-syntax's, the tables the tokenizers'
/// regexes use: a few KB, read in place).
fn class(c: char) -> Class {
    if c.is_ascii() {
        return if c.is_ascii_alphabetic() {
            Class::Letter
        } else if c.is_ascii_digit() {
            Class::Number
        } else if c.is_whitespace() {
            Class::Space
        } else {
            Class::Other
        };
    }
    let cp = u32::from(c);
    if in_ranges(LETTERS, cp) {
        Class::Letter
    } else if in_ranges(NUMBERS, cp) {
        Class::Number
    } else if in_ranges(SPACES, cp) {
        Class::Space
    } else {
        Class::Other
    }
}

/// `c` as the contraction alternative `(?i:'s|'t|…)` sees it: Unicode simple case
/// folding, under which `ſ` (U+017F) is an `s` and no other non-ASCII character is
/// one of the letters the alternatives use.
fn folded(c: char) -> char {
    if c == '\u{17f}' {
        's'
    } else {
        c.to_ascii_lowercase()
    }
}

/// Where the pretoken starting at char `i` ends, by cl100k's pattern
/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
/// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`, alternatives tried in order.
fn piece_end(cs: &[(usize, char, Class)], i: usize) -> usize {
    let n = cs.len();
    let (_, c, k) = cs[i];
    let is_nl = |j: usize| matches!(cs[j].1, '\r' | '\n');
    // (?i:'s|'t|'re|'ve|'m|'ll|'d)
    if c == '\'' && i + 1 < n {
        let a = folded(cs[i + 1].1);
        if matches!(a, 's' | 't' | 'm' | 'd') {
            return i + 2;
        }
        if i + 2 < n {
            let b = folded(cs[i + 2].1);
            if matches!((a, b), ('r', 'e') | ('v', 'e') | ('l', 'l')) {
                return i + 3;
            }
        }
    }
    let run = |from: usize, of: Class| {
        let mut e = from;
        while e < n && cs[e].2 == of {
            e += 1;
        }
        e
    };
    // [^\r\n\p{L}\p{N}]?\p{L}+
    if k == Class::Letter {
        return run(i, Class::Letter);
    }
    if k != Class::Number && !is_nl(i) && i + 1 < n && cs[i + 1].2 == Class::Letter {
        return run(i + 1, Class::Letter);
    }
    // \p{N}{1,3}
    if k == Class::Number {
        return run(i, Class::Number).min(i + 3);
    }
    // ?[^\s\p{L}\p{N}]+[\r\n]*
    let p = if c == ' ' && i + 1 < n && cs[i + 1].2 == Class::Other {
        i + 1
    } else {
        i
    };
    if cs[p].2 == Class::Other {
        let mut e = run(p, Class::Other);
        while e < n && is_nl(e) {
            e += 1;
        }
        return e;
    }
    // A whitespace run from here on.
    let e = run(i, Class::Space);
    // \s*[\r\n]+ : up to the run's last line break
    if let Some(m) = (i..e).rev().find(|&j| is_nl(j)) {
        return m + 1;
    }
    // \s+(?!\S) : all of a run that ends the text, else all but its last character;
    // \s+ : a single space before a non-space
    if e == n || e - i < 2 { e } else { e - 1 }
}

/// Calls `each` with every pretoken of `text`, in order; `None` as soon as `each`
/// gives up (a pretoken too long to merge here).
fn pretokens(text: &str, mut each: impl FnMut(&[u8]) -> Option<()>) -> Option<()> {
    let mut cs: Vec<(usize, char, Class)> = Vec::with_capacity(text.len());
    cs.extend(text.char_indices().map(|(at, c)| (at, c, class(c))));
    let at = |j: usize| cs.get(j).map_or(text.len(), |x| x.0);
    let mut i = 0;
    while i < cs.len() {
        let j = piece_end(&cs, i);
        each(&text.as_bytes()[at(i)..at(j)])?;
        i = j;
    }
    Some(())
}

/// tiktoken's `_byte_pair_merge`: the start of every token of `piece`, then its end.
fn merge(piece: &[u8]) -> Vec<usize> {
    let r = |s: &[u8]| rank(s).unwrap_or(u32::MAX);
    let mut parts: Vec<(usize, u32)> = Vec::with_capacity(piece.len() + 1);
    let mut min = (u32::MAX, usize::MAX);
    for i in 0..piece.len() - 1 {
        let rk = r(&piece[i..i + 2]);
        if rk < min.0 {
            min = (rk, i);
        }
        parts.push((i, rk));
    }
    parts.push((piece.len() - 1, u32::MAX));
    parts.push((piece.len(), u32::MAX));
    let get = |parts: &[(usize, u32)], i: usize| {
        if i + 3 < parts.len() {
            r(&piece[parts[i].0..parts[i + 3].0])
        } else {
            u32::MAX
        }
    };
    while min.0 != u32::MAX {
        let i = min.1;
        if i > 0 {
            parts[i - 1].1 = get(&parts, i - 1);
        }
        parts[i].1 = get(&parts, i);
        parts.remove(i + 1);
        min = (u32::MAX, usize::MAX);
        for (j, &(_, rk)) in parts[..parts.len() - 1].iter().enumerate() {
            if rk < min.0 {
                min = (rk, j);
            }
        }
    }
    parts.into_iter().map(|p| p.0).collect()
}

/// Calls `each` with the ids of one pretoken; `None` when it is too long.
fn piece_ids(piece: &[u8], each: &mut impl FnMut(u32)) -> Option<()> {
    if let Some(id) = rank(piece) {
        each(id);
        return Some(());
    }
    if piece.len() > MAX_PIECE {
        return None;
    }
    let bounds = merge(piece);
    for w in bounds.windows(2) {
        each(rank(&piece[w[0]..w[1]])?);
    }
    Some(())
}

/// Pretokens this thread has counted, with their token counts, up to
/// [`MEMO_ENTRIES`] (then it starts over). A prompt's evidence repeats most of its
/// pretokens (`<evidence`, ` source`, `--cached`, the same identifiers and path
/// parts), and merging one costs hundreds of instructions a byte: counting was 632 M of
/// the 2,269 M instructions of a 5,000-file `--print-context` (docs/draft.md). Only the
/// counts of one process are kept, never anything across runs.
const MEMO_ENTRIES: usize = 1 << 16;

thread_local! {
    static MEMO: RefCell<HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>> =
        RefCell::new(HashMap::default());
}

/// The number of tokens of one pretoken; `None` when it is too long.
fn piece_count(piece: &[u8]) -> Option<usize> {
    // Most pretokens are one token, found in the vocabulary for less than the memo's
    // hash of them costs.
    if rank(piece).is_some() {
        return Some(1);
    }
    if piece.len() > MAX_PIECE {
        return None;
    }
    MEMO.with(|memo| {
        if let Some(&n) = memo.borrow().get(piece) {
            return Some(n as usize);
        }
        // Every part `merge` leaves is a token: the bytes are, and each merge joins
        // two parts into a ranked one.
        let n = merge(piece).len() - 1;
        let mut memo = memo.borrow_mut();
        if memo.len() >= MEMO_ENTRIES {
            memo.clear();
        }
        memo.insert(piece.into(), u32::try_from(n).ok()?);
        Some(n)
    })
}

/// The number of cl100k_base tokens of `text`, or `None` when it must be counted by
/// the full tokenizer.
pub fn count(text: &str) -> Option<usize> {
    let mut n = 0usize;
    pretokens(text, |p| {
        n += piece_count(p)?;
        Some(())
    })?;
    Some(n)
}

/// How many pretokens cl100k's regex splits `text` into: each encodes to one token or
/// more, so this is at most [`count`], without any merge. `None` as for [`count`].
pub fn pretoken_count(text: &str) -> Option<usize> {
    let mut n = 0usize;
    pretokens(text, |_| {
        n += 1;
        Some(())
    })?;
    Some(n)
}

/// The cl100k_base token ids of `text` (as tiktoken's `encode_ordinary`), or `None`
/// when it must be encoded by the full tokenizer.
pub fn encode(text: &str) -> Option<Vec<u32>> {
    let mut ids = Vec::new();
    let mut push = |id| ids.push(id);
    pretokens(text, |p| piece_ids(p, &mut push))?;
    Some(ids)
}
