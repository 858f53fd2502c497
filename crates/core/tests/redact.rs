//! Secrets planted in a staged change never reach the rendered prompt.

use jitcommit_core::budget::ByteCounter;
use jitcommit_core::config::{ContextSettings, Convention};
use jitcommit_core::prompt;
use jitcommit_core::redact::{self, SecretKind};
use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk, StagedState};

fn conv(budget: usize) -> Convention {
    Convention {
        types: vec!["feat".into(), "fix".into()],
        verbs: vec!["Add".into(), "Update".into()],
        exempt: vec![],
        sections: Default::default(),
        context: ContextSettings {
            budget_tokens: budget,
            reserve_output_tokens: 0,
            safety_margin_percent: 0,
            ..ContextSettings::default()
        },
        ..Convention::default()
    }
}

fn added(path: &str, content: &str) -> FileDiff {
    let lines: Vec<&str> = content.lines().collect();
    let body: String = lines.iter().map(|l| format!("+{l}\n")).collect();
    FileDiff {
        change: Change {
            kind: ChangeKind::Added,
            path: path.into(),
            old_path: None,
            old_mode: None,
            new_mode: Some(0o100644),
        },
        header: format!(
            "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n"
        ),
        hunks: vec![Hunk {
            header: format!("@@ -0,0 +1,{} @@", lines.len()),
            body,
        }],
        added: lines.len(),
        removed: 0,
        binary: false,
        submodule: false,
    }
}

/// One secret of each kind, as they would sit in source.
const PRIVATE_KEY: &str = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2QhR1eN3kC6X9a8s\nq9WcLr0Pn5XvGtT2yJkF4Hs8dYbV3nQmLpZ7RcUe1wXoAi6KjBfT\n-----END RSA PRIVATE KEY-----";
const AWS_ID: &str = "AKIAIOSFODNN7EXAMPLQ";
const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const GITHUB: &str = "ghp_aB3dE6gH9jK2mN5pQ8rS1tU4vW7xY0zA1b2C";
const GITHUB_PAT: &str =
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF";
const GITLAB: &str = "glpat-xY7zQ2wE4rT6yU8iO0pA";
const SLACK: &str = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx";
const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const ASSIGNED: &str = "Zq8#mR2$vL9!pX4@kT7&";

fn planted() -> String {
    format!(
        "const KEY: &str = r\"{PRIVATE_KEY}\";\n\
         aws_access_key_id = {AWS_ID}\n\
         aws_secret_access_key = {AWS_SECRET}\n\
         let gh = \"{GITHUB}\";\n\
         let pat = \"{GITHUB_PAT}\";\n\
         GITLAB = '{GITLAB}'\n\
         slack: {SLACK}\n\
         Authorization: Bearer {JWT}\n\
         db_password = \"{ASSIGNED}\"\n"
    )
}

fn assert_absent(haystack: &str, secret: &str) {
    for line in secret.lines() {
        let chars: Vec<char> = line.chars().collect();
        for w in chars.windows(8) {
            let s: String = w.iter().collect();
            // The PEM armour lines are not secret; their bodies are.
            if line.starts_with("-----") {
                continue;
            }
            assert!(
                !haystack.contains(&s),
                "secret fragment {s:?} of {line:?} leaked"
            );
        }
    }
}

#[test]
fn no_secret_bytes_reach_the_prompt() {
    let state = StagedState {
        branch: Some("main".into()),
        initial: false,
        files: vec![added("src/config.rs", &planted())],
    };
    let p = prompt::build(&state, &conv(100_000), None, &ByteCounter).expect("fits");
    let all = format!("{}{}{}", p.system, p.user, p.schema);
    for s in [
        PRIVATE_KEY,
        AWS_ID,
        AWS_SECRET,
        GITHUB,
        GITHUB_PAT,
        GITLAB,
        SLACK,
        JWT,
        ASSIGNED,
    ] {
        assert_absent(&all, s);
    }
    for tag in [
        "private-key",
        "aws-access-key-id",
        "aws-secret-key",
        "github-token",
        "gitlab-token",
        "slack-token",
        "jwt",
        "secret",
    ] {
        assert!(
            p.user.contains(&format!("[REDACTED:{tag}]")),
            "no {tag} marker in\n{}",
            p.user
        );
    }
    // The diff keeps its shape: every line of the hunk is still a `+` line.
    assert!(
        p.user
            .contains("+aws_access_key_id = [REDACTED:aws-access-key-id]\n")
    );
}

#[test]
fn each_kind_is_found() {
    let cases = [
        (PRIVATE_KEY, SecretKind::PrivateKey),
        (AWS_ID, SecretKind::AwsAccessKeyId),
        (GITHUB, SecretKind::GithubToken),
        (GITHUB_PAT, SecretKind::GithubToken),
        (GITLAB, SecretKind::GitlabToken),
        (SLACK, SecretKind::SlackToken),
        (JWT, SecretKind::Jwt),
    ];
    for (s, kind) in cases {
        let r = redact::redact_text(&format!("x {s} y\n"));
        assert!(r.found.contains(&kind), "{s}: {:?}", r.found);
        assert_absent(&r.text, s);
    }
    let r = redact::redact_text(&format!("AWS_SECRET_ACCESS_KEY={AWS_SECRET}\n"));
    assert_eq!(r.found, vec![SecretKind::AwsSecretKey]);
    let r = redact::redact_text(&format!("api_key: \"{ASSIGNED}\"\n"));
    assert_eq!(r.found, vec![SecretKind::Assigned]);
}

#[test]
fn low_entropy_and_short_values_stay() {
    for line in [
        "password = \"aaaaaaaaaaaaaaaaaaaa\"\n",
        "token = short\n",
        "let key = compute_the_key_from_config;\n",
        "monkey = 42\n",
    ] {
        let r = redact::redact_text(line);
        assert!(r.found.is_empty(), "{line}: {:?}", r.found);
        assert_eq!(r.text, line);
    }
}

#[test]
fn unterminated_key_block_is_redacted_to_the_end() {
    let body = "+-----BEGIN OPENSSH PRIVATE KEY-----\n+b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n+AAAAAAABAAABlwAAAAdzc2gtcn\n";
    let r = redact::redact_diff_body(body);
    assert!(
        !r.text
            .contains("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ")
    );
    assert_eq!(r.text.lines().count(), 3);
    assert!(
        r.text
            .lines()
            .all(|l| l.starts_with("+[REDACTED:private-key]"))
    );
}

#[test]
fn secret_files_are_stat_lines_only() {
    for p in [
        ".env",
        ".env.production",
        "config/.env.local",
        "certs/server.pem",
        "tls.key",
        "home/id_rsa",
        "id_rsa.pub",
        "store.p12",
        "a.pfx",
    ] {
        assert!(redact::is_secret_file(p), "{p}");
    }
    for p in ["src/env.rs", "keys.rs", "environment.md", "src/key_test.go"] {
        assert!(!redact::is_secret_file(p), "{p}");
    }
    let state = StagedState {
        branch: None,
        initial: true,
        files: vec![
            added(".env", "HELLO=world\nNAME=plainvalue\n"),
            added("deploy/server.pem", "not even a key\n"),
        ],
    };
    let p = prompt::build(&state, &conv(100_000), None, &ByteCounter).expect("fits");
    assert!(!p.user.contains("HELLO=world"));
    assert!(!p.user.contains("not even a key"));
    assert!(p.user.contains(".env | 2 ++\n"), "{}", p.user);
    assert!(p.user.contains("stat line only: may hold secrets"));
}
