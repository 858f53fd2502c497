//! The server hooks: `--pre-receive` (`<old> <new> <ref>` lines on stdin) and
//! `--update REF OLD NEW`.
//!
//! The policy model (docs/check.md, "Policy model"): every ref answers to one policy —
//! `--config`, else the convention in the commit the ref pointed to before the push, else
//! (a new ref) the policy the ref had when a push last deleted it, else the default
//! branch's convention, else the built-in one. A ref update checks, under that ref's
//! policy, every commit that becomes reachable from the ref: reachable from the new tip
//! and neither from the old one nor from the default branch (the project's accepted
//! history, every commit of which came through this check under the default branch's
//! own policy). Whether a commit is already in the repository does not matter. Refs
//! with the same policy and the same stopping points share one walk, and a commit is
//! checked once per policy. A commit the policy's adoption point accepts (the point and
//! its ancestors: history from before the project adopted the convention) is accepted
//! as it is; the point is read from the policy, never from what is pushed. A push that
//! creates the default branch while it is unborn (HEAD names a branch that does not
//! exist) makes its history accepted history for every ref, so it answers to every
//! ref's policy as well.
//!
//! The first push into an empty repository (no ref, and no ref ever deleted by an
//! accepted push) brings the project's history: its commits are accepted as they are,
//! unchecked, unless `--check-first-push` says otherwise; every later push is checked
//! (docs/check.md, "The first push").
//!
//! A push that leaves a ref at a commit whose convention cannot be read is rejected
//! with the config error, before it lands. `refs/notes/*` are not project history and
//! are skipped. Output is plain text: it reaches the pusher as `remote:` lines.

use std::collections::HashSet;
use std::io::Read;
use std::path::PathBuf;

use jitcommit_core::config::{Loaded, Origin};
use jitcommit_core::repo::{self, ObjectId, Repo};

use crate::args::Settings;
use crate::error::CheckError;
use crate::modes::{
    Outcome, adopted, builtin, check_adopted_commits, convention_at, finish_history, policy_at,
    store_broken, tracing,
};
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

/// A policy and a phrase saying where it came from.
type Policy = (Loaded, String);

/// One ref update to check: its refname, peeled tip, policy and where its walk stops.
struct Incoming {
    refname: String,
    tip: ObjectId,
    policy: usize,
    hidden: Vec<ObjectId>,
}

impl Incoming {
    /// The update of `refname` to `tip` under `policy`, which joins `policies` unless an
    /// equal convention is there already (refs with one policy share its walks).
    fn under(
        policies: &mut Vec<Policy>,
        policy: Policy,
        refname: &str,
        tip: ObjectId,
        mut hidden: Vec<ObjectId>,
    ) -> Self {
        hidden.sort_unstable();
        hidden.dedup();
        let index = match policies
            .iter()
            .position(|(l, _)| l.convention == policy.0.convention)
        {
            Some(i) => i,
            None => {
                policies.push(policy);
                policies.len() - 1
            }
        };
        Incoming {
            refname: refname.to_owned(),
            tip,
            policy: index,
            hidden,
        }
    }
}

/// One walk: a policy, where it stops, the tips it starts from and their refs.
type Walk<'a> = (usize, &'a [ObjectId], Vec<ObjectId>, Vec<&'a str>);

/// Refs that are not project history: git's notes (`Notes added by 'git notes add'`
/// commits) never follow a message convention.
fn skipped(refname: &str) -> bool {
    refname.starts_with("refs/notes/")
}

fn run(settings: &Settings, updates: &[Update]) -> Result<Outcome, CheckError> {
    let cwd = super::current_dir()?;
    let repo = Repo::discover(&cwd)?;
    // Without the refs there is no default branch and no policy: fail closed.
    repo.refs_readable()?;
    let fixed = match &settings.config {
        Some(path) => Some(jitcommit_core::convention::load_file(path)?),
        None => None,
    };
    // Accepted history: what the default branch holds before the push.
    let accepted = repo.default_branch_commit();
    let first_push = !settings.check_first_push && is_empty(&repo)?;
    // The ref HEAD names, which may not exist yet (`git init --bare` says master).
    let default_ref = repo.head_ref();
    let mut policies: Vec<Policy> = Vec::new();
    let mut incoming = Vec::new();
    let mut broken = Vec::new();
    let mut deleted = Vec::new();
    let mut any_deleted = false;
    let mut stores_broken = false;
    for u in updates {
        if skipped(&u.refname) {
            continue;
        }
        if repo::is_zero_id(&u.new) {
            any_deleted = true;
            // A deletion brings no commits; its policy is kept for the ref's return.
            // An old id that names no commit here leaves nothing to keep.
            if fixed.is_none()
                && !repo::is_zero_id(&u.old)
                && let Some(old) = repo.peel_to_commit(parse_id(&u.old)?).ok().flatten()
            {
                deleted.push((u.refname.clone(), old));
            }
            continue;
        }
        let Some(tip) = repo.peel_to_commit(parse_id(&u.new)?)? else {
            continue; // a tag of a tree or blob: no history to check
        };
        match convention_at(&repo, tip) {
            Err(e) if fixed.is_none() => broken.push((u.refname.clone(), tip, e)),
            Err(_) => {}
            Ok(at_tip) => {
                let whence = format!(
                    "{} at {}: the fact store",
                    u.refname,
                    short(&tip.to_string())
                );
                let bytes = repo.read_file_at(tip, jitcommit_core::facts::FILE)?;
                stores_broken |=
                    store_broken(&whence, bytes, &at_tip.convention, || repo.tree_paths(tip))?;
            }
        }
        let (kept, mut hidden) = policy(fixed.as_ref(), &repo, u)?;
        hidden.extend(accepted);
        incoming.push(Incoming::under(
            &mut policies,
            kept,
            &u.refname,
            tip,
            hidden,
        ));
        if fixed.is_none()
            && accepted.is_none()
            && repo::is_zero_id(&u.old)
            && default_ref.as_deref() == Some(u.refname.as_str())
        {
            // The push creates the default branch, which HEAD names but which has no
            // commits yet: its history becomes every ref's accepted history, so it
            // answers to every policy a ref will have after the push.
            for (loaded, whence, hidden) in guards(&repo, updates, &u.refname)? {
                let kept = (loaded, whence);
                incoming.push(Incoming::under(
                    &mut policies,
                    kept,
                    &u.refname,
                    tip,
                    hidden,
                ));
            }
        }
    }

    // One walk per (policy, stopping points); a commit is checked once per policy.
    let mut groups: Vec<Walk<'_>> = Vec::new();
    for inc in &incoming {
        match groups
            .iter_mut()
            .find(|g| g.0 == inc.policy && g.1 == inc.hidden.as_slice())
        {
            Some(g) => {
                g.2.push(inc.tip);
                g.3.push(&inc.refname);
            }
            None => groups.push((inc.policy, &inc.hidden, vec![inc.tip], vec![&inc.refname])),
        }
    }
    let mut seen = HashSet::new();
    let mut checked: Vec<(ObjectId, usize, Option<&str>)> = Vec::new();
    let mut accepted_as_adopted = Vec::new();
    for (policy, hidden, tips, refs) in &groups {
        let ids = repo.commits_between(tips, hidden)?;
        // A first push is accepted whole: no adoption point to walk to.
        let held = match first_push {
            true => vec![false; ids.len()],
            false => adopted(&repo, &policies[*policy].0.convention, &ids, tips, hidden)?,
        };
        for (id, a) in ids.into_iter().zip(held) {
            if seen.insert((id, *policy)) {
                checked.push((id, *policy, (refs.len() == 1).then(|| refs[0])));
                accepted_as_adopted.push(a);
            }
        }
    }
    let jobs: Vec<_> = checked
        .iter()
        .map(|&(id, p, _)| {
            let conv = &policies[p].0.convention;
            (id, conv, tracing(settings, conv))
        })
        .collect();
    let mut out_lock = crate::output::stdout();
    let mut out = Printer::new(&mut out_lock, settings.format, Style::plain());
    // `fixup!` and friends are exempt on a server only when its own policy says so.
    let mut reports = if first_push {
        let mut ids: Vec<_> = checked.iter().map(|c| c.0).collect();
        ids.sort_unstable();
        ids.dedup();
        out.note(&format!(
            "jitcommit-check: the first push into this empty repository: its {} commits are \
             the project's history, accepted as they are; every later push is checked \
             (a stricter start: git config jitcommit.checkFirstPush true)",
            ids.len()
        ));
        Vec::new()
    } else {
        check_adopted_commits(&repo, &jobs, &accepted_as_adopted, fixed.is_some())?
    };
    let shown = reports.iter().filter(|r| !r.findings.is_empty()).count();
    let human = settings.format == crate::args::Format::Human;
    let mut rules = std::collections::BTreeMap::<&str, usize>::new();
    let mut listed = 0;
    for (r, (_, _, refname)) in reports.iter_mut().zip(&checked) {
        r.refname = refname.map(str::to_owned);
        if !r.findings.is_empty() {
            for f in &r.findings {
                *rules.entry(f.rule()).or_default() += 1;
            }
            listed += 1;
            // A push of thousands of commits: the first ones in full, then counts.
            if human && listed > SHOWN {
                continue;
            }
        }
        out.pushed(r);
    }
    if human && shown > SHOWN {
        let mut by_rule: Vec<_> = rules.into_iter().collect();
        by_rule.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        out.note(&format!(
            "jitcommit-check: {} more commits with findings are not shown (the first {SHOWN} are); findings by rule: {}",
            shown - SHOWN,
            by_rule
                .iter()
                .map(|(r, n)| format!("{r} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut outcome = finish_history(&mut out, &reports, "new commits");
    if outcome == Outcome::Findings {
        let mut whence: Vec<&str> = reports
            .iter()
            .zip(&checked)
            .filter(|(r, _)| !r.findings.is_empty())
            .map(|(_, (_, p, _))| policies[*p].1.as_str())
            .collect();
        whence.dedup();
        out.note(&format!(
            "jitcommit-check: push rejected; the convention is {}",
            whence.join("; ")
        ));
    }
    out.flush();
    if !broken.is_empty() {
        report_broken(&broken);
        outcome = Outcome::Findings;
    }
    if stores_broken {
        use std::io::Write as _;
        let _ = writeln!(
            crate::output::stderr(),
            "jitcommit-check: push rejected; fix the fact store and push again"
        );
        outcome = Outcome::Findings;
    }
    if outcome == Outcome::Clean {
        for (refname, old) in &deleted {
            keep_policy(&repo, refname, *old)?;
        }
        if any_deleted {
            // The repository had history: a push after its last ref is deleted is no
            // first push.
            let dir = repo.git_dir().join(DELETED_REFS);
            std::fs::create_dir_all(&dir).map_err(|source| CheckError::File {
                what: "create",
                path: dir,
                source,
            })?;
        }
    }
    Ok(outcome)
}

/// How many commits with findings a human-readable push report shows in full; the
/// rest are counted by rule.
const SHOWN: usize = 20;

/// Where the policies of deleted refs are kept, under the git dir.
const DELETED_REFS: &str = "jitcommit/deleted-refs";

/// Whether the repository is empty: no ref (notes aside), and no ref was ever deleted
/// by an accepted push (which leaves [`DELETED_REFS`]).
fn is_empty(repo: &Repo) -> Result<bool, CheckError> {
    let refs = repo.ref_tips()?;
    Ok(refs.iter().all(|(name, _)| skipped(name)) && !repo.git_dir().join(DELETED_REFS).exists())
}

/// Tells the pusher (on stderr, which reaches them as `remote:` lines in every output
/// format) which refs the push would leave at a convention that cannot be read.
fn report_broken(broken: &[(String, ObjectId, CheckError)]) {
    use std::io::Write;
    // A failed write changes nothing: the push is rejected either way.
    use jitcommit_core::term::printable;
    let mut err = crate::output::stderr();
    for (refname, tip, e) in broken {
        let _ = writeln!(
            err,
            "jitcommit-check: {} at {}: the convention there is invalid: {}",
            printable(refname),
            short(&tip.to_string()),
            printable(&e.to_string())
        );
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            let _ = writeln!(err, "  caused by: {}", printable(&s.to_string()));
            source = s.source();
        }
    }
    let _ = writeln!(
        err,
        "jitcommit-check: push rejected; fix the convention file and push again"
    );
}

/// The directory the policy of a deleted ref is kept in, under the git dir; `None` for
/// a name git would not accept as a ref (it never passes one).
fn kept_policy_dir(repo: &Repo, refname: &str) -> Option<PathBuf> {
    let safe = refname.starts_with("refs/")
        && refname
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains(['\\', '\0']));
    safe.then(|| {
        repo.git_dir()
            .join(DELETED_REFS)
            .join(format!("{refname}.policy"))
    })
}

/// The file that records the commit a deleted ref was at.
const KEPT_TIP: &str = "tip";

/// Records the policy `refname` answers to now that a push deletes it (it was at
/// `old`): a copy of the convention file it found there (an empty
/// `.commit-convention.toml` for the built-in one) and the commit, so that pushing the
/// ref again does not swap its convention for the default branch's. Written only once
/// the push is accepted.
fn keep_policy(repo: &Repo, refname: &str, old: ObjectId) -> Result<(), CheckError> {
    let Some(dir) = kept_policy_dir(repo, refname) else {
        return Ok(());
    };
    let Ok(loaded) = convention_at(repo, old) else {
        return Ok(()); // an unreadable convention is refused before it lands
    };
    let (name, bytes) = match &loaded.origin {
        Origin::File { path, .. } => {
            let rel = path.to_string_lossy();
            let bytes = repo.read_file_at(old, &rel)?.unwrap_or_default();
            (rel.into_owned(), bytes)
        }
        Origin::Builtin | Origin::Fitted { .. } => {
            (".commit-convention.toml".to_owned(), Vec::new())
        }
    };
    let write = |path: PathBuf, bytes: &[u8]| {
        let err = |source| CheckError::File {
            what: "write",
            path: path.clone(),
            source,
        };
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, bytes).map_err(err)?;
        std::fs::rename(&tmp, &path).map_err(err)
    };
    // Start from an empty directory: an older record may hold another file name.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|source| CheckError::File {
        what: "create",
        path: dir.clone(),
        source,
    })?;
    write(dir.join(&name), &bytes)?;
    write(dir.join(KEPT_TIP), format!("{old}\n").as_bytes())
}

/// The kept policy of a deleted ref and the commit it was at (when still here).
fn kept_policy(repo: &Repo, refname: &str) -> Result<Option<Kept>, CheckError> {
    let Some(dir) = kept_policy_dir(repo, refname) else {
        return Ok(None);
    };
    let Some(file) = [".commit-convention.toml", "pyproject.toml", "Cargo.toml"]
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file())
    else {
        return Ok(None);
    };
    let loaded = jitcommit_core::convention::load_file(&file)?;
    let tip = std::fs::read_to_string(dir.join(KEPT_TIP))
        .ok()
        .and_then(|hex| ObjectId::from_hex(hex.trim().as_bytes()).ok())
        .and_then(|id| repo.peel_to_commit(id).ok().flatten());
    Ok(Some((loaded, tip)))
}

/// The policies a new default branch answers to besides its own, with where each walk
/// stops: the convention every other ref will point to after the push (stopping at
/// what the ref holds before and after it, which answered to that ref already), and the
/// kept policy of every deleted ref (stopping where it was deleted). A ref
/// whose convention cannot be read adds nothing: the push that brings such a ref is
/// refused on its own, and one already there holds no convention to answer to.
fn guards(
    repo: &Repo,
    updates: &[Update],
    default_ref: &str,
) -> Result<Vec<(Loaded, String, Vec<ObjectId>)>, CheckError> {
    let mut out = Vec::new();
    let mut add = |at: ObjectId, refname: &str, hidden: Vec<ObjectId>| {
        if let Ok(l) = policy_at(repo, at) {
            let w = format!(
                "from {} at {} ({refname} after the push: a new default branch is \
                 accepted history for every ref)",
                l.origin,
                short(&at.to_string()),
            );
            out.push((l, w, hidden));
        }
    };
    let before = repo.ref_tips()?;
    let mut names: Vec<&str> = before.iter().map(|(n, _)| n.as_str()).collect();
    names.extend(updates.iter().map(|u| u.refname.as_str()));
    names.sort_unstable();
    names.dedup();
    for name in names {
        if name == default_ref || skipped(name) {
            continue;
        }
        let old = before.iter().find(|(n, _)| n == name).map(|(_, c)| *c);
        let after = match updates.iter().rev().find(|u| u.refname == name) {
            Some(u) if repo::is_zero_id(&u.new) => old, // deleted: its policy is kept
            Some(u) => repo.peel_to_commit(parse_id(&u.new)?)?,
            None => old,
        };
        if let Some(after) = after {
            // What the ref holds before and after the push answered to it already.
            add(after, name, old.into_iter().chain([after]).collect());
        }
    }
    for (refname, (loaded, kept_tip)) in kept_policies(repo)? {
        let w = format!(
            "the one {refname} had when it was deleted (kept in {}; a new default \
             branch is accepted history for every ref)",
            loaded.origin
        );
        out.push((loaded, w, kept_tip.into_iter().collect()));
    }
    Ok(out)
}

/// A deleted ref's kept policy and the commit it was deleted at (when still here).
type Kept = (Loaded, Option<ObjectId>);

/// Every kept policy of a deleted ref, by refname.
fn kept_policies(repo: &Repo) -> Result<Vec<(String, Kept)>, CheckError> {
    fn walk(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let full = format!("{prefix}{name}");
            match full.strip_suffix(".policy") {
                Some(refname) => out.push(refname.to_owned()),
                None => walk(&e.path(), &format!("{full}/"), out),
            }
        }
    }
    let mut names = Vec::new();
    walk(
        &repo.git_dir().join(DELETED_REFS).join("refs"),
        "refs/",
        &mut names,
    );
    names.sort();
    let mut out = Vec::new();
    for refname in names {
        if let Some(kept) = kept_policy(repo, &refname)? {
            out.push((refname, kept));
        }
    }
    Ok(out)
}

/// The policy for one ref update, a phrase saying where it came from, and the commits
/// whose history the ref already answered for (its old tip).
fn policy(
    fixed: Option<&Loaded>,
    repo: &Repo,
    u: &Update,
) -> Result<(Policy, Vec<ObjectId>), CheckError> {
    let old = match repo::is_zero_id(&u.old) {
        true => None,
        false => repo.peel_to_commit(parse_id(&u.old)?)?,
    };
    let hidden: Vec<ObjectId> = old.into_iter().collect();
    if let Some(l) = fixed {
        let w = format!("from {}", l.origin);
        return Ok(((l.clone(), w), hidden));
    }
    if let Some(before) = old {
        let l = policy_at(repo, before)?;
        let w = format!(
            "from {} at {} ({} before the push)",
            l.origin,
            short(&before.to_string()),
            u.refname
        );
        return Ok(((l, w), hidden));
    }
    if let Some((l, tip)) = kept_policy(repo, &u.refname)? {
        let w = format!(
            "the one {} had when it was deleted (kept in {})",
            u.refname, l.origin
        );
        return Ok(((l, w), tip.into_iter().collect()));
    }
    if let Some(default) = repo.default_branch_commit() {
        let l = policy_at(repo, default)?;
        let w = format!(
            "from {} on the default branch at {}",
            l.origin,
            short(&default.to_string())
        );
        return Ok(((l, w), hidden));
    }
    Ok(((builtin(), "the built-in one".into()), hidden))
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
