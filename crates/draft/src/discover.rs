//! What a model server says about itself, read in the same run (never cached across
//! runs: the server, its model and its settings change between commits). Pure
//! functions over the answers of the cheap metadata endpoints; the client asks them
//! ([`crate::Client::discover`]) and these decide:
//!
//! - the server's kind, and so the JSON mode it accepts on the first request;
//! - its real context window, and where that number came from;
//! - for Ollama, the `num_ctx` to send so that a loaded model is not reloaded;
//! - whether it offers a tokenizer that counts the prompt in the model's own tokens.
//!
//! | server | asked | says |
//! |---|---|---|
//! | Ollama | `POST /api/show`, `GET /api/ps` | `model_info.<arch>.context_length`, the Modelfile's `num_ctx`, `capabilities`; the loaded `context_length` |
//! | llama.cpp | `GET /v1/models`, `GET /props` | `owned_by: llamacpp`; `default_generation_settings.n_ctx` |
//! | llama-cpp-python | `GET /v1/models` | `owned_by: me` (no window; a tokenizer at `/extras/tokenize/count`) |
//! | LM Studio | `GET /v1/models`, `GET /api/v0/models` | `owned_by: organization_owner`; `loaded_context_length` / `max_context_length` |
//! | vLLM | `GET /v1/models` | `owned_by: vllm`, `max_model_len` |
//! | OpenAI | `GET /v1/models` | `owned_by: openai` / `system` (no window) |

use serde_json::Value;

use crate::openai::JsonMode;

/// The largest window a server's answer is believed for; more is a broken answer.
const MAX_WINDOW: u64 = 16 * 1024 * 1024;

/// Which server answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerKind {
    /// Ollama's own API.
    Ollama,
    /// llama.cpp's C++ server (`llama-server`).
    LlamaCpp,
    /// llama-cpp-python's FastAPI server.
    LlamaCppPython,
    /// LM Studio.
    LmStudio,
    /// vLLM's OpenAI-compatible server.
    Vllm,
    /// OpenAI itself (or a server that says it is).
    OpenAi,
    /// A server that said nothing we recognise: the JSON-mode ladder decides.
    Unknown,
}

impl ServerKind {
    /// The name printed in debug output and `--print-context`.
    pub fn name(self) -> &'static str {
        match self {
            ServerKind::Ollama => "Ollama",
            ServerKind::LlamaCpp => "llama.cpp",
            ServerKind::LlamaCppPython => "llama-cpp-python",
            ServerKind::LmStudio => "LM Studio",
            ServerKind::Vllm => "vLLM",
            ServerKind::OpenAi => "OpenAI",
            ServerKind::Unknown => "an unrecognised server",
        }
    }

    /// The JSON mode the first OpenAI-compatible request uses: llama-cpp-python
    /// answers `json_schema` with HTTP 500 and constrains decoding with
    /// `{"type":"json_object","schema":…}`; the others take `json_schema`.
    pub fn json_mode(self) -> JsonMode {
        match self {
            ServerKind::LlamaCppPython => JsonMode::JsonObjectWithSchema,
            _ => JsonMode::JsonSchema,
        }
    }

    /// Whether its grammar converter (llama.cpp's) bounds strings by `minLength`,
    /// `maxLength` and a `^…$` `pattern`.
    pub fn takes_string_bounds(self) -> bool {
        matches!(self, ServerKind::LlamaCpp | ServerKind::LlamaCppPython)
    }

    /// The tokenizer endpoint the server offers, if any.
    pub fn tokenizer(self) -> Option<Tokenizer> {
        match self {
            ServerKind::LlamaCpp => Some(Tokenizer::LlamaCpp),
            ServerKind::LlamaCppPython => Some(Tokenizer::LlamaCppPython),
            ServerKind::Vllm => Some(Tokenizer::Vllm),
            _ => None,
        }
    }

    /// Whether the local BPE count is the model's own: only for OpenAI's models.
    pub fn counts_like_cl100k(self) -> bool {
        self == ServerKind::OpenAi
    }
}

/// A server's tokenizer endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokenizer {
    /// llama.cpp: `POST /tokenize {"content"}` → `{"tokens": […]}`.
    LlamaCpp,
    /// llama-cpp-python: `POST /extras/tokenize/count {"input"}` → `{"count"}`.
    LlamaCppPython,
    /// vLLM: `POST /tokenize {"model", "prompt"}` → `{"count"}`.
    Vllm,
}

impl Tokenizer {
    /// The path and body that count `text`.
    pub fn request(self, model: &str, text: &str) -> (&'static str, Value) {
        match self {
            Tokenizer::LlamaCpp => (
                "/tokenize",
                serde_json::json!({"content": text, "add_special": true}),
            ),
            Tokenizer::LlamaCppPython => (
                "/extras/tokenize/count",
                serde_json::json!({"model": model, "input": text}),
            ),
            Tokenizer::Vllm => (
                "/tokenize",
                serde_json::json!({"model": model, "prompt": text}),
            ),
        }
    }

    /// The count in the answer: `count`, else the length of `tokens`.
    pub fn count(body: &Value) -> Option<usize> {
        let n = body.get("count").and_then(Value::as_u64).or_else(|| {
            body.get("tokens")
                .and_then(Value::as_array)
                .map(|t| t.len() as u64)
        })?;
        usize::try_from(n).ok()
    }
}

/// Everything learnt about the server in this run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerInfo {
    /// Which server it is.
    pub kind: ServerKind,
    /// The context window (prompt and answer) the server will use, if it said.
    pub window: Option<usize>,
    /// Where `window` came from (`llama.cpp /props default_generation_settings.n_ctx`).
    pub window_from: Option<String>,
    /// Ollama: the `num_ctx` to send (the loaded model's, else the Modelfile's), so a
    /// request never forces a reload with another window.
    pub num_ctx: Option<usize>,
    /// Ollama: whether the model can think (`capabilities` has `thinking`), if said.
    pub thinking: Option<bool>,
    /// The model's parameter count, if said (`crate::guards`).
    pub params: Option<u64>,
    /// Where `params` came from (`Ollama /api/show details.parameter_size`).
    pub params_from: Option<String>,
    /// The metadata paths asked, in order, with their HTTP status (0: no answer).
    pub asked: Vec<(String, u16)>,
}

impl ServerInfo {
    /// Nothing known: a server that answers none of the metadata endpoints.
    pub fn unknown() -> ServerInfo {
        ServerInfo {
            kind: ServerKind::Unknown,
            window: None,
            window_from: None,
            num_ctx: None,
            thinking: None,
            params: None,
            params_from: None,
            asked: Vec::new(),
        }
    }

    /// Records the model's size, unless one was said already (the first source wins).
    fn set_params(&mut self, n: Option<u64>, from: impl FnOnce() -> String) {
        if self.params.is_none()
            && let Some(n) = n
        {
            self.params = Some(n);
            self.params_from = Some(from());
        }
    }

    fn set_window(&mut self, n: usize, from: impl Into<String>) {
        self.window = Some(n);
        self.window_from = Some(from.into());
    }
}

fn window(v: Option<&Value>) -> Option<usize> {
    v.and_then(Value::as_u64)
        .filter(|n| (1..=MAX_WINDOW).contains(n))
        .and_then(|n| usize::try_from(n).ok())
}

/// Ollama names models `name:tag`, `:latest` when no tag is given.
fn same_ollama_model(a: &str, b: &str) -> bool {
    let full = |s: &str| {
        if s.contains(':') {
            s.to_owned()
        } else {
            format!("{s}:latest")
        }
    };
    full(a) == full(b)
}

/// Ollama's answers: `/api/show` (may be `None`: not answered) and `/api/ps`.
pub fn ollama(info: &mut ServerInfo, model: &str, show: Option<&Value>, ps: Option<&Value>) {
    if show.is_some() || ps.is_some() {
        info.kind = ServerKind::Ollama;
    }
    let loaded = ps
        .and_then(|p| p.get("models"))
        .and_then(Value::as_array)
        .and_then(|ms| {
            ms.iter().find(|m| {
                ["name", "model"]
                    .iter()
                    .filter_map(|k| m.get(*k).and_then(Value::as_str))
                    .any(|n| same_ollama_model(n, model))
            })
        })
        .and_then(|m| window(m.get("context_length")));
    let modelfile = show
        .and_then(|s| s.get("parameters"))
        .and_then(Value::as_str)
        .and_then(|p| {
            p.lines().find_map(|l| {
                let mut w = l.split_whitespace();
                (w.next() == Some("num_ctx"))
                    .then(|| w.next().and_then(|n| n.parse::<u64>().ok()))
                    .flatten()
            })
        })
        .filter(|n| (1..=MAX_WINDOW).contains(n))
        .and_then(|n| usize::try_from(n).ok());
    let trained = show
        .and_then(|s| s.get("model_info"))
        .and_then(Value::as_object)
        .and_then(|m| {
            m.iter()
                .find(|(k, _)| k.ends_with(".context_length"))
                .map(|(k, v)| (k.clone(), window(Some(v))))
        });
    info.set_params(
        show.and_then(|s| s.pointer("/details/parameter_size"))
            .and_then(Value::as_str)
            .and_then(parse_params),
        || "Ollama /api/show details.parameter_size".to_owned(),
    );
    info.set_params(
        show.and_then(|s| s.pointer("/model_info/general.parameter_count"))
            .and_then(Value::as_u64),
        || "Ollama /api/show model_info general.parameter_count".to_owned(),
    );
    info.thinking = show
        .and_then(|s| s.get("capabilities"))
        .and_then(Value::as_array)
        .map(|c| c.iter().any(|x| x.as_str() == Some("thinking")));
    if let Some(n) = loaded {
        info.num_ctx = Some(n);
        info.set_window(n, "Ollama /api/ps context_length (the loaded model)");
    } else if let Some(n) = modelfile {
        info.num_ctx = Some(n);
        info.set_window(n, "Ollama /api/show parameters num_ctx (the Modelfile)");
    } else if let Some((key, Some(n))) = trained {
        info.set_window(n, format!("Ollama /api/show model_info {key}"));
    }
}

/// An OpenAI-compatible server's `GET /v1/models`: its kind from `owned_by`, and
/// vLLM's `max_model_len` for the configured model (else the first listed).
pub fn v1_models(info: &mut ServerInfo, model: &str, body: &Value) {
    let Some(data) = body.get("data").and_then(Value::as_array) else {
        return;
    };
    let entry = data
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(model))
        .or_else(|| data.first());
    let Some(entry) = entry else {
        return;
    };
    info.kind = match entry.get("owned_by").and_then(Value::as_str).unwrap_or("") {
        "llamacpp" => ServerKind::LlamaCpp,
        "me" => ServerKind::LlamaCppPython,
        "vllm" => ServerKind::Vllm,
        "organization_owner" => ServerKind::LmStudio,
        "openai" | "system" | "openai-internal" => ServerKind::OpenAi,
        _ => ServerKind::Unknown,
    };
    if let Some(n) = window(entry.get("max_model_len")) {
        info.set_window(n, "vLLM /v1/models max_model_len");
    }
    info.set_params(
        entry.pointer("/meta/n_params").and_then(Value::as_u64),
        || "llama.cpp /v1/models meta.n_params".to_owned(),
    );
    // llama-cpp-python, LM Studio and vLLM say no size: the served model's name may
    // (llama-cpp-python's is its `--model_alias`, else its file's path).
    if let Some(id) = entry.get("id").and_then(Value::as_str) {
        info.set_params(size_in_name(id), || {
            format!("the name {:?} in /v1/models", message_safe(id))
        });
    }
}

/// A server's text as it may be printed: one line, at most 80 characters.
fn message_safe(text: &str) -> String {
    jitcommit_core::message::one_line(text)
        .chars()
        .take(80)
        .collect()
}

/// llama.cpp's `GET /props`: the window each slot has, and the model file's name
/// (a size it holds, where `/v1/models` said none).
pub fn props(info: &mut ServerInfo, body: &Value) {
    if let Some(n) = window(body.pointer("/default_generation_settings/n_ctx")) {
        info.kind = ServerKind::LlamaCpp;
        info.set_window(n, "llama.cpp /props default_generation_settings.n_ctx");
    }
    if let Some(path) = body.get("model_path").and_then(Value::as_str) {
        let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
        info.set_params(size_in_name(file), || {
            format!(
                "the file name {:?} in llama.cpp /props model_path",
                message_safe(file)
            )
        });
    }
}

/// LM Studio's `GET /api/v0/models`: the loaded window, else the model's maximum.
pub fn lm_studio(info: &mut ServerInfo, model: &str, body: &Value) {
    let Some(entry) = body.get("data").and_then(Value::as_array).and_then(|d| {
        d.iter()
            .find(|m| m.get("id").and_then(Value::as_str) == Some(model))
    }) else {
        return;
    };
    info.kind = ServerKind::LmStudio;
    let loaded = entry.get("state").and_then(Value::as_str) == Some("loaded");
    if let Some(n) = window(entry.get("loaded_context_length")).filter(|_| loaded) {
        info.set_window(n, "LM Studio /api/v0/models loaded_context_length");
    } else if let Some(n) = window(entry.get("max_context_length")) {
        info.set_window(n, "LM Studio /api/v0/models max_context_length");
    }
}

/// The fewest and most parameters a size is believed for; outside, a misread name.
const PARAMS_BELIEVED: std::ops::RangeInclusive<u64> = 1_000_000..=100_000_000_000_000;

/// A parameter count as Ollama says it (`135M`, `494.03M`, `7.6B`, `1T`), or as a
/// name holds it (`0.5b`): a number, then `K`, `M`, `B` or `T` in either case.
pub fn parse_params(text: &str) -> Option<u64> {
    let t = text.trim();
    let (num, unit) = t.split_at(t.len().checked_sub(1)?);
    let scale: f64 = match unit.to_ascii_uppercase().as_str() {
        "K" => 1e3,
        "M" => 1e6,
        "B" => 1e9,
        "T" => 1e12,
        _ => return None,
    };
    if num.is_empty() || !num.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    let n = (v * scale).round();
    (n.is_finite() && n >= 0.0)
        .then_some(n as u64)
        .filter(|n| PARAMS_BELIEVED.contains(n))
}

/// The first size a model name holds as a part of its own between `-`, `_`, `:`,
/// `/`, `@` or a space: `qwen2.5-coder:0.5b` → 0.5B, `SmolLM2-135M-Instruct.Q4_1.gguf`
/// → 135M, `Qwen/Qwen2.5-7B-Instruct` → 7B; `llama3.2`, `phi3:mini` and
/// `mixtral:8x7b` hold none.
pub fn size_in_name(name: &str) -> Option<u64> {
    let name = name.strip_suffix(".gguf").unwrap_or(name);
    name.split(['-', '_', ':', '/', '@', ' ']).find_map(|part| {
        // `7B.Q4`: a quantisation after a dot.
        parse_params(part).or_else(|| {
            part.split_once('.')
                .and_then(|(head, _)| parse_params(head))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ollama_prefers_the_loaded_window_then_the_modelfile_then_the_model() {
        let show = json!({
            "parameters": "stop \"<|im_end|>\"\nnum_ctx                        8192",
            "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768},
            "capabilities": ["completion", "thinking"],
        });
        let ps = json!({"models": [{"name": "qwen3:1.7b", "model": "qwen3:1.7b", "context_length": 4096}]});
        let mut i = ServerInfo::unknown();
        ollama(&mut i, "qwen3:1.7b", Some(&show), Some(&ps));
        assert_eq!(
            (i.window, i.num_ctx, i.thinking),
            (Some(4096), Some(4096), Some(true))
        );
        let mut i = ServerInfo::unknown();
        ollama(&mut i, "other", Some(&show), Some(&ps));
        assert_eq!((i.window, i.num_ctx), (Some(8192), Some(8192)));
        let mut i = ServerInfo::unknown();
        ollama(
            &mut i,
            "m",
            Some(&json!({"model_info": {"llama.context_length": 2048}})),
            None,
        );
        assert_eq!((i.window, i.num_ctx, i.thinking), (Some(2048), None, None));
        assert_eq!(i.kind, ServerKind::Ollama);
    }

    #[test]
    fn the_model_size_comes_from_the_first_source_that_says_it() {
        let mut i = ServerInfo::unknown();
        let show = json!({"details": {"parameter_size": "494.03M"},
                          "model_info": {"general.parameter_count": 494_032_768u64}});
        ollama(&mut i, "m", Some(&show), None);
        assert_eq!(i.params, Some(494_030_000));
        assert_eq!(
            i.params_from.as_deref(),
            Some("Ollama /api/show details.parameter_size")
        );
        let mut i = ServerInfo::unknown();
        let show = json!({"model_info": {"general.parameter_count": 7_615_616_512u64}});
        ollama(&mut i, "m", Some(&show), None);
        assert_eq!(i.params, Some(7_615_616_512));
        // llama.cpp: meta.n_params first, then a size in the id or the model file.
        let mut i = ServerInfo::unknown();
        let models = json!({"data": [{"id": "qwen-7b.gguf", "owned_by": "llamacpp",
                                      "meta": {"n_params": 134_515_008u64}}]});
        v1_models(&mut i, "m", &models);
        props(&mut i, &json!({"model_path": "/m/Qwen2.5-14B.gguf"}));
        assert_eq!(i.params, Some(134_515_008));
        let mut i = ServerInfo::unknown();
        v1_models(
            &mut i,
            "m",
            &json!({"data": [{"id": "smollm2", "owned_by": "me"}]}),
        );
        assert_eq!(i.params, None);
        props(
            &mut i,
            &json!({"model_path": "/m/Qwen2.5-Coder-0.5B-Q4_K_M.gguf"}),
        );
        assert_eq!(i.params, Some(500_000_000));
        assert!(i.params_from.unwrap().contains("model_path"));
    }

    #[test]
    fn absurd_windows_are_not_believed() {
        let mut i = ServerInfo::unknown();
        props(
            &mut i,
            &json!({"default_generation_settings": {"n_ctx": 0}}),
        );
        v1_models(
            &mut i,
            "m",
            &json!({"data": [{"id": "m", "max_model_len": 1u64 << 40}]}),
        );
        assert_eq!(i.window, None);
    }

    #[test]
    fn owned_by_names_the_server() {
        for (owner, kind) in [
            ("llamacpp", ServerKind::LlamaCpp),
            ("me", ServerKind::LlamaCppPython),
            ("vllm", ServerKind::Vllm),
            ("organization_owner", ServerKind::LmStudio),
            ("system", ServerKind::OpenAi),
            ("someone", ServerKind::Unknown),
        ] {
            let mut i = ServerInfo::unknown();
            v1_models(
                &mut i,
                "x",
                &json!({"object": "list", "data": [{"id": "m", "owned_by": owner}]}),
            );
            assert_eq!(i.kind, kind, "{owner}");
        }
    }
}
