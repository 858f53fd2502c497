//! Secrets never leave: redaction of staged text before anything is rendered.
//!
//! Private key blocks, AWS access key ids and secret keys, GitHub, GitLab and Slack
//! tokens, JWTs, and high-entropy values assigned to names like `key`, `secret`,
//! `token` or `password` become `[REDACTED:<kind>]`. Files that are secrets by name
//! (`.env*`, `*.pem`, `*.key`, `id_rsa*`, `*.p12`, `*.pfx`) are never shown beyond a
//! stat line ([`is_secret_file`]).

use std::sync::LazyLock;

use regex::Regex;

/// What kind of secret was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SecretKind {
    /// `-----BEGIN … PRIVATE KEY-----` block.
    PrivateKey,
    /// `AKIA…` access key id.
    AwsAccessKeyId,
    /// The 40-character secret assigned to an AWS secret key name.
    AwsSecretKey,
    /// `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`.
    GithubToken,
    /// `glpat-`.
    GitlabToken,
    /// `xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-`.
    SlackToken,
    /// `header.payload.signature` with base64url JSON header.
    Jwt,
    /// A high-entropy value assigned to a secret-sounding name.
    Assigned,
}

impl SecretKind {
    /// The `<kind>` in `[REDACTED:<kind>]`.
    pub fn tag(self) -> &'static str {
        match self {
            SecretKind::PrivateKey => "private-key",
            SecretKind::AwsAccessKeyId => "aws-access-key-id",
            SecretKind::AwsSecretKey => "aws-secret-key",
            SecretKind::GithubToken => "github-token",
            SecretKind::GitlabToken => "gitlab-token",
            SecretKind::SlackToken => "slack-token",
            SecretKind::Jwt => "jwt",
            SecretKind::Assigned => "secret",
        }
    }

    fn marker(self) -> String {
        format!("[REDACTED:{}]", self.tag())
    }
}

/// Redacted text and what was taken out of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    /// The text with every secret replaced.
    pub text: String,
    /// Kinds found, in order of discovery (with repeats).
    pub found: Vec<SecretKind>,
}

/// Minimum Shannon entropy, in bits per character, for an assigned value to count
/// as a secret (random base64 is ~5–6, English words ~3).
pub const ENTROPY_THRESHOLD: f64 = 3.5;
/// Minimum length of an assigned value to be judged by entropy.
pub const MIN_ASSIGNED_LEN: usize = 16;

#[allow(clippy::expect_used)] // constant patterns, checked by the tests
fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid constant regex")
}

static TOKENS: LazyLock<Vec<(SecretKind, Regex)>> = LazyLock::new(|| {
    vec![
        (
            SecretKind::AwsAccessKeyId,
            re(r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b"),
        ),
        (
            SecretKind::GithubToken,
            re(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})"),
        ),
        (SecretKind::GitlabToken, re(r"\bglpat-[A-Za-z0-9_\-]{20,}")),
        (
            SecretKind::SlackToken,
            re(r"\bxox[abprs]-[A-Za-z0-9\-]{10,}"),
        ),
        (
            SecretKind::Jwt,
            re(r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
        ),
    ]
});

static AWS_SECRET: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:[Aa][Ww][Ss]|AMAZON|amazon)[A-Za-z0-9_.\-]{0,30}["']?\s*[:=]+>?\s*["']?([A-Za-z0-9/+=]{40})\b"#,
    )
});

static ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r#"([A-Za-z0-9_.\-]*(?:[Kk][Ee][Yy]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Tt][Oo][Kk][Ee][Nn]|[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]"#,
        r#"|[Pp][Aa][Ss][Ss][Ww][Dd]|[Pp][Ww][Dd]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll])[A-Za-z0-9_.\-]*)"#,
        r#"["']?\s*(?::=|=>|[:=])\s*[bru]?["'`]?([^\s"'`,;)]{16,})"#
    ))
});

static KEY_BEGIN: LazyLock<Regex> =
    LazyLock::new(|| re(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"));
static KEY_END: LazyLock<Regex> =
    LazyLock::new(|| re(r"-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"));

/// Shannon entropy of `s` in bits per character.
pub fn shannon_entropy(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    let mut n = 0usize;
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// A value random enough to be a credential: entropy over the threshold, and not
/// an identifier or attribute chain (`compute_the_key`, `settings.SECRET_KEY`),
/// which code assigns to key-ish names all the time.
pub fn looks_random(v: &str) -> bool {
    if shannon_entropy(v) < ENTROPY_THRESHOLD {
        return false;
    }
    let letters_only = v
        .bytes()
        .all(|b| b.is_ascii_alphabetic() || matches!(b, b'_' | b'.' | b'-' | b':'));
    if !letters_only {
        return true;
    }
    let mixed =
        v.bytes().any(|b| b.is_ascii_uppercase()) && v.bytes().any(|b| b.is_ascii_lowercase());
    mixed && !v.contains(['_', '.', '-', ':']) && shannon_entropy(v) >= 4.0
}

/// A path whose contents are never shown: `.env*`, `*.pem`, `*.key`, `id_rsa*` (and
/// the other ssh key names), `*.p12`, `*.pfx`.
pub fn is_secret_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.starts_with(".env")
        || [".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"]
            .iter()
            .any(|e| name.ends_with(e))
        || ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"]
            .iter()
            .any(|k| name.starts_with(k))
}

/// Which of the patterns' literal anchors occur in `s`, ignoring ASCII case:
/// `(token, aws, assigned)`. One pass over the bytes, no allocation: the same answer
/// as searching the ASCII-lowercased text for each anchor. Most bytes are rejected
/// by their own value or the byte after them.
fn hints(s: &str) -> (bool, bool, bool) {
    let b = s.as_bytes();
    let is = |i: usize, h: &[u8]| {
        b.get(i..i + h.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(h))
    };
    let (mut token, mut aws, mut assigned) = (false, false, false);
    for i in 0..b.len() {
        // `| 0x20` lowercases ASCII letters; no other byte becomes one of these.
        let next = b.get(i + 1).map_or(0, |c| c | 0x20);
        match (b[i] | 0x20, next) {
            (b'a', b'k' | b's' | b'b' | b'c' | b'g' | b'i' | b'r' | b'n') => {
                token = token
                    || [
                        &b"akia"[..],
                        b"asia",
                        b"abia",
                        b"acca",
                        b"agpa",
                        b"aida",
                        b"aroa",
                        b"anpa",
                        b"anva",
                        b"aipa",
                    ]
                    .iter()
                    .any(|h| is(i, h));
            }
            (b'a', b'w' | b'm') => aws = aws || is(i, b"aws") || is(i, b"amazon"),
            (b'g', b'h') => token = true,
            (b'g', b'l') => token = token || is(i, b"glpat-"),
            (b'x', b'o') => token = token || is(i, b"xox"),
            (b'e', b'y') => token = token || is(i, b"eyj"),
            (b'k', b'e') => assigned = assigned || is(i, b"key"),
            (b's', b'e') => assigned = assigned || is(i, b"secret"),
            (b't', b'o') => assigned = assigned || is(i, b"token"),
            (b'p', b'a' | b'w') => assigned = assigned || is(i, b"passw") || is(i, b"pwd"),
            (b'c', b'r') => assigned = assigned || is(i, b"credential"),
            _ => continue,
        }
        if token && aws && assigned {
            break;
        }
    }
    (token, aws, assigned)
}

/// Redacts single-line secrets in one line (no key blocks).
fn redact_line<'a>(line: &'a str, found: &mut Vec<SecretKind>) -> std::borrow::Cow<'a, str> {
    // Cheap literal prefilter: most diff lines hold none of the patterns' anchors.
    let (token_hint, aws_hint, assigned_hint) = hints(line);
    if !token_hint && !aws_hint && !assigned_hint {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut s = line.to_string();
    for (kind, r) in TOKENS.iter() {
        if token_hint && r.is_match(&s) {
            let n = r.find_iter(&s).count();
            found.extend(std::iter::repeat_n(*kind, n));
            s = r.replace_all(&s, kind.marker().as_str()).into_owned();
        }
    }
    if aws_hint {
        s = replace_group(&s, &AWS_SECRET, |_| Some(SecretKind::AwsSecretKey), found);
    }
    if !assigned_hint {
        return std::borrow::Cow::Owned(s);
    }
    s = replace_group(
        &s,
        &ASSIGNED,
        |v| {
            (v.len() >= MIN_ASSIGNED_LEN && !v.starts_with("[REDACTED:") && looks_random(v))
                .then_some(SecretKind::Assigned)
        },
        found,
    );
    std::borrow::Cow::Owned(s)
}

/// Replaces the last capture group of each match when `judge` says it is a secret.
fn replace_group(
    s: &str,
    r: &Regex,
    judge: impl Fn(&str) -> Option<SecretKind>,
    found: &mut Vec<SecretKind>,
) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for caps in r.captures_iter(s) {
        let Some(v) = caps.get(caps.len() - 1) else {
            continue;
        };
        if let Some(kind) = judge(v.as_str()) {
            out.push_str(&s[last..v.start()]);
            out.push_str(&kind.marker());
            last = v.end();
            found.push(kind);
        }
    }
    out.push_str(&s[last..]);
    out
}

/// True when [`redact_text`] and [`redact_diff_body`] return `text` as it is: it
/// holds none of the patterns' anchors and no key block marker.
pub fn leaves_unchanged(text: &str) -> bool {
    !text.contains("PRIVATE KEY") && hints(text) == (false, false, false)
}

/// Redacts a plain text, line by line, with private key blocks spanning lines.
pub fn redact_text(text: &str) -> Redacted {
    redact_lines(text, false)
}

/// Redacts a hunk body: each line's first character (the diff marker) is kept so
/// the hunk keeps its shape; a key block becomes one redacted line per line.
pub fn redact_diff_body(body: &str) -> Redacted {
    redact_lines(body, true)
}

fn redact_lines(text: &str, diff: bool) -> Redacted {
    let mut found = Vec::new();
    // Every line's content is a part of the text: when the text holds no anchor and
    // no key block marker, no line does, and nothing changes.
    if leaves_unchanged(text) {
        return Redacted {
            text: text.to_string(),
            found,
        };
    }
    let mut out = String::with_capacity(text.len());
    let mut in_key = false;
    for line in text.split_inclusive('\n') {
        let (content, nl) = line.strip_suffix('\n').map_or((line, ""), |c| (c, "\n"));
        let (marker, content) = if diff && !content.is_empty() {
            let cut = content.chars().next().map_or(0, char::len_utf8);
            content.split_at(cut)
        } else {
            ("", content)
        };
        if in_key || (content.contains("PRIVATE KEY") && KEY_BEGIN.is_match(content)) {
            if !in_key {
                found.push(SecretKind::PrivateKey);
            }
            // Keep what precedes BEGIN on its line (e.g. `key = """`), drop the rest.
            let keep = if in_key {
                ""
            } else {
                KEY_BEGIN
                    .find(content)
                    .map_or("", |m| &content[..m.start()])
            };
            in_key = !KEY_END.is_match(content);
            let keep = redact_line(keep, &mut found);
            out.push_str(&format!(
                "{marker}{keep}{}{nl}",
                SecretKind::PrivateKey.marker()
            ));
            continue;
        }
        out.push_str(marker);
        out.push_str(&redact_line(content, &mut found));
        out.push_str(nl);
    }
    Redacted { text: out, found }
}

#[cfg(test)]
mod tests {
    use super::hints;
    use proptest::prelude::*;

    /// The prefilter as it was written first: lowercase, then search each anchor.
    fn naive(s: &str) -> (bool, bool, bool) {
        let lower = s.to_ascii_lowercase();
        let any = |hs: &[&str]| hs.iter().any(|h| lower.contains(h));
        (
            any(&[
                "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "aipa",
                "gh", "glpat-", "xox", "eyj",
            ]),
            any(&["aws", "amazon"]),
            any(&["key", "secret", "token", "passw", "pwd", "credential"]),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        #[test]
        fn hints_match_the_lowercased_search(
            parts in prop::collection::vec(
                "akia|AsIa|abi|acca|agp|aida|aroa|anpa|anva|aipa|gh|Gl|glpat-|xo|XOX|eyJ|aw|aws|AMAZON|amaz|ke|KEY|secre|Secret|tok|TOKEN|pass|passw|pwd|PW|cred|credential|[ a-zA-Z@`\\[{é_-]{0,3}",
                0..12,
            )
        ) {
            let s = parts.concat();
            prop_assert_eq!(hints(&s), naive(&s), "{:?}", s);
        }
    }
}
