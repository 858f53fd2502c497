//! Secrets never leave: the one redaction gate everything bound for a model passes.
//!
//! Repository text becomes prompt text, a request body or a debug line only as a
//! [`Redacted`] value, and only this module makes one: [`gate_change`] takes the
//! staged change (its names, headers and branch at once, each file's hunk bodies as the
//! composer builds that file ([`GatedFile::bodies`]), a file read late as it is read) and the intent before
//! anything is composed; [`gate`] any other text; [`gate_json`] the request the ask
//! stage sends, once more over the whole of it. Underneath, [`redact_state`] redacts a
//! whole staged state and [`redact_text`] a text. A found secret becomes
//! `[REDACTED:<rule id>]`.
//!
//! The rules are data: gitleaks' default rule set (`rules/gitleaks.toml`, MIT, turned
//! into a table by build.rs) and jitcommit's own rules for forms gitleaks leaves out
//! or catches only in one spelling ([`LOCAL`]: URL passwords, short passwords on
//! secret names (the whole value: to its closing quote, or to the end of a YAML or
//! ini line) in every syntax that assigns one (`=`, `:`, `:=`, `?=`, `=>`, `<-`, white
//! space after a directive or a name: `ENV NAME x`, `db.password x`, `password 'x'`;
//! XML elements, name/value attributes and pairs, SQL's `PASSWORD 'x'`), an AWS secret
//! beside its key id, `Authorization` headers, bare provider keys, `.netrc` lines,
//! passwords on command lines (`mysql -pX`, `sshpass -p X`, `--password=X`,
//! `curl -u u:X`, `PGPASSWORD=X`), provider tokens split over string literals on one
//! line). Each
//! rule's regex is compiled on first use, and only lines that hold one of its
//! keywords are searched (one pass over the text for all keywords decides that), so a
//! change without any keyword costs one scan. Beyond single lines: private key
//! blocks (also the body lines of a key whose `BEGIN` line is outside the hunk, and
//! PuTTY `.ppk` keys), the value line after a YAML `name: |`/`>-` block scalar, the
//! value line of a name/value pair over lines (Kubernetes' `- name: DB_PASSWORD` and
//! `value: x`, CloudFormation's, a Terraform variable's `default`), the cells of a CSV
//! column whose header names a secret (an AWS `credentials.csv`), and base64 and hex
//! runs that decode to a credential. Files that are secrets by name (`.env*`,
//! `*.pem`, `*.key`, `id_rsa*`, `*.ppk`, `.netrc`, …) are never shown beyond a stat
//! line ([`is_secret_file`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, OnceLock};

use aho_corasick::AhoCorasick;
use regex::bytes::{Captures, Regex, RegexBuilder};

use jitcommit_core::repo::{FileDiff, StagedState};

use crate::words::{B64_ANCHORS, HEX_ANCHORS, MARKER_WORDS};

/// One detection rule: a regex, the keywords that must occur on a line before it
/// is tried, and which part of a match is the secret.
#[derive(Debug)]
pub struct Rule {
    /// The rule's id, which is also the `<kind>` of its marker.
    pub id: &'static str,
    /// The pattern (RE2 syntax, as gitleaks writes it; compiled without Unicode).
    pub regex: &'static str,
    /// Lower-case keywords; a line holding none of them is not searched.
    pub keywords: &'static [&'static str],
    /// The capture group that is the secret, or the group after it when it took no
    /// part (two spellings of one value); 0 means the first group that took part in
    /// the match, or the whole match when there is none.
    pub secret_group: usize,
    /// Minimum Shannon entropy of the secret (0: none).
    pub entropy: f64,
    /// A secret matching one of these is not one.
    pub allow: &'static [&'static str],
    /// Nor is a secret that holds one of these words (lower case).
    pub stopwords: &'static [&'static str],
    /// A further test of a match on its line (jitcommit's own rules).
    pub check: Option<fn(&str, &Captures<'_>) -> bool>,
    /// Where the secret ends on its line when it runs past the match (a quoted value
    /// to its closing quote, a YAML value to the end of the line).
    pub end: Option<fn(&str, &Captures<'_>) -> usize>,
}

#[path = "../build/need.rs"]
mod need;

/// What a line must hold for a rule to redact on it, derived from its pattern
/// (build/need.rs says why each part holds): a run of
/// at least `len` bytes of `run` holding one byte of `odd`, and each of `seqs` (bytes
/// every match holds, each given as the set its byte is in). Byte sets are 256 bits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Need {
    run: [u64; 4],
    len: usize,
    odd: [u64; 4],
    seqs: &'static [&'static [[u64; 4]]],
}

fn in_set(set: &[u64; 4], b: u8) -> bool {
    set[usize::from(b >> 6)] >> (b & 63) & 1 == 1
}

impl Need {
    /// Whether `line` holds what the rule needs.
    fn met(&self, line: &[u8]) -> bool {
        let (mut run, mut odd) = (0, false);
        let mut found = false;
        for &b in line {
            if in_set(&self.run, b) {
                run += 1;
                odd |= in_set(&self.odd, b);
                if run >= self.len && odd {
                    found = true;
                    break;
                }
            } else {
                (run, odd) = (0, false);
            }
        }
        found
            && self.seqs.iter().all(|seq| {
                line.windows(seq.len())
                    .any(|w| w.iter().zip(seq.iter()).all(|(&b, set)| in_set(set, b)))
            })
    }
}

mod table {
    use super::{Need, Rule};
    include!(concat!(env!("OUT_DIR"), "/gitleaks_rules.rs"));
}

/// What kind of secret was found: the id of the rule that found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct SecretKind(pub &'static str);

impl SecretKind {
    /// A `-----BEGIN … PRIVATE KEY-----` block, or key material without its armour.
    pub const PRIVATE_KEY: SecretKind = SecretKind("private-key");
    /// A base64 run that decodes to a credential.
    pub const BASE64: SecretKind = SecretKind("base64-credential");
    /// A hex run that decodes to a credential.
    pub const HEX: SecretKind = SecretKind("hex-credential");
    /// The value lines of a secret-named YAML block scalar.
    pub const BLOCK_VALUE: SecretKind = SecretKind("secret-value");
    /// A cell of a CSV column whose header names a secret.
    pub const COLUMN: SecretKind = SecretKind("secret-column");

    /// The `<kind>` in `[REDACTED:<kind>]`.
    pub fn tag(self) -> &'static str {
        self.0
    }

    fn marker(self) -> String {
        format!("[REDACTED:{}]", self.0)
    }
}

/// Redacted text and what was taken out of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redaction {
    /// The text with every secret replaced.
    pub text: String,
    /// Kinds found, in order of discovery (with repeats).
    pub found: Vec<SecretKind>,
}

/// Minimum Shannon entropy, in bits per character, for a value assigned to a
/// key-ish name to count as a secret (random base64 is ~5–6, English words ~3).
pub const ENTROPY_THRESHOLD: f64 = 3.5;
/// Minimum length of a value judged by entropy alone.
pub const MIN_ASSIGNED_LEN: usize = 16;

/// The words a name holds when it always holds a secret, as the rules that find a name
/// assigned by white space, by a statement or by an XML element spell them in their
/// patterns (`pass|pwd|secret|credential|key|token|auth`): each rule's keywords.
const SECRET_NAME_WORDS: &[&str] = &[
    "pass",
    "pwd",
    "secret",
    "credential",
    "key",
    "token",
    "auth",
];

/// jitcommit's own rules, tried before gitleaks' (their ids name the first match).
pub static LOCAL: &[Rule] = &[
    Rule {
        id: "aws-access-key-id",
        regex: r"\b((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16})\b",
        keywords: &[
            "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "aipa",
        ],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "aws-secret-key",
        regex: r#"(?i)(?:aws|amazon)[a-z0-9_.\-]{0,30}["']?\s*[:=]+>?\s*["']?([A-Za-z0-9/+=]{40})\b"#,
        keywords: &["aws", "amazon"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "github-token",
        regex: r"\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
        keywords: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "gitlab-token",
        regex: r"\b(glpat-[A-Za-z0-9_\-]{16,})",
        keywords: &["glpat-"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "slack-token",
        regex: r"\b(xox[abeoprs]-[A-Za-z0-9\-]{10,})",
        keywords: &["xox"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "slack-webhook",
        regex: r"(?i)(hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{8,})",
        keywords: &["hooks.slack.com"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "jwt",
        regex: r"\b(eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})",
        keywords: &["eyj"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "openai-key",
        regex: r"\b(sk-(?:proj-|svcacct-|admin-|ant-)?[A-Za-z0-9_\-]{20,})",
        keywords: &["sk-"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "stripe-key",
        regex: r"\b((?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{8,})",
        keywords: &[
            "sk_live", "sk_test", "sk_prod", "rk_live", "rk_test", "rk_prod",
        ],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "google-api-key",
        regex: r"\b(AIza[0-9A-Za-z_\-]{30,})",
        keywords: &["aiza"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "url-password",
        regex: r#"(?i)\b[a-z][a-z0-9+.\-]{1,30}://[^\s/:@'"`<>]*:([^\s/@'"`<>]{1,256})@[^\s/@]"#,
        keywords: &["://"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_not_placeholder),
        end: None,
    },
    Rule {
        id: "authorization-header",
        regex: r#"(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|digest|negotiate|apikey|sso-key)\s+([A-Za-z0-9._~+/=:\-]{4,})"#,
        keywords: &["authorization"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_not_placeholder),
        end: None,
    },
    Rule {
        id: "bearer-token",
        regex: r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{12,}=*)",
        keywords: &["bearer"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_not_placeholder),
        end: None,
    },
    Rule {
        id: "netrc-password",
        regex: r#"(?i)(?:^|\s)(?:password|passwd)\s+([^\s"']+)"#,
        keywords: &["password", "passwd"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_netrc),
        end: None,
    },
    Rule {
        id: "putty-private-mac",
        regex: r"(?i)\bprivate-mac:\s*([0-9a-f]{16,})",
        keywords: &["private-mac"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: None,
        end: None,
    },
    Rule {
        id: "split-token",
        // A provider token cut into string literals on one line and joined again
        // (`"ghp_" + "…"`, `'ghp_' . '…'`, `"ghp_" "…"`, `..`, `||`, `&`).
        regex: r#"((?:gh[pousr]_|github_pat_|glpat-|xox[abeoprs]-|sk-|sk_live_|AKIA)[A-Za-z0-9_\-]*(?:["'`]\s*(?:\+|\.\.?|\|\||&)?\s*[bru]?["'`][A-Za-z0-9_\-]+)+)"#,
        keywords: &[
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "glpat-",
            "xox",
            "sk-",
            "sk_live_",
            "akia",
        ],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_split_token),
        end: None,
    },
    Rule {
        id: "cli-password",
        // mysql's `-pPASSWORD` (written tight; `-p` alone prompts) and its siblings.
        regex: r#"\b(?i:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlsh|mariadb|mariadb-dump|mariadb-admin)\b[^\n]*?\s-p([^\s'"]\S*|'[^'\n]*'?|"[^"\n]*"?)"#,
        keywords: &["mysql", "mariadb"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_cli_value),
        end: None,
    },
    Rule {
        id: "cli-password",
        // `sshpass -p PASSWORD`, `redis-cli -a PASSWORD`, `docker login -p PASSWORD`.
        regex: r#"(?:\b(?i:sshpass)\b[^\n]*?\s-p|\b(?i:redis-cli)\b[^\n]*?\s-a|\b(?i:docker|podman|nerdctl|helm|buildah|skopeo)\b[^\n]*?\blogin\b[^\n]*?\s-p)\s*([^\s'"-]\S*|'[^'\n]*'?|"[^"\n]*"?)"#,
        keywords: &[
            "sshpass",
            "redis-cli",
            "docker",
            "podman",
            "nerdctl",
            "helm",
            "buildah",
            "skopeo",
        ],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_cli_value),
        end: None,
    },
    Rule {
        id: "cli-password",
        // `--password=X`, `--password X` and their kin of any client (`--db-password`,
        // `--http-password`, `--token`, `--client-secret`).
        regex: r#"(?i)(?:^|[\s'"])--(?:[a-z]+-)*(?:password|passwd|pass|pwd|passphrase|secret|token|api-key|apikey)(?:=|\s+)([^\s'"-]\S*|'[^'\n]*'?|"[^"\n]*"?)"#,
        keywords: &["-pass", "-pwd", "-secret", "-token", "-api-key", "-apikey"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_cli_value),
        end: None,
    },
    Rule {
        id: "cli-password",
        // `curl -u user:password`, `--user`, `--proxy-user`; smbclient's `-U user%password`.
        regex: r#"(?:\b(?i:curl|wget)\b[^\n]*?\s(?:-u|-U|--user|--proxy-user)(?:=|\s*)['"]?[^\s:'"]*:|\b(?i:smbclient|rpcclient|smbmap)\b[^\n]*?\s(?:-U|--user(?:name)?)(?:=|\s*)['"]?[^\s%'"]*%)([^\s'"]+)"#,
        keywords: &["curl", "wget", "smbclient", "rpcclient", "smbmap"],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_cli_value),
        end: None,
    },
    Rule {
        id: "cli-password",
        // Environment variables clients read a password from.
        regex: r#"(?i)\b(?:PGPASSWORD|PGPASS|SSHPASS|REDISCLI_AUTH|MYSQL_PWD|ANSIBLE_BECOME_PASS|RCLONE_CONFIG_PASS)\s*=\s*([^\s'"]\S*|'[^'\n]*'?|"[^"\n]*"?)"#,
        keywords: &[
            "pgpass",
            "sshpass",
            "rediscli_auth",
            "mysql_pwd",
            "ansible_become_pass",
            "rclone_config_pass",
        ],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_cli_value),
        end: None,
    },
    Rule {
        id: "secret-assignment",
        // Quoted, any value to its quote (groups 2, 3); unquoted, a plain word (group 4).
        regex: r#"(?i)([a-z0-9_.\-]{2,80})["'`]?\s*(?:::?=|\?=|=>|=|:|<-)\s*[bru]?(?:(["'`])([^"'`\n]{1,256})|([^\s"'`,;()\[\]{}<>]{3,256}))"#,
        keywords: SECRET_NAME_WORDS,
        secret_group: 3,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_strong_assignment),
        end: Some(assignment_end),
    },
    Rule {
        id: "secret-assignment",
        // A name assigned by white space at the start of a line: a directive
        // (Dockerfile `ENV NAME value`, fish or Tcl `set`, csh `setenv`, Windows
        // `setx`), a `.properties` or config line (`db.password value`), a DSL call
        // (`password 'value'`). Quoted, any value to its quote (groups 3, 4);
        // unquoted, a word (group 5). The name holds a keyword, so that a line of code
        // that starts with another word fails before any capture.
        regex: r#"(?i)^[\t ]*(?:(env|set(?:[\t ]+--?[a-z]+)*|setenv|setx)[\t ]+)?([a-z0-9_.\-]*(?:pass|pwd|secret|credential|key|token|auth)[a-z0-9_.\-]*)[\t ]+(?:(["'`])([^"'`\n]+)|([^\s"'`;]+))"#,
        keywords: SECRET_NAME_WORDS,
        secret_group: 4,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_spaced_assignment),
        end: Some(spaced_end),
    },
    Rule {
        id: "secret-assignment",
        // The same call at the start of a statement, quoted (`credentials { username
        // 'u'; password 'x' }`).
        regex: r#"(?i)[{;][\t ]*()([a-z0-9_.\-]*(?:pass|pwd|secret|credential|key|token|auth)[a-z0-9_.\-]*)[\t ]+(["'`])([^"'`\n]+)"#,
        keywords: SECRET_NAME_WORDS,
        secret_group: 4,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_spaced_assignment),
        end: Some(spaced_end),
    },
    Rule {
        id: "secret-assignment",
        // An XML element named for a secret: `<password>value</password>`, also
        // as CDATA (groups 2, 3).
        regex: r#"<([A-Za-z_][A-Za-z0-9_.:\-]+)(?:\s[^<>\n]*)?>(?:([^<\n]+)|<!\[CDATA\[([^\]\n]+)\]\]>)</([A-Za-z_][A-Za-z0-9_.:\-]+)\s*>"#,
        // The closing tag of a name that always holds a secret (lines without one
        // never wake the rule).
        keywords: &[
            "pass>",
            "passwd>",
            "password>",
            "pwd>",
            "passphrase>",
            "passcode>",
            "secret>",
            "credential>",
            "credentials>",
            "key>",
            "token>",
            "auth>",
            "keybase>",
        ],
        secret_group: 2,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_element),
        end: None,
    },
    Rule {
        id: "secret-assignment",
        // A name/value pair on one line: XML attributes (`<add key="DbPassword"
        // value="x"/>`, `<env name="DB_PASSWORD" value="x"/>`) and JSON (`{"name":
        // "DB_PASSWORD", "value": "x"}`, CloudFormation's `ParameterKey` and
        // `ParameterValue`).
        regex: r#"(?i)\b(?:key|name|parameterkey)["']?\s*[=:]\s*(["'])([A-Za-z0-9_.:\-]+)["'][^<>\n]*?\b(?:value|parametervalue)["']?\s*[=:]\s*(["'])([^"'\n]+)"#,
        // The value's key with what follows it.
        keywords: &["value=", "value =", "value\"", "value'", "value:"],
        secret_group: 4,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_pair),
        end: None,
    },
    Rule {
        id: "secret-assignment",
        // SQL: `CREATE USER u WITH PASSWORD 'x'`, `ALTER ROLE r PASSWORD 'x'`,
        // `IDENTIFIED BY 'x'`, `IDENTIFIED WITH plugin BY 'x'`.
        regex: r#"(?i)(?:\b(?:with|encrypted|unencrypted|(?:user|role)\s+[^\s;]+)\s+password|\bidentified\s+(?:with\s+[^\s;]+\s+)?by(?:\s+password)?)\s+(['"])([^'"\n]+)"#,
        keywords: &["password '", "password \"", "identified"],
        secret_group: 2,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_not_placeholder),
        end: None,
    },
    Rule {
        id: "aws-secret-key",
        // An AWS secret access key beside its key id on one line, whatever separates
        // them: a credentials CSV row, a subject, a note.
        regex: r"(?:^|[^A-Za-z0-9+=])([A-Za-z0-9+/]{40})(?:$|[^A-Za-z0-9+/=])",
        keywords: &[
            "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "aipa",
        ],
        secret_group: 1,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_aws_pair),
        end: None,
    },
    Rule {
        id: "secret",
        regex: concat!(
            r#"(?i)([a-z0-9_.\-]*(?:key|secret|token|password|passwd|pwd|credential)[a-z0-9_.\-]*)"#,
            r#"["']?\s*(?::=|=>|[:=])\s*[bru]?["'`]?([^\s"'`,;)]{16,})"#
        ),
        keywords: &["key", "secret", "token", "passw", "pwd", "credential"],
        secret_group: 2,
        entropy: 0.0,
        allow: &[],
        stopwords: &[],
        check: Some(check_random),
        end: None,
    },
];

fn group<'h>(caps: &Captures<'h>, i: usize) -> &'h str {
    caps.get(i)
        .and_then(|m| std::str::from_utf8(m.as_bytes()).ok())
        .unwrap_or("")
}

fn last_group<'h>(caps: &Captures<'h>) -> &'h str {
    group(caps, caps.len() - 1)
}

fn check_not_placeholder(_line: &str, caps: &Captures<'_>) -> bool {
    !is_placeholder(last_group(caps))
}

fn check_random(_line: &str, caps: &Captures<'_>) -> bool {
    let v = group(caps, 2);
    v.len() >= MIN_ASSIGNED_LEN && looks_random(v)
}

/// A `.netrc` line: its keywords, each followed by its value (`default` by none), and
/// nothing else (`machine h login u password p`, `password p` on a line of its own,
/// or such a line written by a command: `echo "machine h … password p" >> ~/.netrc`);
/// not a sentence that starts with the word (`Password reset links expire`).
fn check_netrc(line: &str, caps: &Captures<'_>) -> bool {
    // The words with where each starts.
    let words: Vec<(usize, &str)> = line
        .split_ascii_whitespace()
        .map(|w| {
            let at = w.as_ptr() as usize - line.as_ptr() as usize;
            (at, w.trim_matches(['"', '\'']))
        })
        .collect();
    let from = words
        .iter()
        .position(|(_, w)| w.eq_ignore_ascii_case("machine") || w.eq_ignore_ascii_case("default"))
        .unwrap_or(0);
    // The password found is one of the netrc words, not a word before them.
    let found_at = caps.get(0).map_or(0, |m| m.start());
    if words.get(from).is_some_and(|&(at, _)| at > found_at + 1) {
        return false;
    }
    let mut words = words[from..].iter().map(|&(_, w)| w);
    let mut pairs = 0;
    while let Some(w) = words.next() {
        if w.starts_with(['#', '>', '|', ';', '&']) {
            break;
        }
        match w.to_ascii_lowercase().as_str() {
            "default" => {}
            "machine" | "login" | "password" | "passwd" | "account" | "port" => {
                if words.next().is_none() {
                    return false;
                }
                pairs += 1;
            }
            _ => return false,
        }
    }
    let v = last_group(caps);
    pairs > 0 && !is_placeholder(v) && !is_reference(v)
}

/// Split literals that, joined, are a token a rule finds.
fn check_split_token(_line: &str, caps: &Captures<'_>) -> bool {
    let joined: String = group(caps, 1)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        .collect();
    let mut found = Vec::new();
    matches!(redact_line(&joined, &mut found, 1), Cow::Owned(_))
}

/// A command-line value that is a literal, not a reference (`$PASS`, `"${PASS}"`,
/// `<password>`, `%PASS%`).
fn check_cli_value(_line: &str, caps: &Captures<'_>) -> bool {
    let v = last_group(caps).trim_matches(|c| c == '"' || c == '\'');
    !v.is_empty() && !is_placeholder(v)
}

/// Whether the name of an assignment starts its line: only indentation, a YAML list
/// dash, `export` or an opening quote before it (`.env`, ini, YAML, shell).
fn starts_line(line: &str, caps: &Captures<'_>) -> bool {
    let start = caps.get(1).map_or(0, |m| m.start());
    let before = line.get(..start).unwrap_or("").trim();
    let before = before.strip_prefix("export").unwrap_or(before).trim();
    before
        .chars()
        .all(|c| matches!(c, '-' | '"' | '\'' | ' ' | '\t'))
}

/// An assignment's value: quoted (group 3) or plain (group 4).
fn value_group<'h>(caps: &Captures<'h>) -> Option<regex::bytes::Match<'h>> {
    caps.get(3).or_else(|| caps.get(4))
}

/// The separator between an assignment's name and value.
fn separator<'l>(line: &'l str, caps: &Captures<'_>) -> &'l str {
    match (caps.get(1), value_group(caps)) {
        (Some(n), Some(v)) => line.get(n.end()..v.start()).unwrap_or(""),
        _ => "",
    }
}

/// Where the value of a secret assignment ends: a quoted value at its closing quote (or
/// the end of the line), `NAME=value` written tight at the next blank, and a value
/// after `name: ` or `name = ` that starts its line (YAML, ini) at the end of the line.
/// Anything else ends where the match does.
fn assignment_end(line: &str, caps: &Captures<'_>) -> usize {
    let Some(v) = value_group(caps) else {
        return line.len();
    };
    let trimmed_end = line.trim_end().len().max(v.end());
    if let Some(q) = group(caps, 2).bytes().next() {
        return quoted_end(line, v.start(), q).max(v.end());
    }
    let sep = separator(line, caps);
    if sep.contains('=') && !sep.contains(char::is_whitespace) {
        return line[v.start()..]
            .find(char::is_whitespace)
            .map_or(line.len(), |k| v.start() + k)
            .max(v.end());
    }
    if starts_line(line, caps) {
        return trimmed_end;
    }
    v.end()
}

/// A literal value on a name that always holds a secret (`DB_PASS`, `password`,
/// `client_secret`, `apiKey`, `auth_token`), however short: quoted, or unquoted as
/// the last thing on its line (env, ini, YAML), and not a reference to something
/// else (`${VAR}`, `settings.PASSWORD`, a call, a type name).
fn check_strong_assignment(line: &str, caps: &Captures<'_>) -> bool {
    let (name, quoted) = (group(caps, 1), !group(caps, 2).is_empty());
    let value = if quoted {
        group(caps, 3)
    } else {
        group(caps, 4)
    };
    if !is_strong_name(name) || is_placeholder(value) {
        return false;
    }
    if quoted {
        // `"DEDUP_TOKEN:"`: the quote after the separator closes a string that holds
        // the name; it opens no value.
        let (Some(n), Some(q)) = (caps.get(1), caps.get(2)) else {
            return true;
        };
        let opened = line.as_bytes()[..n.start()].last();
        let sep = line.get(n.end()..q.start()).unwrap_or("");
        let closes = opened == q.as_bytes().first() && !sep.contains(['"', '\'', '`']);
        return !closes;
    }
    // `password=password`: a variable of the same name.
    if value.eq_ignore_ascii_case(name) {
        return false;
    }
    let end = value_group(caps).map_or(line.len(), |m| m.end());
    let rest = line.get(end..).unwrap_or("").trim_start();
    // `NAME=value` written tight is an assignment even inside prose.
    let sep = separator(line, caps);
    let tight = sep.contains('=') && !sep.contains(char::is_whitespace);
    // A YAML or ini value of several words (`db_password: two words`) on a line of its
    // own; not a capitalised label followed by a sentence (`Password: must be …`), nor
    // code (`password = make(x)`, `password: Option<String>`).
    let own_line = starts_line(line, caps)
        && rest
            .chars()
            .next()
            .is_some_and(|c| !"(.[{<>+-*/=?:|&".contains(c))
        && !(name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && name.chars().skip(1).all(|c| c.is_ascii_lowercase())
            && rest.split_whitespace().count() > 3);
    let last = tight
        || own_line
        || rest.is_empty()
        || rest.starts_with([',', ';', ')', '}', ']', '#'])
        || rest.starts_with("//");
    let reference = value.contains("::")
        || (value.contains('.')
            && value.split('.').all(|p| {
                p.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            }));
    let type_like = value.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && value.chars().all(|c| c.is_ascii_alphabetic())
        && value.chars().any(|c| c.is_ascii_lowercase());
    last && !reference && !type_like
}

/// Column types a secret's name is declared with, not its value (`password TEXT NOT
/// NULL`), in lower case; [`is_placeholder`] knows the languages' types.
#[rustfmt::skip]
const COLUMN_TYPES: &[&str] = &[
    "text", "varchar", "varchar2", "nvarchar", "nchar", "clob", "blob", "bytea", "binary",
    "varbinary",
];

/// Words that follow a secret's name in a sentence or in code, not a value
/// (`password reset`, `db_password is required`, `password if x`).
#[rustfmt::skip]
const NOT_VALUES: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "must", "should", "can", "could", "will",
    "would", "may", "might", "has", "have", "had", "does", "do", "did", "to", "for",
    "and", "or", "of", "in", "on", "at", "by", "with", "from", "as", "if", "unless",
    "then", "else", "not", "the", "a", "an", "that", "this", "which", "when", "while",
    "reset", "change", "changes", "changed", "hash", "hashed", "hashing", "manager",
    "policy", "field", "fields", "prompt", "input", "length", "strength", "expiry",
    "expired", "rotation", "storage", "required", "protected", "less", "based",
    "recovery", "validation", "check", "update", "updated", "login", "value", "values",
];

/// A value that reads something else rather than being a secret: an attribute or path
/// chain (`new_resource.password`, `Config::PW`) or a call or index (`fetch(…)`,
/// `node['db']`, `VARCHAR(255)`).
fn is_reference(v: &str) -> bool {
    let ident = |p: &str| {
        p.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let (path, called) = match v.find(['(', '[']) {
        Some(i) => (&v[..i], true),
        None => (v, false),
    };
    let parts: Vec<&str> = path.split("::").flat_map(|p| p.split('.')).collect();
    parts.iter().all(|p| ident(p)) && (called || parts.len() > 1)
}

/// A type name rather than a value: `Option`, `SecretString` (a capitalised word of
/// letters), a language's type or a column type ([`COLUMN_TYPES`]).
fn is_type_name(v: &str) -> bool {
    let v = v.trim_end_matches([',', ';']);
    let capitalised = v.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && v.chars().all(|c| c.is_ascii_alphabetic())
        && v.chars().any(|c| c.is_ascii_lowercase());
    capitalised || is_placeholder(v) || COLUMN_TYPES.contains(&v.to_ascii_lowercase().as_str())
}

/// A name prose uses as well: one word of letters (`password`, `Secret`, `PASSWORD`)
/// or words joined by hyphens (`one-pass`); not an identifier (`db.password`,
/// `DB_PASSWORD`, `dbPassword`).
fn is_plain_word(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        && (name.contains('-') || name_words(name).len() == 1)
}

/// Words of a sentence rather than a value: ending with a full stop
/// (`optional; leave empty if not used.`), or three words or more one of which
/// is a word of [`NOT_VALUES`] (`given in the authorization URL`).
fn is_prose(v: &str) -> bool {
    let words: Vec<String> = v
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                .to_ascii_lowercase()
        })
        .collect();
    (v.trim_end().ends_with('.') && !v.trim_end().ends_with(".."))
        || (words.len() >= 3 && words.iter().any(|w| NOT_VALUES.contains(&w.as_str())))
}

/// A file's path rather than a secret (`/path/to/key`, `~/.ssh/id_rsa`, `./key.pem`).
fn is_path(v: &str) -> bool {
    ["/", "~/", "./", "../"].iter().any(|p| v.starts_with(p))
}

/// Whether what follows a value on its line ends the statement: nothing, a comment, or
/// a closing `,`, `;`, `)` or `}`.
fn ends_statement(rest: &str) -> bool {
    let rest = rest.trim();
    rest.is_empty()
        || rest.starts_with([',', ';', ')', '}', '#'])
        || rest.starts_with("//")
        || rest.starts_with("--")
}

/// A value assigned by white space ([`LOCAL`]'s spaced rule): a literal under a name
/// that always holds a secret, not a reference, a type, a placeholder, a path or a
/// sentence. After a directive (`ENV`, `set`, `setenv`, `setx`) or an identifier
/// (`db.password`, a `.properties` key) the rest of the line is the value; after a
/// word prose uses too (`password`, `Secret`) only a value that ends its statement
/// (`password 'x'`, `password tiger`; not `Password reset links expire`). `pass` is
/// never a name here: a verb, and nginx's `proxy_pass`.
fn check_spaced_assignment(line: &str, caps: &Captures<'_>) -> bool {
    let (directive, name) = (group(caps, 1), group(caps, 2));
    if !is_strong_name(name) || name_words(name).last().is_some_and(|w| w == "pass") {
        return false;
    }
    let plain = directive.is_empty() && is_plain_word(name);
    if let (Some(q), Some(m)) = (group(caps, 3).bytes().next(), caps.get(4)) {
        let v = group(caps, 4);
        let close = quoted_end(line, m.start(), q);
        let rest = line.get(close + 1..).unwrap_or("");
        return !is_placeholder(v.trim()) && !is_prose(v) && (!plain || ends_statement(rest));
    }
    let Some(m) = caps.get(5) else { return false };
    let v = group(caps, 5);
    let first = v.chars().next().unwrap_or(' ');
    if !(first.is_ascii_alphanumeric() || matches!(first, '_' | '@' | '^' | '~' | '!'))
        || is_placeholder(v)
        || is_reference(v)
        || is_type_name(v)
        || is_path(v)
        || NOT_VALUES.contains(&v.to_ascii_lowercase().as_str())
    {
        return false;
    }
    let rest = line.get(m.end()..).unwrap_or("").trim();
    if directive.is_empty() && rest.starts_with(|c: char| "(.[{<>=:?|&+*/%^,`".contains(c)) {
        return false;
    }
    if plain {
        let capitalised = name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
        let sentence = capitalised && v.chars().all(|c| c.is_ascii_lowercase());
        return !sentence && !is_prose(v) && ends_statement(rest);
    }
    !is_prose(line.get(m.start()..).unwrap_or(""))
}

/// Where a value assigned by white space ends: a quoted value at its closing quote,
/// a word after a plain name at its end, anything else at the end of the line.
fn spaced_end(line: &str, caps: &Captures<'_>) -> usize {
    if let (Some(q), Some(v)) = (group(caps, 3).bytes().next(), caps.get(4)) {
        return quoted_end(line, v.start(), q).max(v.end());
    }
    let Some(v) = caps.get(5) else {
        return line.len();
    };
    if group(caps, 1).is_empty() && is_plain_word(group(caps, 2)) {
        return v.end();
    }
    line.trim_end().len().max(v.end())
}

/// Where a quoted value starting at `from` ends: at its closing `quote` (a backslash
/// escapes the byte after it), or at the end of the line.
fn quoted_end(line: &str, from: usize, quote: u8) -> usize {
    let b = line.as_bytes();
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return i,
            _ => i += 1,
        }
    }
    line.trim_end().len()
}

/// An XML element named for a secret, closed by the same name, holding a literal
/// (`<password>x</password>`; not `<password>${env.PW}</password>`).
fn check_element(_line: &str, caps: &Captures<'_>) -> bool {
    let v = caps
        .get(2)
        .map_or(group(caps, 3), |_| group(caps, 2))
        .trim();
    group(caps, 1) == group(caps, 4)
        && is_strong_name(group(caps, 1))
        && !is_placeholder(v)
        && !is_path(v)
        && !is_prose(v)
}

/// A name/value pair whose name always holds a secret and whose value is a literal.
fn check_pair(_line: &str, caps: &Captures<'_>) -> bool {
    is_strong_name(group(caps, 2)) && !is_placeholder(group(caps, 4).trim())
}

#[allow(clippy::expect_used)] // constant pattern
static AWS_KEY_ID: LazyLock<Regex> = LazyLock::new(|| {
    build(r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b")
        .expect("constant regex")
});

/// Forty base64 characters on a line that holds an AWS access key id: the id's
/// secret, written beside it (a credentials CSV row, a subject). Random, so both
/// cases and a digit, `+` or `/` (a hex hash is not).
fn check_aws_pair(line: &str, caps: &Captures<'_>) -> bool {
    let v = group(caps, 1);
    v.bytes().any(|b| b.is_ascii_uppercase())
        && v.bytes().any(|b| b.is_ascii_lowercase())
        && v.bytes()
            .any(|b| b.is_ascii_digit() || b == b'+' || b == b'/')
        && AWS_KEY_ID.is_match(line.as_bytes())
}

/// The words of an identifier (`DB_PASS`, `dbPassword`, `api-key`), lower-cased.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphabetic() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The words before `_TOKEN` in names of tokens that are no credential: a lexer's, a
/// tokenizer's, a page cursor's, a cancellation's.
#[rustfmt::skip]
const NOT_SECRET_TOKENS: &[&str] = &[
    "pad", "bos", "eos", "unk", "cls", "sep", "mask", "start", "end", "eof", "sos",
    "begin", "stop", "special", "next", "prev", "last", "first", "current", "cur",
    "max", "min", "num", "total", "image", "img", "audio", "video", "text", "default",
    "null", "empty", "sentinel", "new", "line", "word", "sub", "split", "placeholder",
    "count", "type", "kind", "cancel", "cancellation", "continuation", "page", "cursor",
    "sync", "injection", "di", "provider", "lexer", "parser", "bpe", "system", "tool",
    "think", "eot", "eom", "fim", "unknown", "padding", "separator",
];

/// A name whose value is a secret whatever it looks like.
pub fn is_strong_name(name: &str) -> bool {
    let w = name_words(name);
    let Some(last) = w.last().map(String::as_str) else {
        return false;
    };
    const ALONE: &[&str] = &[
        "pass",
        "passwd",
        "password",
        "pwd",
        "passphrase",
        "secret",
        "credential",
        "credentials",
        "apikey",
        "apitoken",
        "authtoken",
        "accesstoken",
        "secretkey",
        "privatekey",
        "clientsecret",
        "passcode",
        "requirepass",
        "masterauth",
    ];
    if ALONE.contains(&last) || w.concat() == "secretkeybase" {
        return true;
    }
    let before = w.len().checked_sub(2).map(|i| w[i].as_str());
    // An environment variable's `*_TOKEN` (`GITHUB_TOKEN`, `NPM_TOKEN`,
    // `CUSTOM_GH_TOKEN`) holds a credential; a lexer's or a model's (`EOF_TOKEN`,
    // `PAD_TOKEN`) does not, nor a constant of a long enum
    // (`NL80211_ATTR_TDLS_DIALOG_TOKEN`).
    let env_name = name.contains('_')
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if env_name
        && w.len() <= 3
        && last == "token"
        && before.is_some_and(|b| !NOT_SECRET_TOKENS.contains(&b))
    {
        return true;
    }
    match (before, last) {
        (Some(b), "key") => matches!(
            b,
            "api" | "access" | "secret" | "private" | "signing" | "encryption" | "master" | "hmac"
        ),
        (Some(b), "token") => matches!(
            b,
            "api"
                | "auth"
                | "access"
                | "refresh"
                | "bearer"
                | "session"
                | "secret"
                | "client"
                | "bot"
                | "oauth"
                | "service"
                | "deploy"
                | "personal"
                | "github"
                | "gh"
                | "gitlab"
                | "npm"
                | "pypi"
                | "nuget"
                | "slack"
                | "discord"
                | "telegram"
                | "codecov"
                | "sonar"
                | "hf"
                | "huggingface"
                | "vault"
                | "docker"
                | "dockerhub"
                | "registry"
                | "cloudflare"
                | "heroku"
                | "netlify"
                | "vercel"
                | "sentry"
                | "webhook"
        ),
        _ => false,
    }
}

/// Values that stand for a secret rather than being one.
fn is_placeholder(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    let first = v.chars().next();
    v.is_empty()
        || v.starts_with("[REDACTED:")
        || v.starts_with("#{")
        || matches!(first, Some('$' | '%' | '<' | '{' | '*'))
        || v.chars().all(|c| Some(c) == first)
        || [
            "null",
            "none",
            "nil",
            "true",
            "false",
            "undefined",
            "redacted",
            "required",
            "optional",
            "string",
            "str",
            "&str",
            "bool",
            "boolean",
            "int",
            "integer",
            "isize",
            "usize",
            "i8",
            "i16",
            "i32",
            "i64",
            "i128",
            "u8",
            "u16",
            "u32",
            "u64",
            "u128",
            "f32",
            "f64",
            "float",
            "double",
            "long",
            "short",
            "char",
            "byte",
            "bytes",
            "void",
            "uint",
            "number",
            "any",
            "object",
        ]
        .contains(&lower.as_str())
}

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
/// the other ssh key names), `*.p12`, `*.pfx`, `*.ppk`, `.netrc`, `.pgpass`,
/// `.git-credentials`, `.dockercfg`.
pub fn is_secret_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.starts_with(".env")
        || [
            ".pem",
            ".key",
            ".p12",
            ".pfx",
            ".jks",
            ".keystore",
            ".ppk",
            ".kdbx",
        ]
        .iter()
        .any(|e| name.ends_with(e))
        || ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"]
            .iter()
            .any(|k| name.starts_with(k))
        || [
            ".netrc",
            "_netrc",
            ".pgpass",
            ".git-credentials",
            ".dockercfg",
            ".htpasswd",
        ]
        .contains(&name.as_str())
}

/// Every rule: [`LOCAL`] first, then gitleaks' table.
fn rules() -> impl Iterator<Item = &'static Rule> {
    LOCAL.iter().chain(table::GITLEAKS.iter())
}

fn rule(i: usize) -> &'static Rule {
    if i < LOCAL.len() {
        &LOCAL[i]
    } else {
        &table::GITLEAKS[i - LOCAL.len()]
    }
}

/// The number of rules (local and gitleaks').
pub fn rule_count() -> usize {
    LOCAL.len() + table::GITLEAKS.len()
}

/// The keyword prefilter: one automaton over every rule's keywords and the block
/// markers; `owners[p]` are the rules keyword `p` wakes.
struct Prefilter {
    ac: AhoCorasick,
    owners: Vec<Vec<u16>>,
}

/// Every keyword with the rule it belongs to: each rule's, then the base64 anchors and
/// the block markers, which belong to none.
fn keywords() -> impl Iterator<Item = (Option<u16>, &'static str)> {
    let of_rules = rules()
        .enumerate()
        .flat_map(|(i, r)| r.keywords.iter().map(move |k| (Some(i as u16), *k)));
    of_rules.chain(anchor_keywords())
}

/// [`keywords`] without gitleaks' rules' (the build script sorts those): [`LOCAL`]'s
/// and the anchors.
fn own_keywords() -> impl Iterator<Item = (Option<u16>, &'static str)> {
    let of_rules = LOCAL
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.keywords.iter().map(move |k| (Some(i as u16), *k)));
    of_rules.chain(anchor_keywords())
}

/// The keywords that wake no rule: the anchors and key markers.
fn anchor_keywords() -> impl Iterator<Item = (Option<u16>, &'static str)> {
    B64_ANCHORS
        .iter()
        .chain(HEX_ANCHORS)
        .chain(MARKER_WORDS)
        .map(|k| (None, *k))
}

/// `k` in ASCII lower case, copied only when it has an upper-case letter.
fn lower_keyword(k: &'static str) -> Cow<'static, [u8]> {
    if k.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(k.as_bytes().to_ascii_lowercase())
    } else {
        Cow::Borrowed(k.as_bytes())
    }
}

/// Every keyword with the rules it wakes, in keyword order.
fn keyword_owners() -> BTreeMap<&'static str, Vec<u16>> {
    let mut by_kw: BTreeMap<&'static str, Vec<u16>> = BTreeMap::new();
    for (owner, k) in keywords() {
        let rules = by_kw.entry(k).or_default();
        rules.extend(owner);
    }
    by_kw
}

/// The prefilter, built on first use (see [`holds_keyword`] for when that is).
static PREFILTER: OnceLock<Prefilter> = OnceLock::new();

#[allow(clippy::expect_used)] // constant keywords, checked by the tests
fn prefilter() -> &'static Prefilter {
    PREFILTER.get_or_init(|| {
        let (kws, owners): (Vec<&str>, Vec<Vec<u16>>) = keyword_owners().into_iter().unzip();
        Prefilter {
            ac: AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(&kws)
                .expect("keywords build an automaton"),
            owners,
        }
    })
}

struct Compiled {
    re: Regex,
    allow: Vec<Regex>,
    stop: Option<AhoCorasick>,
}

fn build(p: &str) -> Option<Regex> {
    RegexBuilder::new(p)
        .unicode(false)
        .size_limit(1 << 22)
        .build()
        .ok()
}

static COMPILED: LazyLock<Vec<OnceLock<Option<Compiled>>>> =
    LazyLock::new(|| (0..rule_count()).map(|_| OnceLock::new()).collect());

static GLOBAL_ALLOW: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    table::GLOBAL_ALLOW
        .iter()
        .filter_map(|p| build(p))
        .collect()
});

fn compiled(i: usize) -> Option<&'static Compiled> {
    COMPILED[i]
        .get_or_init(|| {
            let r = rule(i);
            Some(Compiled {
                re: build(r.regex)?,
                allow: r.allow.iter().filter_map(|p| build(p)).collect(),
                stop: (!r.stopwords.is_empty())
                    .then(|| {
                        AhoCorasick::builder()
                            .ascii_case_insensitive(true)
                            .build(r.stopwords)
                            .ok()
                    })
                    .flatten(),
            })
        })
        .as_ref()
}

/// The ids of rules whose regex the `regex` crate cannot compile (they are skipped;
/// docs/trust.md lists them).
pub fn uncompilable_rules() -> Vec<&'static str> {
    (0..rule_count())
        .filter(|&i| compiled(i).is_none())
        .map(|i| rule(i).id)
        .collect()
}

/// The spans `[A-Za-z0-9+/]{16,}={0,2}` finds in `bytes`, one after the other (what
/// the regex's `find_iter` gives, without compiling it: a run of at least 16 base64
/// characters, whole, and up to two `=` after it).
fn b64_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let b64 = |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'/';
    let mut out = Vec::new();
    for (start, end) in runs(bytes, b64) {
        let pad = bytes[end..]
            .iter()
            .take(2)
            .take_while(|&&b| b == b'=')
            .count();
        out.push((start, end + pad));
    }
    out
}

/// The spans `[0-9A-Fa-f]{16,}` finds in `bytes` (its `find_iter`, uncompiled).
fn hex_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    runs(bytes, |b| b.is_ascii_hexdigit())
}

/// The maximal runs of at least 16 bytes `in_run` takes, as (start, end).
fn runs(bytes: &[u8], in_run: impl Fn(u8) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !in_run(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && in_run(bytes[i]) {
            i += 1;
        }
        if i - start >= 16 {
            out.push((start, i));
        }
    }
    out
}

/// Decodes hex digits (an even count).
fn decode_hex(s: &[u8]) -> Option<Vec<u8>> {
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    s.chunks_exact(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

#[allow(clippy::expect_used)] // constant patterns
static KEY_BEGIN: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----").expect("constant regex")
});
#[allow(clippy::expect_used)]
static KEY_END: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----").expect("constant regex")
});
/// A line that names a value, `name:` or `name =` with nothing after it but a YAML
/// block indicator: what the pattern
/// `^(\s*)(?:-\s+)?["']?([A-Za-z0-9_.\-]{2,80})["']?\s*[:=]\s*([|>][+-]?[0-9]?)?\s*$`
/// (`\s` Unicode white space) captures, read without compiling it: the indent's
/// length in bytes, the name, and whether a block indicator follows.
fn block_name(line: &str) -> Option<(usize, &str, bool)> {
    let name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-');
    let rest = line.trim_start();
    let indent = line.len() - rest.len();
    // `-\s+` before the name; a `-` without white space after it starts the name.
    let rest = match rest.strip_prefix('-') {
        Some(r) if r.starts_with(char::is_whitespace) => r.trim_start(),
        _ => rest,
    };
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    let len = rest.bytes().take_while(|&b| name_byte(b)).count();
    if !(2..=80).contains(&len) {
        return None;
    }
    let (name, rest) = rest.split_at(len);
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest).trim_start();
    let rest = rest.strip_prefix([':', '='])?.trim_start();
    let tail = match rest.strip_prefix(['|', '>']) {
        Some(r) => {
            let r = r.strip_prefix(['+', '-']).unwrap_or(r);
            Some(r.strip_prefix(|c: char| c.is_ascii_digit()).unwrap_or(r))
        }
        None => None,
    };
    tail.unwrap_or(rest)
        .trim_start()
        .is_empty()
        .then_some((indent, name, tail.is_some()))
}

/// Decodes standard base64 (padding optional, stray low bits kept); `None` when it is
/// not base64.
fn decode_b64(s: &[u8]) -> Option<Vec<u8>> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    );
    LENIENT.decode(s).ok()
}

/// A decoded base64 run that is a credential: `user:password` (a `.dockercfg` /
/// `config.json` auth, HTTP basic auth) or text a rule finds a secret in.
fn decoded_is_secret(d: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(d) else {
        return false;
    };
    if s.len() < 5 || !s.chars().all(|c| c.is_ascii_graphic() || c == ' ') {
        return false;
    }
    let basic = s.split_once(':').is_some_and(|(u, p)| {
        !u.is_empty() && !p.is_empty() && !u.contains(' ') && !p.contains(' ')
    });
    let mut found = Vec::new();
    basic || matches!(redact_line(s, &mut found, 1), Cow::Owned(_))
}

/// The rule index of a span a hex run gives (`usize::MAX` is a base64 run's).
const HEX_SPAN: usize = usize::MAX - 1;

fn widen(s: &str, (mut a, mut b): (usize, usize)) -> (usize, usize) {
    while a > 0 && !s.is_char_boundary(a) {
        a -= 1;
    }
    while b < s.len() && !s.is_char_boundary(b) {
        b += 1;
    }
    (a, b)
}

/// Redacts the single-line secrets of one line, again on its own output until
/// nothing changes (a replacement can leave a shorter run that a rule now matches),
/// so what it returns holds nothing a rule matches. `depth` 1 is a decoded base64
/// run (not decoded again).
fn redact_line<'a>(line: &'a str, found: &mut Vec<SecretKind>, depth: u8) -> Cow<'a, str> {
    let mut out = match redact_line_once(line, found, depth) {
        Cow::Borrowed(b) => return Cow::Borrowed(b),
        Cow::Owned(o) => o,
    };
    // Each pass that changes the line replaces at least one more run with a marker,
    // and markers are never matched again: the loop ends.
    loop {
        match redact_line_once(&out, found, depth) {
            Cow::Borrowed(_) => return Cow::Owned(out),
            Cow::Owned(o) => out = o,
        }
    }
}

fn overlaps(a: usize, b: usize, v: &[(usize, usize)]) -> bool {
    v.iter().any(|&(x, y)| a < y && x < b)
}

/// Whether `line` holds a keyword outside the markers `taken`, and the rules the
/// keywords there wake (sorted, once each): by the automaton once it is built or the
/// searches' budget is spent ([`holds_keyword`]), else by one search per keyword.
fn woken(line: &str, taken: &[(usize, usize)]) -> (bool, Vec<u16>) {
    let within = PREFILTER.get().is_none()
        && SEARCH_BUDGET_LEFT
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(search_cost(line.len()))
            })
            .is_ok();
    let (any, mut cands) = if within {
        woken_by_search(line, taken)
    } else {
        woken_by_automaton(line, taken)
    };
    cands.sort_unstable();
    cands.dedup();
    (any, cands)
}

/// [`woken`] by the automaton: every occurrence of every keyword, overlapping ones too.
fn woken_by_automaton(line: &str, taken: &[(usize, usize)]) -> (bool, Vec<u16>) {
    let pf = prefilter();
    let mut cands: Vec<u16> = Vec::new();
    let mut any = false;
    for m in pf.ac.find_overlapping_iter(line) {
        if overlaps(m.start(), m.end(), taken) {
            continue;
        }
        any = true;
        cands.extend_from_slice(&pf.owners[m.pattern().as_usize()]);
    }
    (any, cands)
}

/// [`woken`] by the keywords' table (in ASCII lower case, as the automaton ignores
/// ASCII case).
fn woken_by_search(line: &str, taken: &[(usize, usize)]) -> (bool, Vec<u16>) {
    woken_by_table(&line.as_bytes().to_ascii_lowercase(), taken)
}

/// [`woken_by_search`] through the keywords' table: every occurrence of every keyword.
fn woken_by_table(lower: &[u8], taken: &[(usize, usize)]) -> (bool, Vec<u16>) {
    let mut cands: Vec<u16> = Vec::new();
    let mut any = false;
    let k = &*KEYWORDS;
    each_keyword(lower, |start, i| {
        let (w, owners) = &k.words[i];
        if !overlaps(start, start + w.len(), taken) {
            any = true;
            cands.extend_from_slice(&k.owners[owners.clone()]);
        }
        true
    });
    (any, cands)
}

/// The byte spans of the `[REDACTED:…]` markers an earlier pass left in `line`.
fn markers(line: &str) -> Vec<(usize, usize)> {
    line.match_indices("[REDACTED:")
        .map(|(i, _)| (i, line[i..].find(']').map_or(line.len(), |e| i + e + 1)))
        .collect()
}

fn redact_line_once<'a>(line: &'a str, found: &mut Vec<SecretKind>, depth: u8) -> Cow<'a, str> {
    // Earlier markers are not text: a keyword inside one (`private-key`) wakes nothing.
    let taken = markers(line);
    let (any, cands) = woken(line, &taken);
    if !any {
        return Cow::Borrowed(line);
    }
    let bytes = line.as_bytes();
    let mut spans: Vec<(usize, usize, usize)> = Vec::new();
    for &ri in &cands {
        let ri = usize::from(ri);
        if may_redact(ri, bytes) {
            rule_spans(ri, line, &taken, &mut spans);
        }
    }
    if depth == 0 {
        for (start, end) in b64_runs(bytes) {
            if overlaps(start, end, &taken) {
                continue;
            }
            if decode_b64(&bytes[start..end]).is_some_and(|d| decoded_is_secret(&d)) {
                spans.push((start, end, usize::MAX));
            }
        }
    }
    if depth == 0 {
        for (start, end) in hex_runs(bytes) {
            if overlaps(start, end, &taken) {
                continue;
            }
            let h = &bytes[start..end];
            if decode_hex(&h[..h.len() & !1]).is_some_and(|d| decoded_is_secret(&d)) {
                spans.push((start, end, HEX_SPAN));
            }
        }
    }
    if spans.is_empty() {
        return Cow::Borrowed(line);
    }
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize, usize)> = Vec::new();
    for (a, b, ri) in spans {
        match merged.last_mut() {
            Some(last) if a < last.1 => {
                last.1 = last.1.max(b);
                last.2 = last.2.min(ri);
            }
            _ => merged.push((a, b, ri)),
        }
    }
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for (a, b, ri) in merged {
        let kind = if ri == usize::MAX {
            SecretKind::BASE64
        } else if ri == HEX_SPAN {
            SecretKind::HEX
        } else {
            SecretKind(rule(ri).id)
        };
        out.push_str(&line[at..a]);
        out.push_str(&kind.marker());
        found.push(kind);
        at = b;
    }
    out.push_str(&line[at..]);
    Cow::Owned(out)
}

/// Whether rule `ri` can redact anything on `line`: the line holds what its secret and
/// its match need ([`Need`], derived from the pattern: by the build script for
/// gitleaks' rules, on first use for jitcommit's own), so that a line without it is
/// passed over before the rule's regex is compiled.
fn may_redact(ri: usize, line: &[u8]) -> bool {
    let need = match ri.checked_sub(LOCAL.len()) {
        Some(i) => table::NEEDS[i],
        None => local_need(ri),
    };
    need.is_none_or(|n| n.met(line))
}

/// What each of [`LOCAL`] needs, derived on first use.
static LOCAL_NEEDS: LazyLock<Vec<OnceLock<Option<Need>>>> =
    LazyLock::new(|| LOCAL.iter().map(|_| OnceLock::new()).collect());

/// What jitcommit's own rule `i` needs ([`need::need`] of its pattern; its further
/// `check` only turns matches down). The sets are kept for the process.
fn local_need(i: usize) -> Option<Need> {
    *LOCAL_NEEDS[i].get_or_init(|| {
        let r = &LOCAL[i];
        let d = need::need(r.regex, r.secret_group as i64, r.entropy, r.allow)?;
        let seqs: Vec<&'static [[u64; 4]]> = d
            .seqs
            .into_iter()
            .map(|s| &*Box::leak(s.into_boxed_slice()))
            .collect();
        Some(Need {
            run: d.run,
            len: d.len,
            odd: d.odd,
            seqs: Box::leak(seqs.into_boxed_slice()),
        })
    })
}

/// The spans rule `ri` redacts on `line` (none overlapping `taken`, the markers
/// already there), pushed onto `spans` as (start, end, rule).
fn rule_spans(
    ri: usize,
    line: &str,
    taken: &[(usize, usize)],
    spans: &mut Vec<(usize, usize, usize)>,
) {
    let r = rule(ri);
    let Some(c) = compiled(ri) else { return };
    let bytes = line.as_bytes();
    let mut at = 0;
    while at <= bytes.len() {
        let Some(caps) = c.re.captures_at(bytes, at) else {
            break;
        };
        let Some(whole) = caps.get(0) else { break };
        at = whole.end().max(whole.start() + 1);
        let m = if r.secret_group > 0 {
            caps.get(r.secret_group)
                .or_else(|| caps.get(r.secret_group + 1))
        } else {
            (1..caps.len())
                .find_map(|g| caps.get(g))
                .or_else(|| caps.get(0))
        };
        let Some(m) = m else { continue };
        if m.is_empty() || overlaps(m.start(), m.end(), taken) {
            continue;
        }
        let secret = String::from_utf8_lossy(m.as_bytes());
        if r.entropy > 0.0 && shannon_entropy(&secret) <= r.entropy {
            continue;
        }
        let global = ri >= LOCAL.len() && GLOBAL_ALLOW.iter().any(|a| a.is_match(m.as_bytes()));
        let stop = c.stop.as_ref().is_some_and(|s| s.is_match(m.as_bytes()));
        if global || stop || c.allow.iter().any(|a| a.is_match(m.as_bytes())) {
            continue;
        }
        if let Some(check) = r.check
            && !check(line, &caps)
        {
            // Turned down, a match whose value is an assignment itself took a
            // secret's name for a value (`Environment=DB_PASSWORD=x`): the search goes
            // on from that value.
            if m.start() > whole.start() && m.as_bytes().contains(&b'=') {
                at = m.start();
            }
            continue;
        }
        let end = r
            .end
            .map_or(m.end(), |f| f(line, &caps).clamp(m.end(), line.len()));
        let (a, b) = widen(line, (m.start(), end));
        spans.push((a, b, ri));
    }
}

/// Key material without its armour: a line of only base64 characters, 40 to 100
/// long, with both cases and a digit or `+`/`/` (PEM, OpenSSH and PuTTY bodies are
/// 64 or 70 wide), once any quotes, commas or `\n` around it are taken off.
fn key_body_line(content: &str) -> bool {
    let t = b64_core(content);
    (40..=100).contains(&t.len()) && is_b64(t) && mixed(t)
}

fn b64_core(content: &str) -> &str {
    let t = content
        .trim()
        .trim_matches(|c| matches!(c, '"' | '\'' | ',' | ';' | '+' | '`'));
    let t = t.strip_suffix("\\n").unwrap_or(t);
    t.trim_matches(|c| matches!(c, '"' | '\''))
}

fn is_b64(t: &str) -> bool {
    !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
}

fn mixed(t: &str) -> bool {
    t.bytes().any(|b| b.is_ascii_uppercase())
        && t.bytes().any(|b| b.is_ascii_lowercase())
        && t.bytes()
            .any(|b| b.is_ascii_digit() || b == b'+' || b == b'/')
}

/// A key's armour or a PuTTY header line.
fn armour_line(content: &str) -> bool {
    content.contains("-----BEGIN")
        || content.contains("-----END")
        || [
            "Private-Lines:",
            "Public-Lines:",
            "PuTTY-User-Key-File",
            "Private-MAC:",
        ]
        .iter()
        .any(|w| content.trim_start().starts_with(w))
}

/// Which lines are key material by shape and neighbourhood: a body line next to
/// another body line or to armour, and the short last line of a body before its
/// `END` (or the text's end).
fn key_material(contents: &[&str]) -> Vec<bool> {
    let body: Vec<bool> = contents.iter().map(|c| key_body_line(c)).collect();
    let armour: Vec<bool> = contents.iter().map(|c| armour_line(c)).collect();
    let n = contents.len();
    let near = |i: usize, v: &[bool]| (i > 0 && v[i - 1]) || (i + 1 < n && v[i + 1]);
    // A one-line text (a hunk header's context, a name) has no neighbours: a body
    // line there is key material by itself.
    let mut key: Vec<bool> = (0..n)
        .map(|i| body[i] && (n == 1 || near(i, &body) || near(i, &armour)))
        .collect();
    for i in 1..n {
        let t = b64_core(contents[i]);
        if !key[i] && key[i - 1] && (4..40).contains(&t.len()) && is_b64(t) {
            key[i] = i + 1 == n || armour[i + 1] || contents[i + 1].trim().is_empty();
        }
    }
    key
}

fn indent_of(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

/// What the keyword searches of one process may cost, in estimated instructions,
/// before [`prefilter`]'s automaton is built and used instead. Building it over the
/// ~250 keywords costs about 3.9 M instructions, more than a one-file draft spends
/// on everything else (docs/draft.md, "Performance"), and it searches ~28 per byte
/// against the table's ~45; one text searched through the keywords' table costs
/// [`search_cost`]. The budget is about what building it costs, so neither way spends
/// more than twice what the better one would have. A one-file draft stays within
/// it, a draft of many files passes it, and both get the same answers.
const KEYWORD_SEARCH_BUDGET: usize = 4_000_000;

/// [`KEYWORD_SEARCH_BUDGET`] left.
static SEARCH_BUDGET_LEFT: AtomicUsize = AtomicUsize::new(KEYWORD_SEARCH_BUDGET);

/// The estimated instructions of a search through [`KEYWORDS`]' table over a text of
/// `len` bytes (callgrind: ~45 per byte over a long text without keywords; one
/// substring search per keyword, as before the table, took ~150).
fn search_cost(len: usize) -> usize {
    200 + 45 * len
}

/// The keywords in ASCII lower case with the rules each wakes, sorted, and which
/// three bytes they start with (or which two bytes they are), for [`holds_keyword`] and [`woken`].
struct Keywords {
    /// (keyword, where in `owners` the rules it wakes are), sorted by keyword: those
    /// starting with the same three bytes are neighbours.
    words: Vec<(Cow<'static, [u8]>, std::ops::Range<usize>)>,
    /// The rules each keyword wakes, one range of them per keyword.
    owners: Vec<u16>,
    /// One bit per [`trigram`] hash: some keyword starts with three bytes of that hash
    /// (a two-byte keyword with any third byte).
    starts: Box<[u64; 1024]>,
    /// (first three bytes, range of `words` starting with them), sorted.
    ranges: Vec<([u8; 3], std::ops::Range<usize>)>,
    /// The two-byte keywords.
    two: Vec<usize>,
    /// The keywords shorter than two bytes.
    short: Vec<usize>,
}

/// The hash of three bytes in [`Keywords::starts`] (16 bits).
fn trigram(a: u8, b: u8, c: u8) -> usize {
    (usize::from(a) << 10 ^ usize::from(b) << 5 ^ usize::from(c)) & 0xffff
}

static KEYWORDS: LazyLock<Keywords> = LazyLock::new(|| {
    // gitleaks' keywords come sorted from the build script (`GITLEAKS_KEYWORDS`); only
    // jitcommit's own (its rules' and the anchors, a few dozen) are sorted here, by
    // keyword, then owner. The two lists are merged: a keyword in both wakes its rules
    // in rule order, jitcommit's first. Keywords are lower case already but for a few:
    // only those are copied.
    let mut local: Vec<(Cow<'static, [u8]>, Option<u16>)> = own_keywords()
        .map(|(owner, k)| (lower_keyword(k), owner))
        .collect();
    local.sort_unstable();
    let theirs = table::GITLEAKS_KEYWORDS;
    let offset = LOCAL.len() as u16;
    let mut words: Vec<(Cow<'static, [u8]>, std::ops::Range<usize>)> =
        Vec::with_capacity(local.len() + theirs.len());
    let mut owners: Vec<u16> = Vec::new();
    let (mut i, mut j) = (0, 0);
    loop {
        let next: Cow<'static, [u8]> = match (local.get(i), theirs.get(j)) {
            (Some((l, _)), Some((t, _))) if l.as_ref() > *t => Cow::Borrowed(*t),
            (Some((l, _)), _) => l.clone(),
            (None, Some((t, _))) => Cow::Borrowed(*t),
            (None, None) => break,
        };
        let from = owners.len();
        while let Some((k, owner)) = local.get(i)
            && *k == next
        {
            owners.extend(*owner);
            i += 1;
        }
        if let Some((k, rules)) = theirs.get(j)
            && *k == next.as_ref()
        {
            owners.extend(rules.iter().map(|r| r + offset));
            j += 1;
        }
        words.push((next, from..owners.len()));
    }
    let mut starts = Box::new([0u64; 1024]);
    let mut ranges: Vec<([u8; 3], std::ops::Range<usize>)> = Vec::new();
    let (mut two, mut short) = (Vec::new(), Vec::new());
    for (i, (w, _)) in words.iter().enumerate() {
        let &[a, b, c, ..] = w.as_ref() else {
            if let &[a, b] = w.as_ref() {
                for c in 0..=255 {
                    let h = trigram(a, b, c);
                    starts[h >> 6] |= 1 << (h & 63);
                }
                two.push(i);
            } else {
                short.push(i);
            }
            continue;
        };
        let h = trigram(a, b, c);
        starts[h >> 6] |= 1 << (h & 63);
        match ranges.last_mut() {
            Some((t, r)) if *t == [a, b, c] => r.end = i + 1,
            _ => ranges.push(([a, b, c], i..i + 1)),
        }
    }
    Keywords {
        words,
        owners,
        starts,
        ranges,
        two,
        short,
    }
});

/// Each keyword occurrence in `lower` (ASCII lower case), as (start, keyword index):
/// `f` returns false to stop.
fn each_keyword(lower: &[u8], mut f: impl FnMut(usize, usize) -> bool) {
    let k = &*KEYWORDS;
    for &i in &k.short {
        let w = &k.words[i].0;
        let mut from = 0;
        while let Some(at) = lower
            .get(from..)
            .and_then(|rest| memchr::memmem::find(rest, w))
        {
            if !f(from + at, i) {
                return;
            }
            from += at + 1;
        }
    }
    for at in 0..lower.len().saturating_sub(1) {
        let (a, b, c) = (lower[at], lower[at + 1], lower.get(at + 2).copied());
        // The last pair has no third byte: only a two-byte keyword can start there.
        if let Some(c) = c {
            let h = trigram(a, b, c);
            if k.starts[h >> 6] >> (h & 63) & 1 == 0 {
                continue;
            }
        }
        for &i in &k.two {
            if *k.words[i].0 == [a, b] && !f(at, i) {
                return;
            }
        }
        let Some(c) = c else { continue };
        let Ok(r) = k.ranges.binary_search_by(|(p, _)| p.cmp(&[a, b, c])) else {
            continue;
        };
        for i in k.ranges[r].1.clone() {
            if lower[at..].starts_with(&k.words[i].0) && !f(at, i) {
                return;
            }
        }
    }
}

/// Whether `text` holds a keyword, ASCII case aside: what the automaton's `is_match`
/// answers, without building it while the searches stay cheap.
fn holds_keyword(text: &str) -> bool {
    if let Some(pf) = PREFILTER.get() {
        return pf.ac.is_match(text);
    }
    let cost = search_cost(text.len());
    let within = SEARCH_BUDGET_LEFT
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            left.checked_sub(cost)
        })
        .is_ok();
    if !within {
        return prefilter().ac.is_match(text);
    }
    search_keywords(text)
}

/// [`holds_keyword`] by the keywords' table.
fn search_keywords(text: &str) -> bool {
    search_keywords_by_table(&text.as_bytes().to_ascii_lowercase())
}

/// [`search_keywords`] by the keywords' table, over ASCII lower-case bytes.
fn search_keywords_by_table(lower: &[u8]) -> bool {
    let mut any = false;
    each_keyword(lower, |_, _| {
        any = true;
        false
    });
    any
}

/// True when [`redact_text`] and [`redact_diff_body`] return `text` as it is: it
/// holds no rule's keyword, no key marker and no line shaped like key material.
pub fn leaves_unchanged(text: &str) -> bool {
    !holds_keyword(text) && !text.lines().any(key_body_line)
}

/// Redacts a plain text, line by line, with private key blocks spanning lines.
pub fn redact_text(text: &str) -> Redaction {
    let (t, found) = redact_lines(text, false);
    Redaction {
        text: t.into_owned(),
        found,
    }
}

/// Redacts a hunk body: each line's first character (the diff marker) is kept so
/// the hunk keeps its shape; a key block becomes one redacted line per line.
pub fn redact_diff_body(body: &str) -> Redaction {
    let (t, found) = redact_lines(body, true);
    Redaction {
        text: t.into_owned(),
        found,
    }
}

fn redact_lines(text: &str, diff: bool) -> (Cow<'_, str>, Vec<SecretKind>) {
    let mut found = Vec::new();
    if leaves_unchanged(text) {
        return (Cow::Borrowed(text), found);
    }
    let split: Vec<(&str, &str, &str)> = text
        .split_inclusive('\n')
        .map(|line| {
            let (content, nl) = line.strip_suffix('\n').map_or((line, ""), |c| (c, "\n"));
            if diff && !content.is_empty() {
                let cut = content.chars().next().map_or(0, char::len_utf8);
                let (m, c) = content.split_at(cut);
                (m, c, nl)
            } else {
                ("", content, nl)
            }
        })
        .collect();
    let contents: Vec<&str> = split.iter().map(|s| s.1).collect();
    let keyish = key_material(&contents);
    let mut out = String::with_capacity(text.len());
    let mut in_key = false;
    let mut key_run = false;
    // A secret-named YAML key whose value is on the following lines: its indent,
    // and whether it opened a block scalar (all deeper lines) or not (one line).
    let mut pending: Option<(usize, bool)> = None;
    let mut shape = Shape::default();
    for (i, &(marker, content, nl)) in split.iter().enumerate() {
        let value_of_pending = pending.is_some_and(|(ind, block)| {
            let t = content.trim();
            !t.is_empty()
                && indent_of(content) > ind
                && (block || (!t.contains(char::is_whitespace) && !t.ends_with(':')))
        });
        if in_key || (content.contains("PRIVATE KEY") && KEY_BEGIN.is_match(content)) {
            if !in_key {
                found.push(SecretKind::PRIVATE_KEY);
            }
            // Keep what precedes BEGIN on its line (e.g. `key = """`), drop the rest;
            // on a line that stands where a secret-named key's value goes, drop it all:
            // what precedes BEGIN is that value too, and a second pass would find it.
            let under_pending = pending.is_some_and(|(ind, _)| indent_of(content) > ind);
            let keep = if in_key || value_of_pending || under_pending {
                ""
            } else {
                KEY_BEGIN
                    .find(content)
                    .map_or("", |m| &content[..m.start()])
            };
            in_key = !KEY_END.is_match(content);
            // Redacted with the marker after it, as a second pass reads it.
            let line = format!("{keep}{}", SecretKind::PRIVATE_KEY.marker());
            let line = redact_line(&line, &mut found, 0);
            shape.emit(&mut out, &mut found, marker, &line, nl);
            pending = None;
            continue;
        }
        if keyish[i] {
            if !key_run {
                found.push(SecretKind::PRIVATE_KEY);
            }
            key_run = true;
            let ind = &content[..indent_of(content)];
            let line = format!("{ind}{}", SecretKind::PRIVATE_KEY.marker());
            shape.emit(&mut out, &mut found, marker, &line, nl);
            continue;
        }
        key_run = false;
        if let Some((ind, block)) = pending {
            let t = content.trim();
            let deeper = indent_of(content) > ind;
            if t.is_empty() && block {
                shape.emit(&mut out, &mut found, marker, content, nl);
                continue;
            }
            let value_line =
                deeper && (block || (!t.contains(char::is_whitespace) && !t.ends_with(':')));
            if value_line && !t.is_empty() && !is_placeholder(t) {
                found.push(SecretKind::BLOCK_VALUE);
                let lead = &content[..indent_of(content)];
                let line = format!("{lead}{}", SecretKind::BLOCK_VALUE.marker());
                shape.emit(&mut out, &mut found, marker, &line, nl);
                if !block {
                    pending = None;
                }
                continue;
            }
            if !t.is_empty() {
                pending = None;
            }
        }
        if let Some((indent, name, indicator)) = block_name(content) {
            let lower = name.to_ascii_lowercase();
            let secretish = is_strong_name(name)
                || [
                    "secret",
                    "key",
                    "token",
                    "password",
                    "passwd",
                    "aws",
                    "credential",
                ]
                .iter()
                .any(|w| lower.contains(w));
            if secretish {
                pending = Some((indent, indicator));
            }
        }
        let line = redact_line(content, &mut found, 0);
        shape.emit(&mut out, &mut found, marker, &line, nl);
    }
    (Cow::Owned(out), found)
}

/// What earlier lines of a text say about later ones: a CSV header's secret columns,
/// and a secret's name whose value a later line of the same mapping gives.
#[derive(Default)]
struct Shape {
    csv: Option<Csv>,
    pair: Option<Pair>,
}

/// A CSV header's delimiter, number of cells and the cells that are secrets.
struct Csv {
    delim: u8,
    cells: usize,
    secret: Vec<usize>,
}

/// A secret's name (`- name: DB_PASSWORD`, `"ParameterKey": "DbPassword"`, HCL's
/// `variable "db_password" {`) waiting for its value: the column its mapping's keys
/// start at (a block: any deeper line), and how many more lines may give it.
struct Pair {
    col: usize,
    block: bool,
    left: usize,
}

#[allow(clippy::expect_used)] // constant patterns
static HCL_VARIABLE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r#"^(\s*)variable\s+"([A-Za-z0-9_.\-]{2,80})"\s*\{\s*$"#)
        .expect("constant regex")
});
#[allow(clippy::expect_used)]
static PAIR_VALUE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r#"(?i)^(\s*)["']?(?:value|parametervalue|default)["']?\s*[:=]\s*(\S.*?)\s*,?\s*$"#,
    )
    .expect("constant regex")
});

impl Shape {
    /// Pushes `marker`, `line` (redacted line by line already) with what earlier lines
    /// say it holds redacted too, and `nl` onto `out`, then reads what the line says
    /// about the lines after it. Both are read off the line as it is sent, redacted
    /// again after each change, so that a second pass reads the same lines in the same
    /// state and finds nothing more.
    fn emit(
        &mut self,
        out: &mut String,
        found: &mut Vec<SecretKind>,
        marker: &str,
        line: &str,
        nl: &str,
    ) {
        let mut line = Cow::Borrowed(line);
        // Each change replaces text that is no marker with a marker: the loop ends.
        while let Some(shaped) = self.redacted(&line, found) {
            line = Cow::Owned(redact_line(&shaped, found, 0).into_owned());
        }
        self.advance(&line);
        out.push_str(marker);
        out.push_str(&line);
        out.push_str(nl);
    }

    /// `line` with the values earlier lines name redacted: a data row's secret cells,
    /// the value line of a pair; `None` when it holds none.
    fn redacted(&self, line: &str, found: &mut Vec<SecretKind>) -> Option<String> {
        let mut out: Option<String> = None;
        if let Some(csv) = &self.csv {
            let cells = csv_cells(line, csv.delim);
            if cells.len() == csv.cells {
                out = redact_cells(line, &cells, &csv.secret, found);
            }
        }
        if let Some(pair) = &self.pair
            && pair.left > 0
            && pair.holds(line)
            && pair_name(line).is_none()
        {
            let now = out.as_deref().unwrap_or(line);
            if let Some(v) = pair.value(now) {
                let inner = v.as_str().trim_matches(['"', '\'']);
                let literal = !inner.is_empty()
                    && !is_placeholder(inner)
                    && !is_reference(inner)
                    && !matches!(inner.chars().next(), Some('|' | '>'));
                if literal {
                    found.push(SecretKind::BLOCK_VALUE);
                    out = Some(format!(
                        "{}{}",
                        &now[..v.start()],
                        SecretKind::BLOCK_VALUE.marker()
                    ));
                }
            }
        }
        out
    }

    /// What `line` says about the lines after it: a CSV header (or the row of one
    /// that goes on), a secret's name that a later line gives the value of.
    fn advance(&mut self, line: &str) {
        let row = self
            .csv
            .as_ref()
            .is_some_and(|csv| csv_cells(line, csv.delim).len() == csv.cells);
        if !row {
            self.csv = csv_header(line);
        }
        if let Some(pair) = &mut self.pair {
            // Gone past its mapping or its lines, or given its value.
            if pair.left == 0
                || !pair.holds(line)
                || pair_name(line).is_some()
                || pair.value(line).is_some()
            {
                self.pair = None;
            } else {
                pair.left -= 1;
            }
        }
        if self.pair.is_none() {
            if let Some((col, name)) = pair_name(line) {
                if is_strong_name(name) {
                    self.pair = Some(Pair {
                        col,
                        block: false,
                        left: 8,
                    });
                }
            } else if line.trim_ascii_start().starts_with("variable")
                && let Some(c) = HCL_VARIABLE.captures(line)
                && c.get(2).is_some_and(|n| is_strong_name(n.as_str()))
            {
                let col = c.get(1).map_or(0, |m| m.len());
                self.pair = Some(Pair {
                    col,
                    block: true,
                    left: 8,
                });
            }
        }
    }
}

/// The name a line gives as a pair's name, with the column its key starts at: what the
/// pattern
/// `(?i)^(\s*(?:-\s+)?)["']?(?:name|key|parameterkey)["']?\s*[:=]\s*["']?([A-Za-z0-9_.:\-]{2,80})["']?\s*,?\s*$`
/// captures (`\s` ASCII white space), read without running it.
fn pair_name(line: &str) -> Option<(usize, &str)> {
    // Most lines start with another word: passed over on their first bytes.
    let t = line.trim_ascii_start().as_bytes();
    let t = t.strip_prefix(b"-").map_or(t, <[u8]>::trim_ascii_start);
    let first = t.iter().find(|&&b| !matches!(b, b'"' | b'\''));
    if !first.is_some_and(|b| matches!(b | 0x20, b'n' | b'k' | b'p')) {
        return None;
    }
    let ws = |c: char| c.is_ascii_whitespace();
    let rest = line.trim_start_matches(ws);
    let rest = match rest.strip_prefix('-') {
        Some(r) if r.starts_with(ws) => r.trim_start_matches(ws),
        _ => rest,
    };
    let col = line.len() - rest.len();
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    let key = ["parameterkey", "name", "key"].into_iter().find(|k| {
        rest.get(..k.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(k))
    })?;
    let rest = &rest[key.len()..];
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    let rest = rest.trim_start_matches(ws).strip_prefix([':', '='])?;
    let rest = rest.trim_start_matches(ws);
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    let name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-');
    let len = rest.bytes().take_while(|&b| name_byte(b)).count();
    if !(2..=80).contains(&len) {
        return None;
    }
    let (name, rest) = rest.split_at(len);
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    let rest = rest.trim_start_matches(ws);
    let rest = rest.strip_prefix(',').unwrap_or(rest);
    rest.trim_start_matches(ws)
        .is_empty()
        .then_some((col, name))
}

impl Pair {
    /// Whether `line` is still inside the mapping or block the name opened.
    fn holds(&self, line: &str) -> bool {
        let t = line.trim();
        if self.block {
            indent_of(line) > self.col || t.is_empty()
        } else {
            indent_of(line) >= self.col && !t.starts_with(['-', '}', '{', ']'])
        }
    }

    /// The value `line` gives the name, when it is the pair's value line
    /// (`value: x`, `"value": "x"`, `ParameterValue: x`, in a block `default = "x"`).
    fn value<'l>(&self, line: &'l str) -> Option<regex::Match<'l>> {
        let c = PAIR_VALUE.captures(line)?;
        let at = c.get(1).map_or(0, |m| m.len());
        if self.block || at == self.col {
            c.get(2)
        } else {
            None
        }
    }
}

/// The spans of a CSV line's cells (a quoted cell may hold the delimiter; `""` is a
/// quote inside it).
fn csv_cells(line: &str, delim: u8) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut cells = Vec::new();
    let (mut start, mut i, mut quoted) = (0, 0, false);
    while i < b.len() {
        match b[i] {
            b'"' if quoted && b.get(i + 1) == Some(&b'"') => i += 1,
            b'"' if quoted => quoted = false,
            b'"' if i == start => quoted = true,
            c if c == delim && !quoted => {
                cells.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    cells.push((start, b.len()));
    cells
}

/// A CSV header naming a secret column (`User name,Password,Access key ID,Secret
/// access key`): cells that are short names, written tight to their delimiter (`,`,
/// tab or `;`), not a sentence or code that lists names (`user, password`,
/// `f(user, password)`).
fn csv_header(line: &str) -> Option<Csv> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    // Most lines hold a byte no header does: they are passed over in one scan.
    let b = line.as_bytes();
    let header_byte = |c: &u8| {
        c.is_ascii_alphanumeric()
            || matches!(c, b' ' | b'_' | b'-' | b'.' | b',' | b'\t' | b';' | b'"')
    };
    if !b
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'"')
        || !b.iter().all(header_byte)
    {
        return None;
    }
    for delim in [b',', b'\t', b';'] {
        if !line.as_bytes().contains(&delim) {
            continue;
        }
        let cells = csv_cells(line, delim);
        let names: Vec<&str> = cells
            .iter()
            .map(|&(a, b)| line[a..b].trim_matches('"'))
            .collect();
        let name_like = |n: &&str| {
            n.len() <= 40
                && n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.'))
                && !n.ends_with(['.', ' '])
                && n.split(' ').count() <= 5
        };
        if names.len() < 2 || !names.iter().all(name_like) {
            continue;
        }
        let secret: Vec<usize> = (0..names.len())
            .filter(|&i| is_strong_name(names[i]))
            .collect();
        return (!secret.is_empty()).then_some(Csv {
            delim,
            cells: names.len(),
            secret,
        });
    }
    None
}

/// A CSV data row with the cells of the `secret` columns redacted (empty cells and
/// placeholders stay); `None` when there are none to redact.
fn redact_cells(
    line: &str,
    cells: &[(usize, usize)],
    secret: &[usize],
    found: &mut Vec<SecretKind>,
) -> Option<String> {
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for &i in secret {
        let Some(&(a, b)) = cells.get(i) else {
            continue;
        };
        let b = if line[..b].ends_with('\r') { b - 1 } else { b };
        let inner = line[a..b].trim().trim_matches('"');
        if inner.is_empty() || is_placeholder(inner) {
            continue;
        }
        found.push(SecretKind::COLUMN);
        out.push_str(&line[at..a]);
        out.push_str(&SecretKind::COLUMN.marker());
        at = b;
    }
    if at == 0 {
        return None;
    }
    out.push_str(&line[at..]);
    Some(out)
}

/// `p` redacted, or `None` when nothing in it needs redacting.
fn redact_bytes(p: &gix::bstr::BStr, found: &mut Vec<SecretKind>) -> Option<gix::bstr::BString> {
    let s = String::from_utf8_lossy(p);
    let (t, f) = redact_lines(&s, false);
    if f.is_empty() {
        return None;
    }
    found.extend(f);
    Some(t.into_owned().into())
}

/// `s` redacted, or `None` when nothing in it needs redacting.
fn redact_owned(s: &str, found: &mut Vec<SecretKind>) -> Option<String> {
    let (t, f) = redact_lines(s, false);
    found.extend(f);
    match t {
        Cow::Owned(o) => Some(o),
        Cow::Borrowed(_) => None,
    }
}

/// The staged state as it may leave the machine: every file name (old and new),
/// diff header, hunk header and hunk body, and the branch name, redacted. What was
/// found is returned with it.
pub fn redact_state(state: &StagedState) -> (StagedState, Vec<SecretKind>) {
    let (s, mut found) = redact_names(state);
    let mut s = s.into_owned();
    for f in &mut s.files {
        if let Cow::Owned(o) = redact_bodies(f, &mut found) {
            *f = o;
        }
    }
    (s, found)
}

/// [`redact_state`] without the hunk bodies: the names, headers, hunk headers and
/// branch. The gate ([`gate_change`]) applies it to the whole state up front and
/// [`redact_bodies`] ([`GatedFile::bodies`]) to each file whose hunks the composer builds
/// (most files of a large change never get past their stat line). The state is borrowed, not copied, when
/// nothing in it needs redacting.
pub fn redact_names(state: &StagedState) -> (Cow<'_, StagedState>, Vec<SecretKind>) {
    let mut found = Vec::new();
    let mut out: Option<StagedState> = None;
    if let Some(b) = state
        .branch
        .as_deref()
        .and_then(|b| redact_owned(b, &mut found))
    {
        out.get_or_insert_with(|| state.clone()).branch = Some(b);
    }
    for (i, f) in state.files.iter().enumerate() {
        if let Cow::Owned(o) = redact_file_names(f, &mut found) {
            out.get_or_insert_with(|| state.clone()).files[i] = o;
        }
    }
    (out.map_or(Cow::Borrowed(state), Cow::Owned), found)
}

/// One file's names redacted as [`redact_names`] redacts each of the state's: its
/// path and old path, its diff header and its hunk headers' context (borrowed when
/// nothing changes). A file of a large change read only when the composer asks for
/// it goes through here before any of it reaches a piece.
pub fn redact_file_names<'a>(f: &'a FileDiff, found: &mut Vec<SecretKind>) -> Cow<'a, FileDiff> {
    let path = redact_bytes(f.change.path.as_ref(), found);
    let old = f
        .change
        .old_path
        .as_ref()
        .and_then(|o| redact_bytes(o.as_ref(), found));
    let header = redact_owned(&f.header, found);
    let mut hunks = Vec::new();
    for (j, h) in f.hunks.iter().enumerate() {
        // `@@ -a,b +c,d @@ context`: the context is a line of the file.
        let (at, ctx) = match h.header.match_indices("@@").nth(1) {
            Some((k, _)) => h.header.split_at(k + 2),
            None => ("", h.header.as_str()),
        };
        if let Some(t) = redact_owned(ctx, found) {
            hunks.push((j, format!("{at}{t}")));
        }
    }
    if path.is_none() && old.is_none() && header.is_none() && hunks.is_empty() {
        return Cow::Borrowed(f);
    }
    let mut o = f.clone();
    if let Some(p) = path {
        o.change.path = p;
    }
    if let Some(p) = old {
        o.change.old_path = Some(p);
    }
    if let Some(h) = header {
        o.header = h;
    }
    for (j, h) in hunks {
        o.hunks[j].header = h;
    }
    Cow::Owned(o)
}

/// One file with its hunk bodies redacted (borrowed when nothing changes).
pub fn redact_bodies<'a>(f: &'a FileDiff, found: &mut Vec<SecretKind>) -> Cow<'a, FileDiff> {
    let mut out: Option<FileDiff> = None;
    for (i, h) in f.hunks.iter().enumerate() {
        let (b, fd) = redact_lines(&h.body, true);
        found.extend(fd);
        if let Cow::Owned(b) = b {
            out.get_or_insert_with(|| f.clone()).hunks[i].body = b;
        }
    }
    match out {
        Some(o) => Cow::Owned(o),
        None => Cow::Borrowed(f),
    }
}

/// A value that has been through the redaction gate: text (the default), a file's
/// diff or a request's JSON. Only this module makes one, so a function that takes a
/// `Redacted` cannot be handed repository text that skipped the gate; reading it is
/// free (it dereferences to what it holds).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
#[serde(transparent)]
pub struct Redacted<T = String>(T);

impl<T> Redacted<T> {
    /// The value, for a caller that owns it from here on.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Redacted<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl std::fmt::Display for Redacted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The gate for one text ([`redact_text`]).
pub fn gate(text: &str) -> Redacted {
    Redacted(redact_text(text).text)
}

/// The gate for a hunk body ([`redact_diff_body`]: each line's diff marker kept).
pub fn gate_diff_body(body: &str) -> Redacted {
    Redacted(redact_diff_body(body).text)
}

/// The gate for a JSON value: every string and every key ([`redact_text`]).
pub fn gate_json(v: &serde_json::Value) -> Redacted<serde_json::Value> {
    fn each(v: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match v {
            Value::String(s) => Value::String(redact_text(s).text),
            Value::Array(a) => Value::Array(a.iter().map(each).collect()),
            Value::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (redact_text(k).text, each(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    Redacted(each(v))
}

/// Reads the diff of the staged file at an index of the state's files; `None` when it
/// cannot be read.
pub type ReadDiff<'a> = &'a dyn Fn(usize) -> Option<FileDiff>;

/// The staged change and the intent through the gate, as the composer takes them
/// ([`gate_change`]): nothing of the change reaches a prompt but through here.
pub struct GatedChange<'a> {
    state: Cow<'a, StagedState>,
    intent: Option<Redacted>,
    read: Option<ReadDiff<'a>>,
}

impl<'a> GatedChange<'a> {
    /// The state with its names, headers and branch redacted ([`redact_names`]), as a
    /// view whose hunk bodies come only through the gate ([`GatedFile::bodies`]).
    pub fn state(&self) -> GatedState<'_> {
        GatedState(&self.state)
    }

    /// The intent, redacted.
    pub fn intent(&self) -> Option<&Redacted> {
        self.intent.as_ref()
    }

    /// Whether files left unread can be read ([`GatedChange::read`]).
    pub fn can_read(&self) -> bool {
        self.read.is_some()
    }

    /// A file of the state left unread, read now, its names redacted as the state's
    /// (its hunk bodies, as every file's, through [`GatedFile::bodies`]).
    pub fn read(&self, i: usize) -> Option<ReadFile> {
        let f = (self.read?)(i)?;
        Some(ReadFile(
            redact_file_names(&f, &mut Vec::new()).into_owned(),
        ))
    }
}

/// The gated change's staged state ([`GatedChange::state`]): its branch, its files'
/// names, kinds, counts and headers as the gate let them through, free to read; a
/// file's hunk bodies only through the gate, one file at a time
/// ([`GatedFile::bodies`]), so a file that never gets past its stat line is never
/// redacted.
#[derive(Clone, Copy)]
pub struct GatedState<'a>(&'a StagedState);

impl<'a> GatedState<'a> {
    /// The branch, redacted; `None` when detached.
    pub fn branch(self) -> Option<&'a str> {
        self.0.branch.as_deref()
    }

    /// No commit yet.
    pub fn initial(self) -> bool {
        self.0.initial
    }

    /// How many files are staged.
    pub fn len(self) -> usize {
        self.0.files.len()
    }

    /// Nothing is staged.
    pub fn is_empty(self) -> bool {
        self.0.files.is_empty()
    }

    /// The staged files, in the state's order.
    pub fn files(self) -> impl ExactSizeIterator<Item = GatedFile<'a>> + Clone {
        self.0.files.iter().map(GatedFile)
    }
}

/// One staged file of a [`GatedState`] (or one read late, [`ReadFile`]): what it is,
/// free to read; its hunk bodies only through the gate ([`GatedFile::bodies`]).
#[derive(Clone, Copy)]
pub struct GatedFile<'a>(&'a FileDiff);

impl<'a> GatedFile<'a> {
    /// Its change: paths (redacted), kind and modes.
    pub fn change(self) -> &'a jitcommit_core::repo::Change {
        &self.0.change
    }

    /// git's extended header, redacted.
    pub fn header(self) -> &'a str {
        &self.0.header
    }

    /// Lines added.
    pub fn added(self) -> usize {
        self.0.added
    }

    /// Lines removed.
    pub fn removed(self) -> usize {
        self.0.removed
    }

    /// git would call it binary.
    pub fn binary(self) -> bool {
        self.0.binary
    }

    /// A submodule pointer change.
    pub fn submodule(self) -> bool {
        self.0.submodule
    }

    /// Its Linguist attribute.
    pub fn linguist(self) -> Option<jitcommit_core::repo::Linguist> {
        self.0.linguist
    }

    /// Its blobs were read and diffed ([`FileDiff::read`]).
    pub fn is_read(self) -> bool {
        self.0.read
    }

    /// Each hunk's header line (its context redacted) and the number of its body's
    /// lines: its size, without its text.
    pub fn hunk_shapes(self) -> impl ExactSizeIterator<Item = (&'a str, usize)> + Clone {
        self.0
            .hunks
            .iter()
            .map(|h| (h.header.as_str(), h.body.split_inclusive('\n').count()))
    }

    /// The file with its hunk bodies through the gate ([`redact_bodies`]; borrowed
    /// when nothing changes): the only way its hunks' text reaches the composer.
    pub fn bodies(self) -> Redacted<Cow<'a, FileDiff>> {
        Redacted(redact_bodies(self.0, &mut Vec::new()))
    }
}

impl Redacted<Cow<'_, FileDiff>> {
    /// The gated file's metadata, as [`GatedFile`] gives it.
    pub fn file(&self) -> GatedFile<'_> {
        GatedFile(&self.0)
    }

    /// Its hunks' header lines and bodies, as the gate let them through.
    pub fn hunks(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.0
            .hunks
            .iter()
            .map(|h| (h.header.as_str(), h.body.as_str()))
    }
}

/// A file of the state left unread, read late ([`GatedChange::read`]): its names
/// redacted, its hunk bodies through the gate as any file's ([`ReadFile::file`]).
pub struct ReadFile(FileDiff);

impl ReadFile {
    /// The file, as the gated state's files are read.
    pub fn file(&self) -> GatedFile<'_> {
        GatedFile(&self.0)
    }
}

/// The names `find` reads out of a file's hunk bodies (a public item's), as the gate
/// lets them through: for names the offline analyses take from a diff and a prompt
/// shows alone, where the context that made one a secret (a secret-named YAML block
/// scalar, a name/value pair over lines, a key block) is gone. A name the file's
/// bodies, redacted ([`redact_bodies`]), no longer hold is left out, unless the gate
/// redacts it alone too (then it is its redaction, as [`gate`] gives it). The bodies are
/// redacted only when `find` found something (most files: nothing).
pub fn found_in_gated(
    f: &FileDiff,
    find: impl Fn(&FileDiff) -> Vec<String>,
) -> Redacted<Vec<String>> {
    let raw = find(f);
    if raw.is_empty() {
        return Redacted(raw);
    }
    let gated = redact_bodies(f, &mut Vec::new());
    Redacted(kept_names(raw, std::iter::once(gated.as_ref())))
}

/// The bodies of a state's files through the gate, redacted once for every
/// [`found_in_gated_state`] over that state, and only when one of them finds a name.
pub type GatedBodies<'s> = std::cell::OnceCell<Vec<Cow<'s, FileDiff>>>;

/// [`found_in_gated`] for names `find` reads across the files of a state (a public
/// item removed in one file, renamed in another); `gated` holds the state's bodies
/// through the gate once one call has needed them.
pub fn found_in_gated_state<'s, T>(
    state: &'s StagedState,
    gated: &GatedBodies<'s>,
    find: impl Fn(&StagedState) -> Vec<T>,
    names: impl Fn(&T) -> Vec<&str>,
) -> Redacted<Vec<T>> {
    let raw = find(state);
    if raw.is_empty() {
        return Redacted(raw);
    }
    let gated = gated.get_or_init(|| {
        state
            .files
            .iter()
            .map(|f| redact_bodies(f, &mut Vec::new()))
            .collect()
    });
    let held = |n: &str| {
        gated
            .iter()
            .any(|f| f.hunks.iter().any(|h| h.body.contains(n)))
    };
    Redacted(
        raw.into_iter()
            .filter(|t| names(t).iter().all(|n| held(n) || *gate(n) != **n))
            .collect(),
    )
}

/// `raw` names each kept where the redacted `files` still hold it, else as [`gate`]
/// redacts it alone when it does, else left out.
fn kept_names<'f>(
    raw: Vec<String>,
    files: impl Iterator<Item = &'f FileDiff> + Clone,
) -> Vec<String> {
    raw.into_iter()
        .filter_map(|n| {
            let held = files
                .clone()
                .any(|f| f.hunks.iter().any(|h| h.body.contains(n.as_str())));
            if held {
                return Some(n);
            }
            let alone = gate(&n);
            (*alone != n).then(|| alone.into_inner())
        })
        .collect()
}

/// Each hunk body of `f` with its size in bytes, through the gate
/// ([`gate_diff_body`]) only when asked for: for a reader that stops at a byte budget.
pub fn hunk_bodies(f: &FileDiff) -> impl Iterator<Item = (usize, impl FnOnce() -> Redacted)> {
    f.hunks
        .iter()
        .map(|h| (h.body.len(), move || gate_diff_body(&h.body)))
}

/// The gate for the staged change and the intent, once, before anything is composed:
/// [`redact_names`] on the state (borrowed when nothing needs redacting), [`gate`] on
/// the intent, and `read` (which reads a file left unread) wrapped so that what it
/// reads is redacted as the state is.
pub fn gate_change<'a>(
    state: &'a StagedState,
    intent: Option<&str>,
    read: Option<ReadDiff<'a>>,
) -> GatedChange<'a> {
    GatedChange {
        state: redact_names(state).0,
        intent: intent.map(gate),
        read,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keywords of the rules, picked by `pick`, cut short when `how` is 0, in the ASCII
    /// case `case`'s bits say, each followed by its `glue`.
    fn keyword_text(parts: Vec<(usize, u8, u64, &str)>) -> String {
        let kws: Vec<&str> = keyword_owners().into_keys().collect();
        let mut text = String::new();
        for (pick, how, case, glue) in parts {
            let k = kws[pick % kws.len()];
            let k = match how {
                // Cut a keyword short: no longer a match on its own.
                0 => &k[..k.char_indices().last().map_or(0, |(i, _)| i)],
                _ => k,
            };
            for (i, c) in k.chars().enumerate() {
                if case >> (i % 64) & 1 == 1 {
                    text.extend(c.to_uppercase());
                } else {
                    text.push(c);
                }
            }
            text.push_str(glue);
        }
        text
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

        /// The keyword-by-keyword search answers what the automaton answers: keywords whole or
        /// cut short, in any ASCII case, among non-ASCII letters and emoji.
        #[test]
        fn the_keyword_search_agrees_with_the_automaton(
            parts in proptest::collection::vec(
                (0usize..10_000, 0u8..4, proptest::bits::u64::ANY,
                 proptest::sample::select(vec!["", " ", "=", "ü", "ß", "🔑", "\n", "_", "K"])),
                0..12,
            )
        ) {
            let text = keyword_text(parts);
            // `holds_keyword` is not asserted here: once this line has built the
            // automaton, it answers with the automaton itself. Its switch from one
            // search to the other is the next test's.
            let lower = text.as_bytes().to_ascii_lowercase();
            proptest::prop_assert_eq!(search_keywords_by_table(&lower), prefilter().ac.is_match(&text), "{:?}", text);
            proptest::prop_assert_eq!(search_keywords(&text), prefilter().ac.is_match(&text), "{:?}", text);
        }

        /// The searches wake the rules the automaton wakes, markers and all: keywords
        /// whole or cut short, in any ASCII case, overlapping each other, inside and
        /// beside earlier markers.
        #[test]
        fn the_searches_wake_what_the_automaton_wakes(
            parts in proptest::collection::vec(
                (0usize..10_000, 0u8..4, proptest::bits::u64::ANY,
                 proptest::sample::select(vec![
                     "", " ", "=", "ü", "🔑", "_", "[REDACTED:", "[REDACTED:private-key]",
                     "]", "K", "ke", "-----",
                 ])),
                0..12,
            )
        ) {
            let text = keyword_text(parts);
            let taken = markers(&text);
            let sorted = |(any, mut v): (bool, Vec<u16>)| {
                v.sort_unstable();
                v.dedup();
                (any, v)
            };
            let lower = text.as_bytes().to_ascii_lowercase();
            let want = sorted(woken_by_automaton(&text, &taken));
            proptest::prop_assert_eq!(sorted(woken_by_table(&lower, &taken)), want.clone(), "{:?}", text);
            proptest::prop_assert_eq!(sorted(woken_by_search(&text, &taken)), want, "{:?}", text);
        }
    }

    #[test]
    fn the_searches_stop_at_the_budget_and_the_automaton_takes_over() {
        // Cheap searches within the budget, then the automaton: a long text costs more
        // than the whole budget. (Other tests of this process may have used some of it
        // or built the automaton already; either way the answers are the automaton's.)
        let mut text = "ü".repeat(KEYWORD_SEARCH_BUDGET / 2);
        assert!(search_cost(text.len()) > KEYWORD_SEARCH_BUDGET);
        assert!(!holds_keyword(&text));
        assert!(
            PREFILTER.get().is_some(),
            "past the budget the automaton is built"
        );
        text.push_str("a Private Key");
        assert!(holds_keyword(&text));
        assert!(holds_keyword("-----BEGIN PRIVATE KEY-----"));
        assert!(!holds_keyword("nothing here"));
    }

    /// `hir` with its anchors and word boundaries taken out (proptest cannot generate
    /// them).
    fn without_looks(hir: &regex_syntax::hir::Hir) -> regex_syntax::hir::Hir {
        use regex_syntax::hir::{Capture, Hir, HirKind, Repetition};
        match hir.kind() {
            HirKind::Look(_) => Hir::empty(),
            HirKind::Repetition(r) => Hir::repetition(Repetition {
                sub: Box::new(without_looks(&r.sub)),
                ..r.clone()
            }),
            HirKind::Capture(c) => Hir::capture(Capture {
                sub: Box::new(without_looks(&c.sub)),
                ..c.clone()
            }),
            HirKind::Concat(v) => Hir::concat(v.iter().map(without_looks).collect()),
            HirKind::Alternation(v) => Hir::alternation(v.iter().map(without_looks).collect()),
            _ => hir.clone(),
        }
    }

    /// Lines for rule `i`: what its own pattern matches (parsed as the rule is
    /// compiled, without Unicode; repetitions cut to 40), with random text around,
    /// and the same with a byte range taken out or a space put in, which leaves runs
    /// just shorter than the rule needs; and random text of the rule's keywords,
    /// assignment signs and secret-shaped characters.
    fn rule_lines(i: usize) -> proptest::strategy::BoxedStrategy<String> {
        use proptest::prelude::*;
        let hir = regex_syntax::ParserBuilder::new()
            .unicode(false)
            .utf8(false)
            .build()
            .parse(rule(i).regex)
            .expect("every rule parses");
        let own = proptest::string::bytes_regex_parsed(&without_looks(&hir))
            .expect("a pattern without looks generates")
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned());
        let around = "[ -~]{0,12}";
        let sample = (around, own, around)
            .prop_map(|(a, m, b)| format!("{a}{m}{b}"))
            .boxed();
        let cut = (sample.clone(), any::<usize>(), 0usize..4, any::<bool>()).prop_map(
            |(s, at, n, space)| {
                let b = s.as_bytes();
                let at = at % (b.len() + 1);
                let mut v = b[..at].to_vec();
                if space {
                    v.push(b' ');
                    v.extend_from_slice(&b[at..]);
                } else {
                    v.extend_from_slice(&b[(at + n).min(b.len())..]);
                }
                String::from_utf8_lossy(&v).into_owned()
            },
        );
        let mut words: Vec<String> = rule(i).keywords.iter().map(|k| k.to_string()).collect();
        words.extend(["=", ": ", "\"", "'", " ", "_", "-", "."].map(str::to_owned));
        let random = proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(words),
                "[A-Za-z0-9+/=_.-]{1,24}",
                "[ -~]{1,8}",
            ],
            0..8,
        )
        .prop_map(|v| v.concat());
        prop_oneof![sample, cut, random].boxed()
    }

    #[test]
    fn a_rule_passed_over_for_a_missing_run_redacts_nothing_on_that_line() {
        use proptest::strategy::{Strategy, ValueTree};
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut passed_over, mut rules_redacting) = (0, 0);
        for i in 0..rule_count() {
            let lines = rule_lines(i);
            let mut redacted = false;
            for _ in 0..60 {
                let line = lines.new_tree(&mut runner).expect("a line").current();
                let mut spans = Vec::new();
                rule_spans(i, &line, &[], &mut spans);
                redacted |= !spans.is_empty();
                if !may_redact(i, line.as_bytes()) {
                    passed_over += 1;
                    assert!(spans.is_empty(), "{} passed over {line:?}", rule(i).id);
                }
            }
            rules_redacting += usize::from(redacted);
        }
        // The lines are the rules' own secrets (most rules redact one of them) and
        // near misses (some are passed over): the test cannot hold for want of either.
        let gitleaks = rule_count() - LOCAL.len();
        assert!(
            rules_redacting * 10 > gitleaks * 8,
            "{rules_redacting} of {gitleaks}"
        );
        assert!(passed_over > gitleaks, "{passed_over}");
    }

    #[test]
    fn plain_text_and_identifiers_do_not_wake_the_generic_rule() {
        let generic = (0..rule_count())
            .find(|&i| rule(i).id == "generic-api-key")
            .expect("gitleaks' generic rule");
        for line in [
            "fix(redact): a key block where a secret value goes is redacted at once",
            "        assert!(!is_strong_name(\"token\"));",
            "    let key = GLOBAL_ALLOW.iter().any(|a| a.is_match(secret));",
        ] {
            assert!(!may_redact(generic, line.as_bytes()), "{line}");
        }
        // A secret whose only byte outside letters, `_`, `.` and `-` is a `=` (the
        // allowlist's `^[a-zA-Z_.-]+$` does not hold it) is tried, and redacted.
        let line = "api_key = \"8dyfuiRyqvVc3RRr_edRk-fK=__JItpZ\"";
        assert!(may_redact(generic, line.as_bytes()));
        let mut spans = Vec::new();
        rule_spans(generic, line, &[], &mut spans);
        assert!(!spans.is_empty());
        // jitcommit's own assignment rules too: prose with a keyword (`token`) and no
        // assignment sign.
        let prose = "- **The stateless prompt** sends about 4 % of the tokens a session keeps";
        for id in ["secret", "secret-assignment"] {
            let i = (0..LOCAL.len())
                .find(|&i| rule(i).id == id)
                .expect("the rule");
            assert!(!may_redact(i, prose.as_bytes()), "{id}");
            assert!(
                may_redact(i, b"  db_password = \"Xk9#mQ2$vL7@pR4w\""),
                "{id}"
            );
        }
    }

    #[test]
    fn every_keyword_is_lower_case_and_every_local_rule_compiles() {
        for r in rules() {
            for k in r.keywords {
                assert_eq!(*k, k.to_ascii_lowercase(), "{}", r.id);
            }
        }
        for (i, r) in LOCAL.iter().enumerate() {
            assert!(compiled(i).is_some(), "{} does not compile", r.id);
        }
    }

    #[test]
    fn the_keyword_table_holds_every_rules_keywords_with_their_rules() {
        // gitleaks' keywords come sorted from the build script and are merged with
        // jitcommit's own at run time: the table must be what the rules themselves say.
        let k = &*KEYWORDS;
        let table: Vec<(&[u8], &[u16])> = k
            .words
            .iter()
            .map(|(w, r)| (w.as_ref(), &k.owners[r.clone()]))
            .collect();
        let owners = keyword_owners();
        let expected: Vec<(&[u8], &[u16])> = owners
            .iter()
            .map(|(w, o)| (w.as_bytes(), o.as_slice()))
            .collect();
        assert_eq!(table, expected);
        assert!(table.len() > 300);
    }

    #[test]
    fn every_gitleaks_rule_compiles() {
        // docs/trust.md says none is skipped; a new rule set that breaks this must
        // list what it skips there.
        assert_eq!(uncompilable_rules(), Vec::<&str>::new());
        assert!(table::GITLEAKS.len() > 200);
    }

    #[test]
    fn base64_decodes() {
        assert_eq!(
            decode_b64(b"dXNlcjpwYXNz").as_deref(),
            Some(&b"user:pass"[..])
        );
        assert_eq!(decode_b64(b"YQ==").as_deref(), Some(&b"a"[..]));
        assert_eq!(decode_b64(b"YWI").as_deref(), Some(&b"ab"[..]));
        assert_eq!(decode_b64(b"Y"), None);
    }

    #[test]
    fn names_split_into_words() {
        assert_eq!(name_words("dbPassword"), ["db", "password"]);
        assert_eq!(name_words("DB_PASS"), ["db", "pass"]);
        assert!(is_strong_name("DB_PASS"));
        assert!(is_strong_name("clientSecret"));
        assert!(is_strong_name("api-key"));
        assert!(!is_strong_name("bypass"));
        assert!(!is_strong_name("password_hash"));
        assert!(!is_strong_name("key"));
        assert!(!is_strong_name("token"));
    }

    /// Text of `parts` pieces, each from `pieces`.
    fn text_of(parts: &[usize], pieces: &[&str]) -> String {
        parts.iter().map(|&i| pieces[i % pieces.len()]).collect()
    }

    /// Pieces of base64 and hex runs and what stops them, short and long enough.
    const RUN_PIECES: &[&str] = &[
        "",
        "=",
        "==",
        "===",
        " ",
        "Zm9v",
        "YmFy",
        "deadbeef",
        "0123456789abcdef",
        "ABCDEF",
        "+/",
        "-",
        "_",
        "g",
        "é",
        "🔑",
        "\n",
        "[REDACTED:x]",
        "QUtJQUlPU0ZPRE5ON0VYQU1QTEU=",
    ];

    /// Pieces of lines that name a value, and of lines that nearly do.
    const NAME_PIECES: &[&str] = &[
        "",
        " ",
        "  ",
        "\t",
        "\u{a0}",
        "\u{3000}",
        "\n",
        "-",
        "- ",
        "\"",
        "'",
        "k",
        "ey",
        "db_password",
        "a.b-c",
        "x",
        ":",
        "=",
        "|",
        ">",
        "+",
        "2",
        "|-",
        ">+1",
        "é",
        "#",
        "ü",
        "0123456789012345678901234567890123456789",
        "(",
        ")",
        "=>",
        ": |",
        "key:",
        "token =",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 4000, ..Default::default() })]

        /// The run scanners find what the regexes they stand for find, span for span.
        #[test]
        fn the_run_scanners_find_what_the_regexes_find(
            parts in proptest::collection::vec(0usize..1000, 0..24)
        ) {
            let text = text_of(&parts, RUN_PIECES);
            let b = text.as_bytes();
            let spans = |p: &str| -> Vec<(usize, usize)> {
                build(p).unwrap().find_iter(b).map(|m| (m.start(), m.end())).collect()
            };
            proptest::prop_assert_eq!(b64_runs(b), spans(r"[A-Za-z0-9+/]{16,}={0,2}"), "{:?}", text);
            proptest::prop_assert_eq!(hex_runs(b), spans(r"[0-9A-Fa-f]{16,}"), "{:?}", text);
        }

        /// The block-name reader captures what its pattern captures, on lines that name
        /// a value and on near misses.
        #[test]
        fn the_block_name_reader_captures_what_the_pattern_captures(
            parts in proptest::collection::vec(0usize..1000, 0..10)
        ) {
            let line = text_of(&parts, NAME_PIECES);
            proptest::prop_assert_eq!(block_name(&line), block_name_by_regex(&line), "{:?}", line);
        }

        /// And on any text at all.
        #[test]
        fn the_block_name_reader_agrees_on_any_text(line in "\\PC{0,40}") {
            proptest::prop_assert_eq!(block_name(&line), block_name_by_regex(&line), "{:?}", line);
        }

        /// The pair-name reader captures what its pattern captures, on lines that give
        /// a pair's name and on near misses, and on any text.
        #[test]
        fn the_pair_name_reader_captures_what_the_pattern_captures(
            parts in proptest::collection::vec(0usize..1000, 0..10),
            any in "\\PC{0,30}",
        ) {
            let line = text_of(&parts, PAIR_PIECES);
            proptest::prop_assert_eq!(pair_name(&line), pair_name_by_regex(&line), "{:?}", line);
            proptest::prop_assert_eq!(pair_name(&any), pair_name_by_regex(&any), "{:?}", any);
        }
    }

    /// Pieces of lines that give a pair's name, and of lines that nearly do.
    const PAIR_PIECES: &[&str] = &[
        "",
        " ",
        "  ",
        "\t",
        "\u{a0}",
        "-",
        "- ",
        "\"",
        "'",
        "name",
        "Name",
        "key",
        "KEY",
        "ParameterKey",
        "parameterkey",
        "names",
        ":",
        "=",
        ",",
        "DB_PASSWORD",
        "a",
        "x:y",
        "a.b-c",
        "é",
        "0123456789012345678901234567890123456789",
        "\n",
        "#",
    ];

    /// What [`pair_name`] stands for, by its pattern.
    fn pair_name_by_regex(line: &str) -> Option<(usize, &str)> {
        static RE: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(
                r#"(?i-u)^([\t\n\x0C\r ]*(?:-[\t\n\x0C\r ]+)?)["']?(?:parameterkey|name|key)["']?[\t\n\x0C\r ]*[:=][\t\n\x0C\r ]*["']?([A-Za-z0-9_.:\-]{2,80})["']?[\t\n\x0C\r ]*,?[\t\n\x0C\r ]*$"#,
            )
            .unwrap()
        });
        RE.captures(line).map(|c| {
            (
                c.get(1).map_or(0, |m| m.len()),
                c.get(2).map_or("", |m| m.as_str()),
            )
        })
    }

    /// What [`block_name`] stands for, by its pattern.
    fn block_name_by_regex(line: &str) -> Option<(usize, &str, bool)> {
        static RE: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(
                r#"^(\s*)(?:-\s+)?["']?([A-Za-z0-9_.\-]{2,80})["']?\s*[:=]\s*([|>][+-]?[0-9]?)?\s*$"#,
            )
            .unwrap()
        });
        RE.captures(line).map(|c| {
            (
                c.get(1).map_or(0, |m| m.len()),
                c.get(2).map_or("", |m| m.as_str()),
                c.get(3).is_some(),
            )
        })
    }

    #[test]
    fn the_scanners_on_examples() {
        let key = "QUtJQUlPU0ZPRE5ON0VYQU1QTEU";
        assert_eq!(
            b64_runs(format!("x {key}== y").as_bytes()),
            vec![(2, 2 + key.len() + 2)]
        );
        assert_eq!(b64_runs(b"short=="), vec![]);
        assert_eq!(hex_runs(b"0x0123456789abcdefg"), vec![(2, 18)]);
        assert_eq!(
            block_name("  - 'db_password': |-"),
            Some((2, "db_password", true))
        );
        assert_eq!(block_name("token ="), Some((0, "token", false)));
        assert_eq!(block_name("def f():"), None);
        assert_eq!(block_name("key: value"), None);
    }
}
