//! The model clients against the scripted model server on 127.0.0.1: request bodies
//! of both wire formats, the OpenAI JSON-mode ladder, every fault mapped to its error
//! kind within the deadline, the API key's handling and the body cap.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jitcommit_drafter::{
    Client, ClientError, Flags, JsonMode, Settings, Window, parse_answer, redact,
};
use jitcommit_testkit::model_server::{ModelServer, Script, answers, refused_url};
use serde_json::{Value, json};

const DRAFT: &str = r#"{"type":"feat","scope":"core","breaking":false,"summary":"parse the convention","bullets":[{"verb":"Add","path":"src/config.rs","what_why":"discovery of the rules"}]}"#;
const WINDOW: Window = Window {
    context_tokens: 8192,
    output_tokens: 512,
};
const SECRET: &str = "sk-test-0123456789abcdef";

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {"type": {"enum": ["feat", "fix"]}, "summary": {"type": "string"}},
        "required": ["type", "summary"],
    })
}

fn settings(provider: &str, url: &str, env: &[(&str, &str)]) -> Settings {
    let flags = Flags {
        provider: Some(provider.into()),
        url: Some(url.into()),
        model: Some("qwen2.5-coder:1.5b".into()),
        ..Flags::default()
    };
    let env: HashMap<String, String> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Settings::resolve(&flags, &|k| env.get(k).cloned(), &|_| None).unwrap()
}

fn client(provider: &str, url: &str) -> Client {
    Client::new(&settings(provider, url, &[]), WINDOW).unwrap()
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(1)
}

fn later() -> Instant {
    Instant::now() + Duration::from_secs(30)
}

fn draft(c: &mut Client, deadline: Instant) -> Result<jitcommit_drafter::Reply, ClientError> {
    // What the ask stage hands the client: each part through the redaction gate.
    let (system, user) = (redact::gate("SYSTEM TEXT"), redact::gate("USER TEXT"));
    c.draft(&system, &user, &redact::gate_json(&schema()), deadline)
}

#[test]
fn ollama_request_carries_schema_options_and_messages() {
    let srv = ModelServer::start(vec![Script::answer(DRAFT)]);
    let mut c = client("ollama", &srv.url());
    let reply = draft(&mut c, later()).unwrap();
    assert_eq!(reply.content, DRAFT);
    assert_eq!(reply.model, "qwen2.5-coder:1.5b");
    assert!(
        reply
            .usage
            .is_some_and(|u| u.prompt_tokens.is_some() && u.completion_tokens.is_some())
    );
    assert_eq!(reply.json_mode, None);

    let reqs = srv.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/api/chat"));
    let b = &r.body;
    assert_eq!(b["model"], "qwen2.5-coder:1.5b");
    assert_eq!(b["stream"], false);
    assert_eq!(b["format"], schema());
    assert_eq!(b["options"]["temperature"], 0);
    assert_eq!(b["options"]["seed"], 42);
    assert_eq!(b["options"]["num_ctx"], 8192);
    assert_eq!(b["options"]["num_predict"], 512);
    assert_eq!(
        b["messages"],
        json!([
            {"role": "system", "content": "SYSTEM TEXT"},
            {"role": "user", "content": "USER TEXT"},
        ])
    );
    assert_eq!(r.header("authorization"), None);
}

#[test]
fn openai_request_asks_for_the_strict_json_schema_first() {
    let srv = ModelServer::start(vec![Script::answer(DRAFT)]);
    let mut c = client("openai", &srv.url());
    let reply = draft(&mut c, later()).unwrap();
    assert_eq!(reply.content, DRAFT);
    assert_eq!(reply.json_mode, Some(JsonMode::JsonSchema));
    assert!(reply.usage.is_some());

    let reqs = srv.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, "/v1/chat/completions");
    let b = &reqs[0].body;
    assert_eq!(b["temperature"], 0);
    assert_eq!(b["seed"], 42);
    assert_eq!(b["max_tokens"], 512);
    assert_eq!(b["stream"], false);
    assert_eq!(b["messages"][0]["role"], "system");
    assert_eq!(b["messages"][1]["content"], "USER TEXT");
    assert_eq!(b["response_format"]["type"], "json_schema");
    assert_eq!(b["response_format"]["json_schema"]["strict"], true);
    assert_eq!(b["response_format"]["json_schema"]["schema"], schema());
    assert!(b["response_format"]["json_schema"]["name"].is_string());
}

#[test]
fn rejected_json_schema_steps_down_and_stays_down_for_the_run() {
    // Like llama-cpp-python: json_schema is refused, json_object with schema works.
    let srv = ModelServer::start(vec![
        Script::RejectJsonSchema(400, DRAFT.into()),
        Script::answer(DRAFT),
    ]);
    let mut c = client("openai", &srv.url());
    let reply = draft(&mut c, later()).unwrap();
    assert_eq!(reply.json_mode, Some(JsonMode::JsonObjectWithSchema));
    assert_eq!(c.json_mode(), JsonMode::JsonObjectWithSchema);
    // A second call in the same run (a repair request) starts where the first ended.
    let again = draft(&mut c, later()).unwrap();
    assert_eq!(again.json_mode, Some(JsonMode::JsonObjectWithSchema));

    let formats: Vec<Value> = srv
        .requests()
        .iter()
        .map(|r| r.body["response_format"].clone())
        .collect();
    assert_eq!(formats.len(), 3);
    assert_eq!(formats[0]["type"], "json_schema");
    assert_eq!(
        formats[1],
        json!({"type": "json_object", "schema": schema()})
    );
    assert_eq!(
        formats[2],
        json!({"type": "json_object", "schema": schema()})
    );

    // A new client (a new run) starts at the top again.
    let srv2 = ModelServer::start(vec![Script::answer(DRAFT)]);
    let mut fresh = client("openai", &srv2.url());
    assert_eq!(
        draft(&mut fresh, later()).unwrap().json_mode,
        Some(JsonMode::JsonSchema)
    );
}

#[test]
fn http_500_walks_the_whole_ladder_down_to_plain_instructions() {
    let srv = ModelServer::start(vec![
        Script::Status(500),
        Script::Status(500),
        Script::Status(400),
        Script::answer(DRAFT),
    ]);
    let mut c = client("openai", &srv.url());
    let reply = draft(&mut c, later()).unwrap();
    assert_eq!(reply.json_mode, Some(JsonMode::Instructions));
    let reqs = srv.requests();
    assert_eq!(reqs.len(), 4);
    assert_eq!(reqs[0].body["response_format"]["type"], "json_schema");
    assert_eq!(
        reqs[1].body["response_format"],
        json!({"type": "json_object", "schema": schema()})
    );
    assert_eq!(
        reqs[2].body["response_format"],
        json!({"type": "json_object"})
    );
    assert!(
        reqs[3].body.get("response_format").is_none(),
        "{}",
        reqs[3].body_text
    );
    // Everything but the format is the same request.
    for r in &reqs[1..] {
        let (mut a, mut b) = (r.body.clone(), reqs[0].body.clone());
        a.as_object_mut().unwrap().remove("response_format");
        b.as_object_mut().unwrap().remove("response_format");
        assert_eq!(a, b);
    }
}

#[test]
fn an_error_status_on_the_last_rung_is_the_error() {
    let srv = ModelServer::start(vec![Script::Status(500); 4]);
    let mut c = client("openai", &srv.url());
    let err = draft(&mut c, later()).unwrap_err();
    assert!(
        matches!(err, ClientError::Status { code: 500, .. }),
        "{err}"
    );
    assert_eq!(srv.requests().len(), 4);
}

#[test]
fn auth_and_missing_endpoint_statuses_do_not_step_down() {
    for code in [401, 404] {
        let srv = ModelServer::start(vec![Script::Status(code), Script::answer(DRAFT)]);
        let mut c = client("openai", &srv.url());
        let err = draft(&mut c, later()).unwrap_err();
        assert!(
            matches!(err, ClientError::Status { code: c, .. } if c == code),
            "{err}"
        );
        assert_eq!(srv.requests().len(), 1);
    }
}

#[test]
fn ollama_error_status_is_not_retried() {
    let srv = ModelServer::start(vec![Script::Status(500), Script::answer(DRAFT)]);
    let mut c = client("ollama", &srv.url());
    let err = draft(&mut c, later()).unwrap_err();
    let ClientError::Status { code, excerpt, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*code, 500);
    assert!(excerpt.contains("scripted status 500"), "{excerpt}");
    assert!(!err.to_string().contains('\n'));
    assert_eq!(srv.requests().len(), 1);
}

/// Each fault, for both providers, and the kind of error it must give.
#[test]
fn every_fault_gives_its_error_within_the_deadline() {
    type Kind = fn(&ClientError) -> bool;
    let cases: Vec<(&str, Script, Kind)> = vec![
        ("close before reading", Script::Close, |e| {
            matches!(e, ClientError::Unreachable { .. })
        }),
        (
            "hang past the deadline",
            Script::Hang(Duration::from_secs(30)),
            |e| matches!(e, ClientError::Timeout { .. }),
        ),
        (
            "slow drip",
            Script::Drip(DRAFT.into(), Duration::from_millis(100)),
            |e| matches!(e, ClientError::Timeout { .. }),
        ),
        ("garbage", Script::Garbage, |e| {
            matches!(e, ClientError::BadBody { .. })
        }),
        ("50 MB body", Script::Huge(50 * 1024 * 1024), |e| {
            matches!(e, ClientError::TooLarge { .. })
        }),
        (
            "not JSON",
            Script::Raw(200, "<html>hello</html>".into()),
            |e| matches!(e, ClientError::BadBody { .. }),
        ),
        (
            "JSON of another shape",
            Script::Raw(200, "{\"ok\":true}".into()),
            |e| matches!(e, ClientError::BadBody { .. }),
        ),
    ];
    for provider in ["ollama", "openai"] {
        for (name, script, kind) in &cases {
            let srv = ModelServer::start(vec![script.clone()]);
            let mut c = client(provider, &srv.url());
            let err = draft(&mut c, soon()).expect_err(name);
            assert!(kind(&err), "{provider} / {name}: got {err:?}");
            assert!(!err.to_string().contains('\n'), "{name}: one line: {err}");
        }
    }
}

#[test]
fn nothing_listening_is_unreachable() {
    for provider in ["ollama", "openai"] {
        let mut c = client(provider, &refused_url());
        let err = draft(&mut c, soon()).unwrap_err();
        assert!(matches!(err, ClientError::Unreachable { .. }), "{err:?}");
    }
}

#[test]
fn a_passed_deadline_sends_nothing() {
    let srv = ModelServer::start(vec![Script::answer(DRAFT)]);
    let mut c = client("ollama", &srv.url());
    let err = draft(&mut c, Instant::now()).unwrap_err();
    assert!(matches!(err, ClientError::Timeout { .. }), "{err:?}");
    assert!(srv.requests().is_empty());
}

#[test]
fn a_body_just_under_the_cap_is_read() {
    // A valid answer padded to just under 1 MB is accepted; the cap is on bytes, not on
    // "suspicious" content.
    let content = format!("{DRAFT}{}", " ".repeat(900 * 1024));
    let srv = ModelServer::start(vec![Script::Answer(content.clone())]);
    let mut c = client("ollama", &srv.url());
    let reply = draft(&mut c, later()).unwrap();
    assert_eq!(reply.content, content);
}

#[test]
fn no_model_configured_means_no_client() {
    let s = Settings::resolve(&Flags::default(), &|_| None, &|_| None).unwrap();
    assert!(matches!(Client::new(&s, WINDOW), Err(ClientError::NoModel)));
}

#[test]
fn the_key_goes_in_the_authorization_header_and_nowhere_else() {
    let echo = format!("{{\"error\":\"bad key {SECRET}\"}}");
    let srv = ModelServer::start(vec![Script::answer(DRAFT), Script::Raw(401, echo)]);
    let env = [
        ("JITCOMMIT_API_KEY_ENV", "MY_MODEL_KEY"),
        ("MY_MODEL_KEY", SECRET),
    ];
    let s = settings("openai", &srv.url(), &env);
    let mut c = Client::new(&s, WINDOW).unwrap();
    draft(&mut c, later()).unwrap();
    let reqs = srv.requests();
    assert_eq!(
        reqs[0].header("authorization"),
        Some(format!("Bearer {SECRET}").as_str())
    );
    assert!(
        !reqs[0].body_text.contains(SECRET),
        "the key is not in the body"
    );

    // A server echoing the key in an error does not get it printed.
    let err = draft(&mut c, later()).unwrap_err();
    assert!(matches!(err, ClientError::Status { code: 401, .. }));
    for shown in [
        err.to_string(),
        format!("{err:?}"),
        format!("{c:?}"),
        format!("{s:?}"),
    ] {
        assert!(!shown.contains(SECRET), "key leaked: {shown}");
    }
}

#[test]
fn small_model_answers_through_the_wire_parse() {
    let srv = ModelServer::start(vec![
        Script::Answer(answers::think_wrapped(DRAFT)),
        Script::Answer(answers::fenced(DRAFT)),
        Script::answer(answers::INVALID_JSON),
        Script::answer(answers::INJECTED_ECHO),
    ]);
    let mut c = client("ollama", &srv.url());
    let want = parse_answer(DRAFT).unwrap();
    assert_eq!(
        parse_answer(&draft(&mut c, later()).unwrap().content),
        Ok(want.clone())
    );
    assert_eq!(
        parse_answer(&draft(&mut c, later()).unwrap().content),
        Ok(want)
    );
    assert!(parse_answer(&draft(&mut c, later()).unwrap().content).is_err());
    // An echoed instruction is only text in a field: it parses, nothing acts on it.
    let injected = parse_answer(&draft(&mut c, later()).unwrap().content).unwrap();
    assert!(
        injected
            .summary
            .starts_with("IGNORE ALL PREVIOUS INSTRUCTIONS")
    );
}

#[test]
fn a_used_up_script_answers_503() {
    let srv = ModelServer::start(vec![]);
    let mut c = client("ollama", &srv.url());
    let err = draft(&mut c, later()).unwrap_err();
    assert!(
        matches!(err, ClientError::Status { code: 503, .. }),
        "{err:?}"
    );
}
