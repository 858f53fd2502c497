//! What every wire format shares, and nothing else: the token window of a request,
//! the usage a server reports, the fixed seed, and the JSON-schema subset every
//! server accepts. A leaf: it imports no other module of this crate, so the client
//! and the provider formats ([`crate::ollama`], [`crate::openai`]) both depend on it
//! and never on each other's callers.

use serde_json::{Map, Value};

use crate::words::{GRAMMAR_KEYWORDS, UNSENT_KEYWORDS};

/// The fixed sampling seed: the same prompt gives the same answer where the server
/// honours it.
pub const SEED: u64 = 42;

/// The token window of one request: the model's context and the share of it kept
/// for the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The whole context (Ollama's `num_ctx`).
    pub context_tokens: usize,
    /// The answer's reserve (`num_predict` / `max_tokens`).
    pub output_tokens: usize,
}

impl Window {
    /// The window a convention's `[context]` asks for (the personal setting applied).
    pub fn of(ctx: &jitcommit_core::config::ContextSettings) -> Window {
        Window {
            context_tokens: ctx.budget_tokens,
            output_tokens: ctx.reserve_output_tokens,
        }
    }
}

/// Token counts as the server reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Tokens of the prompt.
    pub prompt_tokens: Option<u64>,
    /// Tokens of the answer.
    pub completion_tokens: Option<u64>,
}

/// The schema as it goes on the wire: the drafter's schema without
/// [`UNSENT_KEYWORDS`] and [`GRAMMAR_KEYWORDS`], wherever a subschema sits
/// (`properties`' values, `items`, `anyOf`, `$defs`, …). Property names are kept
/// whatever they are called (a property named `format` stays), and the order of keys
/// is kept.
pub fn wire_schema(schema: &Value) -> Value {
    subset(schema, false)
}

/// [`wire_schema`] for a server whose grammar converter is llama.cpp's: string
/// lengths and patterns ([`GRAMMAR_KEYWORDS`]) are kept.
pub fn grammar_schema(schema: &Value) -> Value {
    subset(schema, true)
}

fn subset(schema: &Value, grammar: bool) -> Value {
    let wire_schema = |s: &Value| subset(s, grammar);
    let unsent =
        |k: &str| UNSENT_KEYWORDS.contains(&k) || (!grammar && GRAMMAR_KEYWORDS.contains(&k));
    let Value::Object(o) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (k, v) in o {
        if unsent(k.as_str()) {
            continue;
        }
        let v = match (k.as_str(), v) {
            ("properties" | "$defs" | "definitions" | "patternProperties", Value::Object(m)) => {
                Value::Object(m.iter().map(|(n, s)| (n.clone(), wire_schema(s))).collect())
            }
            ("items" | "additionalProperties" | "not" | "if" | "then" | "else", s) => match s {
                Value::Array(a) => Value::Array(a.iter().map(wire_schema).collect()),
                s => wire_schema(s),
            },
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(a)) => {
                Value::Array(a.iter().map(wire_schema).collect())
            }
            (_, v) => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn limits_are_not_sent_and_names_stay() {
        let s = json!({
            "type": "object",
            "properties": {
                "summary": {"type": "string", "minLength": 1, "maxLength": 60},
                "format": {"type": "string", "pattern": "^a"},
                "bullets": {"type": "array", "minItems": 2, "maxItems": 2,
                    "items": {"type": "object", "properties": {
                        "path": {"const": "src/a.rs", "maxLength": 9}}}},
                "alt": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}
            },
            "required": ["summary", "format"]
        });
        let w = wire_schema(&s);
        let text = w.to_string();
        for k in ["minLength", "maxLength", "pattern", "\"date\""] {
            assert!(!text.contains(k), "{k} in {text}");
        }
        assert_eq!(w["properties"]["format"], json!({"type": "string"}));
        assert_eq!(w["properties"]["bullets"]["minItems"], 2);
        assert_eq!(
            w["properties"]["bullets"]["items"]["properties"]["path"],
            json!({"const": "src/a.rs"})
        );
        assert_eq!(w["required"], json!(["summary", "format"]));
    }

    #[test]
    fn grammars_keep_string_bounds_only() {
        let s = json!({"type": "object", "properties": {
            "summary": {"type": "string", "minLength": 1, "maxLength": 60, "pattern": "^a$",
                        "format": "date"},
            "n": {"type": "integer", "minimum": 0}
        }});
        let g = grammar_schema(&s);
        assert_eq!(
            g["properties"]["summary"],
            json!({"type": "string", "minLength": 1, "maxLength": 60, "pattern": "^a$"})
        );
        assert_eq!(g["properties"]["n"], json!({"type": "integer"}));
    }
}
