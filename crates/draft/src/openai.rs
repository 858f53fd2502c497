//! The OpenAI-compatible wire format (`POST /v1/chat/completions`: llama.cpp's
//! server, LM Studio, vLLM, OpenAI) and its ladder of JSON modes: servers differ in
//! which `response_format` they accept. The client starts at the mode the server's
//! kind takes ([`crate::discover::ServerKind::json_mode`]) and steps down on an
//! error status only as a last resort.

use serde_json::{Value, json};

use crate::wire::{SEED, Usage, Window};

/// How the answer's JSON is asked for, strongest first. The client starts at the
/// server's mode and steps down one rung per error status, for the rest of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonMode {
    /// `{"type": "json_schema", "json_schema": {name, strict: true, schema}}` (OpenAI,
    /// llama.cpp's C++ server, vLLM, LM Studio).
    JsonSchema,
    /// `{"type": "json_object", "schema": …}`: llama-cpp-python constrains decoding
    /// with this form (and answers the first with HTTP 500).
    JsonObjectWithSchema,
    /// `{"type": "json_object"}`: valid JSON, shape from the instructions.
    JsonObject,
    /// No `response_format`: the prompt's output contract alone.
    Instructions,
}

impl JsonMode {
    /// The next rung down, if any.
    pub fn next(self) -> Option<JsonMode> {
        match self {
            JsonMode::JsonSchema => Some(JsonMode::JsonObjectWithSchema),
            JsonMode::JsonObjectWithSchema => Some(JsonMode::JsonObject),
            JsonMode::JsonObject => Some(JsonMode::Instructions),
            JsonMode::Instructions => None,
        }
    }
}

/// The schema's name in the `json_schema` form.
const SCHEMA_NAME: &str = "commit_draft";

/// The request body for `mode`.
pub(crate) fn request_body(
    model: &str,
    system: &str,
    user: &str,
    schema: &Value,
    window: Window,
    mode: JsonMode,
) -> Value {
    let mut body = json!({
        "model": model,
        "stream": false,
        "temperature": 0,
        "seed": SEED,
        "max_tokens": window.output_tokens,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ],
    });
    let format = match mode {
        JsonMode::JsonSchema => Some(json!({
            "type": "json_schema",
            "json_schema": {"name": SCHEMA_NAME, "strict": true, "schema": schema},
        })),
        JsonMode::JsonObjectWithSchema => Some(json!({"type": "json_object", "schema": schema})),
        JsonMode::JsonObject => Some(json!({"type": "json_object"})),
        JsonMode::Instructions => None,
    };
    if let (Some(f), Some(obj)) = (format, body.as_object_mut()) {
        obj.insert("response_format".into(), f);
    }
    body
}

/// The first choice's content, the model that answered, and the usage if reported.
pub(crate) fn parse_reply(body: &Value) -> Result<(String, Option<String>, Option<Usage>), String> {
    let content = body
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .ok_or("no choices[0].message.content in the answer")?;
    let model = body.get("model").and_then(Value::as_str).map(str::to_owned);
    let usage = body.get("usage").map(|u| Usage {
        prompt_tokens: u.get("prompt_tokens").and_then(Value::as_u64),
        completion_tokens: u.get("completion_tokens").and_then(Value::as_u64),
    });
    Ok((content.to_owned(), model, usage))
}
