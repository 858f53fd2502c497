//! `jitcommit doctor`: one screen on whether jitcommit is set up and will work here —
//! hooks folder, shims and chained hooks (or the pre-commit, husky or lefthook setup
//! docs/guide.md documents), the binaries the hooks run, the effective
//! convention, the model settings and whether the server answers. Exit 1 when
//! something is wrong, each problem with the command that fixes it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jitcommit_core::config::{self, Origin};
use jitcommit_core::convention;
use jitcommit_core::repo::Repo;
use jitcommit_drafter::{Flags, Provider, Settings};

use crate::error::{Error, usage};
use jitcommit_core::term::printable;

use crate::{Outcome, print};

const HELP: &str = "\
jitcommit doctor: check that jitcommit is set up and will work in this repository

USAGE:
    jitcommit doctor [--format text|json]

Checks the effective hooks folder (core.hooksPath included), jitcommit's shims there
and the hooks they chain, or, where the pre-commit framework, husky or lefthook runs
the hooks, whether its config runs jitcommit's and it installed them; the binaries the
hooks run, the effective convention and the file it came
from, the model settings (flags aside: environment, git config, defaults), whether
the model server answers, its context window and the token budget that follows, and
which guards a draft gets (by the model's size) and how to change them.
Exit 1 when something is wrong; each problem comes with the command that fixes it.

OPTIONS:
    --format text|json   json: {\"ok\": bool, \"checks\": [{\"check\", \"status\", \"detail\", \"fix\"}]}
    -h, --help           print this help

EXAMPLES:
    jitcommit doctor
    jitcommit doctor --format json | jq '.checks[] | select(.status == \"fail\")'
";

/// One line of the report.
#[derive(Debug, serde::Serialize)]
struct Check {
    check: &'static str,
    /// `ok`, `info` or `fail`.
    status: &'static str,
    detail: String,
    fix: Option<String>,
}

fn ok(check: &'static str, detail: impl Into<String>) -> Check {
    Check {
        check,
        status: "ok",
        detail: detail.into(),
        fix: None,
    }
}

fn info(check: &'static str, detail: impl Into<String>) -> Check {
    Check {
        check,
        status: "info",
        detail: detail.into(),
        fix: None,
    }
}

fn fail(check: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
    Check {
        check,
        status: "fail",
        detail: detail.into(),
        fix: Some(fix.into()),
    }
}

const MARK: &str = "# jitcommit-managed";
const HOOKS: [(&str, &str); 2] = [
    ("prepare-commit-msg", "jitcommit-draft"),
    ("commit-msg", "jitcommit-check"),
];

fn hooks_dir(repo: &Repo) -> PathBuf {
    let dir = match repo.config_string("core.hooksPath") {
        Some(p) if Path::new(&p).is_absolute() => PathBuf::from(p),
        Some(p) => repo.work_dir().unwrap_or(repo.git_dir()).join(p),
        None => repo.gix().common_dir().join("hooks"),
    };
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn on_path(bin: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(bin))
        .find(|p| executable(p))
}

/// Who runs a client hook in this repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Manager {
    PreCommit,
    Husky,
    Lefthook,
}

impl Manager {
    fn name(self) -> &'static str {
        match self {
            Manager::PreCommit => "the pre-commit framework",
            Manager::Husky => "husky",
            Manager::Lefthook => "lefthook",
        }
    }
}

const PRE_COMMIT_CONFIG: &str = ".pre-commit-config.yaml";
const PRE_COMMIT_INSTALL: &str =
    "pre-commit install --hook-type prepare-commit-msg --hook-type commit-msg";
const LEFTHOOK_CONFIGS: [&str; 10] = [
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yaml",
    "lefthook.toml",
    ".lefthook.toml",
    "lefthook.json",
    ".lefthook.json",
    "lefthook-local.yml",
    ".lefthook-local.yml",
];

/// The guide's husky and lefthook lines for `hook` (the `{…}` is lefthook's argument).
fn snippet(hook: &str, lefthook: bool) -> String {
    match (hook, lefthook) {
        ("prepare-commit-msg", false) => {
            r#"if command -v jitcommit-draft >/dev/null 2>&1; then jitcommit-draft "$@" || true; fi"#
        }
        ("prepare-commit-msg", true) => {
            "if command -v jitcommit-draft >/dev/null 2>&1; then jitcommit-draft {0} || true; fi"
        }
        (_, false) => r#"if command -v jitcommit-check >/dev/null 2>&1; then jitcommit-check "$1"; fi"#,
        (_, true) => "if command -v jitcommit-check >/dev/null 2>&1; then jitcommit-check {1}; fi",
    }
    .to_owned()
}

/// A path for a shell command line, quoted when it needs it.
fn sh_quote(p: &Path) -> String {
    let s = p.display().to_string();
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:@,=%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The most a hook manager's config file is read of: the repository's files are not
/// trusted, and a real config is a few hundred bytes.
const CONFIG_MAX: u64 = 1 << 20;

/// A config file of the repository, `None` when it is missing or larger than [`CONFIG_MAX`].
fn read_config(p: &Path) -> Option<String> {
    let len = std::fs::metadata(p).ok()?.len();
    if len > CONFIG_MAX {
        return None;
    }
    std::fs::read_to_string(p).ok()
}

/// How deep a config's nesting is followed; hook ids and commands sit at depth 4.
const DEPTH_MAX: usize = 32;

/// A YAML (or JSON) document as JSON, to [`DEPTH_MAX`]; `None` when it does not parse.
fn yaml(text: &str) -> Option<serde_json::Value> {
    fn conv(y: &yaml_rust2::Yaml, depth: usize) -> serde_json::Value {
        use serde_json::Value;
        use yaml_rust2::Yaml;
        if depth > DEPTH_MAX {
            return Value::Null;
        }
        match y {
            Yaml::String(s) | Yaml::Real(s) => Value::from(s.clone()),
            Yaml::Integer(i) => Value::from(*i),
            Yaml::Boolean(b) => Value::from(*b),
            Yaml::Array(a) => Value::Array(a.iter().map(|x| conv(x, depth + 1)).collect()),
            Yaml::Hash(h) => Value::Object(
                h.iter()
                    .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), conv(v, depth + 1))))
                    .collect(),
            ),
            _ => Value::Null,
        }
    }
    let docs = yaml_rust2::YamlLoader::load_from_str(text).ok()?;
    Some(docs.first().map(|d| conv(d, 0)).unwrap_or_default())
}

/// Whether any string under `v` (to [`DEPTH_MAX`]) mentions `word`.
fn mentions(v: &serde_json::Value, word: &str) -> bool {
    fn walk(v: &serde_json::Value, word: &str, depth: usize) -> bool {
        if depth > DEPTH_MAX {
            return false;
        }
        match v {
            serde_json::Value::String(s) => s.contains(word),
            serde_json::Value::Array(a) => a.iter().any(|x| walk(x, word, depth + 1)),
            serde_json::Value::Object(o) => o.values().any(|x| walk(x, word, depth + 1)),
            _ => false,
        }
    }
    walk(v, word, 0)
}

/// The hook ids `.pre-commit-config.yaml` lists (`repos[].hooks[].id`); `None` without
/// the file.
fn pre_commit_ids(root: &Path) -> Option<Vec<String>> {
    let text = read_config(&root.join(PRE_COMMIT_CONFIG))?;
    let v = yaml(&text).unwrap_or_default();
    let ids = v["repos"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["hooks"].as_array().into_iter().flatten())
        .filter_map(|h| h["id"].as_str().map(str::to_owned))
        .collect();
    Some(ids)
}

/// lefthook's config files in `root`, each parsed (`Null` when it does not parse).
fn lefthook_configs(root: &Path) -> Vec<(PathBuf, serde_json::Value)> {
    LEFTHOOK_CONFIGS
        .iter()
        .map(|c| root.join(c))
        .filter_map(|p| {
            let text = read_config(&p)?;
            let v = if p.extension().is_some_and(|e| e == "toml") {
                text.parse::<toml::Table>()
                    .ok()
                    .and_then(|t| serde_json::to_value(t).ok())
            } else {
                yaml(&text)
            };
            Some((p, v.unwrap_or_default()))
        })
        .collect()
}

/// Who runs `hook` (whose file in the hooks folder holds `text`, empty when there is
/// none): the manager that wrote the file, the one that owns the folder, or the one
/// whose config lists jitcommit for it.
fn manager(text: &str, dir: &Path, root: Option<&Path>, bin: &str) -> Option<Manager> {
    let husky_dir = dir.components().any(|c| c.as_os_str() == ".husky")
        || dir.join("husky.sh").is_file()
        || std::fs::read_to_string(dir.join("h")).is_ok_and(|t| t.contains("husky"));
    if text.contains("File generated by pre-commit") {
        Some(Manager::PreCommit)
    } else if text.contains("lefthook") {
        Some(Manager::Lefthook)
    } else if husky_dir || text.contains("husky") {
        Some(Manager::Husky)
    } else if root
        .and_then(pre_commit_ids)
        .is_some_and(|ids| ids.iter().any(|i| i == bin))
    {
        Some(Manager::PreCommit)
    } else if root.is_some_and(|r| !lefthook_configs(r).is_empty()) {
        Some(Manager::Lefthook)
    } else {
        None
    }
}

/// A hook a manager runs: whether it runs jitcommit's binary as docs/guide.md sets it up,
/// and, when not, the one command that makes it so.
fn managed(
    who: Manager,
    hook: &str,
    bin: &str,
    text: &str,
    dir: &Path,
    root: Option<&Path>,
    out: &mut Vec<Check>,
) {
    let Some(root) = root else {
        return;
    };
    let shown = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let on_path_check = |out: &mut Vec<Check>| {
        match on_path(bin) {
        Some(p) => out.push(ok("binary", format!("{hook} runs {}", p.display()))),
        None => out.push(fail(
            "binary",
            format!("{hook}: {bin} is not on PATH: {} skips it, and commits go through unchecked", who.name()),
            "install.sh   (from jitcommit's source tree: builds and installs the binaries into ~/.cargo/bin, which must be on PATH)",
        )),
    }
    };
    match who {
        Manager::PreCommit => {
            let listed = pre_commit_ids(root).is_some_and(|ids| ids.iter().any(|i| i == bin));
            let installed = text.contains("File generated by pre-commit");
            if !listed {
                out.push(fail(
                    "shim",
                    format!("{hook}: the pre-commit framework runs it, but {PRE_COMMIT_CONFIG} has no {bin} hook"),
                    format!("install.sh --no-build   (chains pre-commit's hook; or add `- id: {bin}` to {PRE_COMMIT_CONFIG} as docs/guide.md's \"The pre-commit framework\" shows)"),
                ));
            } else if !installed {
                out.push(fail(
                    "shim",
                    format!("{hook}: {PRE_COMMIT_CONFIG} lists {bin}, but pre-commit has not installed the {hook} hook"),
                    PRE_COMMIT_INSTALL,
                ));
            } else {
                out.push(ok(
                    "shim",
                    format!("{hook}: the pre-commit framework runs {bin} ({PRE_COMMIT_CONFIG})"),
                ));
                out.push(info(
                    "binary",
                    format!("{hook}: pre-commit builds and runs its own {bin}"),
                ));
            }
        }
        Manager::Husky => {
            // husky 9 runs .husky/<hook> from its generated .husky/_/<hook>; before 9,
            // the hooks folder is .husky itself.
            let user_dir = if dir.file_name().is_some_and(|n| n == "_") {
                dir.parent().unwrap_or(dir)
            } else {
                dir
            };
            let file = user_dir.join(hook);
            let runs = std::fs::read_to_string(&file).is_ok_and(|t| {
                t.lines()
                    .any(|l| !l.trim_start().starts_with('#') && l.contains(bin))
            });
            let generated = dir.join(hook);
            if runs && user_dir != dir && !generated.is_file() {
                out.push(fail(
                    "shim",
                    format!(
                        "{hook}: {} runs {bin}, but husky has not written {}: git runs nothing",
                        shown(&file),
                        shown(&generated)
                    ),
                    "husky   (npx husky where husky is a dev dependency)",
                ));
            } else if runs {
                out.push(ok("shim", format!("{hook}: husky runs {}", shown(&file))));
                on_path_check(out);
            } else {
                let q = sh_quote(&file);
                out.push(fail(
                    "shim",
                    format!(
                        "{hook}: husky owns {}, and {} does not run {bin}",
                        dir.display(),
                        shown(&file)
                    ),
                    format!(
                        "printf '%s\\n' '{}' >> {q} && chmod +x {q}",
                        snippet(hook, false).replace('\'', r"'\''")
                    ),
                ));
            }
        }
        Manager::Lefthook => {
            let configs = lefthook_configs(root);
            let listed = configs.iter().find(|(_, v)| mentions(&v[hook], bin));
            let installed = text.contains("lefthook");
            match listed {
                Some((cfg, _)) if installed => {
                    out.push(ok(
                        "shim",
                        format!("{hook}: lefthook runs {bin} ({})", shown(cfg)),
                    ));
                    on_path_check(out);
                }
                Some((cfg, _)) => out.push(fail(
                    "shim",
                    format!(
                        "{hook}: {} lists {bin}, but lefthook has not installed the {hook} hook",
                        shown(cfg)
                    ),
                    "lefthook install",
                )),
                None => {
                    // The guide's lines go where the hook has no section yet (a YAML
                    // config; else lefthook-local.yml, which lefthook merges into the
                    // config, its commands by name), so appending them is the fix.
                    let yaml_cfg =
                        |p: &Path| !p.extension().is_some_and(|e| e == "toml" || e == "json");
                    let local = root.join("lefthook-local.yml");
                    let cfg = configs
                        .iter()
                        .find(|(p, v)| yaml_cfg(p) && v[hook].is_null())
                        .map(|(p, _)| p.clone())
                        .or_else(|| configs.is_empty().then(|| root.join("lefthook.yml")))
                        .or_else(|| (!local.exists()).then(|| local.clone()));
                    let run = snippet(hook, true);
                    let (cfg, fix) = match cfg {
                        Some(cfg) => {
                            let fix = format!(
                                "printf '%s\\n' '{hook}:' '  commands:' '    jitcommit:' '      run: {}' >> {} && lefthook install",
                                run.replace('\'', r"'\''"),
                                sh_quote(&cfg)
                            );
                            (cfg, fix)
                        }
                        None => (
                            local,
                            format!(
                                "add to the {hook} commands of lefthook-local.yml:  jitcommit: {{ run: '{run}' }}, then: lefthook install"
                            ),
                        ),
                    };
                    out.push(fail(
                        "shim",
                        format!(
                            "{hook}: lefthook runs the hooks here, and {} does not run {bin}",
                            shown(&cfg)
                        ),
                        fix,
                    ));
                }
            }
        }
    }
}

fn hooks(repo: &Repo, out: &mut Vec<Check>) {
    let dir = hooks_dir(repo);
    let root = repo
        .work_dir()
        .map(|d| std::fs::canonicalize(d).unwrap_or_else(|_| d.to_owned()));
    let via = if repo.config_string("core.hooksPath").is_some() {
        " (core.hooksPath)"
    } else {
        ""
    };
    out.push(ok("hooks folder", format!("{}{via}", dir.display())));
    let install =
        "install.sh --no-build   (from jitcommit's source tree; it chains the hook that is there)";
    for (hook, bin) in HOOKS {
        let path = dir.join(hook);
        let text = std::fs::read_to_string(&path).ok();
        let ours = text
            .as_deref()
            .is_some_and(|t| t.lines().any(|l| l.starts_with(MARK)));
        if !ours {
            let t = text.as_deref().unwrap_or("");
            if let Some(who) = manager(t, &dir, root.as_deref(), bin) {
                managed(who, hook, bin, t, &dir, root.as_deref(), out);
                let legacy = dir.join(format!("{hook}.legacy"));
                let chained = std::fs::read_to_string(&legacy)
                    .is_ok_and(|t| t.lines().any(|l| l.starts_with(MARK)));
                if chained {
                    out.push(info(
                        "chained hook",
                        format!(
                            "{hook}: the pre-commit framework runs jitcommit's shim {} first; the shim leaves {bin} to pre-commit where its config runs it, so it runs once (install.sh --uninstall removes the shim)",
                            legacy.display()
                        ),
                    ));
                }
            } else if text.is_some() {
                out.push(fail(
                    "shim",
                    format!(
                        "{hook}: {} is not jitcommit's (written by another tool)",
                        path.display()
                    ),
                    install,
                ));
            } else {
                out.push(fail(
                    "shim",
                    format!("{hook}: not installed in {}", dir.display()),
                    install,
                ));
            }
            continue;
        }
        let text = text.unwrap_or_default();
        if !executable(&path) {
            out.push(fail(
                "shim",
                format!("{hook}: {} is not executable", path.display()),
                format!("chmod +x {}", path.display()),
            ));
            continue;
        }
        out.push(ok("shim", format!("{hook}: {}", path.display())));
        let local = dir.join(format!("{hook}.local"));
        if local.exists() {
            let precommit = std::fs::read_to_string(&local)
                .is_ok_and(|t| t.contains("File generated by pre-commit"));
            out.push(info(
                "chained hook",
                if precommit {
                    format!(
                        "{hook}: runs the pre-commit framework's hook {} first; where its config runs {bin}, the shim leaves it to pre-commit, so it runs once",
                        local.display()
                    )
                } else {
                    format!("{hook}: runs {} first", local.display())
                },
            ));
        }
        let recorded = text
            .lines()
            .find_map(|l| l.strip_prefix("JITCOMMIT_BIN_DIR="))
            .map(|v| v.trim_matches('\'').to_owned())
            .filter(|v| !v.is_empty());
        let exe = recorded
            .as_ref()
            .map(|d| PathBuf::from(d).join(bin))
            .filter(|p| executable(p))
            .or_else(|| on_path(bin));
        match exe {
            Some(p) => out.push(ok("binary", format!("{hook} runs {}", p.display()))),
            None => out.push(fail(
                "binary",
                format!("{hook}: {bin} is not in {} nor on PATH: the hook lets commits through unchecked", recorded.as_deref().unwrap_or("the recorded directory")),
                "install.sh   (builds and installs the binaries)",
            )),
        }
    }
}

/// The convention in force for the next commit (docs/check.md, "Before the project
/// adopts a convention"): the file's, or the built-in one fitted to the recent history.
fn convention(repo: &Repo, out: &mut Vec<Check>) -> Option<config::Loaded> {
    let Some(root) = repo.work_dir() else {
        out.push(info(
            "convention",
            "bare repository: the server takes its policy from --config or the pushed tree",
        ));
        return None;
    };
    let found = convention::discover_in_dir(root).map_err(|e| {
        let mut detail = e.to_string();
        let mut s = std::error::Error::source(&e);
        while let Some(c) = s {
            detail.push_str(&format!(": {c}"));
            s = c.source();
        }
        (
            detail,
            format!(
                "fix {} (see `jitcommit-check --dump-config`)",
                e.path().display()
            ),
        )
    });
    let found = found.and_then(|l| {
        jitcommit_core::fit::in_force(repo, l, repo.head_commit(), &[]).map_err(|e| {
            (
                e.to_string(),
                "check the repository with git fsck".to_owned(),
            )
        })
    });
    match found {
        Ok(l) => {
            let from = match &l.origin {
                Origin::Builtin => "built-in defaults (no .commit-convention.toml, pyproject.toml or Cargo.toml table)".to_owned(),
                o @ Origin::Fitted { .. } => format!("{o}: jitcommit init --write writes it down with an adoption point"),
                o => o.to_string(),
            };
            out.push(ok(
                "convention",
                format!("{from}; types {}", l.convention.types.join(", ")),
            ));
            Some(l)
        }
        Err((detail, fix)) => {
            out.push(fail("convention", detail, fix));
            None
        }
    }
}

fn base_url(s: &Settings) -> String {
    let mut b = s.url.trim_end_matches('/').to_owned();
    for suffix in ["/api/chat", "/chat/completions", "/v1"] {
        if let Some(x) = b.strip_suffix(suffix) {
            b = x.to_owned();
        }
    }
    b
}

/// Why a probe got no usable answer.
enum ProbeError {
    /// No answer within the probe's deadline: a busy server, which may still draft
    /// within the draft's own deadline.
    Slow(String),
    /// Refused, unreachable, or an answer that says no.
    Failed(String),
}

impl From<String> for ProbeError {
    fn from(s: String) -> Self {
        ProbeError::Failed(s)
    }
}

/// `url: e` as a probe error: a timeout is slowness, anything else a failure.
fn probe_err(url: &str, e: &ureq::Error) -> ProbeError {
    match e {
        ureq::Error::Timeout(_) => {
            ProbeError::Slow(format!("{url}: no answer within the probe's deadline"))
        }
        e => ProbeError::Failed(format!("{url}: {e}")),
    }
}

/// How long doctor waits for the server (at most the draft's own deadline).
const PROBE_SECS: u64 = 5;

/// Asks the server whether it answers and, when it says, the model's context window.
fn probe(s: &Settings) -> Result<Option<usize>, ProbeError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(s.timeout.min(Duration::from_secs(PROBE_SECS))))
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into();
    let base = base_url(s);
    let model = s.model.clone().unwrap_or_default();
    match s.provider {
        Provider::Ollama => {
            let url = format!("{base}/api/show");
            let mut r = agent
                .post(&url)
                .send_json(serde_json::json!({ "model": model }))
                .map_err(|e| probe_err(&url, &e))?;
            let status = r.status().as_u16();
            let body: serde_json::Value = r.body_mut().read_json().unwrap_or_default();
            if status == 404 {
                return Err(
                    format!("{url}: the server answers, but has no model {model:?}").into(),
                );
            }
            if status != 200 {
                return Err(format!("{url}: HTTP {status}").into());
            }
            let ctx = body["model_info"].as_object().and_then(|m| {
                m.iter()
                    .find(|(k, _)| k.ends_with(".context_length"))
                    .and_then(|(_, v)| v.as_u64())
            });
            Ok(ctx.and_then(|n| usize::try_from(n).ok()))
        }
        Provider::OpenAi => {
            let url = format!("{base}/v1/models");
            let mut req = agent.get(&url);
            if let Some(k) = &s.api_key {
                req = req.header("Authorization", &format!("Bearer {}", k.expose()));
            }
            let r = req.call().map_err(|e| probe_err(&url, &e))?;
            if r.status().as_u16() != 200 {
                return Err(format!("{url}: HTTP {}", r.status().as_u16()).into());
            }
            // llama.cpp says its context window at /props.
            let props = agent
                .get(&format!("{base}/props"))
                .call()
                .ok()
                .filter(|r| r.status().as_u16() == 200);
            let ctx = props
                .and_then(|mut r| r.body_mut().read_json::<serde_json::Value>().ok())
                .and_then(|v| v["default_generation_settings"]["n_ctx"].as_u64())
                .and_then(|n| usize::try_from(n).ok());
            Ok(ctx)
        }
    }
}

fn model(repo: &Repo, conv: Option<&config::Convention>, out: &mut Vec<Check>) {
    let git =
        jitcommit_drafter::settings::git_lookup(|k| repo.config_string(k), |k| repo.config_bool(k));
    let keys = repo.config_keys("jitcommit");
    for (key, near) in jitcommit_drafter::settings::unknown_git_keys(&keys) {
        let (detail, fix) = match near {
            Some(n) => (
                format!(
                    "git config {key} is not a jitcommit setting and is ignored (did you mean {n}?)"
                ),
                format!("git config {n} \"$(git config {key})\" && git config --unset {key}"),
            ),
            None => (
                format!("git config {key} is not a jitcommit setting and is ignored"),
                format!("git config --unset {key}"),
            ),
        };
        out.push(fail("git config", detail, fix));
    }
    let settings = match Settings::from_process_env(&Flags::default(), &git) {
        Ok(s) => s,
        Err(e) => {
            out.push(fail("model settings", e.to_string(), "fix the value named (git config --get-regexp '^jitcommit\\.' shows the git config side)"));
            return;
        }
    };
    let Some(name) = settings.model.clone() else {
        out.push(info("model", format!("none configured: drafts are made offline (set one: git config jitcommit.model qwen2.5-coder:7b; server {} from {})", settings.url, settings.url_source)));
        return;
    };
    out.push(ok(
        "model",
        format!(
            "{name} via {} at {} (url from {})",
            settings.provider, settings.url, settings.url_source
        ),
    ));
    let ctx_cfg = conv.map(|c| c.context.clone()).unwrap_or_default();
    match probe(&settings) {
        Ok(window) => {
            out.push(ok("server", format!("{} answers", base_url(&settings))));
            let configured = settings.budget_tokens.unwrap_or(ctx_cfg.budget_tokens);
            let budget = configured.saturating_sub(ctx_cfg.reserve_output_tokens);
            match window {
                Some(w) if w < configured => out.push(fail(
                    "budget",
                    format!("the model's context window is {w} tokens, the budget assumes {configured}: prompts would be cut by the server"),
                    format!("git config jitcommit.budgetTokens {w}"),
                )),
                Some(w) => out.push(ok("budget", format!("{budget} prompt tokens ({configured} − {} reserved for the answer; the model's window is {w})", ctx_cfg.reserve_output_tokens))),
                None => out.push(info("budget", format!("{budget} prompt tokens ({configured} − {} reserved); the server does not say its context window", ctx_cfg.reserve_output_tokens))),
            }
            // Which guards a draft gets, from what the server says of itself (the
            // draft's own discovery: no model call), and how to change them.
            if let Ok(mut client) =
                jitcommit_drafter::Client::new(&settings, jitcommit_drafter::Window::of(&ctx_cfg))
            {
                client.discover(
                    std::time::Instant::now() + settings.timeout.min(Duration::from_secs(5)),
                );
                out.push(info("guards", client.guards().line()));
            }
        }
        Err(ProbeError::Slow(e)) => out.push(info(
            "server",
            format!(
                "slow: {e} ({PROBE_SECS} s); a busy server may still draft: a draft waits up to {} s (jitcommit.timeout) before it falls back to offline",
                settings.timeout.as_secs()
            ),
        )),
        Err(ProbeError::Failed(e)) => out.push(fail(
            "server",
            format!("does not answer: {e} (drafts fall back to offline)"),
            match settings.provider {
                Provider::Ollama => format!(
                    "ollama serve && ollama pull {name}   (or git config jitcommit.url URL)"
                ),
                Provider::OpenAi => "start the server, or git config jitcommit.url URL".to_owned(),
            },
        )),
    }
}

/// How the history fits the convention in force, and its adoption point (docs/check.md,
/// "Adopting an existing history"): a failure where the convention would refuse most of
/// the recent commits, whose fix is the command that adopts the project's way.
fn history_fit(repo: &Repo, loaded: &config::Loaded, out: &mut Vec<Check>) {
    let conv = &loaded.convention;
    let point = match &conv.adopted {
        None => "no adoption point (adopted): every commit is held to the convention".to_owned(),
        Some(id) if repo.is_commit(id) => format!(
            "adoption point {}: it and its history are accepted as they are",
            &id[..id.len().min(12)]
        ),
        Some(id) => format!("adoption point {id} is not a commit of this repository"),
    };
    let fit = match crate::fit::read(repo, conv, crate::fit::LAST) {
        Ok(fit) => fit,
        Err(e) => {
            out.push(info(
                "history",
                format!("cannot read the history: {e}; {point}"),
            ));
            return;
        }
    };
    let read = fit.seen.read;
    if read == 0 {
        out.push(info("history", format!("no commits yet; {point}")));
        return;
    }
    let refused = read - fit.gate - fit.adopted;
    let detail = format!(
        "of the last {read} commits {} pass the convention{}, {} the Conventional Commits grammar; {point}{}",
        fit.gate,
        if fit.adopted > 0 {
            format!(
                " (and {} more as the adoption point's history)",
                fit.adopted
            )
        } else {
            String::new()
        },
        fit.seen.spec,
        if refused > 0 && conv.adopted.is_none() {
            " (`jitcommit init` proposes a convention and adoption point that fit)"
        } else {
            ""
        }
    );
    if refused * 2 > read {
        let fix = match loaded.origin {
            Origin::File { .. } => {
                "jitcommit init --write --force   (proposes the convention the history follows, with an adoption point; it replaces the one there)"
            }
            _ => {
                "jitcommit init --write   (writes the convention the history follows, with an adoption point)"
            }
        };
        out.push(fail(
            "history",
            format!("{detail}: the convention in force would refuse {refused} of them, so commits written the project's way are refused"),
            fix,
        ));
    } else {
        out.push(info("history", detail));
    }
}

/// Runs `jitcommit doctor`.
pub fn run(args: Vec<OsString>) -> Result<Outcome, Error> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut json = false;
    while let Some(arg) = p.next()? {
        match arg {
            Long("format") => {
                json = match p.value()?.to_string_lossy().as_ref() {
                    "text" => false,
                    "json" => true,
                    other => {
                        return Err(usage(format!(
                            "invalid value {other:?} for --format (expected text or json)"
                        )));
                    }
                }
            }
            Short('h') | Long("help") => return print(HELP),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let repo = crate::repo::discover_here()?;
    let mut checks = Vec::new();
    hooks(&repo, &mut checks);
    let conv = convention(&repo, &mut checks);
    if let Some(l) = &conv {
        history_fit(&repo, l, &mut checks);
    }
    model(&repo, conv.as_ref().map(|l| &l.convention), &mut checks);
    let all_ok = checks.iter().all(|c| c.status != "fail");
    if json {
        let v = serde_json::json!({ "ok": all_ok, "checks": checks });
        print(&format!("{v}\n"))?;
    } else {
        let mut s = String::new();
        for c in &checks {
            let tag = match c.status {
                "ok" => "ok  ",
                "info" => "info",
                _ => "FAIL",
            };
            s.push_str(&format!("{tag} {:<14} {}\n", c.check, c.detail));
            if let Some(f) = &c.fix {
                s.push_str(&format!("     {:<14} fix: {f}\n", ""));
            }
        }
        s.push_str(if all_ok {
            "\nAll good.\n"
        } else {
            "\nSomething is wrong: see the fix lines above.\n"
        });
        // Details quote the repository (hook names, paths, the convention): shown, never obeyed.
        print(&printable(&s))?;
    }
    Ok(if all_ok { Outcome::Ok } else { Outcome::Failed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hostile_config_is_read_without_a_crash() {
        let deep = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));
        let v = yaml(&deep).unwrap_or_default();
        assert!(!mentions(&v, "jitcommit-check"));
        let nested = format!(
            "commit-msg:{}\n",
            (0..40).fold(String::from(" jitcommit-check"), |acc, _| format!(
                " [{acc}]"
            ))
        );
        let v = yaml(&nested).unwrap_or_default();
        assert!(
            !mentions(&v["commit-msg"], "jitcommit-check"),
            "past DEPTH_MAX"
        );
        let v = yaml("commit-msg:\n  commands:\n    j:\n      run: jitcommit-check {1}\n");
        assert!(mentions(
            &v.unwrap_or_default()["commit-msg"],
            "jitcommit-check"
        ));
    }
}
