//! The model's words through the real hook (issue 45): a long summary is ended where
//! a phrase ends, never cut by a grammar bound; the why is never lost (a bullet in
//! the tool's words keeps its `<why?>`, or the user's intent is the body); and where
//! the tool's words stand in for the model's, the footer says which and why, with no
//! second request where the tool's words are as good.
#![allow(clippy::unwrap_used)]

use crate::draft_support;
use draft_support::*;
use jitcommit_testkit::model_server::{ModelServer, Recorded, Script, servers};
use serde_json::{Value, json};

/// A staged new function, the model a llama.cpp server (whose grammar bounds
/// strings), the guards as `guards` says.
fn repo_with_change(guards: &str) -> Repo {
    let r = Repo::new();
    r.git(&["config", "jitcommit.guards", guards]);
    write(
        &r.dir,
        "src/lib.rs",
        "pub fn greet() -> &'static str {\n    \"hello\"\n}\n",
    );
    r.git(&["add", "src/lib.rs"]);
    r
}

fn answer(summary: &str, what_why: &str, kind: &str) -> Script {
    Script::answer_json(&json!({
        "bullets": {"src/lib.rs": what_why},
        "summary": summary,
        "type": kind,
        "scope": null,
        "breaking_change": null,
    }))
}

fn llama_cpp(script: Vec<Script>) -> ModelServer {
    ModelServer::with_routes(servers::llama_cpp(8192, 4), script)
}

fn schema_of(req: &Recorded) -> &Value {
    &req.body["response_format"]["json_schema"]["schema"]
}

/// Commits through the editor with a large model whose first answer is `first` and
/// whose second (a repair's) would be good; asserts that the model's draft came of
/// one request, and returns the repository and what the editor was shown.
fn one_request(first: Script) -> (Repo, String) {
    let r = repo_with_change("large");
    let server = llama_cpp(vec![
        first,
        answer(
            "add a greeting",
            "greet so that new users see a welcome",
            "feat",
        ),
    ]);
    r.use_model(&server.url(), "openai");
    let err = r.ok(&["commit"]);
    assert_eq!(used(&err), Some("model"), "{err}");
    assert_eq!(server.requests().len(), 1, "{err}");
    let shown = r.shown().remove(0);
    (r, shown)
}

/// Words a summary never ends on.
const DANGLING: &[&str] = &[
    "a", "an", "the", "and", "or", "to", "of", "for", "in", "on", "with", "by", "from", "so",
    "that",
];

#[test]
fn long_summaries_end_where_a_phrase_ends() {
    for (long, want) in [
        // One long clause.
        (
            "add a greet function to the library so that new users see a friendly welcome message",
            "add a greet function to the library",
        ),
        // A list with commas.
        (
            "add greet, a welcome banner, a help text, and a friendly default greeting for every user",
            "add greet, a welcome banner, a help text",
        ),
        // A parenthesis across the limit.
        (
            "add a greet function that returns the welcome text (a static string for every new user)",
            "add a greet function that returns the welcome text",
        ),
    ] {
        let r = repo_with_change("large");
        let server = llama_cpp(vec![answer(
            long,
            "greet so that new users see a welcome",
            "feat",
        )]);
        r.use_model(&server.url(), "openai");
        let err = r.ok(&["commit", "--no-edit"]);
        assert_eq!(used(&err), Some("model"), "{err}");
        let reqs = server.requests();
        assert_eq!(reqs.len(), 1, "{long}");
        // The grammar's bound lies well past the limit the prompt asks for.
        let bound = schema_of(&reqs[0])["properties"]["summary"]["maxLength"]
            .as_u64()
            .unwrap();
        assert!(bound > 72, "{bound}");
        let msg = r.last_message();
        let subject = msg.lines().next().unwrap();
        assert!(subject.chars().count() <= 72, "{subject}");
        let summary = subject.strip_prefix("feat: ").unwrap();
        assert_eq!(summary, want, "{long}");
        // A whole word of the model's, nothing dangling, nothing open.
        assert!(long.starts_with(summary));
        assert!(!long[summary.len()..].starts_with(char::is_alphanumeric));
        let last = summary.rsplit(' ').next().unwrap();
        assert!(!DANGLING.contains(&last), "{summary}");
        assert!(!summary.ends_with([',', ';', '(']), "{summary}");
        assert_eq!(summary.matches('(').count(), summary.matches(')').count());
    }
}

#[test]
fn a_summary_with_no_phrase_in_reach_is_the_tools_and_the_footer_says_so() {
    let long =
        "rework greet welcome text handling plus greet banner wiring plus greet helper routines";
    // No repair request: the tool's summary is as good as a second answer.
    let (r, shown) = one_request(answer(
        long,
        "greet so that new users see a welcome",
        "feat",
    ));
    let msg = r.last_message();
    assert!(msg.starts_with("feat: add greet\n"), "{msg}");
    assert!(
        shown.contains("\n# jitcommit: the summary is the tool's: the model's summary ran past "),
        "{shown}"
    );
    // Kept words: the model's bullet, no placeholder.
    assert!(!msg.contains("<why?>"), "{msg}");
}

#[test]
fn a_tool_bullet_keeps_its_why_for_both_guard_sizes() {
    for (guards, what_why) in [
        // Names only its path's words: the tight gate refuses it.
        ("small", "add the lib"),
        // Names what the change does not hold.
        (
            "large",
            "call parse_config from setup.py so startup reads the greeting",
        ),
    ] {
        // One answer whose bullet the tool words.
        let asked = || {
            let r = repo_with_change(guards);
            let server = llama_cpp(vec![answer(
                "add a greeting for new users",
                what_why,
                "feat",
            )]);
            r.use_model(&server.url(), "openai");
            (r, server)
        };
        let (r, server) = asked();
        let err = r.ok(&["commit"]);
        assert_eq!(used(&err), Some("model"), "{guards}: {err}");
        assert_eq!(server.requests().len(), 1, "{guards}");
        let msg = r.last_message();
        let bullet = msg
            .lines()
            .find(|l| l.starts_with("- Add: src/lib.rs"))
            .unwrap();
        assert!(bullet.ends_with("; <why?>"), "{guards}: {msg}");
        assert!(!bullet.contains(what_why), "{guards}: {msg}");
        let shown = &r.shown()[0];
        assert!(
            shown.contains("# jitcommit: the bullet for src/lib.rs is the tool's: "),
            "{guards}: {shown}"
        );
        assert!(
            shown.contains("# jitcommit: replace each <why?> with why you made the change."),
            "{shown}"
        );
        if guards == "large" {
            assert!(shown.contains("parse_config, setup.py"), "{shown}");
        }
        // With the user's intent, the intent is the why: no placeholder, the intent in
        // the body.
        let (r, _server) = asked();
        let out = r
            .git_cmd()
            .env("JITCOMMIT_INTENT", "new users asked for a friendly welcome")
            .args(["commit", "--no-edit"])
            .output()
            .unwrap();
        assert_ok(&out, "commit with an intent");
        let msg = r.last_message();
        assert!(!msg.contains("<why?>"), "{guards}: {msg}");
        assert!(
            msg.contains("\n\nnew users asked for a friendly welcome\n"),
            "{guards}: {msg}"
        );
    }
}

#[test]
fn what_the_tool_words_costs_no_second_request() {
    // A summary the gate refuses, and a type off the list: the tool's, in one request
    // each (the old loop asked again, and its second answer is scripted here).
    for (first, footer) in [
        (
            answer("greeting", "greet so that new users see a welcome", "feat"),
            "# jitcommit: the summary is the tool's: the model's ",
        ),
        (
            answer(
                "add a greeting for new users",
                "greet so that new users see a welcome",
                "feature",
            ),
            "# jitcommit: the type is the tool's (feat): the model's (feature) is not one the change allows",
        ),
    ] {
        let (r, shown) = one_request(first);
        assert!(shown.contains(footer), "{shown}");
        // git strips the footer: the commit holds no comment of the tool's.
        assert!(!r.last_message().contains("jitcommit:"));
    }
    // An answer that is no JSON still gets its one repair request.
    let r = repo_with_change("large");
    let server = llama_cpp(vec![
        Script::answer("not json at all"),
        answer(
            "add a greeting",
            "greet so that new users see a welcome",
            "feat",
        ),
    ]);
    r.use_model(&server.url(), "openai");
    let err = r.ok(&["commit", "--no-edit"]);
    assert_eq!(used(&err), Some("model-repaired"), "{err}");
    assert_eq!(server.requests().len(), 2);
}
