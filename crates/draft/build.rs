//! The crate's two generated tables, each from its own script under build/:
//! cl100k_base's vocabulary for the token counter (build/cl100k.rs) and gitleaks'
//! rules for redaction (build/gitleaks.rs).

#[path = "build/cl100k.rs"]
mod cl100k;
#[path = "build/gitleaks.rs"]
mod gitleaks;

fn main() {
    println!("cargo::rerun-if-changed=build");
    cl100k::main();
    gitleaks::main();
}
