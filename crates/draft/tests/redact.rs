//! Secrets planted in a staged change never reach the rendered prompt.

use jitcommit_core::config::{ContextSettings, Convention};
use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk, StagedState};
use jitcommit_drafter::budget::ByteCounter;
use jitcommit_drafter::prompt;
use jitcommit_drafter::redact::{self, SecretKind};

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
        linguist: None,
        read: true,
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
        "secret-assignment",
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
        (PRIVATE_KEY, SecretKind::PRIVATE_KEY),
        (AWS_ID, SecretKind("aws-access-key-id")),
        (GITHUB, SecretKind("github-token")),
        (GITHUB_PAT, SecretKind("github-token")),
        (GITLAB, SecretKind("gitlab-token")),
        (SLACK, SecretKind("slack-token")),
        (JWT, SecretKind("jwt")),
    ];
    for (s, kind) in cases {
        let r = redact::redact_text(&format!("x {s} y\n"));
        assert!(r.found.contains(&kind), "{s}: {:?}", r.found);
        assert_absent(&r.text, s);
    }
    let r = redact::redact_text(&format!("AWS_SECRET_ACCESS_KEY={AWS_SECRET}\n"));
    assert_eq!(r.found, vec![SecretKind("aws-secret-key")]);
    let r = redact::redact_text(&format!("api_key: \"{ASSIGNED}\"\n"));
    assert_eq!(r.found, vec![SecretKind("secret-assignment")]);
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

/// Each form the attack pass found going out verbatim: `(text, secret)`. Every
/// secret must be gone from the redacted text.
const FORMS: &[(&str, &str)] = &[
    (
        "DATABASE_URL=postgres://app:s3cretpw@db.internal:5432/app\n",
        "s3cretpw",
    ),
    ("redis = \"redis://:hunter22@cache:6379/0\"\n", "hunter22"),
    ("DB_PASS=hunter2\n", "hunter2"),
    ("MYSQL_ROOT_PASSWORD=letmein\n", "letmein"),
    ("db:\n  password: swordfish\n", "swordfish"),
    ("export SMTP_PWD='qwerty'\n", "qwerty"),
    ("const clientSecret = \"abc123\";\n", "abc123"),
    ("settings = {\"api_key\": \"k3y\"}\n", "k3y"),
    (
        "curl -H \"Authorization: Bearer abc.def.ghi123\" https://x\n",
        "abc.def.ghi123",
    ),
    (
        "headers['Authorization'] = 'Basic dXNlcjpwYXNzd29yZA=='\n",
        "dXNlcjpwYXNzd29yZA==",
    ),
    (
        "OPENAI_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345\n",
        "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    ),
    (
        "stripe.api_key = \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\"\n",
        "4eC39HqLyjWDarjtT1zdp7dc",
    ),
    (
        "maps(\"AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY\")\n",
        "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    ),
    (
        "url: https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX\n",
        "XXXXXXXXXXXXXXXXXXXXXXXX",
    ),
    (
        "aws_secret_access_key: >-\n  wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    ("secret_token: |\n  plainwordsecret\n", "plainwordsecret"),
    (
        "{\"auths\":{\"registry.example.com\":{\"auth\":\"dXNlcjpodW50ZXIy\"}}}\n",
        "dXNlcjpodW50ZXIy",
    ),
    (
        "BLOB = \"Z2hwX2FCM2RFNmdIOWpLMm1ONXBROHJTMXRVNHZXN3hZMHpBMWIyQw==\"\n",
        "Z2hwX2FCM2RFNmdIOWpLMm1ONXBROHJTMXRVNHZXN3hZMHpBMWIyQw==",
    ),
    (
        "machine api.example.com login me password s3cr3t-pw\n",
        "s3cr3t-pw",
    ),
    (
        "machine example.org\n  login bob\n  password tiger\n",
        "tiger",
    ),
    (
        "Private-MAC: 8a5c3f2b9d1e0f4a6b7c8d9e0f1a2b3c4d5e6f7a\n",
        "8a5c3f2b9d1e0f4a6b7c8d9e0f1a2b3c4d5e6f7a",
    ),
];

#[test]
fn every_form_of_the_attack_pass_is_redacted() {
    for (text, secret) in FORMS {
        let r = redact::redact_text(text);
        assert!(!r.text.contains(secret), "{secret} left in {:?}", r.text);
        assert!(!r.found.is_empty(), "{text}");
        // Redaction is idempotent: the final gate finds nothing more.
        assert_eq!(redact::redact_text(&r.text).text, r.text, "{text}");
    }
}

#[test]
fn key_bodies_without_their_begin_line_are_redacted() {
    // A hunk next to an embedded key: the BEGIN line is outside the hunk.
    let body = " MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2QhR1eN3kC6X9a8sq9WcLr0Pn5Xv\n-q9WcLr0Pn5XvGtT2yJkF4Hs8dYbV3nQmLpZ7RcUe1wXoAi6KjBfT0123456789ab\n+GtT2yJkF4Hs8dYbV3nQmLpZ7RcUe1wXoAi6KjBfTq9WcLr0Pn5XvZZZZZZZZZZZ\n yJkF4Hs8dYbV3nQ==\n -----END RSA PRIVATE KEY-----\n";
    let r = redact::redact_diff_body(body);
    for frag in ["MIIEpAIB", "q9WcLr0P", "GtT2yJkF", "yJkF4Hs8dYbV3nQ=="] {
        assert!(!r.text.contains(frag), "{frag} in {}", r.text);
    }
    assert_eq!(r.text.lines().count(), 5, "the hunk keeps its shape");
    assert!(
        r.text
            .starts_with(" [REDACTED:private-key]\n-[REDACTED:private-key]\n")
    );
    // A PuTTY key: the private lines after their header.
    let ppk = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: me\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIOa4Jk9vL0r3Q2pZ8wXbYcT6uN1mH5sD7fG\nuN1mH5sD7fG\nPrivate-Lines: 1\nAAAAIFhQ2pZ8wXbYcT6uN1mH5sD7fGOa4Jk9vL0r3Q2pZ8wX\nPrivate-MAC: 0123456789abcdef0123456789abcdef\n";
    let r = redact::redact_text(ppk);
    assert!(!r.text.contains("AAAAIFhQ2pZ8wXbYcT6"), "{}", r.text);
    assert!(!r.text.contains("0123456789abcdef0123"), "{}", r.text);
}

#[test]
fn ordinary_code_stays() {
    for line in [
        "let password = prompt_for_password();\n",
        "password: String,\n",
        "if token.kind == Kind::Ident {\n",
        "db_password = settings.DB_PASSWORD\n",
        "PASSWORD=${DB_PASSWORD}\n",
        "bypass = true\n",
        "Password: must be at least eight characters long\n",
        "see https://example.com/docs/api\n",
        "fn parse_key(s: &str) -> Key {\n",
    ] {
        let r = redact::redact_text(line);
        assert_eq!(r.text, line, "{:?}", r.found);
    }
}

#[test]
fn a_secret_in_every_part_of_the_state_is_redacted() {
    let gh = "ghp_aB3dE6gH9jK2mN5pQ8rS1tU4vW7xY0zA1b2C";
    let mut f = added(&format!("keys/{gh}.txt"), "nothing here\n");
    f.hunks[0].header = format!("@@ -8,6 +8,6 @@ API_TOKEN = \"{gh}\"");
    let state = StagedState {
        branch: Some(format!("fix/{gh}")),
        initial: false,
        files: vec![f],
    };
    let (clean, found) = redact::redact_state(&state);
    assert!(found.len() >= 4, "{found:?}");
    let dump = format!("{clean:?}");
    assert!(!dump.contains(gh), "{dump}");
    let p = prompt::build(
        &state,
        &conv(100_000),
        Some(&format!("rotate {gh}")),
        &ByteCounter,
    )
    .expect("fits");
    let all = format!("{}{}{}", p.system, p.user, p.schema);
    assert!(!all.contains("aB3dE6gH9jK2mN5pQ8rS"), "{all}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 1500, ..Default::default() })]
    /// What the gate lets through holds nothing a rule matches: a second pass finds
    /// nothing (the model client's last pass relies on it), and a hunk keeps its lines.
    #[test]
    fn the_gate_is_idempotent(parts in proptest::collection::vec(
        proptest::sample::select(vec![
            "password", "PASS", "=", ": ", "\"", "'", " ", "\n", "\n+", "postgres://u:", "@h",
            "Bearer ", "Authorization: ", "ghp_", "aB3dE6gH9jK2mN5pQ8rS1tU4vW7xY0zA1b2C",
            "sk-proj-", "AIza", "AKIA", "IOSFODNN7EXAMPLQ", "dXNlcjpodW50ZXIy", "Z2hwX",
            "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
            "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2QhR1eN3kC6X9a8sq9WcLr0Pn5Xv",
            "aws_secret_access_key: >-", "  ", "machine h login u password ", "x",
            "[REDACTED:", "]", "hunter2", "Private-Lines: 1", "é", "\t",
            // Issue 46's forms: white space, directives, markup, pairs, CSV columns.
            "ENV ", "set -x ", "db.password ", "GITHUB_TOKEN", "<password>", "</password>",
            "- name: DB_PASSWORD", "value: ", "\"value\": ", ",", ";", "{ ",
            "User name,Password\n", "Secret access key", "AKIAIOSFODNN7EXAMPLQ",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "key=\"DbPassword\" value=\"",
            "IDENTIFIED BY '", "variable \"db_password\" {", "default = ",
        ]),
        0..24,
    )) {
        let text = parts.concat();
        let once = redact::redact_text(&text);
        let twice = redact::redact_text(&once.text);
        proptest::prop_assert!(twice.found.is_empty(), "{:?} -> {:?}: {:?}", text, once.text, twice.found);
        let body = redact::redact_diff_body(&text);
        proptest::prop_assert_eq!(body.text.lines().count(), text.lines().count());
        proptest::prop_assert!(redact::redact_diff_body(&body.text).found.is_empty(), "{:?}", body.text);
    }
}

/// Figures for docs/trust.md (run with `--release -- --ignored --nocapture`): the
/// gate's up-front cost on a 500-file / 1 MB change against the whole prompt build.
#[test]
#[ignore]
fn gate_cost_on_a_500_file_change() {
    use std::time::Instant;
    let files: Vec<FileDiff> = (0..500)
        .map(|i| {
            let mut text = String::new();
            let mut k = i as u64;
            while text.len() < 2000 {
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(&format!(
                    "    let v{} = compute({}, {});\n",
                    k % 1000,
                    k % 97,
                    k % 89
                ));
            }
            added(&format!("src/m{}/f{i}.rs", i % 50), &text)
        })
        .collect();
    let state = StagedState {
        branch: Some("main".into()),
        initial: false,
        files,
    };
    let c = conv(4096);
    let time = |f: &dyn Fn()| {
        let mut v: Vec<f64> = (0..21)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        v.sort_by(f64::total_cmp);
        v[10]
    };
    let init = {
        let t = Instant::now();
        let _ = redact::leaves_unchanged("x");
        t.elapsed().as_secs_f64() * 1e3
    };
    let names = time(&|| {
        std::hint::black_box(redact::redact_names(&state));
    });
    let all = time(&|| {
        std::hint::black_box(redact::redact_state(&state));
    });
    let clone = time(&|| {
        std::hint::black_box(state.clone());
    });
    let build = time(&|| {
        std::hint::black_box(prompt::build(&state, &c, None, &ByteCounter).ok());
    });
    eprintln!(
        "GATE init {init:.2} ms, names {names:.2} ms (clone {clone:.2}), whole state {all:.2} ms, prompt::build {build:.2} ms"
    );
}

/// Redacts `text` and asserts no 5-character run of `secret` is left in it.
fn assert_gone(text: &str, secret: &str) -> String {
    let r = redact::redact_text(text);
    assert!(!r.found.is_empty(), "nothing found in {text:?}");
    let chars: Vec<char> = secret.chars().collect();
    for w in chars.windows(5.min(chars.len())) {
        let frag: String = w.iter().collect();
        assert!(
            !r.text.contains(&frag),
            "{frag:?} of {secret:?} left in {:?}",
            r.text
        );
    }
    assert_eq!(redact::redact_text(&r.text).text, r.text, "idempotent");
    r.text
}

#[test]
fn a_value_under_a_secret_name_is_redacted_whole() {
    // The attack: the value was cut at its first blank, `;`, `,`, `(` or quote.
    for (text, secret) in [
        ("password = \"Pw1;Tail\"\n", "Pw1;Tail"),
        ("password = \"Pw1 Tail\"\n", "Pw1 Tail"),
        ("password = \"Pw1,Tail\"\n", "Pw1,Tail"),
        ("password = \"Pw1(Tail)\"\n", "Pw1(Tail)"),
        ("password = \"Pw1'Tail\"\n", "Pw1'Tail"),
        ("password = 'Pw1\"Tail'\n", "Pw1\"Tail"),
        ("password = \"ab;cdef\"\n", "ab;cdef"),
        ("password = \" leading blank\"\n", "leading blank"),
        ("\"db_password\": \"two words;more\",\n", "two words;more"),
        ("DB_PASS='Pw1;Tail'\n", "Pw1;Tail"),
        ("client_secret = `Pw1 Tail`\n", "Pw1 Tail"),
        ("password = \"Pw1;Tail\n", "Pw1;Tail"),
        ("apiKey: \"k;e y\" # comment\n", "k;e y"),
        ("PASSWORD=Pw1;Tail\n", "Pw1;Tail"),
        ("export DB_PASSWORD=Pw1,Tail\n", "Pw1,Tail"),
        ("db_password: two words\n", "two words"),
        (
            "  db_password: correct horse battery staple\n",
            "correct horse battery staple",
        ),
        ("- secret: Pw1;Tail\n", "Pw1;Tail"),
        ("password = Pw1 Tail\n", "Pw1 Tail"),
    ] {
        let out = assert_gone(text, secret);
        assert!(out.contains("[REDACTED:"), "{out}");
    }
    // The rest of the line stays when the value ends before it.
    assert_eq!(
        redact::redact_text("connect(password=\"Pw1;Tail\", host=h)\n").text,
        "connect(password=\"[REDACTED:secret-assignment]\", host=h)\n"
    );
    assert_eq!(
        redact::redact_text("PGUSER=me DB_PASS=Pw1;Tail psql -h db\n").text,
        "PGUSER=me DB_PASS=[REDACTED:secret-assignment] psql -h db\n"
    );
}

#[test]
fn command_line_passwords_are_redacted() {
    for (text, secret) in [
        ("mysql -u root -pS3cretPw db\n", "S3cretPw"),
        ("mysqldump -uroot -p'Pw1 Tail' db > d.sql\n", "Pw1 Tail"),
        ("mariadb -h db -p\"Pw1;Tail\"\n", "Pw1;Tail"),
        ("sshpass -p S3cretPw ssh host\n", "S3cretPw"),
        ("sshpass -pS3cretPw scp a b\n", "S3cretPw"),
        ("redis-cli -h r -a S3cretPw ping\n", "S3cretPw"),
        ("docker login -u me -p S3cretPw registry\n", "S3cretPw"),
        ("psql --password=S3cretPw\n", "S3cretPw"),
        ("mysql --password S3cretPw\n", "S3cretPw"),
        ("wget --http-password=S3cretPw https://x/y\n", "S3cretPw"),
        ("app --db-password 'Pw1 Tail'\n", "Pw1 Tail"),
        ("gh api --token S3cretTok\n", "S3cretTok"),
        ("curl -u admin:S3cretPw https://x\n", "S3cretPw"),
        ("curl --user 'admin:S3cretPw' https://x\n", "S3cretPw"),
        ("curl -sS --proxy-user me:S3cretPw https://x\n", "S3cretPw"),
        ("smbclient //h/s -U me%S3cretPw\n", "S3cretPw"),
        ("PGPASSWORD=S3cretPw psql -h db\n", "S3cretPw"),
        ("export SSHPASS='S3cretPw'\n", "S3cretPw"),
        ("env REDISCLI_AUTH=S3cretPw redis-cli\n", "S3cretPw"),
        ("  run: mysql -uci -pS3cretPw -e 'select 1'\n", "S3cretPw"),
    ] {
        let out = assert_gone(text, secret);
        assert!(
            out.contains("[REDACTED:cli-password]") || out.contains("[REDACTED:"),
            "{out}"
        );
    }
    // References and prompts stay.
    for line in [
        "mysql -u root -p db\n",
        "mysql -P 3306 -h db\n",
        "psql --password=$PGPASS\n",
        "sshpass -p \"$SSHPASS\" ssh host\n",
        "docker login -u me --password-stdin\n",
        "curl -u \"$USER:$TOKEN\" https://x\n",
        "PGPASSWORD=${PGPASSWORD} psql\n",
        "cargo build --release -p jitcommit\n",
    ] {
        let r = redact::redact_text(line);
        assert_eq!(r.text, line, "{:?}", r.found);
    }
}

#[test]
fn split_and_hex_encoded_tokens_are_redacted() {
    let gh = "ghp_aB3dE6gH9jK2mN5pQ8rS1tU4vW7xY0zA1b2C";
    let (a, b) = gh.split_at(14);
    for text in [
        format!("let t = \"{a}\" + \"{b}\";\n"),
        format!("t = '{a}' '{b}'\n"),
        format!("$t = '{a}' . '{b}';\n"),
        format!("local t = \"{a}\" .. \"{b}\"\n"),
        format!(
            "const t = `{}` + `{}` + `{}`;\n",
            &gh[..6],
            &gh[6..20],
            &gh[20..]
        ),
    ] {
        assert_gone(&text, &gh[6..]);
    }
    let hex: String = gh.bytes().map(|b| format!("{b:02x}")).collect();
    let out = assert_gone(&format!("TOKEN_HEX = \"{hex}\"\n"), &hex);
    assert!(out.contains("[REDACTED:"), "{out}");
    let upper = hex.to_ascii_uppercase();
    assert_gone(&format!("blob: {upper}\n"), &upper);
    let aws: String = "AKIAIOSFODNN7EXAMPLQ"
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_gone(&format!("x = {aws}\n"), &aws);
    // Hex that is not a credential stays: hashes, colours, ids.
    for line in [
        "commit 8a5c3f2b9d1e0f4a6b7c8d9e0f1a2b3c4d5e6f7a\n",
        "sha256 = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"\n",
        "let t = \"gh\" + \"p_x\";\n",
    ] {
        let r = redact::redact_text(line);
        assert_eq!(r.text, line, "{:?}", r.found);
    }
}

/// The property test's find: a private key's BEGIN on the line where a secret-named
/// key's value goes, after text that is that value too. The first pass kept the text
/// before BEGIN, and a second pass then found it as the key's value.
#[test]
fn a_key_begin_in_a_secret_values_place_is_redacted_whole_at_once() {
    let text = "password=\n  password-----BEGIN RSA PRIVATE KEY-----";
    let once = redact::redact_text(text);
    assert!(!once.text.contains("  password"), "{:?}", once.text);
    let twice = redact::redact_text(&once.text);
    assert!(twice.found.is_empty(), "{:?}: {:?}", once.text, twice.found);
}

/// The AWS example pair, as a credentials CSV and a subject hold it.
const AWS_PAIR_ID: &str = "AKIAIOSFODNN7EXAMPLQ";
const AWS_PAIR_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

/// Issue 46: a name that always holds a secret, assigned in a syntax without `=` or
/// `:` (a directive, a DSL call, white space), in markup, as a name/value pair, under
/// a provider's token name however short, in a CSV column named for it, and an AWS
/// secret beside its key id. Each value must be gone.
#[test]
fn secret_names_in_every_assigning_syntax_are_redacted() {
    let csv_old = format!(
        "User name,Password,Access key ID,Secret access key,Console login link\n\
         bob,CsvQz7pw,{AWS_PAIR_ID},{AWS_PAIR_SECRET},https://123.signin.aws.amazon.com/console\n"
    );
    let csv_new = format!("Access key ID,Secret access key\n{AWS_PAIR_ID},{AWS_PAIR_SECRET}\n");
    let cases: Vec<(String, Vec<&str>)> = vec![
        // Dockerfile, the old form, and a value of several words.
        ("ENV DB_PASSWORD Dk9wQz7\n".into(), vec!["Dk9wQz7"]),
        ("env API_TOKEN two wordsQz7\n".into(), vec!["two wordsQz7"]),
        // Java properties: white space, `=` and `:` separate; dotted names.
        ("db.password PrQz7a\n".into(), vec!["PrQz7a"]),
        (
            "spring.datasource.password\tPsQz7b\n".into(),
            vec!["PsQz7b"],
        ),
        (
            "mail.smtp.password two wordsQz7\n".into(),
            vec!["two wordsQz7"],
        ),
        ("db.password=PeQz7c\n".into(), vec!["PeQz7c"]),
        ("db.password:PcQz7d\n".into(), vec!["PcQz7d"]),
        // Ruby, Chef, Puppet, Groovy/Gradle DSL calls.
        ("  password 'ChQz7d'\n".into(), vec!["ChQz7d"]),
        ("  password \"ChQz7e\"\n".into(), vec!["ChQz7e"]),
        ("  password: 'RbQz7f'\n".into(), vec!["RbQz7f"]),
        ("  db_password hunter\n".into(), vec!["hunter"]),
        (
            "credentials { username 'u'; password 'GrQz7n' }\n".into(),
            vec!["GrQz7n"],
        ),
        // A provider's token name in a workflow, however short.
        ("    GITHUB_TOKEN: gQz7\n".into(), vec!["gQz7"]),
        ("  NPM_TOKEN: abc\n".into(), vec!["abc"]),
        ("  github-token: ghQz7\n".into(), vec!["ghQz7"]),
        // Shells and build tools: fish, Tcl, csh, Windows, make, R.
        ("set -gx DB_PASSWORD FiQz7g\n".into(), vec!["FiQz7g"]),
        ("set password \"TclQz7\"\n".into(), vec!["TclQz7"]),
        ("setenv DB_PASSWORD CsQz7h\n".into(), vec!["CsQz7h"]),
        ("setx DB_PASSWORD WxQz7 /M\n".into(), vec!["WxQz7"]),
        ("DB_PASSWORD ?= MkQz7i\n".into(), vec!["MkQz7i"]),
        ("DB_PASSWORD ::= MkQz7k\n".into(), vec!["MkQz7k"]),
        ("db_password <- \"RrQz7\"\n".into(), vec!["RrQz7"]),
        // XML elements and name/value attributes, JSON and YAML name/value pairs.
        ("<password>XmQz7j</password>\n".into(), vec!["XmQz7j"]),
        (
            "  <db.password>XmQz7k</db.password>\n".into(),
            vec!["XmQz7k"],
        ),
        (
            "<Password type=\"plain\">XmQz7l</Password>\n".into(),
            vec!["XmQz7l"],
        ),
        (
            "<add key=\"DbPassword\" value=\"NeQz7k\" />\n".into(),
            vec!["NeQz7k"],
        ),
        (
            "<env name=\"DB_PASSWORD\" value=\"PuQz7\"/>\n".into(),
            vec!["PuQz7"],
        ),
        (
            "<property name=\"password\" value=\"SpQz7\"/>\n".into(),
            vec!["SpQz7"],
        ),
        (
            "{\"name\": \"DB_PASSWORD\", \"value\": \"EcQz7\"}\n".into(),
            vec!["EcQz7"],
        ),
        (
            "env:\n  - name: DB_PASSWORD\n    value: KuQz7l\n".into(),
            vec!["KuQz7l"],
        ),
        (
            "{\n  \"name\": \"DB_PASSWORD\",\n  \"value\": \"EcsQz7\"\n}\n".into(),
            vec!["EcsQz7"],
        ),
        // A name/value pair over lines: CloudFormation, a Terraform variable.
        (
            "Parameters:\n  - ParameterKey: DbPassword\n    ParameterValue: CfQz7pw\n".into(),
            vec!["CfQz7pw"],
        ),
        (
            "variable \"db_password\" {\n  type    = string\n  default = \"TfQz7pw\"\n}\n".into(),
            vec!["TfQz7pw"],
        ),
        // An assignment inside another's value: systemd, XML's CDATA, Rails.
        ("Environment=DB_PASSWORD=SdQz7pw\n".into(), vec!["SdQz7pw"]),
        (
            "Environment=\"DB_PASSWORD=SdQz7px\"\n".into(),
            vec!["SdQz7px"],
        ),
        (
            "<password><![CDATA[CdQz7pw]]></password>\n".into(),
            vec!["CdQz7pw"],
        ),
        ("  secret_key_base: RlQz7pw\n".into(), vec!["RlQz7pw"]),
        // A `.netrc` line a command writes.
        (
            "echo \"machine h login me password NtQz7pw\" >> ~/.netrc\n".into(),
            vec!["NtQz7pw"],
        ),
        // SQL.
        (
            "CREATE USER app WITH PASSWORD 'SqQz7m';\n".into(),
            vec!["SqQz7m"],
        ),
        (
            "ALTER USER 'app'@'%' IDENTIFIED BY 'MyQz7n';\n".into(),
            vec!["MyQz7n"],
        ),
        // A CSV whose header names a secret column: every data row's cell.
        (csv_old, vec!["CsvQz7pw", AWS_PAIR_ID, AWS_PAIR_SECRET]),
        (csv_new, vec![AWS_PAIR_ID, AWS_PAIR_SECRET]),
        (
            "user;passwd\nalice;AlQz7pw\nbob;\"Bo,Qz7pw\"\n".into(),
            vec!["AlQz7pw", "Bo,Qz7pw"],
        ),
        // An AWS secret beside its key id, in any order or punctuation (a subject).
        (
            format!("fix(ops): rotate {AWS_PAIR_ID} {AWS_PAIR_SECRET}\n"),
            vec![AWS_PAIR_ID, AWS_PAIR_SECRET],
        ),
        (
            format!("{AWS_PAIR_ID}:{AWS_PAIR_SECRET}\n"),
            vec![AWS_PAIR_ID, AWS_PAIR_SECRET],
        ),
        (
            format!("key {AWS_PAIR_SECRET} (id {AWS_PAIR_ID})\n"),
            vec![AWS_PAIR_ID, AWS_PAIR_SECRET],
        ),
    ];
    let mut left = Vec::new();
    for (text, secrets) in &cases {
        for body in [false, true] {
            let out = if body {
                let diff: String = text.lines().map(|l| format!("+{l}\n")).collect();
                redact::redact_diff_body(&diff).text
            } else {
                redact::redact_text(text).text
            };
            for s in secrets {
                if out.contains(s) {
                    left.push(format!("{s:?} left in {out:?}"));
                }
            }
            let again = if body {
                redact::redact_diff_body(&out)
            } else {
                redact::redact_text(&out)
            };
            assert!(again.found.is_empty(), "not idempotent: {out:?}");
        }
    }
    assert!(left.is_empty(), "{}", left.join("\n"));
}

/// What the rules of issue 46 must leave alone: the word in prose, code that reads,
/// declares or types a secret, references, and CSVs without a secret column.
#[test]
fn ordinary_code_and_prose_about_secrets_stay() {
    for text in [
        "def password(self):\n",
        "    password = get_password()\n",
        "      password: ${{ secrets.DB_PASSWORD }}\n",
        "Password reset links expire after one hour.\n",
        "- Password reset\n",
        "password reset is broken on mobile\n",
        "The password is hashed with argon2.\n",
        "\tPassword string `json:\"password\"`\n",
        "  APIKey *string\n",
        "  ClientSecret []byte\n",
        "  AccessToken oauth2.Token\n",
        "  password VARCHAR(255) NOT NULL,\n",
        "  password TEXT NOT NULL,\n",
        "PAD_TOKEN = \"<pad>\"\n",
        "    next_token = lexer.next()\n",
        "  password node['mysql']['server_root_password']\n",
        "  password new_resource.password\n",
        "ENV DB_PASSWORD ${DB_PASSWORD}\n",
        "set -gx DB_PASSWORD $argv[1]\n",
        "<password>${env.DB_PASSWORD}</password>\n",
        "<add key=\"DbPassword\" value=\"%DB_PASSWORD%\" />\n",
        "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n",
        "- name: print the password\n  value: nothing\n",
        "id,name,token_count\n1,alpha,42\n",
        "Username, password, and email are required.\nWe store them, hashed, in a table.\n",
        "return password\n",
        "if password is None:\n",
        "attr_accessor :password\n",
        "commit 8a5c3f2b9d1e0f4a6b7c8d9e0f1a2b3c4d5e6f7a\n",
    ] {
        let r = redact::redact_text(text);
        assert_eq!(r.text, text, "{:?}", r.found);
        let diff: String = text.lines().map(|l| format!("+{l}\n")).collect();
        let r = redact::redact_diff_body(&diff);
        assert_eq!(r.text, diff, "{:?}", r.found);
    }
}

/// What the gate redacts in real histories, to read for false positives (run with
/// `JITCOMMIT_REDACT_CORPUS=a.log:b.log … --release -- --ignored --nocapture`): each
/// file is `git log -p --format=%x00%s` output; every subject goes through the gate as
/// text and every hunk body as a diff body, and each line the gate changes is printed
/// as `file<TAB>line` with its redacted form after it.
#[test]
#[ignore]
fn redactions_in_a_corpus() {
    let Ok(files) = std::env::var("JITCOMMIT_REDACT_CORPUS") else {
        return;
    };
    let (mut lines, mut changed) = (0usize, 0usize);
    for file in files.split(':') {
        let text = std::fs::read(file).expect("a corpus file");
        let text = String::from_utf8_lossy(&text);
        let name = file.rsplit('/').next().unwrap_or(file);
        let mut body = String::new();
        let report = |body: &mut String, lines: &mut usize, changed: &mut usize| {
            if body.is_empty() {
                return;
            }
            let out = redact::redact_diff_body(body);
            for (a, b) in body.lines().zip(out.text.lines()) {
                *lines += 1;
                if a != b {
                    *changed += 1;
                    println!("{name}\t{a}\n\t=> {b}");
                }
            }
            body.clear();
        };
        let mut in_hunk = false;
        for line in text.lines() {
            if let Some(subject) = line.strip_prefix('\0') {
                report(&mut body, &mut lines, &mut changed);
                in_hunk = false;
                let out = redact::redact_text(subject);
                lines += 1;
                if out.text != subject {
                    changed += 1;
                    println!("{name}\tSUBJECT {subject}\n\t=> {}", out.text);
                }
            } else if line.starts_with("@@") {
                report(&mut body, &mut lines, &mut changed);
                in_hunk = true;
            } else if in_hunk && line.starts_with([' ', '+', '-']) {
                body.push_str(line);
                body.push('\n');
            } else {
                report(&mut body, &mut lines, &mut changed);
                in_hunk = false;
            }
        }
        report(&mut body, &mut lines, &mut changed);
    }
    println!("CORPUS {changed} of {lines} lines redacted");
}
