//! Ending a model's text where a phrase ends (issue 45): a summary longer than its
//! room is shortened by dropping its trailing clauses (after `,`, `;`, a dash, an
//! opening parenthesis, or before `and`, `with`, `to`, `for`, …), never mid-word;
//! and no text ends on a dangling `and`, a comma, a preposition or an unclosed
//! bracket or backtick ([`tidy_end`]).

/// Words a clause may start with: the text before one is a whole phrase.
const CLAUSE_WORDS: &[&str] = &[
    "and",
    "or",
    "but",
    "with",
    "without",
    "to",
    "for",
    "so",
    "because",
    "since",
    "by",
    "via",
    "when",
    "while",
    "which",
    "that",
    "in",
    "on",
    "from",
    "across",
    "after",
    "before",
    "using",
    "including",
    "into",
    "through",
    "under",
    "over",
    "as",
    "instead",
    "where",
    "if",
    "unless",
];

/// Marks after which a clause starts (the mark itself is dropped with the clause).
const CLAUSE_MARKS: &[&str] = &[", ", "; ", " — ", " – ", " - ", " (", ": "];

/// Words a text does not end on: articles, conjunctions and prepositions, which need
/// a word after them. Not `a`, which is as often a name (`fn a`).
const DANGLING: &[&str] = &[
    "an",
    "the",
    "and",
    "or",
    "but",
    "nor",
    "so",
    "to",
    "of",
    "for",
    "in",
    "on",
    "at",
    "by",
    "with",
    "without",
    "from",
    "as",
    "into",
    "onto",
    "than",
    "via",
    "when",
    "if",
    "while",
    "because",
    "since",
    "across",
    "after",
    "before",
    "through",
    "under",
    "over",
    "using",
    "including",
    "about",
    "per",
    "that",
    "which",
    "where",
    "unless",
];

/// At least this many words of letters make a phrase worth keeping.
const MIN_WORDS: usize = 2;

/// `text` within `room` chars, ended where a phrase ends ([`tidy_end`] applied):
/// `text` itself when it fits; else the longest start of it that ends before a
/// clause mark or a clause word and holds at least two words. `None` when no such
/// start fits: the caller words it otherwise (never a cut mid-word or mid-phrase).
pub fn within(text: &str, room: usize) -> Option<String> {
    let whole = tidy_end(text);
    if whole.chars().count() <= room {
        return (words(&whole) >= 1).then_some(whole);
    }
    let mut ends: Vec<usize> = CLAUSE_MARKS
        .iter()
        .flat_map(|m| text.match_indices(m).map(|(i, _)| i))
        .collect();
    let lower = text.to_lowercase();
    // Lower-casing keeps byte offsets only for ASCII; other text is matched as it is.
    let hay = if lower.len() == text.len() {
        lower.as_str()
    } else {
        text
    };
    for w in CLAUSE_WORDS {
        let needle = format!(" {w} ");
        ends.extend(hay.match_indices(&needle).map(|(i, _)| i));
    }
    ends.sort_unstable();
    ends.dedup();
    ends.into_iter()
        .rev()
        .map(|i| tidy_end(&text[..i]))
        .find(|kept| kept.chars().count() <= room && words(kept) >= MIN_WORDS)
}

/// `text` without what cannot end it: trailing spaces and `, ; : - —`, a dangling
/// article, conjunction or preposition (`… and`, `… for the`), and an unclosed
/// bracket, brace, backtick or quote (cut before it). A text of one word is left
/// as it is.
pub fn tidy_end(text: &str) -> String {
    let mut s = text.trim();
    loop {
        let before = s.len();
        s = s.trim_end_matches(|c: char| c.is_whitespace() || ",;:-—–".contains(c));
        if let Some(i) = unclosed(s) {
            s = &s[..i];
            continue;
        }
        if let Some((head, last)) = s.rsplit_once(' ')
            && DANGLING.contains(&last.to_lowercase().as_str())
            && !head.trim().is_empty()
        {
            s = head;
        }
        if s.len() == before {
            return s.to_owned();
        }
    }
}

/// Where the last bracket, brace, backtick or double quote that `s` opens and does
/// not close starts.
fn unclosed(s: &str) -> Option<usize> {
    let mut open: Vec<(char, usize)> = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => open.push((c, i)),
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if let Some(at) = open.iter().rposition(|(o, _)| *o == want) {
                    open.truncate(at);
                }
            }
            '`' | '"' => match open.iter().rposition(|(o, _)| *o == c) {
                Some(at) => open.truncate(at),
                None => open.push((c, i)),
            },
            _ => {}
        }
    }
    open.first().map(|(_, i)| *i)
}

/// Words of letters in `s`.
fn words(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kept text fits, starts the original, and ends on a whole word of it.
    fn ends_well(original: &str, kept: &str, room: usize) {
        assert!(kept.chars().count() <= room, "{kept:?} over {room}");
        assert!(original.starts_with(kept), "{kept:?} of {original:?}");
        let next = original[kept.len()..].chars().next();
        assert!(
            next.is_none_or(|c| !c.is_alphanumeric()),
            "{kept:?} ends mid-word in {original:?}"
        );
        let last = kept.rsplit(' ').next().unwrap().to_lowercase();
        assert!(!DANGLING.contains(&last.as_str()), "{kept:?} dangles");
        assert!(!kept.ends_with([',', ';', ':', '-']), "{kept:?}");
        assert!(unclosed(kept).is_none(), "{kept:?} leaves a bracket open");
    }

    #[test]
    fn long_summaries_end_at_a_phrase() {
        for (text, room, want) in [
            // One long clause: its prepositional tail goes.
            (
                "update dependencies in pyproject.toml to support the new python version requirement",
                61,
                "update dependencies in pyproject.toml",
            ),
            // A list: whole items go, never half of one.
            (
                "update the CI configuration, README file, and the contributing guide for new users",
                61,
                "update the CI configuration, README file",
            ),
            // A parenthesis across the limit goes whole.
            (
                "add a retry to the http client (three attempts with exponential backoff)",
                50,
                "add a retry to the http client",
            ),
            (
                "refactor the parser; move the lexer into its own module for clarity",
                40,
                "refactor the parser; move the lexer",
            ),
            ("fix the cache", 61, "fix the cache"),
        ] {
            let kept = within(text, room).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(kept, want, "{text}");
            ends_well(text, &kept, room);
        }
    }

    #[test]
    fn no_phrase_in_reach_is_none() {
        assert_eq!(
            within("implementmentation-of-a-very-long-identifier here", 10),
            None
        );
        // One word before the first boundary is no phrase.
        assert_eq!(
            within("refactor everything in the whole codebase now", 12),
            None
        );
        assert_eq!(within("", 10), None);
    }

    #[test]
    fn a_text_never_ends_dangling_or_open() {
        for (text, want) in [
            (
                "update the CI configuration, README file, and",
                "update the CI configuration, README file",
            ),
            ("update imports in tests and", "update imports in tests"),
            ("add support for the", "add support"),
            ("document the `--dry-run", "document"),
            ("fix the parser (for nested", "fix the parser"),
            (
                "fix the parser (nested blocks)",
                "fix the parser (nested blocks)",
            ),
            ("rename \"foo", "rename"),
            ("add a retry;", "add a retry"),
            ("fix it", "fix it"),
            ("adds a", "adds a"),
            ("and", "and"),
        ] {
            assert_eq!(tidy_end(text), want, "{text}");
        }
    }

    #[test]
    fn non_ascii_text_is_cut_on_char_boundaries() {
        let text = "übersetze die Größe, die Länge und die Breite für alle Fenster";
        let kept = within(text, 30).unwrap();
        ends_well(text, &kept, 30);
    }
}
