//! One direction between a crate's modules: the `crate::` references of each
//! top-level module's files, as a graph, and the cycles in it. A test over the source
//! rather than `cargo modules`, so it runs with `cargo test` and needs no other tool.
//!
//! What counts: every `crate::name` (and `crate::{a, b}`) outside comments and
//! outside inline `#[cfg(test)] mod … {}` blocks and `tests.rs` files (a test may
//! reach anywhere), where `name` is one of the crate's top-level modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module → the modules it references.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// One source file of a crate as these checks read it ([`code`]).
#[derive(Debug, Clone)]
pub struct Code {
    /// Its top-level module (`offline` for `src/offline/kind.rs`).
    pub top: String,
    /// Its path below `src`.
    pub path: std::path::PathBuf,
    /// Its lines that are no comment, before an inline `#[cfg(test)] mod tests {}`.
    pub text: String,
}

/// The top-level modules of the crate whose `src` directory is `src`.
#[allow(clippy::unwrap_used)]
fn tops(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".rs").unwrap_or(&name).to_owned())
        })
        .filter(|n| n != "lib" && n != "main")
        .collect()
}

/// The production code of the crate whose `src` directory is `src`, file by file in
/// path order: `tests.rs` and `*_tests.rs` files left out (a test may reach anywhere).
///
/// # Panics
/// When a source file cannot be read (a test helper).
#[allow(clippy::unwrap_used)]
pub fn code(src: &Path) -> Vec<Code> {
    let mut files = Vec::new();
    walk(src, &mut files);
    files.sort();
    let tops = tops(src);
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let top = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
        let name = file.file_name().unwrap().to_string_lossy();
        if !tops.contains(&top) || name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let text = match text.find("#[cfg(test)]\nmod tests {") {
            Some(i) => &text[..i],
            None => &text,
        };
        let text: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        out.push(Code {
            top,
            path: rel.to_owned(),
            text: text.join("\n"),
        });
    }
    out
}

/// The reference graph of the crate whose `src` directory is `src`.
///
/// # Panics
/// When a source file cannot be read (a test helper).
pub fn graph(src: &Path) -> Graph {
    let tops = tops(src);
    let mut g = Graph::new();
    for Code { top, text, .. } in code(src) {
        let out = g.entry(top.clone()).or_default();
        for line in text.lines() {
            for (i, _) in line.match_indices("crate::") {
                if i > 0 && line[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    continue; // `jitcommit_core::` and the like
                }
                let rest = &line[i + "crate::".len()..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(list) => list
                        .split('}')
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .map(|n| n.trim().split("::").next().unwrap_or(""))
                        .collect(),
                    None => vec![
                        rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .next()
                            .unwrap_or(""),
                    ],
                };
                for n in names {
                    if n != top && tops.contains(n) {
                        out.insert(n.to_owned());
                    }
                }
            }
        }
    }
    g
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The graph's cycles, each once, as `a → b → … → a` (its strongly connected
/// components of more than one module, in a stable order).
pub fn cycles(g: &Graph) -> Vec<String> {
    let nodes: Vec<&String> = g.keys().collect();
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(n) = stack.pop() {
            for m in g.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    };
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in nodes {
        if done.contains(n) {
            continue;
        }
        let from_n = reach(n);
        if !from_n.contains(n) {
            continue;
        }
        let component: Vec<String> = from_n
            .iter()
            .filter(|m| reach(m).contains(n))
            .cloned()
            .collect();
        done.extend(component.iter().cloned());
        out.push(format!(
            "{} (through {})",
            path_back(g, n),
            component.join(", ")
        ));
    }
    out
}

/// One shortest way from `n` back to itself, as `n → … → n`.
fn path_back(g: &Graph, n: &str) -> String {
    let mut prev: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([n.to_owned()]);
    while let Some(x) = queue.pop_front() {
        for m in g.get(&x).into_iter().flatten() {
            if m == n {
                let mut path = vec![x.clone()];
                while let Some(p) = prev.get(path.last().unwrap_or(&x)) {
                    path.push(p.clone());
                }
                path.reverse();
                path.push(n.to_owned());
                return path.join(" → ");
            }
            if !prev.contains_key(m) && m != n {
                prev.insert(m.clone(), x.clone());
                queue.push_back(m.clone());
            }
        }
    }
    n.to_owned()
}
