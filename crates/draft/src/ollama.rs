//! Ollama's wire format: `POST /api/chat` with `stream: false`, the answer's JSON
//! schema as `format` (constrained decoding) and the options that make a run
//! repeatable and keep the prompt whole.

use serde_json::{Value, json};

use crate::wire::{SEED, Usage, Window};

/// Ollama's optional request fields.
#[derive(Debug, Clone, Default)]
pub(crate) struct Extras {
    /// Send `think: false` (reasoning models answer without a thinking phase; an
    /// older server answers 400 to the field, and the client drops it).
    pub think_off: bool,
    /// `keep_alive`: how long the model stays loaded (`5m`, `-1`, `0`).
    pub keep_alive: Option<String>,
}

/// The request body. `num_ctx` must be set: Ollama silently truncates the prompt at
/// its default context (2,048 tokens) otherwise.
pub(crate) fn request_body(
    model: &str,
    system: &str,
    user: &str,
    schema: &Value,
    window: Window,
    extras: &Extras,
) -> Value {
    let mut body = json!({
        "model": model,
        "stream": false,
        "format": schema,
        "options": {
            "temperature": 0,
            "seed": SEED,
            "num_ctx": window.context_tokens,
            "num_predict": window.output_tokens,
        },
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ],
    });
    if let Some(obj) = body.as_object_mut() {
        if extras.think_off {
            obj.insert("think".into(), Value::Bool(false));
        }
        if let Some(k) = &extras.keep_alive {
            // A whole number is seconds (Ollama reads it as a number); else a duration.
            let v = k.parse::<i64>().map_or_else(|_| json!(k), |n| json!(n));
            obj.insert("keep_alive".into(), v);
        }
    }
    body
}

/// The answer's content, the model that answered, and the token counts if reported.
pub(crate) fn parse_reply(body: &Value) -> Result<(String, Option<String>, Option<Usage>), String> {
    let content = body
        .pointer("/message/content")
        .and_then(Value::as_str)
        .ok_or("no message.content in Ollama's answer")?;
    let model = body.get("model").and_then(Value::as_str).map(str::to_owned);
    let prompt = body.get("prompt_eval_count").and_then(Value::as_u64);
    let completion = body.get("eval_count").and_then(Value::as_u64);
    let usage = (prompt.is_some() || completion.is_some()).then_some(Usage {
        prompt_tokens: prompt,
        completion_tokens: completion,
    });
    Ok((content.to_owned(), model, usage))
}
