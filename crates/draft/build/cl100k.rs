//! Writes cl100k_base's vocabulary as static tables for `tokens::fast`: the token
//! byte strings sorted, their ranks, and an open-addressing table of them
//! (build/vocab_slot.rs places each). Taken from
//! bpe-openai itself (the rank of a token is its id there, as in tiktoken), so the
//! fast path and the fallback share one vocabulary; the tests compare both with
//! tiktoken-rs.

use std::io::Write;
use std::path::PathBuf;

#[path = "vocab_slot.rs"]
mod vocab_slot;

/// The most slots a token's search may probe; the table is rejected at build time
/// beyond it (the counter's lookup stops at an empty slot, which this keeps near).
const MOST_PROBES: usize = 64;

/// The code-point ranges of a regex class as (start, end) u32 pairs, sorted.
fn class_ranges(pattern: &str) -> Vec<u8> {
    let hir = regex_syntax::Parser::new()
        .parse(pattern)
        .expect("a Unicode class pattern");
    let regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(class)) = hir.kind()
    else {
        panic!("{pattern} is not a Unicode class");
    };
    class
        .ranges()
        .iter()
        .flat_map(|r| {
            let (a, b) = (u32::from(r.start()), u32::from(r.end()));
            a.to_le_bytes().into_iter().chain(b.to_le_bytes())
        })
        .collect()
}

pub fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let bpe = &bpe_openai::cl100k_base().bpe;
    let n = bpe.num_tokens();
    let mut tokens: Vec<(&[u8], u32)> = (0..n)
        .map(|id| {
            let id = u32::try_from(id).expect("fewer than 2^32 tokens");
            (bpe.token_bytes(id), id)
        })
        .collect();
    tokens.sort_unstable();
    let mut blob = Vec::new();
    let mut starts = Vec::with_capacity(4 * (n + 1));
    let mut ranks = Vec::with_capacity(4 * n);
    for (t, id) in &tokens {
        let at = u32::try_from(blob.len()).expect("vocabulary under 4 GB");
        starts.extend_from_slice(&at.to_le_bytes());
        ranks.extend_from_slice(&id.to_le_bytes());
        blob.extend_from_slice(t);
    }
    let end = u32::try_from(blob.len()).expect("vocabulary under 4 GB");
    starts.extend_from_slice(&end.to_le_bytes());
    // slots[i] = 1 + the sorted index of the token placed in slot i, 0 for none:
    // linear probing from `first_slot`, every token within MOST_PROBES of its own.
    let size = 1usize << vocab_slot::SLOT_BITS;
    let mut slots = vec![0u32; size];
    let mut longest = 0usize;
    for (k, (t, _)) in tokens.iter().enumerate() {
        longest = longest.max(t.len());
        let mut i = vocab_slot::first_slot(t);
        let mut probes = 1;
        while slots[i] != 0 {
            i = (i + 1) & (size - 1);
            probes += 1;
        }
        assert!(probes <= MOST_PROBES, "token {k} needs {probes} probes");
        slots[i] = u32::try_from(k + 1).expect("fewer than 2^32 tokens");
    }
    let slots: Vec<u8> = slots.iter().flat_map(|f| f.to_le_bytes()).collect();
    let longest = u32::try_from(longest)
        .expect("short tokens")
        .to_le_bytes()
        .to_vec();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let letters = class_ranges(r"\p{L}");
    let numbers = class_ranges(r"\p{N}");
    let spaces = class_ranges(r"\s");
    for (name, data) in [
        ("cl100k_letters.bin", &letters),
        ("cl100k_numbers.bin", &numbers),
        ("cl100k_spaces.bin", &spaces),
        ("cl100k_bytes.bin", &blob),
        ("cl100k_starts.bin", &starts),
        ("cl100k_ranks.bin", &ranks),
        ("cl100k_slots.bin", &slots),
        ("cl100k_longest.bin", &longest),
    ] {
        let mut f = std::fs::File::create(out.join(name)).expect("create table file");
        f.write_all(data).expect("write table file");
    }
}
