//! The blocking model client: one request (or a short ladder of them) per draft,
//! bounded by the run's single deadline, a short connect timeout and a 1 MB cap on
//! the answer. It talks to the endpoint the personal settings name and nowhere else:
//! no redirects are followed, and no proxy is used for a loopback endpoint.

use std::io::ErrorKind;
use std::time::{Duration, Instant};

use serde_json::Value;
use ureq::Timeout;

use jitcommit_core::redact;

use crate::openai::JsonMode;
use crate::settings::{ApiKey, Provider, Settings, is_loopback_host, split_url};
use crate::{ollama, openai};

/// The fixed sampling seed: the same prompt gives the same answer where the server
/// honours it.
pub const SEED: u64 = 42;
/// The largest answer body read; more is an error, never an allocation.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;
/// How much of an error body is kept for the message.
const EXCERPT_CHARS: usize = 200;

/// The token window of one request: the model's context and the share of it kept
/// for the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The whole context (Ollama's `num_ctx`).
    pub context_tokens: usize,
    /// The answer's reserve (`num_predict` / `max_tokens`).
    pub output_tokens: usize,
}

/// Token counts as the server reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Tokens of the prompt.
    pub prompt_tokens: Option<u64>,
    /// Tokens of the answer.
    pub completion_tokens: Option<u64>,
}

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

/// A client for one run. It holds the OpenAI JSON-mode step reached so far, so a
/// repair request does not climb the ladder again.
#[derive(Debug)]
pub struct Client {
    agent: ureq::Agent,
    provider: Provider,
    endpoint: String,
    /// The endpoint as printed: the query's values hidden ([`shown_url`]).
    shown: String,
    model: String,
    key: Option<ApiKey>,
    window: Window,
    connect_timeout: Duration,
    mode: JsonMode,
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
        Ok(Client {
            agent: config.build().into(),
            provider: settings.provider,
            endpoint,
            shown,
            model,
            key: settings.api_key.clone(),
            window,
            connect_timeout: settings.connect_timeout,
            mode: JsonMode::JsonSchema,
        })
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
    /// For OpenAI-compatible servers any error status steps the JSON mode down
    /// (json_schema → json_object with schema → json_object → instructions) and
    /// retries at once; the step is kept for this client's later calls. Auth, missing
    /// endpoint and rate-limit statuses (401, 403, 404, 429) do not step down: no
    /// format fixes them.
    pub fn draft(
        &mut self,
        system: &str,
        user: &str,
        schema: &Value,
        deadline: Instant,
    ) -> Result<Reply, ClientError> {
        let started = Instant::now();
        // The last redaction pass, where every request body is made: whatever a
        // caller built, nothing a rule matches is sent (prompt::build has redacted
        // it already, so this finds nothing in a normal run).
        let system = redact::redact_text(system).text;
        let user = redact::redact_text(user).text;
        let schema = redact_json(schema);
        let (system, user, schema) = (system.as_str(), user.as_str(), &schema);
        loop {
            let (body, json_mode) = match self.provider {
                Provider::Ollama => (
                    ollama::request_body(&self.model, system, user, schema, self.window),
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
                reason: self.redact(&other.to_string()),
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
        self.redact(&cut)
    }

    fn redact(&self, text: &str) -> String {
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

/// Every string in a JSON value through the redaction gate.
fn redact_json(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(redact::redact_text(s).text),
        Value::Array(a) => Value::Array(a.iter().map(redact_json).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (redact::redact_text(k).text, redact_json(v)))
                .collect(),
        ),
        other => other.clone(),
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
