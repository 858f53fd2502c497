//! The blocking model client: one request (or a short ladder of them) per draft,
//! bounded by the run's single deadline, a short connect timeout and a 1 MB cap on
//! the answer. It talks to the endpoint the personal settings name and nowhere else:
//! no redirects are followed, and no proxy is used for a loopback endpoint.

use std::io::ErrorKind;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use ureq::Timeout;

use crate::redact::Redacted;

use crate::discover::{self, ServerInfo, ServerKind};
use crate::guards::{self, Guards};
use crate::openai::JsonMode;
/// A URL as it may be printed: the settings' ([`crate::settings::shown_url`]).
pub use crate::settings::shown_url;
use crate::settings::{
    ApiKey, GuardSetting, Provider, Settings, Source, is_loopback_host, split_url,
};
use crate::wire::wire_schema;
pub use crate::wire::{SEED, Usage, Window};
use crate::{ollama, openai};

/// The largest answer body read; more is an error, never an allocation.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;
/// How much of an error body is kept for the message.
const EXCERPT_CHARS: usize = 200;
/// The longest one metadata request (discovery, tokenizing) may take: a server that
/// is slow to describe itself is asked nothing more, and the draft goes on as if it
/// had said nothing.
const META_TIMEOUT: Duration = Duration::from_millis(1500);
/// The largest metadata answer read (`/api/show` carries the model's template and
/// license: tens of KB).
const MAX_META_BYTES: u64 = 256 * 1024;
/// Tokens the chat template adds around the two messages, beyond their text.
const TEMPLATE_TOKENS: usize = 32;
/// Without the server's tokenizer, the share of the prompt's budget kept back for a
/// model whose tokenizer counts more tokens than the local BPE (measured 13–25% more
/// on SmolLM2 than cl100k, beyond the composer's own margin).
const UNKNOWN_TOKENIZER_MARGIN_PERCENT: usize = 15;
/// How often a prompt is rebuilt smaller when the server's count says it does not fit.
const FIT_ROUNDS: usize = 4;

/// A model's answer, before cleaning (see `answer::parse_answer`).
#[derive(Debug, Clone)]
pub struct Reply {
    /// The raw message content.
    pub content: String,
    /// The model that answered (as the server names it, else as configured).
    pub model: String,
    /// From the first request's start to the answer, ladder steps included.
    pub latency: Duration,
    /// Token counts, if the server reported them.
    pub usage: Option<Usage>,
    /// For OpenAI-compatible servers: the JSON mode that was answered.
    pub json_mode: Option<JsonMode>,
}

/// Why no answer came back. Each displays as one line fit for a user's terminal; none
/// contains the API key.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No model is configured: a fresh install drafts offline without a request.
    #[error("no model configured (set jitcommit.model or JITCOMMIT_MODEL)")]
    NoModel,
    /// Nothing answered a connection, or the connection broke.
    #[error("model server at {url} unreachable: {reason}")]
    Unreachable {
        /// The endpoint.
        url: String,
        /// What the network said.
        reason: String,
    },
    /// The deadline passed before a whole answer arrived.
    #[error("model server at {url} did not answer before the deadline")]
    Timeout {
        /// The endpoint.
        url: String,
    },
    /// The server answered with an error status (after the JSON-mode ladder, for
    /// OpenAI-compatible servers).
    #[error("model server at {url} answered HTTP {code}: {excerpt}")]
    Status {
        /// The endpoint.
        url: String,
        /// The HTTP status.
        code: u16,
        /// The start of the body, on one line.
        excerpt: String,
    },
    /// The answer exceeded the size cap.
    #[error("model server at {url} sent more than {limit} bytes")]
    TooLarge {
        /// The endpoint.
        url: String,
        /// The cap.
        limit: u64,
    },
    /// The answer was not HTTP, not JSON, or not in the provider's shape.
    #[error("model server at {url} sent a malformed answer: {reason}")]
    BadBody {
        /// The endpoint.
        url: String,
        /// What was wrong.
        reason: String,
    },
    /// An https endpoint in a build without TLS.
    #[error(
        "{url} needs https, but this build has no TLS (build jitcommit with the `tls` feature)"
    )]
    TlsUnavailable {
        /// The endpoint.
        url: String,
    },
    /// Any other failure of the HTTP client.
    #[error("request to model server at {url} failed: {reason}")]
    Http {
        /// The endpoint.
        url: String,
        /// The HTTP client's reason.
        reason: String,
    },
}

/// A client for one run. It holds what the server said about itself in this run
/// ([`Client::discover`]) and the OpenAI JSON-mode step reached so far, so a repair
/// request does not climb the ladder again.
#[derive(Debug)]
pub struct Client {
    agent: ureq::Agent,
    provider: Provider,
    endpoint: String,
    /// The endpoint as printed: the query's values hidden ([`shown_url`]).
    shown: String,
    model: String,
    key: Option<ApiKey>,
    /// The window sent (Ollama's `num_ctx` and the answer's reserve).
    window: Window,
    /// The prompt's whole-context budget: `window.context_tokens` or less.
    budget: usize,
    /// Where `budget` came from, for `--print-context` and debug output.
    budget_from: String,
    connect_timeout: Duration,
    mode: JsonMode,
    server: ServerInfo,
    ollama: ollama::Extras,
    /// The guards setting and where it came from; the guards decided from them.
    guard_setting: (GuardSetting, Source),
    guards: Guards,
}

impl Client {
    /// A client for the settings' endpoint and model. `Err(NoModel)` when no model is
    /// configured; `Err(TlsUnavailable)` for https in a build without TLS.
    pub fn new(settings: &Settings, window: Window) -> Result<Client, ClientError> {
        let model = settings.model.clone().ok_or(ClientError::NoModel)?;
        let endpoint = endpoint_url(settings.provider, &settings.url);
        let shown = shown_url(&endpoint);
        let (scheme, host) = split_url(&endpoint).map_err(|reason| ClientError::Http {
            url: shown.clone(),
            reason: reason.to_owned(),
        })?;
        if scheme.eq_ignore_ascii_case("https") && !cfg!(feature = "tls") {
            return Err(ClientError::TlsUnavailable { url: shown });
        }
        let mut config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(concat!("jitcommit/", env!("CARGO_PKG_VERSION")))
            .timeout_connect(Some(settings.connect_timeout));
        if is_loopback_host(host) {
            // Never route code meant for this machine through a proxy.
            config = config.proxy(None);
        }
        let guards = guards::decide(
            settings.guards,
            &settings.guards_source,
            &ServerInfo::unknown(),
            &model,
        );
        Ok(Client {
            guard_setting: (settings.guards, settings.guards_source.clone()),
            guards,
            agent: config.build().into(),
            provider: settings.provider,
            endpoint,
            shown,
            model,
            key: settings.api_key.clone(),
            window,
            budget: window.context_tokens,
            budget_from: format!("{} tokens from the settings", window.context_tokens),
            connect_timeout: settings.connect_timeout,
            mode: JsonMode::JsonSchema,
            server: ServerInfo::unknown(),
            ollama: ollama::Extras {
                think_off: settings.provider == Provider::Ollama,
                keep_alive: settings.keep_alive.clone(),
            },
        })
    }

    /// Asks the server about itself, cheaply and in this run only (never cached: the
    /// server, its model and its settings change between commits), and narrows the
    /// window to what it allows: the budget is the smaller of the window this client
    /// was made with (the user's settings or the repository's convention) and the
    /// server's; Ollama gets the loaded model's `num_ctx`, so nothing reloads. The
    /// JSON mode of the first request follows the server's kind. Each request has a
    /// short timeout and none passes `deadline`; a server that answers none of them
    /// is used as before (the settings' window, the JSON-mode ladder).
    pub fn discover(&mut self, deadline: Instant) -> &ServerInfo {
        let mut info = ServerInfo::unknown();
        match self.provider {
            Provider::Ollama => {
                let show = self.meta(
                    &mut info,
                    "/api/show",
                    Some(&json!({"model": self.model})),
                    deadline,
                );
                let ps = self.meta(&mut info, "/api/ps", None, deadline);
                discover::ollama(&mut info, &self.model, show.as_ref(), ps.as_ref());
            }
            Provider::OpenAi => {
                if let Some(m) = self.meta(&mut info, "/v1/models", None, deadline) {
                    discover::v1_models(&mut info, &self.model, &m);
                }
                match info.kind {
                    ServerKind::LlamaCpp | ServerKind::Unknown => {
                        if let Some(p) = self.meta(&mut info, "/props", None, deadline) {
                            discover::props(&mut info, &p);
                        }
                    }
                    ServerKind::LmStudio => {
                        if let Some(m) = self.meta(&mut info, "/api/v0/models", None, deadline) {
                            discover::lm_studio(&mut info, &self.model, &m);
                        }
                    }
                    _ => {}
                }
                self.mode = info.kind.json_mode();
            }
        }
        let wanted = self.window.context_tokens;
        let (budget, from) = match (info.window, &info.window_from) {
            (Some(w), Some(from)) if w < wanted => (
                w,
                format!("{w} tokens from {from} (the settings allow {wanted})"),
            ),
            (Some(w), Some(from)) => (
                wanted,
                format!("{wanted} tokens from the settings ({from}: {w})"),
            ),
            _ => (
                wanted,
                format!(
                    "{wanted} tokens from the settings ({} says no window)",
                    info.kind.name()
                ),
            ),
        };
        self.budget = budget;
        self.budget_from = from;
        self.window = Window {
            context_tokens: info.num_ctx.unwrap_or(budget).max(budget),
            output_tokens: self.window.output_tokens.min(budget / 2),
        };
        if info.thinking == Some(false) {
            // The model cannot think: the field would only earn a 400.
            self.ollama.think_off = false;
        }
        // The model's size, from the answers above (no request of its own).
        self.guards = guards::decide(
            self.guard_setting.0,
            &self.guard_setting.1,
            &info,
            &self.model,
        );
        self.server = info;
        &self.server
    }

    /// Which guards the draft gets and why ([`crate::guards`]): decided from the
    /// setting alone until [`Client::discover`] has heard the server.
    pub fn guards(&self) -> &Guards {
        &self.guards
    }

    /// What the server said about itself ([`Client::discover`]).
    pub fn server(&self) -> &ServerInfo {
        &self.server
    }

    /// The window requests are sent with.
    pub fn window(&self) -> Window {
        self.window
    }

    /// The prompt's budget (whole context, the answer's reserve included) and where
    /// it came from.
    pub fn budget(&self) -> (usize, &str) {
        (self.budget, &self.budget_from)
    }

    /// Builds the prompt so that it fits the server's window in the server's own
    /// tokens. `build` gets the window to compose for (its `context_tokens` is the
    /// `budget-tokens` to use, `output_tokens` the reserve; fragments are ranked with
    /// the local counter). Where the server offers a tokenizer the final prompt
    /// (`text` gives it, through the redaction gate) is counted with it and rebuilt
    /// smaller until it fits; otherwise, for a model whose tokens are not OpenAI's, the
    /// budget keeps a margin for a tokenizer that counts more than the local one.
    pub fn fit<P, E>(
        &self,
        deadline: Instant,
        build: impl Fn(Window) -> Result<P, E>,
        text: impl Fn(&P) -> Redacted,
    ) -> Result<P, E> {
        let reserve = self.window.output_tokens;
        let limit = self.budget.saturating_sub(reserve);
        let at = |prompt_tokens: usize| Window {
            context_tokens: reserve + prompt_tokens,
            output_tokens: reserve,
        };
        let tokenizer = self.server.kind.tokenizer();
        if tokenizer.is_none() {
            let part = if self.server.kind.counts_like_cl100k() {
                limit
            } else {
                limit - limit * UNKNOWN_TOKENIZER_MARGIN_PERCENT / 100
            };
            return build(at(part));
        }
        let mut part = limit;
        let mut p = build(at(part))?;
        for round in 0..=FIT_ROUNDS {
            let text = text(&p);
            let Some(n) = tokenizer.and_then(|t| self.count_tokens(t, &text, deadline)) else {
                // The tokenizer did not answer: the margin instead.
                return build(at(
                    part.min(limit - limit * UNKNOWN_TOKENIZER_MARGIN_PERCENT / 100)
                ));
            };
            let n = n + TEMPLATE_TOKENS;
            if n <= limit || round == FIT_ROUNDS {
                // Fits, or the smallest tried (a prompt of floors only).
                return Ok(p);
            }
            // Shrink in proportion to the overshoot and a little more (the composer
            // cuts in steps), at least one token.
            part = (part * limit / n * 95 / 100).min(part.saturating_sub(1));
            p = build(at(part))?;
        }
        Ok(p)
    }

    /// The server's count of `text`'s tokens, or `None` when it does not answer.
    fn count_tokens(
        &self,
        t: discover::Tokenizer,
        text: &Redacted,
        deadline: Instant,
    ) -> Option<usize> {
        let (path, body) = t.request(&self.model, text);
        let mut scratch = ServerInfo::unknown();
        let answer = self.meta(&mut scratch, path, Some(&body), deadline)?;
        discover::Tokenizer::count(&answer)
    }

    /// One metadata request (`GET`, or `POST` with `body`) to `path` on the
    /// endpoint's server, within [`META_TIMEOUT`] and a quarter of the time left
    /// before the deadline: the JSON of a 200
    /// answer, else `None`. Recorded in `info.asked`.
    fn meta(
        &self,
        info: &mut ServerInfo,
        path: &str,
        body: Option<&Value>,
        deadline: Instant,
    ) -> Option<Value> {
        // A quarter of what is left at most: the chat request keeps most of the run.
        let remaining = deadline.saturating_duration_since(Instant::now());
        let limit = (remaining / 4).min(META_TIMEOUT);
        if limit.is_zero() {
            return None;
        }
        let url = server_url(&self.endpoint, path);
        let auth = self.key.as_ref().map(|k| format!("Bearer {}", k.expose()));
        let result = match body {
            Some(b) => {
                let mut req = self
                    .agent
                    .post(&url)
                    .config()
                    .timeout_global(Some(limit))
                    .timeout_connect(Some(self.connect_timeout.min(limit)))
                    .build()
                    .header("Accept", "application/json");
                if let Some(a) = &auth {
                    req = req.header("Authorization", a);
                }
                req.send_json(b)
            }
            None => {
                let mut req = self
                    .agent
                    .get(&url)
                    .config()
                    .timeout_global(Some(limit))
                    .timeout_connect(Some(self.connect_timeout.min(limit)))
                    .build()
                    .header("Accept", "application/json");
                if let Some(a) = &auth {
                    req = req.header("Authorization", a);
                }
                req.call()
            }
        };
        let Ok(mut resp) = result else {
            info.asked.push((path.to_owned(), 0));
            return None;
        };
        let status = resp.status().as_u16();
        info.asked.push((path.to_owned(), status));
        if status != 200 {
            return None;
        }
        let text = resp
            .body_mut()
            .with_config()
            .limit(MAX_META_BYTES)
            .lossy_utf8(true)
            .read_to_string()
            .ok()?;
        serde_json::from_str(&text).ok()
    }

    /// The full URL requests go to, as it may be printed (query values hidden).
    pub fn shown_endpoint(&self) -> &str {
        &self.shown
    }

    /// The configured model name.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The OpenAI JSON mode the next request will use.
    pub fn json_mode(&self) -> JsonMode {
        self.mode
    }

    /// Asks the model for a draft: `system` and `user` messages, the answer
    /// constrained to `schema` where the server supports it, all before `deadline`.
    /// It sends what it is given, each part through the redaction gate already (the
    /// ask stage's, [`crate::ask`]), and builds no prompt text of its own.
    /// For OpenAI-compatible servers any error status steps the JSON mode down
    /// (json_schema → json_object with schema → json_object → instructions) and
    /// retries at once; the step is kept for this client's later calls. Auth, missing
    /// endpoint and rate-limit statuses (401, 403, 404, 429) do not step down: no
    /// format fixes them.
    pub fn draft(
        &mut self,
        system: &Redacted,
        user: &Redacted,
        schema: &Redacted<Value>,
        deadline: Instant,
    ) -> Result<Reply, ClientError> {
        let started = Instant::now();
        // The schema's keywords as the server takes them: dropping keywords changes
        // no string the gate saw.
        let schema = if self.server.kind.takes_string_bounds() {
            crate::wire::grammar_schema(schema)
        } else {
            wire_schema(schema)
        };
        let (system, user, schema) = (system.as_str(), user.as_str(), &schema);
        loop {
            let (body, json_mode) = match self.provider {
                Provider::Ollama => (
                    ollama::request_body(
                        &self.model,
                        system,
                        user,
                        schema,
                        self.window,
                        &self.ollama,
                    ),
                    None,
                ),
                Provider::OpenAi => (
                    openai::request_body(&self.model, system, user, schema, self.window, self.mode),
                    Some(self.mode),
                ),
            };
            let (status, text) = self.post(&body, deadline)?;
            if (200..300).contains(&status) {
                let value: Value =
                    serde_json::from_str(&text).map_err(|e| ClientError::BadBody {
                        url: self.shown.clone(),
                        reason: format!("not JSON ({e})"),
                    })?;
                let parsed = match self.provider {
                    Provider::Ollama => ollama::parse_reply(&value),
                    Provider::OpenAi => openai::parse_reply(&value),
                };
                let (content, model, usage) = parsed.map_err(|reason| ClientError::BadBody {
                    url: self.shown.clone(),
                    reason,
                })?;
                return Ok(Reply {
                    content,
                    model: model.unwrap_or_else(|| self.model.clone()),
                    latency: started.elapsed(),
                    usage,
                    json_mode,
                });
            }
            if self.provider == Provider::Ollama && status == 400 && self.ollama.think_off {
                // An Ollama older than `think` (or a model without it) refuses the
                // field: once more without it, and never again in this run.
                self.ollama.think_off = false;
                continue;
            }
            let steps_down = !matches!(status, 401 | 403 | 404 | 429);
            match (self.provider, self.mode.next()) {
                (Provider::OpenAi, Some(next)) if steps_down => self.mode = next,
                _ => {
                    return Err(ClientError::Status {
                        url: self.shown.clone(),
                        code: status,
                        excerpt: self.excerpt(&text),
                    });
                }
            }
        }
    }

    /// One POST within the deadline: the status and the body (capped).
    fn post(&self, body: &Value, deadline: Instant) -> Result<(u16, String), ClientError> {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(ClientError::Timeout {
                url: self.shown.clone(),
            });
        }
        let mut req = self
            .agent
            .post(&self.endpoint)
            .config()
            .timeout_global(Some(remaining))
            .timeout_connect(Some(self.connect_timeout.min(remaining)))
            .build()
            .header("Accept", "application/json");
        if let Some(key) = &self.key {
            req = req.header("Authorization", format!("Bearer {}", key.expose()));
        }
        let mut resp = req.send_json(body).map_err(|e| self.classify(e))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .with_config()
            .limit(MAX_BODY_BYTES)
            .lossy_utf8(true)
            .read_to_string()
            .map_err(|e| self.classify(e))?;
        Ok((status, text))
    }

    fn classify(&self, e: ureq::Error) -> ClientError {
        let url = self.shown.clone();
        match e {
            ureq::Error::Timeout(Timeout::Connect | Timeout::Resolve) => ClientError::Unreachable {
                url,
                reason: "no connection within the connect timeout".into(),
            },
            ureq::Error::Timeout(_) => ClientError::Timeout { url },
            ureq::Error::HostNotFound => ClientError::Unreachable {
                url,
                reason: "host not found".into(),
            },
            ureq::Error::ConnectionFailed => ClientError::Unreachable {
                url,
                reason: "connection failed".into(),
            },
            ureq::Error::Io(io) => match io.kind() {
                ErrorKind::TimedOut | ErrorKind::WouldBlock => ClientError::Timeout { url },
                ErrorKind::InvalidData => ClientError::BadBody {
                    url,
                    reason: io.to_string(),
                },
                _ => ClientError::Unreachable {
                    url,
                    reason: io.to_string(),
                },
            },
            ureq::Error::BodyExceedsLimit(limit) => ClientError::TooLarge { url, limit },
            ureq::Error::LargeResponseHeader(_, limit) => ClientError::TooLarge {
                url,
                limit: limit as u64,
            },
            ureq::Error::Protocol(p) => ClientError::BadBody {
                url,
                reason: format!("not an HTTP answer ({p})"),
            },
            ureq::Error::TlsRequired | ureq::Error::Tls(_) => ClientError::TlsUnavailable { url },
            other => ClientError::Http {
                url,
                reason: self.hide_key(&other.to_string()),
            },
        }
    }

    /// The start of an error body on one line, the key removed should a server echo it.
    fn excerpt(&self, text: &str) -> String {
        let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let cut = match one_line.char_indices().nth(EXCERPT_CHARS) {
            Some((i, _)) => format!("{}…", &one_line[..i]),
            None => one_line,
        };
        self.hide_key(&cut)
    }

    /// `text` without the API key, should a server or the HTTP client echo it.
    fn hide_key(&self, text: &str) -> String {
        match &self.key {
            Some(k) if !k.expose().is_empty() => text.replace(k.expose(), "<redacted>"),
            _ => text.to_owned(),
        }
    }
}

/// The provider's chat endpoint under a base URL; a URL that already names the
/// endpoint is kept, and an OpenAI base ending in `/v1` (as OpenAI documents it) gets
/// only `/chat/completions`. A query string stays at the end (`…/api/chat?key=…`);
/// a `#fragment` is never sent.
pub fn endpoint_url(provider: Provider, url: &str) -> String {
    let url = url.split('#').next().unwrap_or(url);
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let base = base.trim_end_matches('/');
    let path = match provider {
        Provider::Ollama if base.ends_with("/api/chat") => base.to_owned(),
        Provider::Ollama => format!("{base}/api/chat"),
        Provider::OpenAi if base.ends_with("/chat/completions") => base.to_owned(),
        Provider::OpenAi if base.ends_with("/v1") => format!("{base}/chat/completions"),
        Provider::OpenAi => format!("{base}/v1/chat/completions"),
    };
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}

/// `path` on the server of a chat `endpoint` (from [`endpoint_url`]): the chat path
/// removed, the query string kept (a key some servers take there).
pub fn server_url(endpoint: &str, path: &str) -> String {
    let (base, query) = endpoint.split_once('?').unwrap_or((endpoint, ""));
    let mut base = base.trim_end_matches('/');
    for suffix in ["/api/chat", "/chat/completions", "/v1"] {
        base = base.strip_suffix(suffix).unwrap_or(base);
    }
    if query.is_empty() {
        format!("{base}{path}")
    } else {
        format!("{base}{path}?{query}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints() {
        let cases = [
            (
                Provider::Ollama,
                "http://127.0.0.1:11434",
                "http://127.0.0.1:11434/api/chat",
            ),
            (
                Provider::Ollama,
                "http://127.0.0.1:11434/",
                "http://127.0.0.1:11434/api/chat",
            ),
            (Provider::Ollama, "http://h/api/chat", "http://h/api/chat"),
            (
                Provider::OpenAi,
                "http://127.0.0.1:8080",
                "http://127.0.0.1:8080/v1/chat/completions",
            ),
            (
                Provider::OpenAi,
                "https://api.openai.com/v1",
                "https://api.openai.com/v1/chat/completions",
            ),
            (
                Provider::OpenAi,
                "http://h/v1/chat/completions",
                "http://h/v1/chat/completions",
            ),
        ];
        for (p, url, want) in cases {
            assert_eq!(endpoint_url(p, url), want, "{p} {url}");
        }
    }

    #[test]
    fn a_query_string_stays_at_the_end_and_is_never_shown() {
        let cases = [
            (
                Provider::Ollama,
                "http://127.0.0.1:1/?api_key=K1",
                "http://127.0.0.1:1/api/chat?api_key=K1",
            ),
            (
                Provider::Ollama,
                "http://127.0.0.1:1/api/chat?key=K1&x=2#frag",
                "http://127.0.0.1:1/api/chat?key=K1&x=2",
            ),
            (
                Provider::OpenAi,
                "http://h/v1?api-version=2024&key=K1",
                "http://h/v1/chat/completions?api-version=2024&key=K1",
            ),
            (
                Provider::OpenAi,
                "http://h?key=K1",
                "http://h/v1/chat/completions?key=K1",
            ),
        ];
        for (p, url, want) in cases {
            let got = endpoint_url(p, url);
            assert_eq!(got, want, "{p} {url}");
            let shown = shown_url(&got);
            assert!(!shown.contains("K1"), "{shown}");
            assert!(shown.contains("<redacted>"), "{shown}");
        }
        assert_eq!(shown_url("http://h/api/chat"), "http://h/api/chat");
    }

    #[test]
    fn metadata_goes_to_the_chat_endpoints_server() {
        let cases = [
            ("http://h:1/api/chat", "/api/ps", "http://h:1/api/ps"),
            ("http://h/v1/chat/completions", "/props", "http://h/props"),
            (
                "http://h/x/v1/chat/completions?key=K",
                "/v1/models",
                "http://h/x/v1/models?key=K",
            ),
            (
                "http://h/chat/completions",
                "/tokenize",
                "http://h/tokenize",
            ),
        ];
        for (e, p, want) in cases {
            assert_eq!(server_url(e, p), want);
        }
    }

    #[test]
    fn the_ladder_ends_at_instructions() {
        let mut m = JsonMode::JsonSchema;
        let mut seen = vec![m];
        while let Some(n) = m.next() {
            m = n;
            seen.push(m);
        }
        assert_eq!(
            seen,
            [
                JsonMode::JsonSchema,
                JsonMode::JsonObjectWithSchema,
                JsonMode::JsonObject,
                JsonMode::Instructions
            ]
        );
    }
}
