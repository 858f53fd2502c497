//! One pass over a Markdown store: the lines that may hold a fact, outside fenced code
//! blocks and HTML comments. Both are tracked in the same pass and each suppresses the
//! other while open, so a fence delimiter inside a comment, or `<!--` inside a fence,
//! cannot swallow the rest of the file.

/// A line that may hold a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// 1-based line number.
    pub line: usize,
    /// The fact text: the bare line, or the backticked span of a list item.
    pub text: String,
    /// The line was valid UTF-8 (else `text` is its lossy decoding).
    pub utf8: bool,
    /// Written in backticks (a list item): then `=` may be missing, which is an error.
    pub quoted: bool,
}

/// An open fenced code block: its delimiter character and length.
type Fence = (char, usize);

/// The fence a line opens (any indentation; three or more backticks or tildes).
fn fence_open(line: &str) -> Option<Fence> {
    let t = line.trim_start();
    let ch = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let n = t.chars().take_while(|&c| c == ch).count();
    // A backtick fence's info string has no backtick (else it is inline code).
    (n >= 3 && !(ch == '`' && t[n..].contains('`'))).then_some((ch, n))
}

/// Whether `line` closes the fence `f`: at least as many of its character, then blanks.
fn fence_close(line: &str, (ch, n): Fence) -> bool {
    let t = line.trim();
    t.chars().count() >= n && t.chars().all(|c| c == ch)
}

/// The candidate lines of `bytes`, in order. CRLF and LF endings are both read.
pub fn candidates(bytes: &[u8]) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut fence: Option<Fence> = None;
    let mut comment = false;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let utf8 = std::str::from_utf8(raw).is_ok();
        let line = String::from_utf8_lossy(raw);
        if let Some(f) = fence {
            if fence_close(&line, f) {
                fence = None;
            }
            continue;
        }
        if !comment && let Some(f) = fence_open(&line) {
            fence = Some(f);
            continue;
        }
        // Outside a fence: cut out comments, which may open and close anywhere.
        let started_in_comment = comment;
        let mut visible = String::new();
        let mut rest: &str = &line;
        loop {
            if comment {
                match rest.find("-->") {
                    Some(k) => {
                        comment = false;
                        rest = &rest[k + 3..];
                    }
                    None => break,
                }
            }
            match rest.find("<!--") {
                Some(k) => {
                    visible.push_str(&rest[..k]);
                    comment = true;
                    rest = &rest[k + 4..];
                }
                None => {
                    visible.push_str(rest);
                    break;
                }
            }
        }
        if started_in_comment && visible.trim().is_empty() {
            continue;
        }
        if let Some((text, quoted)) = fact_text(visible.trim()) {
            out.push(Candidate {
                line: i + 1,
                text,
                utf8,
                quoted,
            });
        }
    }
    out
}

/// The fact written on a line (without its list marker and backticks), if the line
/// has the form of one: `CLASS.key=value` bare, or `` - `CLASS.key=value` `` as a
/// list item (text after the closing backtick is prose).
fn fact_text(t: &str) -> Option<(String, bool)> {
    let item = strip_list_marker(t);
    let (body, quoted) = match item.strip_prefix('`') {
        Some(inner) => (&inner[..inner.find('`')?], true),
        None => (item, false),
    };
    let dot = body.find('.')?;
    let class = &body[..dot];
    let is_class = class.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && class
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !is_class {
        return None;
    }
    if !quoted {
        // A bare line is a fact only with `=` after an unbroken key (prose such as
        // `README.md describes …` is not).
        let key_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let eq = body.find('=')?;
        if eq > key_end && !body[key_end..eq].trim().is_empty() {
            return None;
        }
    }
    Some((body.to_owned(), quoted))
}

/// `- `, `* `, `+ ` or `1. ` / `1) ` at the start of a list item, removed.
fn strip_list_marker(t: &str) -> &str {
    for m in ["- ", "* ", "+ "] {
        if let Some(rest) = t.strip_prefix(m) {
            return rest.trim_start();
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        let rest = &t[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return r.trim_start();
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(doc: &str) -> Vec<(usize, String)> {
        candidates(doc.as_bytes())
            .into_iter()
            .map(|c| (c.line, c.text))
            .collect()
    }

    #[test]
    fn bare_and_list_forms() {
        let doc = "# Facts\n\nSCOPE.src/**=core\n- `TERM.gix=the git library` used everywhere\n* `RULE.tense=imperative`\n1. `PATH.docs=the manual`\nREADME.md describes it.\nA TERM.x=y in prose\n";
        assert_eq!(
            texts(doc),
            vec![
                (3, "SCOPE.src/**=core".into()),
                (4, "TERM.gix=the git library".into()),
                (5, "RULE.tense=imperative".into()),
                (6, "PATH.docs=the manual".into()),
            ]
        );
    }

    #[test]
    fn fences_and_comments_suppress_each_other() {
        let doc = "\
<!-- a comment with a fence
```
SCOPE.in-comment=x
-->
SCOPE.after-comment=a
```text
<!-- not a comment inside a fence
SCOPE.in-fence=x
```
SCOPE.after-fence=b
~~~~
```
SCOPE.in-tilde=x
~~~~
RULE.inline=<!-- hidden --> shown
<!-- one-line --> TERM.tail=c
";
        let got: Vec<String> = texts(doc).into_iter().map(|(_, t)| t).collect();
        assert_eq!(
            got,
            vec![
                "SCOPE.after-comment=a",
                "SCOPE.after-fence=b",
                "RULE.inline= shown",
                "TERM.tail=c"
            ]
        );
    }

    #[test]
    fn crlf_and_non_utf8() {
        let doc = b"SCOPE.a=x\r\nTERM.b=caf\xe9\r\nprose \xff\r\n";
        let c = candidates(doc);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].text, "SCOPE.a=x");
        assert!(c[0].utf8);
        assert_eq!(c[1].line, 2);
        assert!(!c[1].utf8);
    }

    /// A block of a generated document.
    #[derive(Debug, Clone)]
    enum Block {
        Prose(u8),
        Fact(u8),
        Fence(bool, Vec<u8>),
        Comment(Vec<u8>),
    }

    /// Lines that may appear inside a fence or a comment: facts, the other kind's
    /// delimiters, prose.
    fn inner(kind: u8, k: usize) -> String {
        match kind % 5 {
            0 => format!("SCOPE.hidden{k}=x"),
            1 => "<!--".into(),
            2 => "```".into(),
            3 => "-->".into(),
            _ => "~~~".into(),
        }
    }

    fn block() -> impl Strategy<Value = Block> {
        prop_oneof![
            any::<u8>().prop_map(Block::Prose),
            any::<u8>().prop_map(Block::Fact),
            (any::<bool>(), proptest::collection::vec(any::<u8>(), 0..6))
                .prop_map(|(t, v)| Block::Fence(t, v)),
            proptest::collection::vec(any::<u8>(), 0..6).prop_map(Block::Comment),
        ]
    }

    proptest! {
        /// Whatever fences hold comment tokens and comments hold fence delimiters,
        /// exactly the facts outside both are found, each on its own line.
        #[test]
        fn only_facts_outside_fences_and_comments(blocks in proptest::collection::vec(block(), 0..12)) {
            let mut doc = String::new();
            let mut want = Vec::new();
            let mut line = 0;
            let mut push = |doc: &mut String, s: &str| { doc.push_str(s); doc.push('\n'); line += 1; line };
            for (k, b) in blocks.iter().enumerate() {
                match b {
                    Block::Prose(n) => { push(&mut doc, &format!("Some prose {n} about SCOPE and `code`.")); }
                    Block::Fact(n) => {
                        let text = format!("TERM.w{k}=meaning {n}");
                        let at = push(&mut doc, &if n % 2 == 0 { text.clone() } else { format!("- `{text}`") });
                        want.push((at, text));
                    }
                    Block::Fence(tilde, inside) => {
                        let d = if *tilde { "~~~" } else { "```" };
                        push(&mut doc, d);
                        for (j, i) in inside.iter().enumerate() {
                            let l = inner(*i, k * 10 + j);
                            // the fence's own delimiter would close it: that is not a swallow
                            if l != d { push(&mut doc, &l); }
                        }
                        push(&mut doc, d);
                    }
                    Block::Comment(inside) => {
                        push(&mut doc, "<!--");
                        for (j, i) in inside.iter().enumerate() {
                            let l = inner(*i, k * 10 + j);
                            if l != "-->" { push(&mut doc, &l); }
                        }
                        push(&mut doc, "-->");
                    }
                }
            }
            prop_assert_eq!(texts(&doc), want);
        }
    }
}
