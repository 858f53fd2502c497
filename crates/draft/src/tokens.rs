//! Exact OpenAI BPE token counts (cl100k_base, o200k_base) for the budget composer,
//! through `bpe-openai`: the same token ids as tiktoken, a faster start and a linear
//! worst case (docs/tokenizer.md has the measurements). cl100k_base texts the static
//! tables of [`crate::cl100k`] can count exactly never load bpe-openai's tables.

use crate::budget::TokenCounter;
use crate::prompt::CORE_INSTRUCTIONS;
use jitcommit_core::config::Encoding;

/// The cl100k_base tokens of [`CORE_INSTRUCTIONS`], the one text every prompt holds
/// byte for byte: counting it was a third of a one-file draft's counting. The test
/// `the_system_message_count_is_current` fails when the text changes without it.
const CORE_INSTRUCTIONS_CL100K: usize = 346;

/// Counts tokens with one of OpenAI's encodings. Cheap to create: the tokenizer
/// tables load on the first count that needs them, so a prompt whose bytes provably
/// fit, or (cl100k_base) whose every text [`crate::cl100k`] counts, never loads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BpeCounter {
    encoding: Encoding,
}

impl BpeCounter {
    /// A counter for `encoding`.
    pub fn new(encoding: Encoding) -> Self {
        BpeCounter { encoding }
    }

    /// The encoding it counts with.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn tokenizer(&self) -> &'static bpe_openai::Tokenizer {
        match self.encoding {
            Encoding::Cl100k => bpe_openai::cl100k_base(),
            Encoding::O200k => bpe_openai::o200k_base(),
        }
    }

    /// The token ids of `text` (for tests against tiktoken and for debugging).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        if self.encoding == Encoding::Cl100k
            && let Some(ids) = crate::cl100k::encode(text)
        {
            return ids;
        }
        self.tokenizer().encode(text)
    }
}

impl TokenCounter for BpeCounter {
    fn count(&self, text: &str) -> usize {
        if self.encoding == Encoding::Cl100k {
            if text == CORE_INSTRUCTIONS {
                return CORE_INSTRUCTIONS_CL100K;
            }
            if let Some(n) = crate::cl100k::count(text) {
                return n;
            }
        }
        self.tokenizer().count(text)
    }

    fn at_least(&self, text: &str) -> usize {
        if self.encoding == Encoding::Cl100k {
            crate::cl100k::pretoken_count(text).unwrap_or(0)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_message_count_is_current() {
        assert_eq!(
            crate::cl100k::count(CORE_INSTRUCTIONS),
            Some(CORE_INSTRUCTIONS_CL100K),
            "update CORE_INSTRUCTIONS_CL100K to the system message's new count"
        );
        assert_eq!(
            bpe_openai::cl100k_base().count(CORE_INSTRUCTIONS),
            CORE_INSTRUCTIONS_CL100K
        );
        let c = BpeCounter::new(Encoding::Cl100k);
        assert_eq!(c.count(CORE_INSTRUCTIONS), CORE_INSTRUCTIONS_CL100K);
        // Only the exact text takes the shortcut.
        let longer = format!("{CORE_INSTRUCTIONS} ");
        assert_eq!(c.count(&longer), crate::cl100k::count(&longer).unwrap());
    }
}
