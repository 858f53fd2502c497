//! The draft side's word lists and verb tables, one place for each: data/words.toml,
//! which the build script turns into these constants (build/words.rs) and
//! bench/quality/score.py reads too.

include!(concat!(env!("OUT_DIR"), "/words.rs"));
