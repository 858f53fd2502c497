//! Turns data/words.toml, the draft side's word lists and verb tables, into the
//! constants of `crate::words`: each table's `doc` as the constant's doc comment, its
//! `words` as a `&[&str]` in file order.

use std::fmt::Write as _;
use std::path::PathBuf;

#[allow(clippy::expect_used)] // a broken word list is a build error
pub fn main() {
    println!("cargo::rerun-if-changed=data/words.toml");
    let text = std::fs::read_to_string("data/words.toml").expect("data/words.toml");
    let doc: toml::Table = text.parse().expect("data/words.toml is TOML");
    let mut out = String::new();
    for (name, list) in &doc {
        let text = list.get("doc").and_then(toml::Value::as_str);
        for line in text.expect("each list has a doc").lines() {
            writeln!(out, "#[doc = {:?}]", format!(" {line}")).ok();
        }
        writeln!(out, "pub const {name}: &[&str] = &[").ok();
        let words = list.get("words").and_then(toml::Value::as_array);
        for w in words.expect("each list has words") {
            writeln!(out, "    {:?},", w.as_str().expect("a word is a string")).ok();
        }
        writeln!(out, "];").ok();
    }
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("words.rs");
    std::fs::write(dest, out).expect("write the word lists");
}
