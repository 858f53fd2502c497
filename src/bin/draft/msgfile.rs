//! Writing the message file: the draft at the top, git's text (template, comments,
//! the `commit -v` scissors part) kept byte for byte below it, an optional footer
//! comment in between, and an atomic replace that keeps the file's permissions.

use std::io::Write;
use std::path::Path;

/// `prefix text`, or the bare prefix for an empty line, as git writes comments.
pub fn comment_line(prefix: &str, text: &str) -> String {
    if text.is_empty() {
        prefix.to_owned()
    } else {
        format!("{prefix} {text}")
    }
}

/// The new file text: `draft`, then the footer comment lines (already prefixed), then
/// `original` unchanged, blocks separated by one blank line.
pub fn compose(original: &str, draft: &str, footer: &[String]) -> String {
    let mut out = String::with_capacity(original.len() + draft.len() + 128);
    out.push_str(draft.trim_end_matches('\n'));
    out.push('\n');
    if !footer.is_empty() {
        out.push('\n');
        for l in footer {
            out.push_str(l);
            out.push('\n');
        }
    }
    if !original.is_empty() {
        if !original.starts_with('\n') {
            out.push('\n');
        }
        out.push_str(original);
    }
    out
}

/// Adds comment lines at the top of an untouched file (the "why there is no draft"
/// note), leaving everything git wrote below them.
pub fn prepend_comments(original: &str, lines: &[String]) -> String {
    // git's leading blank line (where the user types) stays first.
    let mut out = String::from("\n");
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(original.strip_prefix('\n').unwrap_or(original));
    out
}

/// `Ok` when `path` is a regular file (not followed through a symlink), else why not:
/// git's message file is always one, and replacing anything else (`/dev/null` run as
/// root, a FIFO, a symlink into the work tree) would break what it is.
pub fn regular_file(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(()),
        Ok(m) => {
            let kind = if m.file_type().is_symlink() {
                "a symbolic link"
            } else if m.is_dir() {
                "a directory"
            } else {
                "not a regular file"
            };
            Err(format!(
                "{} is {kind}, not git's message file",
                path.display()
            ))
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Replaces `path` with `text` atomically: a temporary file in the same directory,
/// given the original's permissions, then renamed over it. Only a regular file is
/// replaced (checked again here, just before the rename).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    regular_file(path).map_err(std::io::Error::other)?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let perms = std::fs::metadata(path).ok().map(|m| m.permissions());
    let mut tmp = tempfile::Builder::new()
        .prefix(".jitcommit-draft-")
        .tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    if let Some(p) = perms {
        tmp.as_file().set_permissions(p)?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIT_PLAIN: &str = "\n# Please enter the commit message for your changes. Lines starting\n# with '#' will be ignored.\n#\n# Changes to be committed:\n#\tnew file:   a\n#\n";

    #[test]
    fn draft_goes_on_top_and_git_text_stays() {
        let out = compose(
            GIT_PLAIN,
            "feat: x\n\n- Add: a — y\n",
            &["# jitcommit: offline draft".into()],
        );
        assert!(out.starts_with("feat: x\n\n- Add: a — y\n\n# jitcommit: offline draft\n"));
        assert!(out.ends_with(GIT_PLAIN));
        // --no-edit: the file is empty, the draft is all there is.
        assert_eq!(compose("", "feat: x\n", &[]), "feat: x\n");
        // template: a blank line between draft and template.
        assert_eq!(
            compose("Template\n# c\n", "feat: x\n", &[]),
            "feat: x\n\nTemplate\n# c\n"
        );
    }

    #[test]
    fn scissors_part_is_untouched() {
        let scissors = "# ------------------------ >8 ------------------------\n# Do not modify\ndiff --git a/a b/a\n+x\n";
        let original = format!("{GIT_PLAIN}{scissors}");
        let out = compose(&original, "feat: x\n", &["# note".into()]);
        assert!(out.ends_with(&original));
        assert_eq!(out.matches(">8").count(), 1);
    }

    #[test]
    fn comment_lines() {
        assert_eq!(comment_line("#", "x"), "# x");
        assert_eq!(comment_line("//", ""), "//");
    }

    #[test]
    fn prepend_keeps_git_text() {
        let out = prepend_comments(GIT_PLAIN, &["# jitcommit: nothing staged".into()]);
        assert!(out.starts_with("\n# jitcommit: nothing staged\n# Please"));
        assert!(out.ends_with(GIT_PLAIN.strip_prefix('\n').expect("leading newline")));
    }

    #[cfg(unix)]
    #[test]
    fn atomic_write_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("COMMIT_EDITMSG");
        std::fs::write(&p, "old").expect("write");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        write_atomic(&p, "new text\n").expect("write_atomic");
        assert_eq!(std::fs::read_to_string(&p).expect("read"), "new text\n");
        assert_eq!(
            std::fs::metadata(&p).expect("meta").permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).expect("ls").count(),
            1,
            "no temp file left"
        );
    }
}
