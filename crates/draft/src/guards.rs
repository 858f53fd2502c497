//! Guards sized to the model (docs/draft.md, "Guards sized to the model"): the word
//! grammar ([`crate::structure::WordPatterns`]) and the tight draft-quality gate
//! ([`crate::quality::Gate::Tight`]) are for small models, which without them write
//! filler and fall back to the offline draft; a larger model writes its own words and
//! gets the schema without word patterns and the ordinary gate. Below
//! [`TOOL_TYPE_MODEL_PARAMS`] a type the change settles stays the tool's, as the bench
//! showed a 1.5B model choosing types worse than the tool's rules.
//!
//! How large the model is comes from what the server already said about itself in
//! this run ([`crate::discover`]: no request of its own): Ollama's `/api/show`
//! `details.parameter_size`, llama.cpp's `/v1/models` `meta.n_params`, else a size in
//! the model's name (`qwen2.5-coder:0.5b`, `SmolLM2-135M-Instruct.gguf`). The setting
//! `jitcommit.guards` (`auto`, `small`, `large`) overrides it.

use crate::discover::{ServerInfo, ServerKind};
use crate::quality::Gate;
use crate::settings::Source;
pub use crate::settings::{GUARD_SETTINGS, GuardSetting};

/// Models below this many parameters are small: the guards are on. Measured
/// (docs/quality.md): SmolLM2-135M and Qwen2.5-Coder-0.5B need the word grammar to
/// end as model drafts; models from 1B up, which users run for drafting, write
/// words of their own.
pub const SMALL_MODEL_PARAMS: u64 = 1_000_000_000;

/// Models below this many parameters (and from [`SMALL_MODEL_PARAMS`] up) write their
/// own words, but the type the tool settles stands over theirs. Measured (docs/quality.md,
/// "The type by model size"): on 30 commits of three public projects,
/// Qwen2.5-Coder-1.5B's type agreed with the human's 4 times, the tool's 10, the
/// model answering `fix` or `refactor` on 27 of 30 whatever the evidence. No model
/// between 1.5B and 7B has been benched; from 7B up the model's type is taken.
pub const TOOL_TYPE_MODEL_PARAMS: u64 = 7_000_000_000;

/// Which guards a draft gets, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guards {
    /// The word grammar and the tight gate are on, and the tool's type, summary and
    /// breaking note stand over the model's: for a model known to be small (its size,
    /// or the setting, says so) and for one of unknown size, which a small model may
    /// be (a larger one only loses words, and `jitcommit.guards = large` gives them
    /// back).
    pub small: bool,
    /// The type the tool settles ([`crate::structure::Structure::tool_type_settled`])
    /// stands over the model's: for a small model, and for one below
    /// [`TOOL_TYPE_MODEL_PARAMS`].
    pub tool_type: bool,
    /// Why, in one line (`--print-context`'s `guards:` line, `JITCOMMIT_DEBUG`).
    pub why: String,
}

impl Guards {
    /// The draft-quality gate these guards ask for.
    pub fn gate(&self) -> Gate {
        if self.small {
            Gate::Tight
        } else {
            Gate::Ordinary
        }
    }

    /// One line: which guards apply, why, and how to change them.
    pub fn line(&self) -> String {
        let (what, other) = if self.small {
            (
                "word grammar, tight gate, the tool's type, summary and breaking note on",
                "large",
            )
        } else if self.tool_type {
            (
                "word grammar, tight gate, the tool's summary and breaking note off; the type the tool settles on",
                "large",
            )
        } else {
            (
                "word grammar, tight gate, the tool's type, summary and breaking note off",
                "small",
            )
        };
        format!(
            "{what}: {}; to change: git config jitcommit.guards {other} (or auto, by the model's size)",
            self.why
        )
    }
}

/// The guards for `setting` (from `from`), given what the server said (`info`) and
/// the configured `model` name.
pub fn decide(setting: GuardSetting, from: &Source, info: &ServerInfo, model: &str) -> Guards {
    match setting {
        GuardSetting::Small => {
            return Guards {
                small: true,
                tool_type: true,
                why: format!("set to small by {from}"),
            };
        }
        GuardSetting::Large => {
            return Guards {
                small: false,
                tool_type: false,
                why: format!("set to large by {from}"),
            };
        }
        GuardSetting::Auto => {}
    }
    let sized = match (info.params, &info.params_from) {
        (Some(n), Some(from)) => Some((n, from.clone())),
        _ => crate::discover::size_in_name(model).map(|n| (n, format!("the model name {model:?}"))),
    };
    match sized {
        Some((n, from)) if n < SMALL_MODEL_PARAMS => Guards {
            small: true,
            tool_type: true,
            why: format!(
                "a small model ({} parameters, from {from}; below 1B)",
                shown_params(n)
            ),
        },
        Some((n, from)) if n < TOOL_TYPE_MODEL_PARAMS => Guards {
            small: false,
            tool_type: true,
            why: format!(
                "a model of {} parameters (from {from}; 1B or more, below 7B: its type agreed with people's less often than the tool's)",
                shown_params(n)
            ),
        },
        Some((n, from)) => Guards {
            small: false,
            tool_type: false,
            why: format!(
                "a larger model ({} parameters, from {from}; 7B or more)",
                shown_params(n)
            ),
        },
        // OpenAI's hosted models are large, and its server gets no grammar anyway.
        None if info.kind == ServerKind::OpenAi => Guards {
            small: false,
            tool_type: false,
            why: "OpenAI's hosted model (its size is not said; none is small)".to_owned(),
        },
        None => Guards {
            small: true,
            tool_type: true,
            why: format!(
                "the model's size is unknown ({} said none, the name {model:?} holds none); on, as a small model needs them and a larger one only loses words",
                info.kind.name()
            ),
        },
    }
}

/// `135M`, `0.5B`, `7B` for a parameter count.
pub fn shown_params(n: u64) -> String {
    let (unit, div) = if n >= 1_000_000_000 {
        ("B", 1e9)
    } else {
        ("M", 1e6)
    };
    let v = n as f64 / div;
    let s = if v >= 100.0 || (v - v.round()).abs() < 0.05 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    };
    format!("{s}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::discover::{parse_params, size_in_name};

    #[test]
    fn sizes_as_servers_and_names_say_them() {
        for (text, want) in [
            ("135M", 135_000_000),
            ("494.03M", 494_030_000),
            ("7.6B", 7_600_000_000),
            ("0.5b", 500_000_000),
            ("1T", 1_000_000_000_000),
        ] {
            assert_eq!(parse_params(text), Some(want), "{text}");
        }
        for text in ["", "B", "7", "seven B", "-1B", "1e9B", "0M", "1.2.3B"] {
            assert_eq!(parse_params(text), None, "{text}");
        }
        for (name, want) in [
            ("qwen2.5-coder:0.5b", Some(500_000_000)),
            ("qwen2.5-coder-0.5b", Some(500_000_000)),
            ("SmolLM2-135M-Instruct.Q4_1.gguf", Some(135_000_000)),
            ("models/SmolLM2-135M-Instruct.gguf", Some(135_000_000)),
            ("Qwen/Qwen2.5-7B-Instruct", Some(7_000_000_000)),
            ("llama3.2:1b", Some(1_000_000_000)),
            ("gemma3:270m", Some(270_000_000)),
            ("qwen3:30b-a3b", Some(30_000_000_000)),
            ("llama3.2", None),
            ("phi3:mini", None),
            ("mixtral:8x7b", None),
            ("smollm2", None),
            ("gpt-4o-mini", None),
            ("test-model", None),
        ] {
            assert_eq!(size_in_name(name), want, "{name}");
        }
        assert_eq!(shown_params(134_515_008), "135M");
        assert_eq!(shown_params(494_030_000), "494M");
        assert_eq!(shown_params(500_000_000), "500M");
        assert_eq!(shown_params(7_615_616_512), "7.6B");
        assert_eq!(shown_params(1_000_000_000), "1B");
    }

    #[test]
    fn the_size_decides_unless_the_setting_does() {
        let mut info = ServerInfo::unknown();
        let auto = |info: &ServerInfo, model: &str| {
            decide(GuardSetting::Auto, &Source::Default, info, model)
        };
        // Unknown: guarded.
        let g = auto(&info, "smollm2");
        assert!(g.small && g.why.contains("unknown"), "{g:?}");
        assert!(
            g.line().contains("summary and breaking note on"),
            "{}",
            g.line()
        );
        assert!(
            g.line().ends_with(
                "; to change: git config jitcommit.guards large (or auto, by the model's size)"
            ),
            "{}",
            g.line()
        );
        assert_eq!(g.gate(), Gate::Tight);
        // The name, when the server says nothing.
        let g = auto(&info, "qwen2.5-coder:7b");
        assert!(
            !g.small && !g.tool_type && g.why.contains("the model name"),
            "{g:?}"
        );
        assert_eq!(g.gate(), Gate::Ordinary);
        // From 1B to below 7B: the model's words, the type the tool settles.
        let g = auto(&info, "qwen2.5-coder:1.5b");
        assert!(!g.small && g.tool_type && g.why.contains("1.5B"), "{g:?}");
        assert_eq!(g.gate(), Gate::Ordinary);
        assert!(
            g.line().contains("the type the tool settles on")
                && g.line().contains("git config jitcommit.guards large"),
            "{}",
            g.line()
        );
        // The server's word beats the name.
        info.params = Some(494_030_000);
        info.params_from = Some("Ollama /api/show details.parameter_size".into());
        let g = auto(&info, "qwen2.5-coder:7b");
        assert!(g.small, "{g:?}");
        assert!(
            g.line().contains("type, summary and breaking note on"),
            "{}",
            g.line()
        );
        assert!(
            g.why.contains("494M") && g.why.contains("/api/show"),
            "{g:?}"
        );
        info.params = Some(1_000_000_000);
        assert!(!auto(&info, "m").small && auto(&info, "m").tool_type);
        info.params = Some(7_000_000_000);
        assert!(!auto(&info, "m").tool_type);
        // The setting beats both, and says where it came from.
        let g = decide(
            GuardSetting::Large,
            &Source::GitConfig("jitcommit.guards"),
            &info,
            "tiny-135m",
        );
        assert!(
            !g.small && !g.tool_type && g.why.contains("jitcommit.guards"),
            "{g:?}"
        );
        info.params = Some(70_000_000_000);
        let g = decide(
            GuardSetting::Small,
            &Source::Env("JITCOMMIT_GUARDS"),
            &info,
            "m",
        );
        assert!(g.small && g.why.contains("JITCOMMIT_GUARDS"), "{g:?}");
        // OpenAI says no size and is no small model.
        let mut openai = ServerInfo::unknown();
        openai.kind = ServerKind::OpenAi;
        assert!(!auto(&openai, "gpt-4o-mini").small);
    }
}
