//! The server hooks: `--pre-receive` (`<old> <new> <ref>` lines on stdin) and
//! `--update REF OLD NEW`. Every commit new to the repository is checked once: one walk
//! over all pushed tips that stops at everything reachable from existing refs.
//!
//! The policy comes from the server, never from the push: `--config`, else the
//! convention in the commit the ref pointed to before the push, else the default
//! branch's, else the built-in one. Output is plain text: it reaches the pusher as
//! `remote:` lines.

use std::collections::HashMap;
use std::io::Read;

use jitcommit_core::config::Loaded;
use jitcommit_core::repo::{self, ObjectId, Repo};

use crate::args::Settings;
use crate::error::CheckError;
use crate::modes::{Outcome, builtin, check_commits, convention_at, finish_history, tracing};
use crate::output::{Printer, Style, short};

/// One ref update as git reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Update {
    /// The full ref name.
    pub refname: String,
    /// The old id, zeros on create.
    pub old: String,
    /// The new id, zeros on delete.
    pub new: String,
}

/// Parses pre-receive's stdin. Blank lines are skipped; anything else must be
/// `<old> <new> <ref>` with ids of 40 or 64 hex digits.
pub fn parse_lines(text: &str) -> Result<Vec<Update>, CheckError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |problem| CheckError::PushLine {
            line: n + 1,
            problem,
            text: line.to_string(),
        };
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [old, new, refname] = parts[..] else {
            return Err(bad("not three fields"));
        };
        if !is_hex_id(old) {
            return Err(bad("the old id is not an object id"));
        }
        if !is_hex_id(new) {
            return Err(bad("the new id is not an object id"));
        }
        if old.len() != new.len() {
            return Err(bad("the old and new ids differ in length"));
        }
        out.push(Update {
            refname: refname.into(),
            old: old.into(),
            new: new.into(),
        });
    }
    Ok(out)
}

fn is_hex_id(s: &str) -> bool {
    matches!(s.len(), 40 | 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `--pre-receive`.
pub fn pre_receive(settings: &Settings) -> Result<Outcome, CheckError> {
    let mut buf = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut buf)
        .map_err(CheckError::Stdin)?;
    let text = String::from_utf8(buf).map_err(|e| CheckError::PushLine {
        line: 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count(),
        problem: "not UTF-8",
        text: String::new(),
    })?;
    run(settings, &parse_lines(&text)?)
}

/// `--update REF OLD NEW`.
pub fn update(
    settings: &Settings,
    refname: &str,
    old: &str,
    new: &str,
) -> Result<Outcome, CheckError> {
    for (what, value) in [("OLD", old), ("NEW", new)] {
        if !is_hex_id(value) {
            return Err(CheckError::UpdateId {
                what,
                value: value.into(),
            });
        }
    }
    run(
        settings,
        &[Update {
            refname: refname.into(),
            old: old.into(),
            new: new.into(),
        }],
    )
}

/// A ref update that brings commits: its peeled tip and the policy it is checked by.
struct Incoming {
    refname: String,
    tip: ObjectId,
    policy: usize,
}

fn run(settings: &Settings, updates: &[Update]) -> Result<Outcome, CheckError> {
    let cwd = super::current_dir()?;
    let repo = Repo::discover(&cwd)?;
    let mut policies: Vec<(Loaded, String)> = Vec::new();
    let mut incoming = Vec::new();
    for u in updates {
        if repo::is_zero_id(&u.new) {
            continue; // deletions bring no commits
        }
        let Some(tip) = repo.peel_to_commit(parse_id(&u.new)?)? else {
            continue; // a tag of a tree or blob: no history to check
        };
        let (loaded, whence) = policy(settings, &repo, u)?;
        let index = match policies
            .iter()
            .position(|(l, _)| l.convention == loaded.convention)
        {
            Some(i) => i,
            None => {
                policies.push((loaded, whence));
                policies.len() - 1
            }
        };
        incoming.push(Incoming {
            refname: u.refname.clone(),
            tip,
            policy: index,
        });
    }
    if incoming.is_empty() {
        return Ok(Outcome::Clean);
    }
    let tips: Vec<ObjectId> = incoming.iter().map(|i| i.tip).collect();
    let new = repo.new_commits(&tips)?;

    // Which ref brought each commit, for its policy and the report. One ref or one
    // policy (the common cases) need no more walks; otherwise each commit is charged to
    // the first ref, in git's order, that reaches it.
    let mut owner: HashMap<ObjectId, usize> = HashMap::new();
    if incoming.len() > 1 && policies.len() > 1 {
        for (i, inc) in incoming.iter().enumerate() {
            for id in repo.new_commits(&[inc.tip])? {
                owner.entry(id).or_insert(i);
            }
        }
    }
    let mut out_lock = std::io::stdout().lock();
    let mut out = Printer::new(&mut out_lock, settings.format, Style::plain());
    let who = |id: &ObjectId| owner.get(id).copied().unwrap_or(0);
    let jobs: Vec<_> = new
        .iter()
        .map(|id| {
            let (loaded, _) = &policies[incoming[who(id)].policy];
            (
                *id,
                &loaded.convention,
                tracing(settings, &loaded.convention),
            )
        })
        .collect();
    let mut reports = check_commits(&repo, &jobs)?;
    for (r, id) in reports.iter_mut().zip(&new) {
        if incoming.len() == 1 || !owner.is_empty() {
            r.refname = Some(incoming[who(id)].refname.clone());
        }
        out.pushed(r);
    }
    let outcome = finish_history(&mut out, &reports, "new commits");
    if outcome == Outcome::Findings {
        let whence: Vec<&str> = policies.iter().map(|(_, w)| w.as_str()).collect();
        out.note(&format!(
            "jitcommit-check: push rejected; the convention is {}",
            whence.join("; ")
        ));
    }
    out.flush();
    Ok(outcome)
}

/// The policy for one ref update and a phrase saying where it came from.
fn policy(settings: &Settings, repo: &Repo, u: &Update) -> Result<(Loaded, String), CheckError> {
    if let Some(path) = &settings.config {
        let l = jitcommit_core::config::load_file(path)?;
        let w = format!("from {}", l.origin);
        return Ok((l, w));
    }
    if !repo::is_zero_id(&u.old)
        && let Some(before) = repo.peel_to_commit(parse_id(&u.old)?)?
    {
        let l = convention_at(repo, before)?;
        let w = format!(
            "from {} at {} ({} before the push)",
            l.origin,
            short(&before.to_string()),
            u.refname
        );
        return Ok((l, w));
    }
    if let Some(default) = repo.default_branch_commit() {
        let l = convention_at(repo, default)?;
        let w = format!(
            "from {} on the default branch at {}",
            l.origin,
            short(&default.to_string())
        );
        return Ok((l, w));
    }
    let l = builtin();
    Ok((l, "the built-in one".into()))
}

fn parse_id(hex: &str) -> Result<ObjectId, CheckError> {
    ObjectId::from_hex(hex.as_bytes()).map_err(|_| CheckError::UpdateId {
        what: "id",
        value: hex.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const Z: &str = "0000000000000000000000000000000000000000";

    #[test]
    fn lines_parse() {
        let u = parse_lines(&format!("{Z} {A} refs/heads/x\n\n{A} {Z} refs/tags/v1\n")).unwrap();
        assert_eq!(u.len(), 2);
        assert_eq!(
            u[0],
            Update {
                refname: "refs/heads/x".into(),
                old: Z.into(),
                new: A.into()
            }
        );
        let long = "2".repeat(64);
        let zero64 = "0".repeat(64);
        assert_eq!(
            parse_lines(&format!("{zero64} {long} refs/heads/y")).unwrap()[0].new,
            long
        );
    }

    #[test]
    fn malformed_lines_name_the_line() {
        let e = parse_lines(&format!("{Z} {A} refs/heads/x\n{A} refs/heads/y\n"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("three fields"), "{e}");
        let e = parse_lines(&format!("xyz {A} refs/heads/x"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("old id"), "{e}");
        let e = parse_lines(&format!("{A} {} refs/heads/x", "3".repeat(64)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("length"), "{e}");
        let e = parse_lines(&format!("{A} {A} a b"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("three fields"), "{e}");
    }
}
