//! Words for a change of prose, images and configuration: the link or section a
//! document gains or loses (a link by its words, never its URL), the keys a
//! configuration file adds, removes or changes, how many images change; and
//! [`plain`], which keeps a URL or a Markdown link out of any summary.

use std::sync::LazyLock;

use jitcommit_core::repo::{ChangeKind, Hunk};
use regex::Regex;

use crate::words::{GENERIC_KEYS, IMAGE_EXTENSIONS};

static MD_LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)").unwrap_or_else(|e| unreachable!("{e}"))
});
static RST_LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"`([^`<]+?)\s*<([^>]+)>`__?").unwrap_or_else(|e| unreachable!("{e}"))
});
static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<?[A-Za-z][A-Za-z0-9+.-]*://[^\s>)]*>?|<?\bwww\.[^\s>)]+>?")
        .unwrap_or_else(|e| unreachable!("{e}"))
});

/// `text` with every Markdown or reStructuredText link reduced to its words and every
/// URL dropped, spaces collapsed, and no punctuation left dangling at its end:
/// `Using [pre-commit](https://pre-commit.com/)` → `Using pre-commit`.
pub fn plain(text: &str) -> String {
    let t = MD_LINK.replace_all(text, "$1");
    let t = RST_LINK.replace_all(&t, "$1");
    let t = URL.replace_all(&t, "");
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    t.trim_end_matches(|c: char| c.is_whitespace() || ",;:-–—(/".contains(c))
        .trim_start_matches(|c: char| c.is_whitespace() || ",;:-–—)".contains(c))
        .to_owned()
}

/// A change of images only: `update 5 images in docs/images`, `add image logo.png`.
pub fn images(
    paths: &[String],
    kinds: impl Iterator<Item = ChangeKind>,
    room: usize,
) -> Option<String> {
    let image = |p: &str| {
        p.rsplit_once('.')
            .is_some_and(|(_, e)| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
    };
    if paths.is_empty() || !paths.iter().all(|p| image(p)) {
        return None;
    }
    let kinds: Vec<ChangeKind> = kinds.collect();
    let verb = if kinds.iter().all(|k| *k == ChangeKind::Added) {
        "add"
    } else if kinds.iter().all(|k| *k == ChangeKind::Deleted) {
        "remove"
    } else {
        "update"
    };
    let candidates = if let [one] = paths {
        let name = one.rsplit('/').next().unwrap_or(one);
        vec![format!("{verb} image {name}")]
    } else {
        let dirs: Vec<&str> = paths
            .iter()
            .map(|p| p.rsplit_once('/').map_or("", |(d, _)| d))
            .collect();
        let mut out = Vec::new();
        if !dirs[0].is_empty() && dirs.iter().all(|d| *d == dirs[0]) {
            out.push(format!("{verb} {} images in {}", paths.len(), dirs[0]));
        }
        out.push(format!("{verb} {} images", paths.len()));
        out
    };
    candidates.into_iter().find(|c| c.chars().count() <= room)
}

fn prose(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".markdown", ".rst", ".adoc", ".txt", ".mdx"]
        .iter()
        .any(|e| lower.ends_with(e))
}

/// A line's links: (words, target).
fn links(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = MD_LINK
        .captures_iter(text)
        .map(|c| (c[1].trim().to_owned(), c[2].to_owned()))
        .collect();
    out.extend(
        RST_LINK
            .captures_iter(text)
            .map(|c| (c[1].trim().to_owned(), c[2].to_owned())),
    );
    out.retain(|(w, _)| w.chars().any(char::is_alphabetic) && !w.contains("://"));
    out
}

/// A Markdown heading's words (`## How to run` → `How to run`), or a reStructuredText
/// title's (a line underlined by the next one).
fn heading(text: &str, next: Option<&str>) -> Option<String> {
    let t = text.trim_end();
    let hashes = t.len() - t.trim_start_matches('#').len();
    let words = if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
        t[hashes..].trim().trim_end_matches('#').trim().to_owned()
    } else {
        let under = next?.trim_end();
        let c = under.chars().next()?;
        let underlined = "=-~^\"'`#*+".contains(c)
            && under.chars().all(|x| x == c)
            && under.chars().count() >= t.trim().chars().count()
            && !t.trim().is_empty()
            && t.chars().any(char::is_alphabetic);
        if !underlined {
            return None;
        }
        t.trim().to_owned()
    };
    let words = plain(&words.replace(['`', '*'], ""));
    words.chars().any(char::is_alphabetic).then_some(words)
}

/// What a document's diff adds or changes, named by its words: a link added (`add link
/// to the contributing guide`) or pointed elsewhere (`update link to X`), a section it
/// adds or removes (`add section Performance`, `remove section Old way`), else the section its first change falls in
/// (`update Installation in README.md`). Only for prose files.
pub fn document_summary(path: &str, hunks: &[Hunk], room: usize) -> Option<String> {
    if !prose(path) {
        return None;
    }
    let file = path.rsplit('/').next().unwrap_or(path);
    let mut added_links: Vec<(String, String)> = Vec::new();
    let mut removed_links: Vec<(String, String)> = Vec::new();
    let mut removed_headings: Vec<String> = Vec::new();
    let mut added_headings: Vec<String> = Vec::new();
    let mut section: Option<String> = None;
    let mut added_text = String::new();
    let mut removed_text = String::new();
    for h in hunks {
        let lines = super::signed(h);
        let mut last_heading: Option<String> = None;
        for (i, (sign, text)) in lines.iter().enumerate() {
            // The next line on the same side, for a reStructuredText underline.
            let next = lines[i + 1..]
                .iter()
                .find(|(s, _)| *s == ' ' || *s == *sign)
                .map(|(_, t)| *t);
            let head = heading(text, next);
            match sign {
                '+' => {
                    added_text.push_str(text);
                    added_text.push('\n');
                    added_links.extend(links(text));
                    added_headings.extend(head.clone());
                }
                '-' => {
                    removed_text.push_str(text);
                    removed_text.push('\n');
                    removed_links.extend(links(text));
                    removed_headings.extend(head.clone());
                }
                _ => {}
            }
            if *sign != '-' && head.is_some() {
                last_heading = head;
            }
            if *sign != ' ' && section.is_none() {
                section = last_heading.clone().or_else(|| heading_of(&h.header));
            }
        }
    }
    let mut candidates: Vec<String> = Vec::new();
    let stem = file.split('.').next().unwrap_or(file).to_ascii_uppercase();
    if matches!(stem.as_str(), "CHANGELOG" | "CHANGES" | "HISTORY" | "NEWS") {
        // Its entries are other commits' words: it is the changelog that changes.
        return Some("update the changelog".to_owned()).filter(|c| c.len() <= room);
    }
    let new_words: Vec<&(String, String)> = added_links
        .iter()
        .filter(|(w, _)| !removed_links.iter().any(|(rw, _)| rw == w))
        .collect();
    let moved: Vec<&(String, String)> = added_links
        .iter()
        .filter(|(w, t)| removed_links.iter().any(|(rw, rt)| rw == w && rt != t))
        .collect();
    let gone_sections: Vec<&String> = removed_headings
        .iter()
        .filter(|h| !added_headings.contains(h))
        .collect();
    if let Some((w, _)) = moved.first() {
        candidates.push(format!("update link to {w}"));
        candidates.push(format!("update links in {file}"));
    } else if let Some((w, _)) = new_words.first() {
        candidates.push(format!("add link to {w}"));
        candidates.push(format!("add links to {file}"));
    } else if let Some(h) = added_headings
        .iter()
        .find(|h| !removed_headings.contains(h))
    {
        candidates.push(format!("add section {h}"));
    } else if let Some(h) = gone_sections.first() {
        candidates.push(format!("remove section {h}"));
    } else if let Some(s) = &section {
        candidates.push(format!("update {s} in {file}"));
        candidates.push(format!("update {s}"));
    } else if let Some(term) = {
        let before = code_spans(&removed_text);
        code_spans(&added_text)
            .into_iter()
            .find(|t| !before.contains(t))
    } {
        // What the new text is about: the first name it sets in code that the old did not.
        candidates.push(format!("document {term} in {file}"));
        candidates.push(format!("document {term}"));
    }
    candidates
        .into_iter()
        .map(|c| plain(&c))
        .find(|c| c.chars().count() <= room && c.split_whitespace().count() >= 2)
}

static CODE_SPAN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"``?([^`\s][^`]{0,40}?)``?").unwrap_or_else(|e| unreachable!("{e}"))
});

/// The code spans of a text (`` `x` `` in Markdown, ``` ``x`` ``` in reStructuredText),
/// backticks kept, of names only: no spaces, a letter, no URL.
fn code_spans(text: &str) -> Vec<String> {
    CODE_SPAN
        .captures_iter(text)
        .map(|c| c[1].trim().to_owned())
        .filter(|t| !t.contains(' ') && t.chars().any(char::is_alphabetic) && !t.contains("://"))
        .map(|t| format!("`{t}`"))
        .collect()
}

/// The section named in a hunk header git wrote (`@@ -1 +1 @@ ## Install`), if it is a
/// heading.
fn heading_of(header: &str) -> Option<String> {
    let after = header.splitn(3, "@@").nth(2)?.trim();
    heading(after, None)
}

static STEP_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\s*)-\s+(?:name|uses|id|run|if|with|env|shell|working-directory|continue-on-error|timeout-minutes):")
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static STEP_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r##"^\s*(?:-\s+)?(name|id|uses):\s*['"]?([^'"#@]+?)['"]?\s*(?:@.*)?$"##)
        .unwrap_or_else(|e| unreachable!("{e}"))
});

/// A GitHub Actions workflow's change by its steps: `add step Set up Go`, `remove step
/// Install VHS`, `change step Build changelog`, named by their `name:` (else `id:`,
/// else the action they use). `None` when a changed line is in no step that has a
/// label (a trigger, the permissions): [`config_summary`] names those keys.
pub fn workflow_summary(path: &str, hunks: &[Hunk], room: usize) -> Option<String> {
    let lower = path.to_ascii_lowercase();
    let file = lower.rsplit('/').next().unwrap_or(&lower);
    let workflow = (lower.contains(".github/workflows/")
        && (file.ends_with(".yml") || file.ends_with(".yaml")))
        || matches!(file, "action.yml" | "action.yaml");
    if !workflow {
        return None;
    }
    let mut added: Vec<String> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    let mut changed: Vec<String> = Vec::new();
    for h in hunks {
        let lines = super::signed(h);
        for (i, (sign, text)) in lines.iter().enumerate() {
            if *sign == ' ' || super::quiet(text) {
                continue;
            }
            let side = |s: char| s == ' ' || s == *sign;
            // The step this line belongs to: the nearest step start above (or itself)
            // indented less than the line, on its side.
            let start = (0..=i).rev().find(|&j| {
                let (s, t) = lines[j];
                side(s) && STEP_START.is_match(t) && (j == i || indent_of(t) < indent_of(text))
            })?;
            let depth = indent_of(lines[start].1);
            // Its label: `name:` first, then `id:`, then `uses:`, within the step.
            let mut label: Option<(usize, String)> = None;
            for (k, (s, t)) in lines[start..].iter().enumerate() {
                if !side(*s) {
                    continue;
                }
                // The step ends where a line is indented no deeper than its dash.
                if k > 0 && !t.trim().is_empty() && indent_of(t) <= depth {
                    break;
                }
                if let Some(c) = STEP_LABEL.captures(t) {
                    let rank = match &c[1] {
                        "name" => 0,
                        "id" => 1,
                        _ => 2,
                    };
                    if label.as_ref().is_none_or(|(r, _)| rank < *r) {
                        label = Some((rank, plain(c[2].trim())));
                    }
                }
            }
            let (_, label) = label.filter(|(_, l)| !l.is_empty())?;
            let list = match lines[start].0 {
                '+' => &mut added,
                '-' => &mut removed,
                _ => &mut changed,
            };
            if !list.contains(&label) {
                list.push(label);
            }
        }
    }
    // A step removed and added again is a changed step.
    let moved: Vec<String> = added
        .iter()
        .filter(|a| removed.contains(a))
        .cloned()
        .collect();
    added.retain(|a| !moved.contains(a));
    removed.retain(|a| !moved.contains(a));
    for m in moved {
        if !changed.contains(&m) {
            changed.push(m);
        }
    }
    changed.retain(|c| !added.contains(c) && !removed.contains(c));
    let part = |verb: &str, names: &[String], all: bool| -> Option<String> {
        match names {
            [] => None,
            [one] => Some(format!("{verb} step {one}")),
            [a, b] if all => Some(format!("{verb} steps {a} and {b}")),
            [a, rest @ ..] => Some(format!("{verb} step {a} and {} more", rest.len())),
        }
    };
    let mut candidates = Vec::new();
    for all in [true, false] {
        let parts: Vec<String> = [
            part("add", &added, all),
            part("remove", &removed, all),
            part("change", &changed, all),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            return None;
        }
        candidates.push(parts.join(", "));
        candidates.push(parts[0].clone());
    }
    candidates.into_iter().find(|c| c.chars().count() <= room)
}

/// A file added or removed whole, by what it holds: a document by its first heading
/// (`add 10-upgrade.rst on Upgrading to v10`), a workflow by its name (`add workflow
/// Link checker`), a configuration file by its top-level keys (`add lychee.toml with
/// exclude and accept`). `sign` is the side the file's lines are on: `+` added, `-`
/// removed.
pub fn whole_file(path: &str, hunks: &[Hunk], sign: char) -> Option<String> {
    let file = path.rsplit('/').next().unwrap_or(path);
    let verb = if sign == '+' { "add" } else { "remove" };
    let lines: Vec<&str> = hunks
        .iter()
        .flat_map(|h| super::signed(h))
        .filter(|(s, _)| *s == sign)
        .map(|(_, t)| t)
        .collect();
    if prose(path) {
        let first = lines
            .iter()
            .enumerate()
            .find_map(|(i, t)| heading(t, lines.get(i + 1).copied()))?;
        return Some(format!("{verb} {file} on {first}"));
    }
    let lower = path.to_ascii_lowercase();
    let ext = file
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    if lower.contains(".github/workflows/")
        && let Some(name) = lines.iter().find_map(|t| {
            t.strip_prefix("name:")
                .map(|n| plain(n.trim().trim_matches(['\'', '"'])))
        })
        && !name.is_empty()
    {
        return Some(format!("{verb} workflow {name}"));
    }
    let mut keys: Vec<String> = Vec::new();
    for t in &lines {
        if let Some((0, k)) = config_key(&ext, t)
            && !keys.contains(&k)
        {
            keys.push(k);
        }
    }
    let with = match keys.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
    };
    Some(format!("{verb} {file} with {with}"))
}

static YAML_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(\s*)(?:-\s+)?["']?([A-Za-z0-9_.$/-]+)["']?\s*:(?:\s|$)"#)
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static TOML_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(\s*)["']?([A-Za-z0-9_.-]+)["']?\s*=|^(\s*)\[+\s*([A-Za-z0-9_."-]+)\s*\]+\s*$"#)
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static JSON_KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^(\s*)"([^"]+)"\s*:"#).unwrap_or_else(|e| unreachable!("{e}")));

/// The key a configuration line sets, and its indentation.
fn config_key(ext: &str, text: &str) -> Option<(usize, String)> {
    let c = match ext {
        "yml" | "yaml" => YAML_KEY.captures(text)?,
        "toml" | "ini" | "cfg" => TOML_KEY.captures(text)?,
        "json" => JSON_KEY.captures(text)?,
        _ => return None,
    };
    let indent = c
        .get(1)
        .or_else(|| c.get(3))
        .map_or(0, |m| m.as_str().len());
    let key = c
        .get(2)
        .or_else(|| c.get(4))?
        .as_str()
        .trim_matches('"')
        .to_owned();
    Some((indent, key))
}

/// The nearest line above on `sign`'s side (or context) indented less than `depth`.
fn parent<'a>(above: &[(char, &'a str)], sign: char, depth: usize) -> Option<(char, &'a str)> {
    above
        .iter()
        .rev()
        .filter(|(s, t)| (*s == ' ' || *s == sign) && !t.trim().is_empty())
        .find(|(_, t)| indent_of(t) < depth)
        .copied()
}

fn indent_of(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// What a configuration file's diff does to its keys: `add workflow_dispatch to
/// release.yml`, `remove site_url from mkdocs.yml`, `change days-before-stale in
/// stale.yml`. A changed line without a key of its own (a list item, a script line)
/// counts for the key above it; a generic key (`run`, `with`) for the key it belongs
/// to. Only for YAML, TOML, INI and JSON files.
pub fn config_summary(path: &str, hunks: &[Hunk], room: usize) -> Option<String> {
    let file = path.rsplit('/').next().unwrap_or(path);
    let ext = file
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    if !matches!(
        ext.as_str(),
        "yml" | "yaml" | "toml" | "ini" | "cfg" | "json"
    ) {
        return None;
    }
    let mut added: Vec<String> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    for h in hunks {
        let lines = super::signed(h);
        for (i, (sign, text)) in lines.iter().enumerate() {
            if *sign == ' ' || super::quiet(text) {
                continue;
            }
            // The line's own key when it says something, else the nearest line above on
            // the same side with less indentation and a key that does.
            let own = config_key(&ext, text);
            // A key under a key the same side adds or removes is part of it.
            if let Some((d, _)) = &own
                && parent(&lines[..i], *sign, *d).is_some_and(|(s, _)| s == *sign)
            {
                continue;
            }
            let mut key = own
                .as_ref()
                .filter(|(_, k)| !GENERIC_KEYS.contains(&k.as_str()))
                .map(|(_, k)| k.clone());
            if key.is_none() {
                let mut depth = own.as_ref().map_or(indent_of(text), |(d, _)| *d);
                for (s, above) in lines[..i].iter().rev() {
                    if *s != ' ' && *s != *sign || above.trim().is_empty() {
                        continue;
                    }
                    if let Some((d, k)) = config_key(&ext, above)
                        && d < depth
                    {
                        if !GENERIC_KEYS.contains(&k.as_str()) {
                            key = Some(k);
                            break;
                        }
                        depth = d;
                    }
                }
            }
            let Some(key) = key else { continue };
            let list = if *sign == '+' {
                &mut added
            } else {
                &mut removed
            };
            if !list.contains(&key) {
                list.push(key);
            }
        }
    }
    let changed: Vec<&String> = added.iter().filter(|k| removed.contains(k)).collect();
    let new: Vec<&String> = added.iter().filter(|k| !removed.contains(k)).collect();
    let gone: Vec<&String> = removed.iter().filter(|k| !added.contains(k)).collect();
    let named = |keys: &[&String]| -> Option<String> {
        match keys {
            [] => None,
            [one] => Some((*one).clone()),
            [a, b] => Some(format!("{a} and {b}")),
            [a, b, rest @ ..] => Some(format!("{a}, {b} and {} more", rest.len())),
        }
    };
    let mut candidates = Vec::new();
    let (verb, keys, prep) = match (new.is_empty(), gone.is_empty(), changed.is_empty()) {
        (false, true, true) => ("add", named(&new)?, "to"),
        (true, false, true) => ("remove", named(&gone)?, "from"),
        (true, true, false) => ("change", named(&changed)?, "in"),
        _ => {
            let mut all: Vec<&String> = changed.clone();
            all.extend(new.iter().copied());
            all.extend(gone.iter().copied());
            ("update", named(&all)?, "in")
        }
    };
    candidates.push(format!("{verb} {keys} {prep} {file}"));
    candidates.push(format!("{verb} {keys}"));
    candidates.into_iter().find(|c| c.chars().count() <= room)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunks(body: &str) -> Vec<Hunk> {
        vec![Hunk {
            header: "@@ -10,6 +10,9 @@".to_owned(),
            body: body.to_owned(),
        }]
    }

    #[test]
    fn plain_keeps_a_links_words_and_drops_urls() {
        assert_eq!(
            plain("[Get Started](https://example.com/start)"),
            "Get Started"
        );
        assert_eq!(plain("see <https://example.com> for more:"), "see for more");
        assert_eq!(
            plain("use `tox <https://tox.wiki>`_ to test"),
            "use tox to test"
        );
        assert_eq!(plain("fix link to www.example.com/x"), "fix link to");
        assert_eq!(plain("add parse_duration"), "add parse_duration");
    }

    #[test]
    fn a_readme_gaining_a_link_names_its_words() {
        let body = " ## Contributing\n \n+Read the [contributing guide](https://github.com/o/r/blob/main/CONTRIBUTING.md) first.\n";
        assert_eq!(
            document_summary("README.md", &hunks(body), 60).as_deref(),
            Some("add link to contributing guide")
        );
        let body = "-See the [docs](https://old.example.com/docs).\n+See the [docs](https://new.example.com/docs).\n";
        assert_eq!(
            document_summary("docs/index.md", &hunks(body), 60).as_deref(),
            Some("update link to docs")
        );
    }

    #[test]
    fn a_readme_change_names_its_section() {
        let body = " ## Installation\n \n-pip install foo\n+pipx install foo\n";
        assert_eq!(
            document_summary("README.md", &hunks(body), 60).as_deref(),
            Some("update Installation in README.md")
        );
        // reStructuredText titles are underlined.
        let body = " Getting started\n ===============\n \n-Run ``semantic-release version``.\n+Run ``semantic-release version --print``.\n";
        assert_eq!(
            document_summary("docs/usage.rst", &hunks(body), 60).as_deref(),
            Some("update Getting started in usage.rst")
        );
        let body = "-## Old way\n-\n-Do it by hand.\n";
        assert_eq!(
            document_summary("README.md", &hunks(body), 60).as_deref(),
            Some("remove section Old way")
        );
        assert_eq!(
            document_summary(
                "README.md",
                &hunks(" text\n+## Performance\n+\n+Fast.\n"),
                60
            )
            .as_deref(),
            Some("add section Performance")
        );
        assert_eq!(
            document_summary(
                "docs/draft.md",
                &hunks("-The hook reads it.\n+The hook reads `core.commentChar=auto` too.\n"),
                60
            )
            .as_deref(),
            Some("document `core.commentChar=auto` in draft.md")
        );
        assert_eq!(
            document_summary(
                "CHANGELOG.md",
                &hunks(" ### Fixed\n+- `parse` keeps `x`\n"),
                60
            )
            .as_deref(),
            Some("update the changelog")
        );
        // No heading in sight, nothing said: the offline draft keeps its words.
        assert_eq!(document_summary("README.md", &hunks("-a\n+b\n"), 60), None);
        assert_eq!(document_summary("src/lib.rs", &hunks(body), 60), None);
    }

    #[test]
    fn a_configuration_change_names_its_keys() {
        let body =
            " on:\n   push:\n     tags: ['v*']\n+  workflow_dispatch:\n+    inputs:\n+      tag:\n";
        assert_eq!(
            config_summary(".github/workflows/release.yml", &hunks(body), 60).as_deref(),
            Some("add workflow_dispatch to release.yml")
        );
        let body = "     with:\n-      days-before-stale: 60\n+      days-before-stale: 90\n";
        assert_eq!(
            config_summary(".github/workflows/stale.yml", &hunks(body), 60).as_deref(),
            Some("change days-before-stale in stale.yml")
        );
        // A script line counts for the step's key above it.
        let body =
            "   test:\n     steps:\n       - run: |\n-          pytest\n+          pytest -x\n";
        assert_eq!(
            config_summary("ci.yml", &hunks(body), 60).as_deref(),
            Some("change test in ci.yml")
        );
        let body = " site_name: x\n-site_url: https://example.com\n";
        assert_eq!(
            config_summary("mkdocs.yml", &hunks(body), 60).as_deref(),
            Some("remove site_url from mkdocs.yml")
        );
        let body = " [tool.ruff]\n-line-length = 88\n+line-length = 100\n";
        assert_eq!(
            config_summary("pyproject.toml", &hunks(body), 60).as_deref(),
            Some("change line-length in pyproject.toml")
        );
        assert_eq!(config_summary("notes.md", &hunks(body), 60), None);
    }

    #[test]
    fn a_workflow_change_names_its_steps() {
        // commitizen's b20ba04, "ci: fix vhs setup".
        let body = concat!(
            "       - name: Set up Python\n",
            "         uses: astral-sh/setup-uv@v7\n",
            "+      - name: Set up Go\n",
            "+        uses: actions/setup-go@v6\n",
            "+        with:\n",
            "+          go-version: '1.25.1'\n",
            "+      - name: Set up VHS\n",
            "+        run: |\n",
            "+          sudo apt install -y ffmpeg ttyd\n",
            "       - name: Install dependencies\n",
            "         run: |\n",
            "           uv sync --frozen\n",
            "-      - name: Install VHS\n",
            "-        uses: charmbracelet/vhs-action@v2\n",
            "       - name: Update CLI screenshots\n",
        );
        let path = ".github/workflows/docspublish.yml";
        assert_eq!(
            workflow_summary(path, &hunks(body), 66).as_deref(),
            Some("add steps Set up Go and Set up VHS, remove step Install VHS")
        );
        assert_eq!(
            workflow_summary(path, &hunks(body), 40).as_deref(),
            Some("add steps Set up Go and Set up VHS")
        );
        let body = "       - name: Build changelog\n+        if: steps.bump.outputs.bumped == 'true'\n         env:\n";
        assert_eq!(
            workflow_summary(path, &hunks(body), 66).as_deref(),
            Some("change step Build changelog")
        );
        // A trigger is no step.
        let body = " on:\n   push:\n+  workflow_dispatch:\n";
        assert_eq!(workflow_summary(path, &hunks(body), 66), None);
        assert_eq!(workflow_summary("ci.yml", &hunks(body), 66), None);
    }

    #[test]
    fn a_whole_file_is_named_by_what_it_holds() {
        let doc = "+Upgrading to v10\n+=================\n+\n+Read this first.\n";
        assert_eq!(
            whole_file("docs/upgrading/10-upgrade.rst", &hunks(doc), '+').as_deref(),
            Some("add 10-upgrade.rst on Upgrading to v10")
        );
        let gone = "-# Customization\n-\n-Old text.\n";
        assert_eq!(
            whole_file("docs/customization.md", &hunks(gone), '-').as_deref(),
            Some("remove customization.md on Customization")
        );
        let workflow = "+name: Link checker\n+on:\n+  schedule:\n";
        assert_eq!(
            whole_file(".github/workflows/links.yml", &hunks(workflow), '+').as_deref(),
            Some("add workflow Link checker")
        );
        let config = "+exclude = [\"https://example.com\"]\n+accept = [200, 429]\n";
        assert_eq!(
            whole_file("lychee.toml", &hunks(config), '+').as_deref(),
            Some("add lychee.toml with exclude and accept")
        );
        assert_eq!(whole_file("src/lib.rs", &hunks("+fn a() {}\n"), '+'), None);
    }

    #[test]
    fn images_are_counted() {
        let paths: Vec<String> = ["docs/images/a.gif", "docs/images/b.svg"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(
            images(&paths, [ChangeKind::Modified; 2].into_iter(), 60).as_deref(),
            Some("update 2 images in docs/images")
        );
        assert_eq!(
            images(&paths[..1], [ChangeKind::Added].into_iter(), 60).as_deref(),
            Some("add image a.gif")
        );
        let mixed = vec!["a.gif".to_owned(), "a.md".to_owned()];
        assert_eq!(
            images(&mixed, [ChangeKind::Modified; 2].into_iter(), 60),
            None
        );
    }
}
