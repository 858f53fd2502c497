//! The crate's three generated tables, each from its own script under build/:
//! cl100k_base's vocabulary for the token counter (build/cl100k.rs), gitleaks' rules
//! for redaction (build/gitleaks.rs) and the word lists of data/words.toml
//! (build/words.rs).

#[path = "build/cl100k.rs"]
mod cl100k;
#[path = "build/gitleaks.rs"]
mod gitleaks;
#[path = "build/words.rs"]
mod words;

fn main() {
    println!("cargo::rerun-if-changed=build");
    cl100k::main();
    gitleaks::main();
    words::main();
}
