//! Reading source code out of a diff: the items its lines define and whether they are
//! public, what a hunk does to the item it changes, the parameters a public function
//! gains, comments and docstrings, the public items a change renames or alters.

use jitcommit_core::repo::{ChangeKind, FileDiff, StagedState};

use super::kind::{Class, classify};
use super::lossy;
use crate::words::{BRANCH_OPENINGS, DEFINERS, IMPORT_OPENINGS, MODIFIERS, NO_CODE_EXTENSIONS};

/// A module's name: its file name without the extension (`src/report.py` → `report`).
pub(super) fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split_once('.').map_or(name, |(s, _)| s).trim()
}

/// `word` in `text` as a whole identifier (not inside a longer one).
pub(super) fn contains_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// How a source file's language writes comments, by extension: its line-comment
/// markers, and whether it has docstrings (Python's `"""`). `None` for a language the
/// draft does not know.
pub(super) fn comment_syntax(path: &str) -> Option<(&'static [&'static str], bool)> {
    let ext = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyi" => (&["#"], true),
        "rb" | "sh" | "bash" | "zsh" | "pl" | "r" | "cmake" | "nix" | "ex" | "exs" => {
            (&["#"], false)
        }
        "lua" | "sql" | "hs" | "elm" => (&["--"], false),
        "rs" | "js" | "jsx" | "ts" | "tsx" | "mjs" | "cjs" | "mts" | "cts" | "go" | "c" | "h"
        | "cc" | "cpp" | "hpp" | "cxx" | "java" | "kt" | "kts" | "swift" | "cs" | "scala"
        | "dart" | "php" | "groovy" | "zig" | "proto" | "vue" | "svelte" => {
            (&["//", "/*", "*/", "* "], false)
        }
        _ => return None,
    })
}

/// How many triple quotes (a Python docstring's delimiters) a line holds.
pub(super) fn triple_quotes(text: &str) -> usize {
    text.matches("\"\"\"").count() + text.matches("'''").count()
}

/// A source file whose change is comments, docstrings and blank lines only: a
/// modification of a language [`comment_syntax`] knows, with at least one such line
/// that is not blank. A docstring is followed by its triple quotes through each hunk,
/// on both sides; a hunk whose first triple quote stands alone on its line after no
/// definition starts inside one.
pub(super) fn documents_only(f: &FileDiff) -> bool {
    let path = lossy(&f.change.path);
    if f.change.kind != ChangeKind::Modified || !has_code(f) {
        return false;
    }
    let Some((markers, docstrings)) = comment_syntax(&path) else {
        return false;
    };
    let comment = |t: &str| t == "*" || markers.iter().any(|m| t.starts_with(m));
    let mut any = false;
    for h in &f.hunks {
        let lines: Vec<(&str, &str)> = h.body.lines().map(split_sign).collect();
        let starts_inside = docstrings
            && lines
                .iter()
                .position(|(_, t)| triple_quotes(t) > 0)
                .is_some_and(|i| {
                    matches!(lines[i].1.trim(), "\"\"\"" | "'''")
                        && !(i > 0 && lines[i - 1].1.trim_end().ends_with(':'))
                });
        let (mut old_in, mut new_in) = (starts_inside, starts_inside);
        for (sign, text) in lines {
            let t = text.trim();
            let toggles = docstrings && triple_quotes(t) % 2 == 1;
            let inside = if sign == "+" { new_in } else { old_in };
            let opens = docstrings
                && triple_quotes(t) > 0
                && t.trim_start_matches(['r', 'u', 'b', 'f', 'R', 'U', 'B', 'F'])
                    .starts_with(['"', '\'']);
            if matches!(sign, "+" | "-") {
                if !(t.is_empty() || comment(t) || inside || opens) {
                    return false;
                }
                any |= !t.is_empty();
            }
            if toggles {
                match sign {
                    "+" => new_in = !new_in,
                    "-" => old_in = !old_in,
                    " " => (old_in, new_in) = (!old_in, !new_in),
                    _ => {}
                }
            }
        }
    }
    any
}

/// The parameter names of a definition line (`def f(self, a, b=1, *, c: int = 2):` →
/// `a`, `b`, `c`), or `None` when its parameter list does not close on the line.
pub(super) fn parameters(text: &str, name: &str) -> Option<Vec<String>> {
    let at = text.find(name)? + name.len();
    let open = at + text[at..].find('(')?;
    let mut depth = 0usize;
    let mut end = None;
    for (i, c) in text[open + 1..].char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' if depth == 0 => {
                end = Some(open + 1 + i);
                break;
            }
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let list = &text[open + 1..end?];
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut push = |part: &str| {
        let p = part
            .trim()
            .trim_start_matches(['*', '&', '.'])
            .trim_start_matches("mut ")
            .trim_start_matches("'_ ");
        let n: String = p
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        if !n.is_empty() && !matches!(n.as_str(), "self" | "cls" | "this") {
            out.push(n);
        }
    };
    for (i, c) in list.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&list[start..]);
    Some(out)
}

/// The parameters a change adds to public functions, as (function, parameter): a
/// public definition line replaced by one of the same name with more parameters
/// (`def total(items)` → `def total(items, tax=0)`), or a parameter line added inside
/// a public definition's signature that spans lines.
pub(super) fn added_parameters(f: &FileDiff) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    if !has_code(f) || f.change.kind != ChangeKind::Modified {
        return out;
    }
    for h in &f.hunks {
        let mut before: Vec<(String, Vec<String>)> = Vec::new();
        // The public definition whose parameter list is open on the lines above.
        let mut open: Option<String> = None;
        let mut removed_params: Vec<String> = Vec::new();
        for line in h.body.lines() {
            let (sign, text) = split_sign(line);
            let t = text.trim();
            if let Some(name) = defined_name(text).filter(|_| is_public(text)) {
                match parameters(text, &name) {
                    Some(params) => {
                        open = None;
                        if sign == "-" {
                            before.push((name, params));
                        } else if sign == "+"
                            && let Some((_, old)) = before.iter().find(|(n, _)| *n == name)
                        {
                            for p in params.iter().filter(|p| !old.contains(p)) {
                                out.push((name.clone(), p.clone()));
                            }
                        }
                    }
                    None if text.trim_end().ends_with('(') && sign != "-" => {
                        open = Some(name);
                        removed_params.clear();
                    }
                    None => open = None,
                }
                continue;
            }
            let Some(name) = &open else { continue };
            if t.starts_with(')') {
                open = None;
                continue;
            }
            let param: String = t
                .trim_start_matches('*')
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let rest = t[t.find(&param).map_or(0, |i| i + param.len())..].trim_start();
            let looks = !param.is_empty()
                && (rest.is_empty() || rest.starts_with([':', '=', ',']))
                && t.ends_with(',');
            if !looks || matches!(param.as_str(), "self" | "cls") {
                continue;
            }
            match sign {
                "-" => removed_params.push(param),
                "+" if !removed_params.contains(&param) => out.push((name.clone(), param)),
                _ => {}
            }
        }
    }
    out.dedup();
    out
}

/// A function name out of a hunk header's trailing context (`@@ -1 +1 @@ fn foo(x)`).
pub(super) fn function_name(header: &str) -> Option<String> {
    let rest = header.strip_prefix("@@")?;
    let (_, ctx) = rest.split_once("@@")?;
    let ctx = ctx.trim();
    if ctx.is_empty() {
        return None;
    }
    let name = match ctx.find('(') {
        Some(i) => {
            let before = ctx[..i].trim_end();
            let start = before
                .rfind(|c: char| {
                    !(c.is_alphanumeric() || c == '_' || c == '$' || c == ':' || c == '.')
                })
                .map_or(0, |j| {
                    j + before[j..].chars().next().map_or(1, char::len_utf8)
                });
            before[start..]
                .trim_matches(|c| c == ':' || c == '.')
                .to_owned()
        }
        None => ctx.trim_end_matches(['{', ':', ' ']).to_owned(),
    };
    let name: String = name.chars().take(40).collect();
    (!name.is_empty()).then_some(name)
}

/// The longest name [`defined_name`] gives; a longer one is cut.
pub(super) const NAME_CHARS: usize = 64;

/// The item a source line defines (`pub fn parse(` → `parse`, `impl Foo for Bar {` →
/// `impl Foo for Bar`, `class Widget:` → `Widget`), or `None` for any other line.
pub(super) fn defined_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while words
        .peek()
        .is_some_and(|w| MODIFIERS.contains(w) || w.starts_with("pub("))
    {
        words.next();
    }
    let kw = words.next()?;
    // `extern "C" fn`, `const fn`, `async def` …
    let kw = if kw.starts_with('"') || (kw == "const" && words.peek() == Some(&"fn")) {
        words.next()?
    } else {
        kw
    };
    // Most lines define nothing: the keyword decides before the rest is gathered.
    if !DEFINERS.contains(&kw) {
        return None;
    }
    let rest = words.collect::<Vec<_>>().join(" ");
    if kw == "impl" {
        let head = rest.split('{').next().unwrap_or("").trim();
        let name: String = format!("impl {head}").chars().take(40).collect();
        return (!head.is_empty()).then_some(name);
    }
    // Go methods: `func (r *Repo) Name(`.
    let rest = if kw == "func" && rest.starts_with('(') {
        rest.split_once(')')
            .map_or("", |(_, r)| r)
            .trim_start()
            .to_owned()
    } else {
        rest
    };
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .take(NAME_CHARS)
        .collect();
    (!name.is_empty() && !name.chars().all(|c| c.is_ascii_digit())).then_some(name)
}

/// A hunk line's sign (`+`, `-` or ` `) and its text; a line that starts otherwise
/// (a body that is not a diff's, which may start with any character) has no sign.
pub(super) fn split_sign(line: &str) -> (&str, &str) {
    match line.as_bytes().first() {
        Some(b'+' | b'-' | b' ') => line.split_at(1),
        _ => ("", line),
    }
}

/// The names a diff's added lines define, in order, without the ones a removed line of
/// the same diff defined too (a changed signature is not a new item).
pub(super) fn added_items(f: &FileDiff, public_only: bool) -> Vec<String> {
    let mut removed: Vec<String> = Vec::new();
    let mut added: Vec<(bool, String)> = Vec::new();
    if !has_code(f) {
        return Vec::new();
    }
    for h in &f.hunks {
        for line in h.body.lines() {
            let (sign, text) = split_sign(line);
            if !matches!(sign, "-" | "+") {
                continue;
            }
            let Some(name) = defined_name(text) else {
                continue;
            };
            match sign {
                "-" => removed.push(name),
                "+" if !public_only || is_public(text) => added.push((is_minor(text), name)),
                _ => {}
            }
        }
    }
    // Functions and types before constants and aliases, each in diff order.
    added.sort_by_key(|(minor, _)| *minor);
    let mut out: Vec<String> = Vec::new();
    for (_, n) in added {
        if !removed.contains(&n) && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// A constant, static or type alias: a definition, but rarely what a change is about.
pub(super) fn is_minor(text: &str) -> bool {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !MODIFIERS.contains(w) && !w.starts_with("pub("))
        .take(2)
        .collect();
    matches!(words.first(), Some(&"const" | &"type")) && words.get(1) != Some(&"fn")
}

/// A file whose lines can define items: source and tests, not prose or data.
pub(super) fn has_code(f: &FileDiff) -> bool {
    let path = lossy(&f.change.path);
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    !f.binary
        && !f.submodule
        && f.linguist.is_none()
        && matches!(classify(&path), Class::Source | Class::Test)
        && !NO_CODE_EXTENSIONS.contains(&ext)
}

/// A definition others can use: `pub` (not `pub(crate)`), `export`, `public`, a Go name
/// in capitals, a Python name at the top level or a Python method, without a leading `_`.
pub(super) fn is_public(text: &str) -> bool {
    let t = text.trim_start();
    let top = t.len() == text.len();
    t.starts_with("pub ")
        || t.starts_with("export ")
        || t.starts_with("public ")
        || (t.starts_with("func ")
            && defined_name(t).is_some_and(|n| n.starts_with(|c: char| c.is_uppercase())))
        || (top
            && (t.starts_with("def ") || t.starts_with("class "))
            && defined_name(t).is_some_and(|n| !n.starts_with('_')))
        || python_method(t).is_some_and(|n| !n.starts_with('_'))
}

/// A Python method's name: a `def` (or `async def`) whose first parameter is `self` or
/// `cls`.
pub(super) fn python_method(t: &str) -> Option<String> {
    let rest = t.strip_prefix("async ").unwrap_or(t).strip_prefix("def ")?;
    let (name, params) = rest.split_once('(')?;
    let first = params.trim_start();
    let receiver = ["self", "cls"].iter().any(|r| {
        first
            .strip_prefix(r)
            .is_some_and(|after| after.starts_with([',', ')', ':']))
    });
    receiver.then(|| name.trim().to_owned())
}

/// Most names [`changed_public_items`] gives.
pub(super) const MAX_BREAKING_NAMES: usize = 10;

/// The public items whose declaration the change removes or alters: a removed line of
/// a source file (not a test) that declares a public item ([`is_public`]) and is not
/// added back the same (trimmed), so `pub fn parse(a)` → `pub fn parse(a, b)` counts,
/// a moved line does not; never of a file whose hunks a prompt does not show
/// (`shown`: excluded, generated, vendored). What a user of the code can break on is
/// there, or nothing
/// of the kind is: a model draft may call a change breaking only when this is not
/// empty ([`crate::structure::Structure::breaking_evidence`]). At most
/// [`MAX_BREAKING_NAMES`], in diff order.
pub fn changed_public_items(
    state: &StagedState,
    shown: &crate::classify::Classifier,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in &state.files {
        let path = lossy(&f.change.path);
        if !has_code(f) || classify(&path) != Class::Source || shown.classify(f).stat_only() {
            continue;
        }
        let removed = signed_lines(f, '-').filter(|t| is_public(t));
        // Most files remove no public line: their added lines are not gathered.
        let mut added: Option<std::collections::HashSet<&str>> = None;
        for text in removed {
            let added = added.get_or_insert_with(|| signed_lines(f, '+').map(str::trim).collect());
            if added.contains(text.trim()) {
                continue;
            }
            let name = defined_name(text).or_else(|| field_name(text));
            if let Some(name) = name
                && !out.contains(&name)
            {
                out.push(name);
                if out.len() == MAX_BREAKING_NAMES {
                    return out;
                }
            }
        }
    }
    out
}

/// Most renames [`renamed_public_items`] gives.
pub(super) const MAX_RENAMES: usize = 3;

/// The public items the change renames where its users see them: a removed public
/// declaration of a source file (not a test) whose name no added line declares, an
/// added one of the same shape under another name (`pub hooks: Vec<String>,` →
/// `pub pre_bump_hooks: Vec<String>,`), and the docs or configuration the change
/// shows dropping the old name for the new one (`hooks = [` → `pre_bump_hooks = [`
/// in `cog.toml` and the README). A rename users' files must follow breaks them:
/// over the offline bench's 2,204 commits of four projects this fired once, on the
/// one such change, marked breaking by its author (docs/benchmarks.md,
/// `offline-draft`). `(old, new)` pairs, at most [`MAX_RENAMES`], in diff order.
pub fn renamed_public_items(
    state: &StagedState,
    shown: &crate::classify::Classifier,
) -> Vec<(String, String)> {
    let visible = |f: &&FileDiff| !f.binary && !f.submodule && !shown.classify(f).stat_only();
    let source: Vec<&FileDiff> = state
        .files
        .iter()
        .filter(|f| has_code(f) && classify(&lossy(&f.change.path)) == Class::Source)
        .filter(visible)
        .collect();
    // The shape of a public declaration: its name and the line with the name cut out.
    let declared = |t: &str| -> Option<(String, String)> {
        if !is_public(t) {
            return None;
        }
        let name = defined_name(t).or_else(|| field_name(t))?;
        let shape = t.trim().replacen(&name, "\u{0}", 1);
        Some((name, shape))
    };
    // Most changes remove no public declaration: nothing else is read for them.
    let removed: Vec<(String, String)> = source
        .iter()
        .flat_map(|f| signed_lines(f, '-'))
        .filter_map(declared)
        .collect();
    if removed.is_empty() {
        return Vec::new();
    }
    let added: Vec<(String, String)> = source
        .iter()
        .flat_map(|f| signed_lines(f, '+'))
        .filter_map(declared)
        .collect();
    // What users read and write: the docs and configuration files the change shows.
    let user: Vec<&FileDiff> = state
        .files
        .iter()
        .filter(|f| {
            let facts = jitcommit_core::paths::path_facts(&lossy(&f.change.path));
            (facts.docs || facts.config) && !facts.ci && !facts.test && !facts.lock
        })
        .filter(visible)
        .collect();
    let user_old: Vec<&str> = user.iter().flat_map(|f| signed_lines(f, '-')).collect();
    let user_new: Vec<&str> = user.iter().flat_map(|f| signed_lines(f, '+')).collect();
    let mut out: Vec<(String, String)> = Vec::new();
    for (old, shape) in &removed {
        if added.iter().any(|(n, _)| n == old) || out.iter().any(|(o, _)| o == old) {
            continue;
        }
        let Some((new, _)) = added.iter().find(|(n, s)| s == shape && n != old) else {
            continue;
        };
        let users_follow = user_old.iter().any(|l| contains_word(l, old))
            && !user_new.iter().any(|l| contains_word(l, old))
            && user_new.iter().any(|l| contains_word(l, new));
        if users_follow {
            out.push((old.clone(), new.clone()));
            if out.len() == MAX_RENAMES {
                break;
            }
        }
    }
    out
}

/// The lines a file's hunks add (`sign` `+`) or remove (`-`), without the sign.
pub(super) fn signed_lines(f: &FileDiff, sign: char) -> impl Iterator<Item = &str> {
    f.hunks
        .iter()
        .flat_map(|h| h.body.lines())
        .filter_map(move |l| l.strip_prefix(sign))
}

/// The breaking-change note for [`renamed_public_items`]: `hooks is now
/// pre_bump_hooks; what names hooks must change`.
pub fn rename_note(renames: &[(String, String)]) -> Option<String> {
    if renames.is_empty() {
        return None;
    }
    let now: Vec<String> = renames
        .iter()
        .map(|(old, new)| format!("{old} is now {new}"))
        .collect();
    let olds: Vec<&str> = renames.iter().map(|(old, _)| old.as_str()).collect();
    Some(format!(
        "{}; what names {} must change",
        now.join(", "),
        olds.join(" or ")
    ))
}

/// A public field's name: `pub hooks: Vec<String>,` → `hooks`.
pub(super) fn field_name(text: &str) -> Option<String> {
    let rest = text.trim_start().strip_prefix("pub ")?;
    let (name, _) = rest.split_once(':')?;
    let name = name.trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| name.to_owned())
}

/// The new public items of a source file's diff (a model draft's type evidence,
/// [`crate::choices::evidence`]).
pub fn new_public_items(f: &FileDiff) -> Vec<String> {
    if f.binary || f.submodule {
        return Vec::new();
    }
    added_items(f, true)
}

/// The item a hunk changes: the nearest definition among its context and removed lines
/// before its first change, else the header's function when it looks like one.
pub(super) fn changed_item(h: &jitcommit_core::repo::Hunk) -> Option<String> {
    let mut nearest = None;
    for line in h.body.lines() {
        let (sign, text) = split_sign(line);
        match sign {
            " " | "-" => {
                if let Some(n) = defined_name(text) {
                    nearest = Some(n);
                }
                if sign == "-" {
                    break;
                }
            }
            _ => break,
        }
    }
    nearest.or_else(|| {
        let ctx = h.header.strip_prefix("@@")?.split_once("@@")?.1;
        defined_name(ctx).or_else(|| {
            // A C-like `type name(args)` header: the word before `(`.
            ctx.contains('(')
                .then(|| function_name(&h.header))
                .flatten()
                .filter(|n| !n.contains(' '))
        })
    })
}

/// What a hunk does to the item it changes, in words: `added parameter tax to total`,
/// `changed constant LIMIT`, `new branch in parse`, `changed text in greet`, `comments
/// in parse`, `changed imports`, else `changed parse`; `None` when the hunk names no
/// item and is none of these.
pub(super) fn hunk_change(f: &FileDiff, h: &jitcommit_core::repo::Hunk) -> Option<String> {
    let item = changed_item(h);
    let lines: Vec<(&str, &str)> = h.body.lines().map(split_sign).collect();
    let changed = |sign: &str| -> Vec<&str> {
        lines
            .iter()
            .filter(|(s, t)| *s == sign && !t.trim().is_empty())
            .map(|(_, t)| t.trim())
            .collect()
    };
    let (minus, plus) = (changed("-"), changed("+"));
    if minus.is_empty() && plus.is_empty() {
        return item.map(|n| format!("changed {n}"));
    }
    // One hunk's own evidence, as a one-hunk diff of the file.
    let one = FileDiff {
        hunks: vec![h.clone()],
        ..f.clone()
    };
    if let Some((func, param)) = added_parameters(&one).into_iter().next() {
        return Some(format!("added parameter {param} to {func}"));
    }
    if documents_only(&one) {
        return Some(match item {
            Some(n) => format!("comments in {n}"),
            None => "comments".to_owned(),
        });
    }
    let import = |t: &&str| {
        IMPORT_OPENINGS.iter().any(|k| t.starts_with(k))
            || (t.contains("require(") && t.starts_with("const "))
    };
    if minus.iter().chain(&plus).all(import) {
        return Some("changed imports".to_owned());
    }
    let constant = |t: &str| -> Option<String> {
        let t = t
            .trim_start_matches("pub ")
            .trim_start_matches("export ")
            .trim_start_matches("const ")
            .trim_start_matches("static ");
        let name: String = t
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let rest = t[name.len()..].trim_start();
        let upper = name.len() > 1
            && name.chars().any(|c| c.is_ascii_uppercase())
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        (upper && (rest.starts_with('=') || rest.starts_with(':'))).then_some(name)
    };
    let constants: Vec<String> = minus.iter().filter_map(|t| constant(t)).collect();
    if let Some(c) = plus
        .iter()
        .filter_map(|t| constant(t))
        .find(|c| constants.contains(c))
    {
        return Some(format!("changed constant {c}"));
    }
    let branch = |t: &&str| {
        let t = t.trim_start_matches("} ");
        BRANCH_OPENINGS.iter().any(|k| t.starts_with(k))
    };
    let in_item = item.as_ref().map_or(String::new(), |n| format!(" in {n}"));
    if plus.iter().any(|t| branch(t) && !minus.contains(t)) {
        return Some(format!("new branch{in_item}"));
    }
    // Only the words between quotes differ: a message, a label.
    let unquoted = |t: &str| -> String {
        let mut out = String::new();
        let mut quote: Option<char> = None;
        for c in t.chars() {
            match quote {
                Some(q) if c == q => {
                    quote = None;
                    out.push(c);
                }
                Some(_) => {}
                None => {
                    if matches!(c, '"' | '\'' | '`') {
                        quote = Some(c);
                    }
                    out.push(c);
                }
            }
        }
        out
    };
    if minus.len() == plus.len()
        && minus
            .iter()
            .zip(&plus)
            .all(|(a, b)| a != b && unquoted(a) == unquoted(b) && a.contains(['"', '\'', '`']))
    {
        return Some(format!("changed text{in_item}"));
    }
    item.map(|n| format!("changed {n}"))
}
