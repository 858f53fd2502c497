//! Reading and writing a work tree's own files without going through a link that leaves
//! it (docs/trust.md, "Links in the repository").
//!
//! A repository is not trusted, and a symbolic link is something it can commit: a
//! `CHANGELOG.md` or `pyproject.toml` that points at `~/.bashrc` would make a command
//! that reads it copy that file into the tree, and one that writes it overwrite the
//! file outside. So a path under the work tree is refused when a link on the way
//! (a directory or the file itself) resolves outside the tree, and a write never
//! follows a link: it writes a temporary file (in the git dir, where `git status`
//! never shows one a killed run left) and renames it over the path, keeping the
//! permissions of the file it replaces. A path the user names
//! outside the tree is the user's choice and is used as given (still written by
//! rename).

use std::io;
use std::path::{Component, Path, PathBuf};

/// `path` made absolute (against the current directory) and without `.` and `..`,
/// lexically, as the user meant it.
fn lexical(path: &Path) -> io::Result<PathBuf> {
    let abs = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir()?.join(path)
    };
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    Ok(out)
}

fn leaves(what: &Path, to: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{} is a link that leaves the work tree (it resolves to {}); jitcommit reads \
             and writes no file through such a link",
            what.display(),
            to.display()
        ),
    )
}

/// Refuses `path` when it lies in the work tree `root` and a link on its way resolves
/// outside `root`. Returns the path to use (absolute). A path whose directory does not
/// exist is returned as it is (reading it finds nothing, writing it fails).
pub fn in_tree(root: &Path, path: &Path) -> io::Result<PathBuf> {
    let abs = lexical(path)?;
    let root_lex = lexical(root)?;
    let root_real = root.canonicalize()?;
    if !(abs.starts_with(&root_lex) || abs.starts_with(&root_real)) {
        return Ok(abs); // named by the user, outside the tree
    }
    let Some(parent) = abs.parent() else {
        return Ok(abs);
    };
    match parent.canonicalize() {
        Ok(real) if !real.starts_with(&root_real) => return Err(leaves(parent, &real)),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(abs),
        Err(e) => return Err(e),
    }
    if std::fs::symlink_metadata(&abs).is_ok_and(|m| m.file_type().is_symlink()) {
        match abs.canonicalize() {
            Ok(real) if real.starts_with(&root_real) => {}
            Ok(real) => return Err(leaves(&abs, &real)),
            // A dangling link: where it leads cannot be checked, so it is not used.
            Err(_) => {
                let to = std::fs::read_link(&abs).unwrap_or_default();
                return Err(leaves(&abs, &to));
            }
        }
    }
    Ok(abs)
}

/// Reads `path` of the work tree `root` ([`in_tree`]); `None` when there is no file.
pub fn read_in_tree(root: &Path, path: &Path) -> io::Result<Option<Vec<u8>>> {
    let path = in_tree(root, path)?;
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// How old a temporary file of ours must be before a later write removes it as left
/// behind: a write takes milliseconds, so one this old belongs to a run that was killed.
const STALE_SECS: u64 = 600;

/// The prefix and suffix of the temporary files [`write_in_tree`] writes.
const TMP_PREFIX: &str = ".jitcommit-";
const TMP_SUFFIX: &str = ".tmp";

/// Whether `a` and `b` are directories of one file system (a rename between them is
/// atomic).
fn same_device(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.is_dir() && x.dev() == y.dev(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// Removes the temporary files a killed run left in `dir` (older than [`STALE_SECS`]).
fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        if !(name.starts_with(TMP_PREFIX) && name.ends_with(TMP_SUFFIX)) {
            continue;
        }
        let old = e
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() >= STALE_SECS);
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes `bytes` to `path` of the work tree `root` ([`in_tree`]): into a temporary
/// file renamed over the path, so a link there is replaced and never followed, and a
/// reader never sees half a file. The temporary file is written in `scratch` (the git
/// dir, which `git status` never shows) when it is on the path's file system, so a run
/// killed mid-write leaves nothing in the work tree; else beside the path, and a later
/// write removes what a killed one left there. The file keeps the permissions of the
/// one it replaces; a new one gets the umask's.
pub fn write_in_tree(root: &Path, scratch: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let path = in_tree(root, path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp_dir = if same_device(scratch, dir) {
        scratch
    } else {
        dir
    };
    // What a killed run left, where this one writes and where one of before wrote.
    remove_stale(tmp_dir);
    if tmp_dir != dir {
        remove_stale(dir);
    }
    let kept = std::fs::metadata(&path)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.permissions());
    let mut builder = tempfile::Builder::new();
    builder.prefix(TMP_PREFIX).suffix(TMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Through open(2), so the umask applies, as for any new file.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(tmp_dir)?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    if let Some(perms) = kept {
        std::fs::set_permissions(tmp.path(), perms)?;
    }
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_tree_are_refused_and_writes_replace_links() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        std::fs::write(&secret, "secret\n").unwrap();
        let tree = tempfile::tempdir().unwrap();
        let root = tree.path();
        symlink(&secret, root.join("out")).unwrap();
        symlink(outside.path(), root.join("dir")).unwrap();
        symlink(root.join("missing"), root.join("dangling")).unwrap();
        std::fs::write(root.join("inside"), "in\n").unwrap();
        symlink(root.join("inside"), root.join("in-link")).unwrap();

        for name in ["out", "dir/secret", "dangling", "dir/new"] {
            let e = read_in_tree(root, &root.join(name)).unwrap_err();
            assert!(
                e.to_string().contains("leaves the work tree"),
                "{name}: {e}"
            );
            let e = write_in_tree(root, root, &root.join(name), b"x").unwrap_err();
            assert!(
                e.to_string().contains("leaves the work tree"),
                "{name}: {e}"
            );
        }
        assert_eq!(std::fs::read_to_string(&secret).unwrap(), "secret\n");
        assert!(!outside.path().join("new").exists());

        assert_eq!(
            read_in_tree(root, &root.join("in-link")).unwrap().unwrap(),
            b"in\n"
        );
        assert_eq!(read_in_tree(root, &root.join("none")).unwrap(), None);
        // A write replaces an in-tree link with a file, and keeps the mode.
        std::fs::set_permissions(root.join("inside"), std::fs::Permissions::from_mode(0o664))
            .unwrap();
        write_in_tree(root, root, &root.join("inside"), b"new\n").unwrap();
        let m = std::fs::metadata(root.join("inside")).unwrap();
        assert_eq!(m.permissions().mode() & 0o777, 0o664);
        write_in_tree(root, root, &root.join("in-link"), b"link\n").unwrap();
        assert!(
            !std::fs::symlink_metadata(root.join("in-link"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(root.join("inside")).unwrap(),
            "new\n"
        );
        // `..` that comes back into the tree is still in the tree.
        let back = root.join("sub/../out");
        assert!(read_in_tree(root, &back).is_err());
        // A new file gets the mode any new file gets, not a temporary file's 0600.
        write_in_tree(root, root, &root.join("fresh"), b"f\n").unwrap();
        std::fs::write(root.join("plain"), "p\n").unwrap();
        let mode = |n: &str| {
            std::fs::metadata(root.join(n))
                .unwrap()
                .permissions()
                .mode()
        };
        assert_eq!(mode("fresh"), mode("plain"));
    }
}
