//! Personal settings (DESIGN §4): which model, where it listens, how long to wait and
//! which credentials to send. They never come from the repository — a cloned
//! repository must not be able to choose where your code is sent — only from, highest
//! first: command-line flags, `JITCOMMIT_*` environment variables, git config
//! (`jitcommit.*`, including `git -c`), then built-in defaults.
//!
//! A fresh install has no model configured (`model` is `None`): the draft hook then
//! makes no request at all and writes the offline draft. Setting `jitcommit.model` (or
//! `JITCOMMIT_MODEL`, or `--model`) is what turns the model on.

use std::fmt;
use std::net::IpAddr;
use std::time::Duration;

/// The default whole-run deadline.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);
/// The default connect timeout: a model server on this machine answers a connect at
/// once, so waiting longer only delays the offline draft.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// Ollama's default address.
pub const DEFAULT_OLLAMA_URL: &str = "http://127.0.0.1:11434";
/// llama.cpp's server default address, used for `provider = openai` without a URL.
pub const DEFAULT_OPENAI_URL: &str = "http://127.0.0.1:8080";

/// Which wire format the model server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// Ollama's `POST /api/chat`.
    Ollama,
    /// OpenAI-compatible `POST /v1/chat/completions` (llama.cpp, LM Studio, vLLM, OpenAI).
    OpenAi,
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provider::Ollama => "ollama",
            Provider::OpenAi => "openai",
        })
    }
}

/// Where a setting's value came from, so an error can say what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag (`--model`, …).
    Flag(&'static str),
    /// An environment variable (`JITCOMMIT_MODEL`, …).
    Env(&'static str),
    /// A git config key (`jitcommit.model`, …), `git -c` included.
    GitConfig(&'static str),
    /// The built-in default.
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag(n) => write!(f, "flag {n}"),
            Source::Env(n) => write!(f, "environment variable {n}"),
            Source::GitConfig(n) => write!(f, "git config {n}"),
            Source::Default => f.write_str("the default"),
        }
    }
}

/// An API key. It has no `Display`, and its `Debug` is redacted, so it cannot end up
/// in a log line, an error or a panic message by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key (from the environment variable the settings name).
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The secret itself, for the `Authorization` header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// The raw command-line values the draft binary collected; strings so that all
/// parsing and its errors live here. `None` = flag not given.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// `--provider ollama|openai`
    pub provider: Option<String>,
    /// `--url URL`
    pub url: Option<String>,
    /// `--model NAME`
    pub model: Option<String>,
    /// `--timeout 20s`
    pub timeout: Option<String>,
    /// `--api-key-env VAR`
    pub api_key_env: Option<String>,
    /// `--allow-remote`
    pub allow_remote: Option<bool>,
    /// `--budget-tokens N`
    pub budget_tokens: Option<String>,
    /// `--keep-alive 5m`
    pub keep_alive: Option<String>,
}

/// The resolved personal settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The wire format.
    pub provider: Provider,
    /// The server's base URL (or the full endpoint URL; see `Client`).
    pub url: String,
    /// Where `url` came from.
    pub url_source: Source,
    /// The model name; `None` = no model configured: make no request, draft offline.
    pub model: Option<String>,
    /// The whole-run deadline.
    pub timeout: Duration,
    /// The connect timeout for each request (never past the deadline).
    pub connect_timeout: Duration,
    /// The name of the environment variable that holds the API key.
    pub api_key_env: Option<String>,
    /// The key read from that variable.
    pub api_key: Option<ApiKey>,
    /// The user allowed a non-loopback endpoint.
    pub allow_remote: bool,
    /// The model's context window in tokens, overriding the repository's
    /// `budget-tokens` (the context window is a property of the model, not the repo).
    pub budget_tokens: Option<usize>,
    /// Ollama's `keep_alive` (`5m`, `1h`, `-1` forever, `0` unload at once); `None`:
    /// the server's default.
    pub keep_alive: Option<String>,
}

/// Why the settings could not be resolved; each names the setting and its source.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SettingsError {
    /// A value that does not parse.
    #[error("invalid {setting} {value:?} (from {from}): {reason}")]
    Invalid {
        /// The setting (`timeout`, `provider`, …).
        setting: &'static str,
        /// The value as given.
        value: String,
        /// Where it came from.
        from: Source,
        /// What was expected.
        reason: &'static str,
    },
    /// A URL that does not parse, has no host, or uses another scheme than http(s).
    #[error("invalid url {url:?} (from {from}): {reason}")]
    BadUrl {
        /// The URL (credentials never reach here: such URLs are rejected unprinted).
        url: String,
        /// Where it came from.
        from: Source,
        /// What is wrong.
        reason: &'static str,
    },
    /// A URL with `user:password@`, which would be printed in errors.
    #[error(
        "the url (from {from}) contains credentials; put the key in an environment variable and name it with jitcommit.apiKeyEnv"
    )]
    CredentialsInUrl {
        /// Where it came from.
        from: Source,
    },
    /// A non-loopback endpoint without the user's explicit permission.
    #[error(
        "url {url} (from {from}) is not on this machine; set jitcommit.allowRemote=true (or JITCOMMIT_ALLOW_REMOTE=1) to send your staged changes there"
    )]
    RemoteNotAllowed {
        /// The URL.
        url: String,
        /// Where it came from.
        from: Source,
    },
    /// A non-loopback endpoint over plain http.
    #[error("url {url} (from {from}) is not on this machine and must use https")]
    RemoteNotHttps {
        /// The URL.
        url: String,
        /// Where it came from.
        from: Source,
    },
    /// The key variable is named but not set.
    #[error("environment variable {var} (named by {from}) is not set or empty")]
    MissingKey {
        /// The variable's name.
        var: String,
        /// Where the name came from.
        from: Source,
    },
}

/// One setting looked up through the layers.
struct Layered {
    value: String,
    source: Source,
}

struct Lookup<'a> {
    env: &'a dyn Fn(&str) -> Option<String>,
    git: &'a dyn Fn(&str) -> Option<String>,
}

impl Lookup<'_> {
    /// The first non-empty value among flag, environment variable and git config key.
    fn get(
        &self,
        flag: (&'static str, Option<&String>),
        env: &'static str,
        git: &'static str,
    ) -> Option<Layered> {
        if let Some(v) = flag.1 {
            return Some(Layered {
                value: v.clone(),
                source: Source::Flag(flag.0),
            });
        }
        if let Some(v) = (self.env)(env).filter(|v| !v.is_empty()) {
            return Some(Layered {
                value: v,
                source: Source::Env(env),
            });
        }
        (self.git)(git).map(|v| Layered {
            value: v,
            source: Source::GitConfig(git),
        })
    }
}

impl Settings {
    /// Resolves the settings: `flags` > `env` (`JITCOMMIT_*`) > `git_config`
    /// (`jitcommit.*`) > defaults. `env` and `git_config` are lookups so that the
    /// caller decides what they see: the process environment, and the repository's
    /// git config including `git -c` values (`GIT_CONFIG_PARAMETERS`). `git_config` is
    /// called with the canonical key spelling (`jitcommit.budgetTokens`); git keys are
    /// case-insensitive, so the lookup should be too. Booleans are read as git reads
    /// them, with an empty value false: a caller that can tell a bare key
    /// (`[jitcommit] allowRemote`, true in git) from an empty one passes `"true"`.
    pub fn resolve(
        flags: &Flags,
        env: &dyn Fn(&str) -> Option<String>,
        git_config: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Settings, SettingsError> {
        let l = Lookup {
            env,
            git: git_config,
        };

        let provider = match l.get(
            ("--provider", flags.provider.as_ref()),
            "JITCOMMIT_PROVIDER",
            "jitcommit.provider",
        ) {
            None => Provider::Ollama,
            Some(p) => parse_provider(&p.value).ok_or(SettingsError::Invalid {
                setting: "provider",
                value: p.value.clone(),
                from: p.source,
                reason: "expected ollama or openai",
            })?,
        };

        let timeout = match l.get(
            ("--timeout", flags.timeout.as_ref()),
            "JITCOMMIT_TIMEOUT",
            "jitcommit.timeout",
        ) {
            None => DEFAULT_TIMEOUT,
            Some(t) => parse_duration(&t.value).ok_or(SettingsError::Invalid {
                setting: "timeout",
                value: t.value.clone(),
                from: t.source,
                reason: "expected seconds (20, 2.5s) or milliseconds (1500ms), more than zero",
            })?,
        };

        let budget_tokens = match l.get(
            ("--budget-tokens", flags.budget_tokens.as_ref()),
            "JITCOMMIT_BUDGET_TOKENS",
            "jitcommit.budgetTokens",
        ) {
            None => None,
            Some(b) => Some(
                b.value
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or(SettingsError::Invalid {
                        setting: "budgetTokens",
                        value: b.value.clone(),
                        from: b.source,
                        reason: "expected a positive whole number of tokens",
                    })?,
            ),
        };

        let keep_alive = match l.get(
            ("--keep-alive", flags.keep_alive.as_ref()),
            "JITCOMMIT_KEEP_ALIVE",
            "jitcommit.keepAlive",
        ) {
            None => None,
            Some(k) => Some(parse_keep_alive(&k.value).ok_or(SettingsError::Invalid {
                setting: "keepAlive",
                value: k.value.clone(),
                from: k.source,
                reason: "expected seconds (300, -1 forever, 0) or a duration (5m, 1h, 90s)",
            })?),
        };

        let allow_remote = match flags.allow_remote {
            Some(b) => b,
            None => match l.get(
                ("", None),
                "JITCOMMIT_ALLOW_REMOTE",
                "jitcommit.allowRemote",
            ) {
                None => false,
                Some(a) => parse_bool(&a.value).ok_or(SettingsError::Invalid {
                    setting: "allowRemote",
                    value: a.value.clone(),
                    from: a.source,
                    reason: "expected true or false",
                })?,
            },
        };

        let model = l
            .get(
                ("--model", flags.model.as_ref()),
                "JITCOMMIT_MODEL",
                "jitcommit.model",
            )
            .map(|m| m.value.trim().to_owned())
            .filter(|m| !m.is_empty());

        let (api_key_env, api_key) = match l.get(
            ("--api-key-env", flags.api_key_env.as_ref()),
            "JITCOMMIT_API_KEY_ENV",
            "jitcommit.apiKeyEnv",
        ) {
            None => (None, None),
            Some(k) => {
                let var = k.value.trim().to_owned();
                if var.is_empty() {
                    (None, None)
                } else {
                    match env(&var).filter(|v| !v.trim().is_empty()) {
                        Some(key) => (Some(var), Some(ApiKey::new(key.trim()))),
                        None => {
                            return Err(SettingsError::MissingKey {
                                var,
                                from: k.source,
                            });
                        }
                    }
                }
            }
        };

        let (url, url_source) = match l.get(
            ("--url", flags.url.as_ref()),
            "JITCOMMIT_URL",
            "jitcommit.url",
        ) {
            Some(u) => {
                let v = u.value.trim();
                // A query's value may end in '/': only a bare base loses its slashes.
                let v = if v.contains(['?', '#']) {
                    v
                } else {
                    v.trim_end_matches('/')
                };
                (v.to_owned(), u.source)
            }
            None => (
                match provider {
                    Provider::Ollama => DEFAULT_OLLAMA_URL,
                    Provider::OpenAi => DEFAULT_OPENAI_URL,
                }
                .to_owned(),
                Source::Default,
            ),
        };
        check_url(&url, &url_source, allow_remote)?;

        Ok(Settings {
            provider,
            url,
            url_source,
            model,
            timeout,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            api_key_env,
            api_key,
            allow_remote,
            budget_tokens,
            keep_alive,
        })
    }

    /// Resolves from the process environment and a git config lookup.
    pub fn from_process_env(
        flags: &Flags,
        git_config: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Settings, SettingsError> {
        Settings::resolve(flags, &|k| std::env::var(k).ok(), git_config)
    }

    /// `false` on a fresh install: no model is named, so no request is made and the
    /// offline draft is used.
    pub fn model_configured(&self) -> bool {
        self.model.is_some()
    }
}

fn parse_provider(v: &str) -> Option<Provider> {
    match v.trim().to_ascii_lowercase().as_str() {
        "ollama" => Some(Provider::Ollama),
        "openai" | "openai-compatible" => Some(Provider::OpenAi),
        _ => None,
    }
}

/// git's booleans, by the one parser the repository layer uses: an empty value is
/// false, as git reads `allowRemote =`, so an empty setting never allows sending code
/// to a remote server.
fn parse_bool(v: &str) -> Option<bool> {
    jitcommit_core::repo::parse_bool(v.trim())
}

/// Ollama's `keep_alive`: a whole number of seconds (`-1`: forever), or Go durations
/// such as `5m`, `1h30m`, `90s`, `500ms`.
fn parse_keep_alive(v: &str) -> Option<String> {
    let v = v.trim();
    if v.parse::<i64>().is_ok() {
        return Some(v.to_owned());
    }
    let mut rest = v.strip_prefix('-').unwrap_or(v);
    if rest.is_empty() || v.len() > 32 {
        return None;
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let unit_len = rest[digits..]
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len() - digits);
        let unit = &rest[digits..digits + unit_len];
        if digits == 0 || !["ns", "us", "ms", "s", "m", "h"].contains(&unit) {
            return None;
        }
        rest = &rest[digits + unit_len..];
    }
    Some(v.to_owned())
}

/// `20`, `20s`, `2.5s`, `1500ms`; zero, negative and absurd values are rejected.
fn parse_duration(v: &str) -> Option<Duration> {
    let v = v.trim();
    let (num, scale) = if let Some(ms) = v.strip_suffix("ms") {
        (ms, 0.001)
    } else if let Some(s) = v.strip_suffix('s') {
        (s, 1.0)
    } else {
        (v, 1.0)
    };
    let n: f64 = num.trim().parse().ok()?;
    let secs = n * scale;
    if !secs.is_finite() || secs <= 0.0 || secs > 86_400.0 {
        return None;
    }
    Duration::try_from_secs_f64(secs).ok()
}

/// The host part of an http(s) URL and its scheme, or why it is not one.
pub(crate) fn split_url(url: &str) -> Result<(&str, &str), &'static str> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or("expected http://host:port or https://host")?;
    let scheme_ok = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
    if !scheme_ok {
        return Err("the scheme must be http or https");
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err("credentials");
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    if host.is_empty() {
        return Err("no host");
    }
    Ok((scheme, host))
}

/// 127.0.0.0/8, ::1 (and its IPv4-mapped form) and `localhost`.
pub fn is_loopback_host(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(a)) => a.is_loopback(),
        Ok(IpAddr::V6(a)) => a.is_loopback() || a.to_ipv4_mapped().is_some_and(|m| m.is_loopback()),
        Err(_) => false,
    }
}

fn check_url(url: &str, source: &Source, allow_remote: bool) -> Result<(), SettingsError> {
    let (scheme, host) = match split_url(url) {
        Ok(v) => v,
        Err("credentials") => {
            return Err(SettingsError::CredentialsInUrl {
                from: source.clone(),
            });
        }
        Err(reason) => {
            return Err(SettingsError::BadUrl {
                url: crate::client::shown_url(url),
                from: source.clone(),
                reason,
            });
        }
    };
    if is_loopback_host(host) {
        return Ok(());
    }
    if !allow_remote {
        return Err(SettingsError::RemoteNotAllowed {
            url: crate::client::shown_url(url),
            from: source.clone(),
        });
    }
    if !scheme.eq_ignore_ascii_case("https") {
        return Err(SettingsError::RemoteNotHttps {
            url: crate::client::shown_url(url),
            from: source.clone(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn resolve(
        flags: &Flags,
        env: &[(&str, &str)],
        git: &[(&str, &str)],
    ) -> Result<Settings, SettingsError> {
        let env: HashMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let git: HashMap<String, String> = git
            .iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
            .collect();
        Settings::resolve(flags, &|k| env.get(k).cloned(), &|k| {
            git.get(&k.to_ascii_lowercase()).cloned()
        })
    }

    #[test]
    fn keep_alive_takes_seconds_and_durations() {
        let s = resolve(&Flags::default(), &[], &[]).expect("ok");
        assert_eq!(s.keep_alive, None);
        for v in [
            "300", "-1", "0", "5m", "1h30m", "90s", "2.5m", "500ms", "-1m",
        ] {
            let s = resolve(&Flags::default(), &[], &[("jitcommit.keepAlive", v)]).expect(v);
            assert_eq!(s.keep_alive.as_deref(), Some(v));
        }
        let s = resolve(
            &Flags::default(),
            &[("JITCOMMIT_KEEP_ALIVE", "1h")],
            &[("jitcommit.keepAlive", "5m")],
        );
        assert_eq!(s.expect("env").keep_alive.as_deref(), Some("1h"));
        for bad in ["", "5 minutes", "m", "5x", "forever", "1h\nX"] {
            let e = resolve(&Flags::default(), &[], &[("jitcommit.keepAlive", bad)]).unwrap_err();
            assert!(e.to_string().contains("jitcommit.keepAlive"), "{e}");
        }
    }

    #[test]
    fn fresh_install_has_no_model_and_local_ollama() {
        let s = resolve(&Flags::default(), &[], &[]).expect("defaults resolve");
        assert_eq!(s.provider, Provider::Ollama);
        assert_eq!(s.url, DEFAULT_OLLAMA_URL);
        assert_eq!(s.url_source, Source::Default);
        assert!(!s.model_configured());
        assert_eq!(s.timeout, DEFAULT_TIMEOUT);
        assert!(!s.allow_remote);
        assert_eq!(s.budget_tokens, None);
    }

    #[test]
    fn flags_beat_env_beat_git_config() {
        let git = [("jitcommit.model", "git-model"), ("jitcommit.timeout", "5")];
        let env = [("JITCOMMIT_MODEL", "env-model")];
        let s = resolve(&Flags::default(), &[], &git).expect("ok");
        assert_eq!(s.model.as_deref(), Some("git-model"));
        assert_eq!(s.timeout, Duration::from_secs(5));
        let s = resolve(&Flags::default(), &env, &git).expect("ok");
        assert_eq!(s.model.as_deref(), Some("env-model"));
        let flags = Flags {
            model: Some("flag-model".into()),
            ..Flags::default()
        };
        let s = resolve(&flags, &env, &git).expect("ok");
        assert_eq!(s.model.as_deref(), Some("flag-model"));
    }

    #[test]
    fn empty_env_var_counts_as_unset() {
        let s = resolve(
            &Flags::default(),
            &[("JITCOMMIT_MODEL", "")],
            &[("jitcommit.model", "m")],
        )
        .expect("ok");
        assert_eq!(s.model.as_deref(), Some("m"));
    }

    #[test]
    fn every_key_is_read_from_git_config() {
        let git = [
            ("jitcommit.provider", "OpenAI"),
            ("jitcommit.url", "http://localhost:9999/"),
            ("jitcommit.model", "qwen"),
            ("jitcommit.timeout", "1500ms"),
            ("jitcommit.budgetTokens", "8192"),
            ("jitcommit.apiKeyEnv", "MY_KEY"),
            ("jitcommit.allowRemote", "yes"),
        ];
        let s = resolve(&Flags::default(), &[("MY_KEY", "sk-123")], &git).expect("ok");
        assert_eq!(s.provider, Provider::OpenAi);
        assert_eq!(s.url, "http://localhost:9999");
        assert_eq!(s.url_source, Source::GitConfig("jitcommit.url"));
        assert_eq!(s.timeout, Duration::from_millis(1500));
        assert_eq!(s.budget_tokens, Some(8192));
        assert_eq!(s.api_key_env.as_deref(), Some("MY_KEY"));
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("sk-123"));
        assert!(s.allow_remote);
    }

    #[test]
    fn every_key_is_read_from_the_environment() {
        let env = [
            ("JITCOMMIT_PROVIDER", "openai"),
            ("JITCOMMIT_URL", "https://api.example.com/v1"),
            ("JITCOMMIT_MODEL", "gpt"),
            ("JITCOMMIT_TIMEOUT", "2.5s"),
            ("JITCOMMIT_BUDGET_TOKENS", "4096"),
            ("JITCOMMIT_API_KEY_ENV", "K"),
            ("JITCOMMIT_ALLOW_REMOTE", "1"),
            ("K", "secret"),
        ];
        let s = resolve(&Flags::default(), &env, &[]).expect("ok");
        assert_eq!(s.provider, Provider::OpenAi);
        assert_eq!(s.url, "https://api.example.com/v1");
        assert_eq!(s.timeout, Duration::from_millis(2500));
        assert_eq!(s.budget_tokens, Some(4096));
        assert!(s.allow_remote);
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("secret"));
    }

    #[test]
    fn openai_default_url_is_llama_cpp() {
        let s = resolve(&Flags::default(), &[("JITCOMMIT_PROVIDER", "openai")], &[]).expect("ok");
        assert_eq!(s.url, DEFAULT_OPENAI_URL);
    }

    #[test]
    fn errors_name_the_setting_and_its_source() {
        type Pairs<'a> = &'a [(&'a str, &'a str)];
        let cases: &[(Pairs, Pairs, &str)] = &[
            (
                &[("JITCOMMIT_TIMEOUT", "soon")],
                &[],
                "invalid timeout \"soon\" (from environment variable JITCOMMIT_TIMEOUT)",
            ),
            (
                &[],
                &[("jitcommit.timeout", "0")],
                "invalid timeout \"0\" (from git config jitcommit.timeout)",
            ),
            (
                &[],
                &[("jitcommit.provider", "claude")],
                "invalid provider \"claude\" (from git config jitcommit.provider)",
            ),
            (
                &[],
                &[("jitcommit.budgetTokens", "-1")],
                "invalid budgetTokens \"-1\" (from git config jitcommit.budgetTokens)",
            ),
            (
                &[],
                &[("jitcommit.allowRemote", "maybe")],
                "invalid allowRemote \"maybe\" (from git config jitcommit.allowRemote)",
            ),
            (
                &[],
                &[("jitcommit.url", "ftp://127.0.0.1")],
                "invalid url \"ftp://127.0.0.1\" (from git config jitcommit.url)",
            ),
            (
                &[],
                &[("jitcommit.url", "http://example.com")],
                "url http://example.com (from git config jitcommit.url) is not on this machine; set jitcommit.allowRemote",
            ),
            // `allowRemote =` is false in git: an empty value never allows a remote.
            (
                &[],
                &[
                    ("jitcommit.url", "https://example.com"),
                    ("jitcommit.allowRemote", ""),
                ],
                "is not on this machine; set jitcommit.allowRemote",
            ),
            (
                &[("JITCOMMIT_ALLOW_REMOTE", "")],
                &[("jitcommit.url", "https://example.com")],
                "is not on this machine; set jitcommit.allowRemote",
            ),
            (
                &[("JITCOMMIT_ALLOW_REMOTE", "true")],
                &[("jitcommit.url", "http://example.com")],
                "must use https",
            ),
            (
                &[],
                &[("jitcommit.apiKeyEnv", "NOPE")],
                "environment variable NOPE (named by git config jitcommit.apiKeyEnv) is not set",
            ),
        ];
        for (env, git, want) in cases {
            let err = resolve(&Flags::default(), env, git)
                .expect_err(want)
                .to_string();
            assert!(
                err.starts_with(want) || err.contains(want),
                "{err:?} lacks {want:?}"
            );
        }
    }

    #[test]
    fn a_query_key_is_never_in_an_error() {
        for (url, allow) in [
            ("http://example.com/?api_key=SEKRIT", false),
            ("http://example.com/v1?key=SEKRIT", true),
            ("ftp://127.0.0.1/?key=SEKRIT", false),
        ] {
            let allow = if allow { "1" } else { "0" };
            let err = resolve(
                &Flags::default(),
                &[("JITCOMMIT_URL", url), ("JITCOMMIT_ALLOW_REMOTE", allow)],
                &[],
            )
            .unwrap_err();
            let shown = err.to_string();
            assert!(!shown.contains("SEKRIT"), "{shown}");
        }
        let s = resolve(
            &Flags::default(),
            &[("JITCOMMIT_URL", "http://127.0.0.1:9/?key=a/")],
            &[],
        )
        .unwrap();
        assert_eq!(s.url, "http://127.0.0.1:9/?key=a/");
    }

    #[test]
    fn credentials_in_url_are_rejected_without_echoing_them() {
        let err = resolve(
            &Flags::default(),
            &[("JITCOMMIT_URL", "http://u:hunter2@127.0.0.1:1")],
            &[],
        )
        .expect_err("credentials");
        assert!(matches!(err, SettingsError::CredentialsInUrl { .. }));
        assert!(!err.to_string().contains("hunter2"));
        assert!(!format!("{err:?}").contains("hunter2"));
    }

    #[test]
    fn loopback_is_127_slash_8_ipv6_one_and_localhost() {
        for h in [
            "127.0.0.1",
            "127.1.2.3",
            "::1",
            "localhost",
            "LOCALHOST",
            "::ffff:127.0.0.1",
        ] {
            assert!(is_loopback_host(h), "{h}");
        }
        for h in [
            "128.0.0.1",
            "10.0.0.1",
            "example.com",
            "localhost.example.com",
            "::2",
            "0.0.0.0",
        ] {
            assert!(!is_loopback_host(h), "{h}");
        }
        for url in [
            "http://[::1]:11434",
            "http://127.9.9.9",
            "https://localhost:8443/v1",
        ] {
            let s = resolve(&Flags::default(), &[("JITCOMMIT_URL", url)], &[]);
            assert!(s.is_ok(), "{url}: {s:?}");
        }
        let remote = resolve(
            &Flags::default(),
            &[("JITCOMMIT_URL", "http://[::2]:1")],
            &[],
        );
        assert!(matches!(
            remote,
            Err(SettingsError::RemoteNotAllowed { .. })
        ));
    }

    #[test]
    fn allow_remote_flag_overrides_config() {
        let flags = Flags {
            allow_remote: Some(false),
            ..Flags::default()
        };
        let r = resolve(
            &flags,
            &[],
            &[
                ("jitcommit.allowRemote", "true"),
                ("jitcommit.url", "https://x.example"),
            ],
        );
        assert!(matches!(r, Err(SettingsError::RemoteNotAllowed { .. })));
    }

    #[test]
    fn the_key_never_shows_in_debug() {
        let s = resolve(
            &Flags::default(),
            &[("JITCOMMIT_API_KEY_ENV", "K"), ("K", "sk-very-secret")],
            &[],
        )
        .expect("ok");
        assert!(!format!("{s:?}").contains("sk-very-secret"));
        assert!(format!("{s:?}").contains("<redacted>"));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("20"), Some(Duration::from_secs(20)));
        assert_eq!(parse_duration(" 3s "), Some(Duration::from_secs(3)));
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        for bad in ["", "s", "-1", "0", "NaN", "inf", "1e99", "1h"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }
}
