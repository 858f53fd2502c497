//! What git tells a hook about the repository through the environment, read without
//! touching the repository: the `git -c` settings (parsed in [`crate::gitenv`]) and the
//! all-zero object ids of pushes.

pub use crate::gitenv::{ConfigParametersError, parse_config_parameters};

/// Whether two config keys name the same variable: section and variable name are
/// case-insensitive, a subsection (`branch.Main.remote`) is case-sensitive, as in git.
pub fn config_key_eq(a: &str, b: &str) -> bool {
    fn split(k: &str) -> (&str, &str, &str) {
        let (section, rest) = k.split_once('.').unwrap_or((k, ""));
        match rest.rsplit_once('.') {
            Some((sub, name)) => (section, sub, name),
            None => (section, "", rest),
        }
    }
    let (s1, sub1, n1) = split(a);
    let (s2, sub2, n2) = split(b);
    s1.eq_ignore_ascii_case(s2) && sub1 == sub2 && n1.eq_ignore_ascii_case(n2)
}

/// A config value read as git reads a boolean (`git_parse_maybe_bool`): `true`, `yes`,
/// `on`, `false`, `no`, `off` in any case, an empty value as false, and an integer as
/// its truth (`0` false, any other true); `None` for anything else. A key given without
/// `=` at all (`git -c key`) is true, which the caller sees before it has a value.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => Some(true),
        "false" | "no" | "off" | "" => Some(false),
        _ => v.parse::<i64>().ok().map(|n| n != 0),
    }
}

/// Whether `id` is git's all-zero object id (40 zeros for SHA-1, 64 for SHA-256), which
/// marks a created ref (old) or a deleted one (new) on pre-receive and update hooks.
pub fn is_zero_id(id: &str) -> bool {
    (id.len() == 40 || id.len() == 64) && id.bytes().all(|c| c == b'0')
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;

    fn kv(k: &str, v: Option<&str>) -> (String, Option<String>) {
        (k.to_owned(), v.map(str::to_owned))
    }

    #[test]
    fn parses_what_git_writes() {
        // Captured from `git -c a.b=c -c 'x.y=it'"'"'s' -c flag.on -c 'Sec.Sub.Name=v=w'
        // -c 'e.f=' -c 'CORE.commentChar=;' -c 'sp.k=a b  c'` (git 2.47).
        let env = r"'a.b'='c' 'x.y'='it'\''s' 'flag.on'= 'Sec.Sub.Name'='v=w' 'e.f'='' 'CORE.commentChar'=';' 'sp.k'='a b  c'";
        let table = [
            kv("a.b", Some("c")),
            kv("x.y", Some("it's")),
            kv("flag.on", None),
            kv("Sec.Sub.Name", Some("v=w")),
            kv("e.f", Some("")),
            kv("CORE.commentChar", Some(";")),
            kv("sp.k", Some("a b  c")),
        ];
        assert_eq!(parse_config_parameters(env).unwrap(), table);
    }

    #[test]
    fn parses_old_forms_and_mixtures() {
        let cases: &[(&str, Vec<(String, Option<String>)>)] = &[
            ("", vec![]),
            ("   ", vec![]),
            ("'old.k=v'", vec![kv("old.k", Some("v"))]),
            (
                "'old.k=v' 'n.k'='1'",
                vec![kv("old.k", Some("v")), kv("n.k", Some("1"))],
            ),
            ("'old.flag'", vec![kv("old.flag", None)]),
            ("'a.b=x=y'", vec![kv("a.b", Some("x=y"))]),
            (r"'a.b'='x'\!'y'", vec![kv("a.b", Some("x!y"))]),
            ("'a.b'='ü'", vec![kv("a.b", Some("ü"))]),
        ];
        for (input, want) in cases {
            assert_eq!(&parse_config_parameters(input).unwrap(), want, "{input}");
        }
    }

    #[test]
    fn rejects_malformed() {
        assert_eq!(
            parse_config_parameters("'a.b'='c"),
            Err(ConfigParametersError::Unterminated { at: 6 })
        );
        assert_eq!(
            parse_config_parameters("a.b=c"),
            Err(ConfigParametersError::ExpectedQuote { at: 0 })
        );
        assert_eq!(
            parse_config_parameters("'nodot'='x'"),
            Err(ConfigParametersError::InvalidKey {
                key: "nodot".into()
            })
        );
        assert!(parse_config_parameters("'a.b'='c'x").is_err());
    }

    #[test]
    fn booleans_follow_git() {
        for (v, want) in [
            ("true", Some(true)),
            ("YES", Some(true)),
            ("On", Some(true)),
            ("1", Some(true)),
            ("-3", Some(true)),
            ("false", Some(false)),
            ("No", Some(false)),
            ("off", Some(false)),
            ("0", Some(false)),
            ("", Some(false)),
            ("maybe", None),
            (" true", None),
        ] {
            assert_eq!(parse_bool(v), want, "{v:?}");
        }
    }

    #[test]
    fn key_comparison_follows_git() {
        assert!(config_key_eq("core.commentChar", "CORE.COMMENTCHAR"));
        assert!(config_key_eq("branch.Main.remote", "Branch.Main.REMOTE"));
        assert!(!config_key_eq("branch.Main.remote", "branch.main.remote"));
        assert!(!config_key_eq("a.b", "a.c"));
    }

    #[test]
    fn zero_ids() {
        assert!(is_zero_id(&"0".repeat(40)));
        assert!(is_zero_id(&"0".repeat(64)));
        assert!(!is_zero_id(&"0".repeat(39)));
        assert!(!is_zero_id(&format!("{}1", "0".repeat(39))));
        assert!(!is_zero_id(""));
    }
}
