//! Text for GitHub Actions' log, where the runner parses workflow commands: a line that
//! starts with `::` (`::error …::`, `::add-mask::`, `::stop-commands::`) and the older
//! `##[…]` form anywhere in a line. `jitcommit-check --format github` writes its own
//! `::error` commands; everything else it writes, and every field of its commands, is
//! data from the repository (a subject, a path, a convention key) and goes through
//! here, so the log shows it and the runner never runs it (docs/trust.md).

/// `##[` made inert: the runner's older command form, parsed anywhere in a line.
fn defuse_legacy(mut s: String) -> String {
    // `###[` → `## #[` holds no `##[`; the loop ends once none is left.
    while s.contains("##[") {
        s = s.replace("##[", "# #[");
    }
    s
}

/// A line of plain log text that the runner shows and never runs: control characters
/// (an ESC sequence, a CR, a NUL) and bidi controls ([`crate::term::is_unprintable`])
/// are taken out, a `::` that starts the line (after any
/// blanks) becomes `: :`, and every `##[` becomes `# #[`.
pub fn inert_line(line: &str) -> String {
    let s: String = line
        .chars()
        .filter(|&c| !crate::term::is_unprintable(c))
        .collect();
    let mut s = defuse_legacy(s);
    let lead = s.len() - s.trim_start().len();
    if s[lead..].starts_with("::") {
        s.insert(lead + 1, ' ');
    }
    s
}

/// A workflow command's message: escaped as GitHub's toolkit does (`%` `\r` `\n` as
/// `%25 %0D %0A`), other control characters taken out, `##[` made inert.
pub fn command_data(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|&c| c == '\n' || c == '\r' || !crate::term::is_unprintable(c))
        .collect();
    defuse_legacy(
        kept.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A"),
    )
}

/// A workflow command's property value: [`command_data`], and `:` `,` as `%3A %2C`.
pub fn command_property(s: &str) -> String {
    command_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_lose_their_commands_and_keep_their_text() {
        assert_eq!(inert_line("::error::x"), ": :error::x");
        assert_eq!(inert_line("  ::warning::x"), "  : :warning::x");
        assert_eq!(inert_line("a ::error::x"), "a ::error::x");
        assert_eq!(inert_line("see ##[error]x"), "see # #[error]x");
        assert_eq!(inert_line("###[x] ####[y]"), "## #[x] ### #[y]");
        assert_eq!(inert_line("\u{1b}[31mred\u{1b}[0m"), "[31mred[0m");
        assert_eq!(inert_line("\u{1b}::error::x"), ": :error::x");
        assert_eq!(inert_line("#\u{7}#[error]"), "# #[error]");
        assert_eq!(inert_line("plain text: 100%"), "plain text: 100%");
    }

    #[test]
    fn command_fields_escape_and_lose_their_commands() {
        assert_eq!(command_data("a%b\r\nc"), "a%25b%0D%0Ac");
        assert_eq!(command_data("x\n::error::y"), "x%0A::error::y");
        assert_eq!(command_data("##[error]\u{1b}[2J"), "# #[error][2J");
        assert_eq!(command_property("a:b,c##[d"), "a%3Ab%2Cc# #[d");
    }
}
