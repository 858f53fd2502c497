//! Compose: the prompt, from the change as the redaction gate let it through
//! ([`crate::prompt::PromptInput`] takes nothing else of the repository), within the
//! window of the model that will read it ([`crate::Client::fit`]) or the convention's.

use std::time::Instant;

use jitcommit_core::config::Convention;
use jitcommit_core::facts;
use jitcommit_core::repo::{LazyStaged, PathHistory, Repo};

use crate::budget::DoesNotFit;
use crate::prompt::{self, Prompt, PromptInput};
use crate::{Client, redact};

/// The draft's prompt for `input`: with a `client`, through [`Client::fit`] (the
/// convention's `[context]` window replaced by the one the fit chose, the final
/// prompt counted by the server's tokenizer through the gate), and without the guards
/// ([`Client::guards`]) the schema has no word patterns; with none, within the
/// convention's own window.
pub fn compose(
    client: Option<&Client>,
    deadline: Instant,
    input: &PromptInput,
) -> Result<Prompt, DoesNotFit> {
    let Some(client) = client else {
        return prompt::build_for(input);
    };
    let mut p = client.fit(
        deadline,
        |w| {
            let mut c = input.conv.clone();
            c.context.budget_tokens = w.context_tokens;
            c.context.reserve_output_tokens = w.output_tokens;
            prompt::build_for(&PromptInput { conv: &c, ..*input })
        },
        |p: &Prompt| redact::gate(&format!("{}\n{}", p.system, p.user)),
    )?;
    if !client.guards().small {
        p.schema = prompt::shown_schema(&p.schema);
    }
    Ok(p)
}

/// What a prompt is built from, for `--print-context` and the model's draft alike: the
/// staged change and the intent through the gate ([`super::redact`]), the convention,
/// the fact store, the message's structure (its type list from `history`) and the
/// convention's token counter, handed to `f`.
pub fn with_prompt_input<T>(
    repo: &Repo,
    staged: &LazyStaged,
    conv: &Convention,
    history: &PathHistory,
    store: &facts::Store,
    intent: Option<&str>,
    f: impl FnOnce(&PromptInput<'_>) -> T,
) -> T {
    let state = &staged.state;
    let counter = crate::tokens::BpeCounter::new(conv.context.encoding);
    let structure = super::gather::structure(repo, state, conv, history, store);
    // A file left unread is read here, when the composer may show it; unreadable, it
    // is left out (listed in the status list).
    let read = |i: usize| staged.read(repo, i).ok().flatten();
    let change = super::redact::redact(state, intent, &read);
    f(&PromptInput {
        change: &change,
        conv,
        structure: &structure,
        counter: &counter,
        store,
    })
}
