//! Shared helpers for the distribution tests (install.sh, the hook shims, the
//! pre-commit framework, the examples): where the source tree and the built binaries
//! are, a PATH with or without them, the real cargo and rustup homes, and a
//! snapshot of a hooks folder.
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)]

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use jitcommit_testkit::Sandbox;

/// The source tree (this package's root, where install.sh lives).
pub fn source_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding the binaries cargo built for these tests.
pub fn built_bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_jitcommit-check"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Whether `name` is one of jitcommit's programs (the hooks' binaries, the `jitcommit`
/// command and its `git jitcommit` name).
fn is_jitcommit_program(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with("jitcommit") || name.starts_with("git-jitcommit")
}

/// The test's PATH with every jitcommit program taken out, so "missing binary" cases
/// cannot be fooled by an installed copy, and nothing else lost: `./install.sh` puts the
/// binaries in `$CARGO_HOME/bin` next to `cargo`, so a directory that holds one is
/// replaced by a shadow directory of links to everything else in it (made once per test
/// process, in the system's temporary directory).
pub fn path_without_jitcommit() -> OsString {
    static SHADOWED: std::sync::OnceLock<OsString> = std::sync::OnceLock::new();
    SHADOWED
        .get_or_init(|| {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut shadows: Option<tempfile::TempDir> = None;
            let dirs: Vec<PathBuf> = std::env::split_paths(&path)
                .enumerate()
                .map(|(i, dir)| {
                    let Ok(entries) = std::fs::read_dir(&dir) else {
                        return dir;
                    };
                    let entries: Vec<_> = entries.flatten().collect();
                    if !entries.iter().any(|e| is_jitcommit_program(&e.file_name())) {
                        return dir;
                    }
                    let root = shadows.get_or_insert_with(|| {
                        tempfile::Builder::new()
                            .prefix("jitcommit-path-")
                            .tempdir()
                            .unwrap()
                    });
                    let shadow = root.path().join(i.to_string());
                    std::fs::create_dir_all(&shadow).unwrap();
                    for e in entries {
                        if !is_jitcommit_program(&e.file_name()) {
                            let _ =
                                std::os::unix::fs::symlink(e.path(), shadow.join(e.file_name()));
                        }
                    }
                    shadow
                })
                .collect();
            // The shadows must outlive every command the tests run.
            if let Some(root) = shadows {
                let _ = root.keep();
            }
            std::env::join_paths(dirs).unwrap()
        })
        .clone()
}

/// PATH with `dir` first, then [`path_without_jitcommit`].
pub fn path_with(dir: &Path) -> OsString {
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(&path_without_jitcommit()));
    std::env::join_paths(dirs).unwrap()
}

/// PATH with the freshly built binaries first.
pub fn path_with_built() -> OsString {
    path_with(&built_bin_dir())
}

/// The real user's HOME (the testkit replaces HOME in commands, not in this process).
fn real_home() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/root"))
}

/// The real `CARGO_HOME` and `RUSTUP_HOME`: a command run with the sandbox's HOME
/// would otherwise look for (and try to download) a toolchain and the registry there.
pub fn real_rust_homes() -> [(&'static str, PathBuf); 2] {
    let cargo = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| real_home().join(".cargo"));
    let rustup = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| real_home().join(".rustup"));
    [("CARGO_HOME", cargo), ("RUSTUP_HOME", rustup)]
}

/// Where the release builds that install.sh and the pre-commit framework make go, as
/// the environment cargo reads: their intermediate artifacts in the target directory
/// the tests were built in (`<target>/release/deps/tests-…`, or `debug` for a plain
/// `cargo test`), the binaries they link in `<target>/test-installs`. The README's
/// `./install.sh` builds into the same intermediates, and `./test.sh` builds the tests
/// in the same release profile (docs/install.md, "The test command"), so after it
/// these builds compile only what changed. The binaries go elsewhere because the
/// tests running beside these builds execute `<target>/release/jitcommit…`, which a
/// build's copy would replace under them.
pub fn shared_build_env() -> [(&'static str, PathBuf); 2] {
    let exe = std::env::current_exe().unwrap();
    let target = exe
        .ancestors()
        .find(|d| {
            d.file_name()
                .is_some_and(|n| n == "debug" || n == "release")
        })
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| source_root().join("target"));
    [
        ("CARGO_TARGET_DIR", target.join("test-installs")),
        ("CARGO_BUILD_BUILD_DIR", target),
    ]
}

/// [`shared_build_env`] for a build of `source`'s committed HEAD, which the pre-commit
/// framework makes from its own clone: the shared build directory while the work tree
/// is HEAD, else [`head_build_dir`]. Cargo keys a workspace crate's build script by its
/// path inside the workspace and judges it fresh by modification times, so HEAD's build
/// in the shared directory left HEAD's build script where the next `./install.sh` of the
/// edited work tree ran it as up to date: the installed drafter held HEAD's generated
/// rule table, not the work tree's.
pub fn head_build_env(source: &Path) -> [(&'static str, PathBuf); 2] {
    let [(target_var, target), (build_var, build)] = shared_build_env();
    let build = if work_tree_is_head(source) {
        build
    } else {
        head_build_dir(&build)
    };
    [(target_var, target), (build_var, build)]
}

/// The build directory of HEAD's builds while the work tree differs from HEAD, kept
/// between runs beside the shared one so that they compile only what changed.
pub fn head_build_dir(shared: &Path) -> PathBuf {
    shared.join("head-build")
}

/// Whether the tracked files of `source`'s work tree and index are HEAD's (untracked
/// files are not built unless a tracked one names them).
pub fn work_tree_is_head(source: &Path) -> bool {
    jitcommit_testkit::scrub_git_env(&mut Command::new("git"))
        .args(["diff", "--quiet", "HEAD", "--"])
        .current_dir(source)
        .stdin(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Panics with a message naming what installs it unless `dash` runs.
pub fn require_dash() {
    let ok = Command::new("dash")
        .args(["-c", "exit 0"])
        .stdin(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "`dash` is required to test the hooks as POSIX sh; ./test.sh installs it (apt-get install -y dash)"
    );
}

/// Runs `dash <source>/install.sh ARGS` in `cwd` with `path` as PATH.
pub fn install(sb: &Sandbox, cwd: &Path, path: &OsString, args: &[&str]) -> Output {
    require_dash();
    sb.cmd("dash", cwd)
        .arg(source_root().join("install.sh"))
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Like [`install`], panicking with its output unless it succeeded; returns stdout.
pub fn install_ok(sb: &Sandbox, cwd: &Path, path: &OsString, args: &[&str]) -> String {
    let out = install(sb, cwd, path, args);
    jitcommit_testkit::assert_ok(&out, &format!("install.sh {}", args.join(" ")));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every file in `dir`: name → (bytes, mode). Equal snapshots mean nothing changed.
pub fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut m = BTreeMap::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return m;
    };
    for e in rd {
        let e = e.unwrap();
        let meta = std::fs::symlink_metadata(e.path()).unwrap();
        let bytes = if meta.is_file() {
            std::fs::read(e.path()).unwrap()
        } else {
            Vec::new()
        };
        m.insert(
            e.file_name().to_string_lossy().into_owned(),
            (bytes, meta.permissions().mode()),
        );
    }
    m
}

/// Writes an executable file.
pub fn write_exe(path: &Path, content: &str) {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).unwrap();
    }
    std::fs::write(path, content).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// stdout and stderr of `out` as one string, for messages and `contains` checks.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A message that follows the default convention for a commit adding `path`.
pub fn good_message(path: &str) -> String {
    format!("feat: add {path}\n\n- Add: {path} — the file the example needs\n")
}

/// The same message with a verb the default convention does not allow.
pub fn bad_verb_message(path: &str) -> String {
    format!("feat: add {path}\n\n- Changed: {path} — the file the example needs\n")
}
