//! Where a byte string starts its search in cl100k's vocabulary table: one function
//! for the build script that writes the table (build/cl100k.rs) and the counter that
//! reads it (src/cl100k.rs), so both place a token alike.

/// log2 of the table's slots: 2^18 for cl100k's 100,256 tokens, under two fifths full,
/// so a byte string that is no token is told after one or two probes.
pub const SLOT_BITS: u32 = 18;

/// The first slot to probe for `bytes` (FNV-1a, then a multiply to spread its bits
/// into the top ones, which pick the slot).
pub fn first_slot(bytes: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SLOT_BITS)) as usize
}
