//! Personal settings (docs/design.md §4): which model, where it listens, how long to wait and
//! which credentials to send. They never come from the repository — a cloned
//! repository must not be able to choose where your code is sent — only from, highest
//! first: command-line flags, `JITCOMMIT_*` environment variables, git config
//! (`jitcommit.*`, including `git -c`), then built-in defaults.
//!
//! A fresh install has no model configured (`model` is `None`): the draft hook then
//! makes no request at all and writes the offline draft. Setting `jitcommit.model` (or
//! `JITCOMMIT_MODEL`, or `--model`) is what turns the model on.
//!
//! The module owns the settings' values and their defaults, and the endpoint's URL
//! handling (its parts, the loopback test, [`shown_url`] the form it is printed in);
//! it reads nothing of the client, which reads it.

use std::fmt;
use std::net::IpAddr;
use std::time::Duration;

// git's booleans, by the one parser the repository layer uses: an empty value is
// false, as git reads `allowRemote =`, so an empty setting never allows sending code
// to a remote server.
use jitcommit_core::repo::parse_bool;

/// The default whole-run deadline.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);
/// The default connect timeout: a model server on this machine answers a connect at
/// once, so waiting longer only delays the offline draft.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// Ollama's default address.
pub const DEFAULT_OLLAMA_URL: &str = "http://127.0.0.1:11434";
/// llama.cpp's server default address, used for `provider = openai` without a URL.
pub const DEFAULT_OPENAI_URL: &str = "http://127.0.0.1:8080";

/// The `jitcommit.guards` setting (`crate::guards`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GuardSetting {
    /// By the model's size; on when the size is unknown.
    #[default]
    Auto,
    /// Always on, as for a small model.
    Small,
    /// Always off, as for a larger model.
    Large,
}

/// The setting's words, as `jitcommit.guards` accepts them.
pub const GUARD_SETTINGS: &[(&str, GuardSetting)] = &[
    ("auto", GuardSetting::Auto),
    ("small", GuardSetting::Small),
    ("large", GuardSetting::Large),
];

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
    /// `--keep-alive D`
    pub keep_alive: Option<String>,
    /// `--guards MODE`
    pub guards: Option<String>,
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
    /// How long the server keeps the model loaded after a request (Ollama's
    /// `keep_alive`, e.g. `10m`); `None` = the server's default.
    pub keep_alive: Option<String>,
    /// Whether the word grammar and the tight gate apply: by the model's size
    /// (`auto`), or always (`small`) or never (`large`): [`crate::guards`].
    pub guards: GuardSetting,
    /// Where `guards` came from.
    pub guards_source: Source,
}

/// One personal setting: where it is looked up, what it defaults to, which kind of
/// value it holds. [`SETTINGS`] lists them all; `--help` and docs/draft.md are checked
/// against it.
pub struct Setting {
    /// The flag, with its value's placeholder (`--timeout D`; a switch has none).
    pub flag: &'static str,
    /// The environment variable.
    pub env: &'static str,
    /// The git config key, in its canonical spelling.
    pub git: &'static str,
    /// The default, as docs/draft.md's table shows it (Markdown).
    pub default: &'static str,
    /// The flag's value as text, when given.
    flag_value: fn(&Flags) -> Option<&str>,
    /// The kind of value, which names its parser, and the field it is stored in.
    value: Value,
}

/// A field of [`Settings`] of type `T`, for a row to say where its value goes.
type Field<T> = fn(&mut Settings) -> &mut T;

/// The kinds of value a setting holds. Each kind has one parser, and a row only names
/// its kind (with the kind's bounds) and the field its value goes to.
#[derive(Clone, Copy)]
enum Value {
    /// Free text, trimmed; nothing left = unset.
    Text(Field<Option<String>>),
    /// A server's URL, trimmed; a bare base loses its trailing slashes (checked as a
    /// URL after all rows are read, when `allowRemote` is known).
    Url(Field<String>),
    /// One of the words of a table, in any case.
    Choice(&'static [(&'static str, Provider)], Field<Provider>),
    /// A boolean as git reads it.
    Bool(Field<bool>),
    /// A whole number in `min..=max`, of `unit`s.
    Count {
        /// The smallest value allowed.
        min: usize,
        /// The largest value allowed.
        max: usize,
        /// What is counted, for the error.
        unit: &'static str,
        /// Where it goes.
        to: Field<Option<usize>>,
    },
    /// A deadline: seconds or milliseconds, more than zero, at most a day.
    Duration(Field<Duration>),
    /// Ollama's `keep_alive`: seconds or a Go duration, kept as text for the wire.
    KeepAlive(Field<Option<String>>),
    /// One of [`GUARD_SETTINGS`]' words, in any case.
    Guards(Field<GuardSetting>),
}

impl Value {
    /// Parses `v` by this kind's parser into its field, or says what was expected.
    fn store(self, s: &mut Settings, v: &str) -> Result<(), String> {
        match self {
            Value::Text(to) => *to(s) = text(v),
            Value::Url(to) => *to(s) = parse_url(v),
            Value::Choice(words, to) => {
                *to(s) = parse_choice(words, v).ok_or_else(|| {
                    let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
                    format!("expected one of {}", names.join(", "))
                })?
            }
            Value::Bool(to) => *to(s) = parse_bool(v.trim()).ok_or("expected true or false")?,
            Value::Count { min, max, unit, to } => {
                *to(s) = Some(parse_count(v, min, max).ok_or_else(|| {
                    format!("expected a whole number of {unit} from {min} to {max}")
                })?)
            }
            Value::Duration(to) => {
                *to(s) = parse_duration(v)
                    .ok_or("expected seconds (20, 2.5s) or milliseconds (1500ms), more than zero")?
            }
            Value::KeepAlive(to) => {
                *to(s) = Some(
                    parse_keep_alive(v)
                        .ok_or("expected seconds (-1: forever) or a duration like 5m, 1h30m")?,
                )
            }
            Value::Guards(to) => {
                *to(s) =
                    parse_choice(GUARD_SETTINGS, v).ok_or("expected one of auto, small, large")?
            }
        }
        Ok(())
    }
}

impl Setting {
    /// The name errors use: the git key without `jitcommit.` (`budgetTokens`).
    pub fn name(&self) -> &'static str {
        self.git.strip_prefix("jitcommit.").unwrap_or(self.git)
    }

    /// The flag without its value's placeholder (`--timeout`).
    pub fn flag_name(&self) -> &'static str {
        self.flag.split(' ').next().unwrap_or(self.flag)
    }

    /// The first value among flag, environment variable (empty counts as unset) and
    /// git config key, with where it came from.
    fn lookup(
        &self,
        flags: &Flags,
        env: &dyn Fn(&str) -> Option<String>,
        git: &dyn Fn(&str) -> Option<String>,
    ) -> Option<(String, Source)> {
        if let Some(v) = (self.flag_value)(flags) {
            return Some((v.to_owned(), Source::Flag(self.flag_name())));
        }
        if let Some(v) = env(self.env).filter(|v| !v.is_empty()) {
            return Some((v, Source::Env(self.env)));
        }
        git(self.git).map(|v| (v, Source::GitConfig(self.git)))
    }
}

/// The providers' names, as `provider` accepts them.
const PROVIDERS: &[(&str, Provider)] = &[
    ("ollama", Provider::Ollama),
    ("openai", Provider::OpenAi),
    ("openai-compatible", Provider::OpenAi),
];

/// The largest context window `budgetTokens` accepts: far past any model's.
const MAX_BUDGET_TOKENS: usize = 100_000_000;

/// Every personal setting, in the order docs/draft.md lists them. The URL's default
/// depends on the provider, so it is filled in after all rows are read.
pub const SETTINGS: &[Setting] = &[
    Setting {
        flag: "--model NAME",
        env: "JITCOMMIT_MODEL",
        git: "jitcommit.model",
        default: "none: offline draft",
        flag_value: |f| f.model.as_deref(),
        value: Value::Text(|s| &mut s.model),
    },
    Setting {
        flag: "--url URL",
        env: "JITCOMMIT_URL",
        git: "jitcommit.url",
        default: "`http://127.0.0.1:11434` (Ollama), `http://127.0.0.1:8080` (openai)",
        flag_value: |f| f.url.as_deref(),
        value: Value::Url(|s| &mut s.url),
    },
    Setting {
        flag: "--provider P",
        env: "JITCOMMIT_PROVIDER",
        git: "jitcommit.provider",
        default: "`ollama` (or `openai`)",
        flag_value: |f| f.provider.as_deref(),
        value: Value::Choice(PROVIDERS, |s| &mut s.provider),
    },
    Setting {
        flag: "--timeout D",
        env: "JITCOMMIT_TIMEOUT",
        git: "jitcommit.timeout",
        default: "`20s`",
        flag_value: |f| f.timeout.as_deref(),
        value: Value::Duration(|s| &mut s.timeout),
    },
    Setting {
        flag: "--budget-tokens N",
        env: "JITCOMMIT_BUDGET_TOKENS",
        git: "jitcommit.budgetTokens",
        default: "the convention's `budget-tokens`",
        flag_value: |f| f.budget_tokens.as_deref(),
        value: Value::Count {
            min: 1,
            max: MAX_BUDGET_TOKENS,
            unit: "tokens",
            to: |s| &mut s.budget_tokens,
        },
    },
    Setting {
        flag: "--api-key-env VAR",
        env: "JITCOMMIT_API_KEY_ENV",
        git: "jitcommit.apiKeyEnv",
        default: "none",
        flag_value: |f| f.api_key_env.as_deref(),
        value: Value::Text(|s| &mut s.api_key_env),
    },
    Setting {
        flag: "--allow-remote",
        env: "JITCOMMIT_ALLOW_REMOTE",
        git: "jitcommit.allowRemote",
        default: "false (loopback only; remote must be https)",
        flag_value: |f| f.allow_remote.map(|b| if b { "true" } else { "false" }),
        value: Value::Bool(|s| &mut s.allow_remote),
    },
    Setting {
        flag: "--keep-alive D",
        env: "JITCOMMIT_KEEP_ALIVE",
        git: "jitcommit.keepAlive",
        default: "the server's own",
        flag_value: |f| f.keep_alive.as_deref(),
        value: Value::KeepAlive(|s| &mut s.keep_alive),
    },
    Setting {
        flag: "--guards MODE",
        env: "JITCOMMIT_GUARDS",
        git: "jitcommit.guards",
        default: "`auto`: by the model's size (`small`, `large` override)",
        flag_value: |f| f.guards.as_deref(),
        value: Value::Guards(|s| &mut s.guards),
    },
];

/// The `jitcommit.*` git config keys read outside [`SETTINGS`]: the draft hook's switch
/// and `-m` behaviour, and the server hooks' policy file and first-push check.
pub const OTHER_GIT_KEYS: &[&str] = &[
    "jitcommit.enabled",
    "jitcommit.onMessage",
    "jitcommit.policy",
    "jitcommit.checkFirstPush",
];

/// The keys of `keys` (the `jitcommit.*` keys a repository's git config sets) that no
/// jitcommit tool reads, each with the known key nearest to it: git ignores a typo
/// (`jitcommit.timout`) without a word, so `doctor` and the draft hook name it.
/// Section and key names compare in any case, as git's do; a subsection is never read.
pub fn unknown_git_keys(keys: &[String]) -> Vec<(String, Option<&'static str>)> {
    let known: Vec<&'static str> = SETTINGS
        .iter()
        .map(|s| s.git)
        .chain(OTHER_GIT_KEYS.iter().copied())
        .collect();
    let names: Vec<String> = known
        .iter()
        .map(|k| k.strip_prefix("jitcommit.").unwrap_or(k).to_owned())
        .collect();
    keys.iter()
        .filter(|k| !known.iter().any(|n| n.eq_ignore_ascii_case(k)))
        .map(|k| {
            let name = k.rsplit('.').next().unwrap_or(k);
            let near = jitcommit_core::rules::nearest(name, &names)
                .and_then(|n| names.iter().position(|x| x == n))
                .and_then(|i| known.get(i).copied());
            (k.clone(), near)
        })
        .collect()
}

/// Whether the git config key is a boolean setting, which a repository reader must
/// read as git does (a bare key is true): see [`git_lookup`].
pub fn is_boolean(git_key: &str) -> bool {
    SETTINGS
        .iter()
        .any(|row| matches!(row.value, Value::Bool(_)) && row.git.eq_ignore_ascii_case(git_key))
}

/// The git config lookup [`Settings::resolve`] wants, from a repository's string and
/// boolean readers: boolean settings through `boolean`, so that `[jitcommit]
/// allowRemote` (a bare key, true in git) and `allowRemote =` (false) are told apart.
pub fn git_lookup<'a>(
    string: impl Fn(&str) -> Option<String> + 'a,
    boolean: impl Fn(&str) -> Option<bool> + 'a,
) -> impl Fn(&str) -> Option<String> + 'a {
    move |k| {
        if is_boolean(k) {
            boolean(k).map(|b| b.to_string())
        } else {
            string(k)
        }
    }
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
        reason: String,
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

impl Settings {
    /// Resolves the settings: `flags` > `env` (`JITCOMMIT_*`) > `git_config`
    /// (`jitcommit.*`) > defaults, row by row of [`SETTINGS`]. `env` and `git_config`
    /// are lookups so that the caller decides what they see: the process environment,
    /// and the repository's git config including `git -c` values
    /// (`GIT_CONFIG_PARAMETERS`). `git_config` is called with the canonical key
    /// spelling (`jitcommit.budgetTokens`); git keys are case-insensitive, so the
    /// lookup should be too. Booleans are read as git reads them, with an empty value
    /// false: [`git_lookup`] passes `"true"` for a bare key.
    pub fn resolve(
        flags: &Flags,
        env: &dyn Fn(&str) -> Option<String>,
        git_config: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Settings, SettingsError> {
        let mut s = Settings {
            provider: Provider::Ollama,
            url: String::new(),
            url_source: Source::Default,
            model: None,
            timeout: DEFAULT_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            api_key_env: None,
            api_key: None,
            allow_remote: false,
            budget_tokens: None,
            keep_alive: None,
            guards: GuardSetting::Auto,
            guards_source: Source::Default,
        };
        let mut key_env_source = Source::Default;
        for row in SETTINGS {
            let Some((value, from)) = row.lookup(flags, env, git_config) else {
                continue;
            };
            if let Err(reason) = row.value.store(&mut s, &value) {
                return Err(SettingsError::Invalid {
                    setting: row.name(),
                    value,
                    from,
                    reason,
                });
            }
            match row.name() {
                "url" => s.url_source = from,
                "guards" => s.guards_source = from,
                "apiKeyEnv" => key_env_source = from,
                _ => {}
            }
        }
        if s.url_source == Source::Default {
            s.url = match s.provider {
                Provider::Ollama => DEFAULT_OLLAMA_URL,
                Provider::OpenAi => DEFAULT_OPENAI_URL,
            }
            .to_owned();
        }
        if let Some(var) = &s.api_key_env {
            match env(var).filter(|v| !v.trim().is_empty()) {
                Some(key) => s.api_key = Some(ApiKey::new(key.trim())),
                None => {
                    return Err(SettingsError::MissingKey {
                        var: var.clone(),
                        from: key_env_source,
                    });
                }
            }
        }
        check_url(&s.url, &s.url_source, s.allow_remote)?;
        Ok(s)
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

/// Trimmed, or `None` when nothing is left.
fn text(v: &str) -> Option<String> {
    Some(v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// Trimmed; a bare base loses its trailing slashes, but a query's value may end in '/'.
fn parse_url(v: &str) -> String {
    let v = v.trim();
    if v.contains(['?', '#']) {
        v
    } else {
        v.trim_end_matches('/')
    }
    .to_owned()
}

/// The value of the word `v` names in `words`, in any case.
fn parse_choice<T: Copy>(words: &[(&str, T)], v: &str) -> Option<T> {
    let v = v.trim();
    words
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(v))
        .map(|(_, t)| *t)
}

/// A whole number in `min..=max`.
fn parse_count(v: &str, min: usize, max: usize) -> Option<usize> {
    v.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (min..=max).contains(n))
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

/// A URL as it may be printed (stderr, the footer, errors): every query value is
/// `<redacted>`, since servers take keys there (`?api_key=…`, `?key=…`), and a
/// `#fragment` is dropped.
pub fn shown_url(url: &str) -> String {
    let url = url.split('#').next().unwrap_or(url);
    let Some((base, query)) = url.split_once('?') else {
        return url.to_owned();
    };
    let hidden: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, _)) => format!("{k}=<redacted>"),
            None => "<redacted>".to_owned(),
        })
        .collect();
    format!("{base}?{}", hidden.join("&"))
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
                url: shown_url(url),
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
            url: shown_url(url),
            from: source.clone(),
        });
    }
    if !scheme.eq_ignore_ascii_case("https") {
        return Err(SettingsError::RemoteNotHttps {
            url: shown_url(url),
            from: source.clone(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn unknown_git_keys_are_named_with_the_nearest_known_one() {
        let keys: Vec<String> = [
            "jitcommit.timout",
            "jitcommit.Timeout",
            "JITCOMMIT.model",
            "jitcommit.modle",
            "jitcommit.onmessage",
            "jitcommit.enable",
            "jitcommit.x.model",
            "jitcommit.zzzzzz",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(
            unknown_git_keys(&keys),
            vec![
                ("jitcommit.timout".to_owned(), Some("jitcommit.timeout")),
                ("jitcommit.modle".to_owned(), Some("jitcommit.model")),
                ("jitcommit.enable".to_owned(), Some("jitcommit.enabled")),
                ("jitcommit.x.model".to_owned(), Some("jitcommit.model")),
                ("jitcommit.zzzzzz".to_owned(), None),
            ]
        );
    }

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

    /// The docs' settings table is the table: each row, in order, as Markdown.
    #[test]
    fn every_setting_is_a_row_of_the_docs_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/draft.md");
        let docs = std::fs::read_to_string(path).expect("docs/draft.md");
        let rows: String = SETTINGS
            .iter()
            .map(|r| {
                format!(
                    "| `{}` | `{}` | `{}` | {} |\n",
                    r.flag, r.env, r.git, r.default
                )
            })
            .collect();
        assert!(
            docs.contains(&rows),
            "docs/draft.md's settings table must list, in order:\n{rows}"
        );
    }

    /// Every row is looked up the same way: a non-empty variable beats git config.
    #[test]
    fn every_row_reads_its_variable_then_its_git_key() {
        for row in SETTINGS {
            let env = |k: &str| (k == row.env).then(|| "e".to_owned());
            let git = |k: &str| (k == row.git).then(|| "g".to_owned());
            let empty = |k: &str| (k == row.env).then(String::new);
            let flags = Flags::default();
            assert_eq!(
                row.lookup(&flags, &env, &git),
                Some(("e".to_owned(), Source::Env(row.env)))
            );
            assert_eq!(
                row.lookup(&flags, &empty, &git),
                Some(("g".to_owned(), Source::GitConfig(row.git)))
            );
            assert_eq!(row.lookup(&flags, &empty, &|_| None), None);
            assert!(row.flag.starts_with("--"), "{}", row.flag);
            assert!(row.env.starts_with("JITCOMMIT_") && row.git.starts_with("jitcommit."));
        }
    }

    #[test]
    fn guards_come_from_each_layer_and_say_where() {
        let s = resolve(&Flags::default(), &[], &[]).unwrap();
        assert_eq!(
            (s.guards, s.guards_source),
            (GuardSetting::Auto, Source::Default)
        );
        let git = [("jitcommit.guards", "Large")];
        let s = resolve(&Flags::default(), &[], &git).unwrap();
        assert_eq!(s.guards, GuardSetting::Large);
        assert_eq!(s.guards_source, Source::GitConfig("jitcommit.guards"));
        let s = resolve(&Flags::default(), &[("JITCOMMIT_GUARDS", "small")], &git).unwrap();
        assert_eq!(s.guards, GuardSetting::Small);
        let flags = Flags {
            guards: Some("auto".into()),
            ..Flags::default()
        };
        let s = resolve(&flags, &[("JITCOMMIT_GUARDS", "small")], &git).unwrap();
        assert_eq!(
            (s.guards, s.guards_source),
            (GuardSetting::Auto, Source::Flag("--guards"))
        );
        let e = resolve(&Flags::default(), &[], &[("jitcommit.guards", "tiny")]).unwrap_err();
        assert!(e.to_string().contains("auto, small, large"), "{e}");
    }

    #[test]
    fn keep_alive_comes_from_each_layer_and_has_no_default() {
        assert_eq!(
            resolve(&Flags::default(), &[], &[]).unwrap().keep_alive,
            None
        );
        let git = [("jitcommit.keepAlive", "10m")];
        let s = resolve(&Flags::default(), &[], &git).unwrap();
        assert_eq!(s.keep_alive.as_deref(), Some("10m"));
        let s = resolve(&Flags::default(), &[("JITCOMMIT_KEEP_ALIVE", "-1")], &git).unwrap();
        assert_eq!(s.keep_alive.as_deref(), Some("-1"));
        let flags = Flags {
            keep_alive: Some(" 0 ".into()),
            ..Flags::default()
        };
        let s = resolve(&flags, &[("JITCOMMIT_KEEP_ALIVE", "-1")], &git).unwrap();
        assert_eq!(s.keep_alive.as_deref(), Some("0"));
    }

    /// A bare `[jitcommit] allowRemote` is true in git and `allowRemote =` false: the
    /// lookup reads boolean settings through the repository's boolean reader.
    #[test]
    fn git_lookup_reads_boolean_settings_as_git_does() {
        // A string reader sees the bare key as an empty value, which reads false.
        let string = |k: &str| match k {
            "jitcommit.url" => Some("https://x.example".to_owned()),
            "jitcommit.allowRemote" => Some(String::new()),
            _ => None,
        };
        let r = Settings::resolve(&Flags::default(), &|_| None, &string);
        assert!(matches!(r, Err(SettingsError::RemoteNotAllowed { .. })));
        for (bare, allowed) in [(Some(true), true), (Some(false), false), (None, false)] {
            let git = git_lookup(string, move |k| is_boolean(k).then_some(bare).flatten());
            let r = Settings::resolve(&Flags::default(), &|_| None, &git);
            assert_eq!(r.is_ok(), allowed, "{bare:?}: {r:?}");
        }
        assert!(is_boolean("JITCOMMIT.ALLOWREMOTE") && !is_boolean("jitcommit.url"));
    }

    /// Each kind of value has one parser; a row's bounds come with its kind.
    #[test]
    fn each_kind_parses_by_its_own_parser() {
        assert_eq!(parse_count(" 8 ", 1, 10), Some(8));
        for bad in ["0", "11", "-1", "", "1.5", "x"] {
            assert_eq!(parse_count(bad, 1, 10), None, "{bad}");
        }
        assert_eq!(parse_choice(PROVIDERS, " OpenAI "), Some(Provider::OpenAi));
        assert_eq!(
            parse_choice(PROVIDERS, "openai-compatible"),
            Some(Provider::OpenAi)
        );
        assert_eq!(parse_choice(PROVIDERS, "claude"), None);
        assert_eq!(parse_url(" http://h:1/// "), "http://h:1");
        assert_eq!(parse_url("http://h:1/?k=a/"), "http://h:1/?k=a/");
        assert_eq!(text("  "), None);
        let max = MAX_BUDGET_TOKENS.to_string();
        let s = resolve(&Flags::default(), &[("JITCOMMIT_BUDGET_TOKENS", &max)], &[]);
        assert_eq!(
            s.expect("the largest").budget_tokens,
            Some(MAX_BUDGET_TOKENS)
        );
        let over = (MAX_BUDGET_TOKENS + 1).to_string();
        let e = resolve(
            &Flags::default(),
            &[("JITCOMMIT_BUDGET_TOKENS", &over)],
            &[],
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            format!(
                "invalid budgetTokens \"{over}\" (from environment variable \
                 JITCOMMIT_BUDGET_TOKENS): expected a whole number of tokens from 1 to {max}"
            )
        );
        let e = resolve(&Flags::default(), &[], &[("jitcommit.provider", "x")]).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("expected one of ollama, openai, openai-compatible"),
            "{e}"
        );
        let flags = Flags {
            timeout: Some("never".into()),
            ..Flags::default()
        };
        let e = resolve(&flags, &[], &[]).unwrap_err().to_string();
        assert!(
            e.starts_with("invalid timeout \"never\" (from flag --timeout)"),
            "{e}"
        );
    }

    /// The boolean rows are the settings read through git's boolean reader.
    #[test]
    fn the_boolean_settings_are_the_bool_rows() {
        let bools: Vec<&str> = SETTINGS
            .iter()
            .filter(|r| is_boolean(r.git))
            .map(|r| r.git)
            .collect();
        assert_eq!(bools, ["jitcommit.allowRemote"]);
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
