//! The offline summary's words for what a change does, where the file it changes says
//! more than its name (issue 45, "the offline summary says what changed"): a
//! dependency bump names the dependency and its versions ([`deps`]); a document names
//! the link or section it adds ([`docs`]); a configuration file names the key it adds,
//! removes or changes ([`docs::config_summary`]); a move names both places; images are
//! counted. The offline draft ([`crate::offline`]) asks [`summary`] first and keeps its
//! own words where this has none; every summary then goes through [`finish`]: never a
//! URL or a Markdown link, never a verb with nothing after it, never cut inside a word.
//!
//! Pure functions of the staged files' paths and hunks.

pub mod deps;
pub mod docs;

use jitcommit_core::repo::{ChangeKind, FileDiff};

/// A path's bytes as text (lossy), as the offline draft reads paths.
pub(crate) fn lossy(p: &[u8]) -> String {
    String::from_utf8_lossy(p).into_owned()
}

/// A hunk's lines as (sign, text): `+`, `-` or ` `; git's `\ No newline` notes left out.
fn signed(h: &jitcommit_core::repo::Hunk) -> Vec<(char, &str)> {
    h.body
        .lines()
        .filter_map(|l| {
            let sign = l.chars().next()?;
            matches!(sign, '+' | '-' | ' ').then(|| (sign, &l[1..]))
        })
        .collect()
}

/// A line that says nothing: blank, or a `#` comment.
fn quiet(text: &str) -> bool {
    let t = text.trim();
    t.is_empty() || t.starts_with('#')
}

/// What the change does, in at most `room` characters, when its files say more than
/// their names: a dependency bump, a move, images, a document's link or section, a
/// configuration key. `None` leaves the summary to the offline draft's own rules.
pub fn summary(files: &[FileDiff], room: usize) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let paths: Vec<String> = files.iter().map(|f| lossy(&f.change.path)).collect();
    let hunks: Vec<(&str, &[jitcommit_core::repo::Hunk])> = paths
        .iter()
        .zip(files)
        .map(|(p, f)| (p.as_str(), f.hunks.as_slice()))
        .collect();
    if let Some(bumps) = deps::changes(&hunks) {
        return deps::summary(&bumps, room);
    }
    if let Some(s) = moves(files, room) {
        return Some(s);
    }
    if let Some(s) = docs::images(&paths, files.iter().map(|f| f.change.kind), room) {
        return Some(s);
    }
    None
}

/// What the dominant file of a change says beyond its name, for the offline draft's
/// last resort (`update <file>`): a document's link or section, a workflow's steps, a
/// configuration file's keys.
pub fn file_summary(
    path: &str,
    hunks: &[jitcommit_core::repo::Hunk],
    room: usize,
) -> Option<String> {
    docs::document_summary(path, hunks, room)
        .or_else(|| docs::workflow_summary(path, hunks, room))
        .or_else(|| docs::config_summary(path, hunks, room))
}

/// The summary when nothing better is left: the one file's name, else how many files.
pub fn fallback(paths: &[String], room: usize) -> String {
    let name = match paths {
        [one] => one.rsplit('/').next().unwrap_or(one).to_owned(),
        _ => format!("{} files", paths.len()),
    };
    let s = format!("update {name}");
    if s.chars().count() <= room {
        s
    } else {
        format!("update {} files", paths.len())
    }
}

/// A move names both places: `move report.py to src/app/`, `move guide/a.rst to
/// manual/a.rst`; several files from one directory to another: `move 3 files from
/// docs/old to docs/new`. Only for a change whose every file is renamed.
fn moves(files: &[FileDiff], room: usize) -> Option<String> {
    let pairs: Vec<(String, String)> = files
        .iter()
        .map(|f| match (f.change.kind, &f.change.old_path) {
            (ChangeKind::Renamed, Some(old)) => Some((lossy(old), lossy(&f.change.path))),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if let [(old, new)] = pairs.as_slice() {
        return moved(old, new, room);
    }
    let from: Vec<String> = pairs.iter().map(|(o, _)| dir(o)).collect();
    let to: Vec<String> = pairs.iter().map(|(_, n)| dir(n)).collect();
    if !from.iter().all(|d| *d == from[0]) || !to.iter().all(|d| *d == to[0]) || from[0] == to[0] {
        return None;
    }
    [
        format!(
            "move {} files from {} to {}",
            pairs.len(),
            shown(&from[0]),
            shown(&to[0])
        ),
        format!("move {} files to {}", pairs.len(), shown(&to[0])),
    ]
    .into_iter()
    .find(|c| c.chars().count() <= room)
}

fn dir(p: &str) -> String {
    p.rsplit_once('/')
        .map_or(String::new(), |(d, _)| d.to_owned())
}

fn shown(d: &str) -> String {
    if d.is_empty() {
        "the top level".to_owned()
    } else {
        format!("{d}/")
    }
}

/// One file moved, by both places: `move report.py to src/app/report.py`, shorter
/// `move report.py to src/app/`; `None` when it is renamed in place (the offline
/// draft's `rename`) or nothing fits `room`.
pub fn moved(old: &str, new: &str, room: usize) -> Option<String> {
    if dir(old) == dir(new) {
        return None;
    }
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
    let mut candidates = vec![format!("move {old} to {new}")];
    if name(old) == name(new) {
        candidates.push(format!("move {} to {}", name(old), shown(&dir(new))));
    }
    candidates.push(format!("move {} to {}", name(old), name(new)));
    candidates.into_iter().find(|c| c.chars().count() <= room)
}

/// The summary as the subject holds it: Markdown links reduced to their words and URLs
/// dropped ([`docs::plain`]), then shortened at a phrase boundary to `room`
/// characters, never inside a word. `None` when no verb and object are left (a link
/// alone, `update ` with nothing after it): the caller says it another way.
pub fn finish(summary: &str, room: usize) -> Option<String> {
    let plain = docs::plain(summary);
    let fits = |s: &str| s.chars().count() <= room && has_object(s);
    if fits(&plain) {
        return Some(plain);
    }
    let shortened = jitcommit_core::message::shorten(&plain, room);
    if fits(&shortened) && shortened.chars().count() * 3 >= room * 2 {
        return Some(shortened);
    }
    // One long identifier (`add test_command_shows_description_when_…`): its words.
    let spelled: String = plain
        .split(' ')
        .map(|w| {
            if w.matches('_').count() >= 2 {
                w.trim_start_matches("test_").replace('_', " ")
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let spelled = jitcommit_core::message::shorten(&spelled, room);
    if fits(&spelled) {
        return Some(spelled);
    }
    fits(&shortened).then_some(shortened)
}

/// A verb and something after it: two words, the second with a letter or a digit.
fn has_object(s: &str) -> bool {
    let mut words = s.split_whitespace();
    words.next().is_some()
        && words
            .next()
            .is_some_and(|w| w.chars().any(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(kind: ChangeKind, path: &str, old: Option<&str>, body: &str) -> FileDiff {
        let mut f = crate::fixtures::file(kind, path, old, &["@@ -1,3 +1,4 @@"]);
        f.hunks[0].body = body.to_owned();
        if body.is_empty() {
            f.hunks.clear();
        }
        f
    }

    #[test]
    fn a_move_names_both_places() {
        let f = file(
            ChangeKind::Renamed,
            "src/app/report.py",
            Some("report.py"),
            "",
        );
        assert_eq!(
            summary(std::slice::from_ref(&f), 66).as_deref(),
            Some("move report.py to src/app/report.py")
        );
        assert_eq!(
            summary(&[f], 30).as_deref(),
            Some("move report.py to src/app/")
        );
        let many: Vec<FileDiff> = ["a.md", "b.md", "c.md"]
            .iter()
            .map(|n| {
                file(
                    ChangeKind::Renamed,
                    &format!("guide/{n}"),
                    Some(&format!("docs/old/{n}")),
                    "",
                )
            })
            .collect();
        assert_eq!(
            summary(&many, 66).as_deref(),
            Some("move 3 files from docs/old/ to guide/")
        );
        // Renamed in place is the offline draft's `rename`.
        let f = file(ChangeKind::Renamed, "src/b.rs", Some("src/a.rs"), "");
        assert_eq!(summary(&[f], 66), None);
    }

    #[test]
    fn a_bump_is_asked_first() {
        let f = file(
            ChangeKind::Modified,
            "pyproject.toml",
            None,
            "-  \"rich ~= 14.0\",\n+  \"rich ~= 15.0\",\n",
        );
        assert_eq!(
            summary(&[f], 66).as_deref(),
            Some("bump rich from 14.0 to 15.0")
        );
    }

    #[test]
    fn finish_never_leaves_a_link_a_cut_word_or_a_bare_verb() {
        assert_eq!(
            finish("method 1: Using [pre-commit](https://pre-commit.com/)", 60).as_deref(),
            Some("method 1: Using pre-commit")
        );
        assert_eq!(finish("update ", 60), None);
        assert_eq!(finish("see https://example.com/x", 60), None);
        assert_eq!(
            finish(
                "add test_command_shows_description_when_use_help_option_py3_13",
                50
            )
            .as_deref(),
            Some("add command shows description when use help option")
        );
        let s = finish(
            "add parse_duration to parse a duration given in hours and minutes",
            40,
        )
        .unwrap();
        assert!(
            s.chars().count() <= 40
                && "add parse_duration to parse a duration given in hours and minutes"
                    .starts_with(&s),
            "{s}"
        );
        assert!(!s.ends_with(" a") && !s.ends_with(" in"), "{s}");
    }
}
