//! Built-in diff drivers: the hunk-header patterns `diff=<lang>` selects when the config
//! defines no `diff.<lang>.xfuncname` (git's userdiff drivers do the same job).
//!
//! The patterns are this project's own, written from what each language's definitions
//! look like and checked against git's output hunk by hunk
//! (`builtin_diff_drivers_pick_the_headers_git_picks` in crates/core/tests/repo.rs, one
//! fixture per language under crates/core/tests/fixtures/userdiff/). Each entry is a list of lines in the form
//! `diff.<driver>.xfuncname` takes: tried in turn, a line starting with `!` means "a
//! line it matches is not a header", and the first capture group (else the whole
//! match) is the header.
//!
//! Where these patterns and git's could differ: the fixtures hold typical definitions
//! and the awkward lines found while writing them (one-line bodies, forward
//! declarations, annotations, keywords as prefixes of names, indexers, labels, …), and
//! on all of them the headers are git's, quirks included (java: a line whose first word
//! merely starts with `do`, `for`, `if`, `new`, `return`, … such as `double f() {` is
//! no header; perl: a sub's prototype, when it has one, is the header; bash: the POSIX
//! form's header stops at `()`; fortran: a line starting with `c` is a fixed-form
//! comment). Forms none of them covers may still differ: C# declarations spread over
//! several lines, C++ and Objective-C lines starting with an attribute or a macro, and
//! text that is not UTF-8 (matched byte by byte here).
//!
//! Every driver git 2.47 has is in the table; a name it does not know gets git's
//! default rule.

/// One built-in driver: its name, whether it ignores case, and its pattern lines.
struct Driver {
    name: &'static str,
    icase: bool,
    lines: &'static [&'static str],
}

/// An identifier as C-like languages spell one.
macro_rules! ident {
    () => {
        "[A-Za-z_][A-Za-z_0-9]*"
    };
}

/// A C# type or member name as a declaration spells it: names, generic arguments
/// (`Dictionary<string,`), array brackets and indexers (`this[int`).
macro_rules! cs_word {
    () => {
        r"[\[\]A-Za-z0-9@_.<>,]+"
    };
}

const DRIVERS: &[Driver] = &[
    Driver {
        // Subprograms, packages, tasks and protected units, bodies and specs alike;
        // generic instances (`is new …`) and renamings are not.
        name: "ada",
        icase: true,
        lines: &[
            r"![ \t]is[ \t]+new([^a-z0-9_]|$)",
            r"![ \t]renames([^a-z0-9_]|$)",
            r"^[ \t]*((procedure|function|package|protected|task)[ \t].*)$",
        ],
    },
    Driver {
        // An entry's type and key, wherever the `@` is: the header stops at the first
        // character a key cannot hold.
        name: "bibtex",
        icase: false,
        lines: &[r#"(@[A-Za-z]+[ \t]*\{?[ \t]*[^ \t"@',\\#{}~%]*)"#],
    },
    Driver {
        // A node (or the root `/`, or a `&label` reference) opening its block, with
        // any labels before it; a line with a `;` is a property or a deletion.
        name: "dts",
        icase: false,
        lines: &[concat!(
            r"^[ \t]*(([A-Za-z0-9_]+:[ \t]*)*",
            r"(&[A-Za-z0-9_]+|/|[A-Za-z0-9_][A-Za-z0-9_,.+@-]*)[ \t]*\{[^;]*)$"
        )],
    },
    Driver {
        // `def`, `defp`, `defmacro`, `defmodule`, `defimpl`, `defprotocol` and ExUnit's
        // `test`.
        name: "elixir",
        icase: false,
        lines: &[r"^[ \t]*((def(macro|module|impl|protocol|p)?|test)[ \t].*)$"],
    },
    Driver {
        // Program units and their `end` lines; fixed-form comment lines (`C`, `*` in
        // the first column) and `!` comments are not, nor `module procedure`.
        name: "fortran",
        icase: true,
        lines: &[
            r"!^([c*]|[ \t]*!)",
            r"!^[ \t]*module[ \t]+procedure[ \t]",
            r"^[ \t]*((end[ \t]+)?(program|module|block[ \t]+data)[ \t]+[a-z].*)$",
            r#"^[ \t]*((end[ \t]+)?([^!'" \t]+[ \t]+)*(subroutine|function)[ \t]+[a-z].*)$"#,
        ],
    },
    Driver {
        // Scene headings: INT, EXT, EST, INT/EXT, I/E, or a line forced by one `.`.
        name: "fountain",
        icase: true,
        lines: &[r"^((\.[^.]|(int|ext|est|int\.?/ext|i/e)[. ]).*)$"],
    },
    Driver {
        // Functions and classes, and cell titles (`%% …`, Octave's `## …`).
        name: "matlab",
        icase: false,
        lines: &[
            r"^[ \t]*((classdef|function)[ \t].*)$",
            r"^(%%%?[ \t].*)$",
            r"^(##[ \t].*)$",
        ],
    },
    Driver {
        // Methods (`- (…)`, `+ (…)`), `@implementation` / `@interface` / `@protocol`,
        // and C functions (words, a name and `(` with no `;` after it) that are not
        // control statements.
        name: "objc",
        icase: false,
        lines: &[
            r"!^[ \t]*(do|for|if|else|return|switch|while)([ \t(]|$)",
            r"^[ \t]*([-+][ \t]*\(.*)$",
            r"^[ \t]*(@(implementation|interface|protocol)[ \t].*)$",
            concat!(
                r"^[ \t]*((",
                ident!(),
                r"[ \t]+)+",
                ident!(),
                r"[ \t]*\([^;]*)$"
            ),
        ],
    },
    Driver {
        // Routines and the unit's sections at the first column, and class and record
        // type declarations.
        name: "pascal",
        icase: false,
        lines: &[
            concat!(
                r"^(((class[ \t]+)?(procedure|function)|constructor|destructor|",
                r"interface|implementation|initialization|finalization).*)$"
            ),
            r"^(.*=[ \t]*(class|record).*)$",
        ],
    },
    Driver {
        // `(define …` and its relatives, and library, module, struct and class forms.
        name: "scheme",
        icase: false,
        lines: &[
            concat!(
                r"^[ \t]*(\((def|define|defstruct|defsyntax|defclass|defmethod|defrules|",
                r"defrecord|defproto|defalias)[-*/ \t].*)$"
            ),
            r"^[ \t]*(\((library|module|struct|class)[*+ \t].*)$",
        ],
    },
    Driver {
        // `fn`, `struct`, `impl<…>`, … after an optional `pub(…)` and one qualifier; a
        // line with a `;` after the keyword is a declaration, not a block.
        name: "rust",
        icase: false,
        lines: &[concat!(
            r"^[ \t]*(",
            r"(pub(\([^)]*\))?[ \t]+)?",
            r#"((async|const|unsafe|extern[ \t]+"[^"]*")[ \t]+)?"#,
            r"(fn|struct|enum|union|trait|impl|mod|macro_rules!)[ \t<][^;]*",
            r")$"
        )],
    },
    Driver {
        // `class` and `def` (also `async def`) at any depth.
        name: "python",
        icase: false,
        lines: &[r"^[ \t]*((class|(async[ \t]+)?def)[ \t].*)$"],
    },
    Driver {
        // Functions and methods, and named struct / interface types.
        name: "golang",
        icase: false,
        lines: &[
            r"^[ \t]*(func[ \t]*.*)$",
            r"^[ \t]*(type[ \t].*(struct|interface)[ \t]*(\{[ \t]*)?)",
        ],
    },
    Driver {
        // Type declarations, then methods and constructors: words, a name and `(`
        // with no `;` after it. Statements that look like that are excluded first.
        name: "java",
        icase: false,
        lines: &[
            r"!^[ \t]*(catch|do|for|if|instanceof|new|return|switch|throw|while)",
            r"^[ \t]*(([a-z]+[ \t]+)*(class|interface|enum|record|@interface)[ \t]+.*)$",
            concat!(
                r"^[ \t]*(([A-Za-z_$<][A-Za-z_$0-9<>,.?]*(\[\])*[ \t]+)+",
                r"[A-Za-z_$][A-Za-z_$0-9]*[ \t]*\([^;]*)$"
            ),
        ],
    },
    Driver {
        // Anything starting at the first column with a name (or `::`), except labels
        // and access specifiers such as `public:`.
        name: "cpp",
        icase: false,
        lines: &[
            concat!(r"!^[ \t]*", ident!(), r":[ \t]*($|//|/\*)"),
            r"^((::[ \t]*)?[A-Za-z_].*)$",
        ],
    },
    Driver {
        // Types and namespaces, methods (a name and `(` with no `;` after it), and
        // properties (a line of words only); statements are excluded first.
        name: "csharp",
        icase: false,
        lines: &[
            concat!(
                r"!(^|[ \t])(if|else|for|foreach|while|do|switch|case|default|return|throw|",
                r"try|catch|finally|using|lock|fixed|new)([ \t(;:]|$)"
            ),
            r"^[ \t]*(([a-z]+[ \t]+)*(class|struct|interface|enum|record|namespace)[ \t]+.*)$",
            concat!(
                r"^[ \t]*(",
                cs_word!(),
                r"([ \t]+",
                cs_word!(),
                r")+[ \t]*\([^;]*)$"
            ),
            concat!(
                r"^[ \t]*(",
                cs_word!(),
                r"([ \t]+",
                cs_word!(),
                r")+[ \t]*)$"
            ),
        ],
    },
    Driver {
        name: "ruby",
        icase: false,
        lines: &[r"^[ \t]*((class|module|def)[ \t].*)$"],
    },
    Driver {
        // Functions with their modifiers (declarations in interfaces too), and the
        // class-like types.
        name: "php",
        icase: false,
        lines: &[
            r"^[ \t]*(((abstract|final|private|protected|public|static)[ \t]+)*function.*)$",
            r"^[ \t]*(((abstract|final)[ \t]+)?(class|interface|trait|enum).*)$",
        ],
    },
    Driver {
        // `name()` (the POSIX form, the header is the name and its parentheses) or
        // `function name …` (the header runs to the body's opener), each followed on
        // the same line by a compound command: `{`, `(`, `((` or `[[`.
        name: "bash",
        icase: false,
        lines: &[concat!(
            r"^[ \t]*(",
            ident!(),
            r"[ \t]*\([ \t]*\)",
            r"|function[ \t]+",
            ident!(),
            r"([ \t]*\([ \t]*\)[ \t]*|[ \t]+)(\{|\(\(?|\[\[)",
            r")[ \t]*(\{|\(\(?|\[\[)?"
        )],
    },
    Driver {
        // ATX headings: up to three spaces, one to six `#`, then a blank.
        name: "markdown",
        icase: false,
        lines: &[r"^ {0,3}#{1,6}[ \t].*"],
    },
    Driver {
        // A selector or at-rule at the first column; a line ending in `:` or `;` is a
        // declaration.
        name: "css",
        icase: false,
        lines: &[r"![:;][ \t]*$", r"^[.#:@\[A-Za-z0-9_].*$"],
    },
    Driver {
        // `<h1>` … `<h6>` opening on the line.
        name: "html",
        icase: false,
        lines: &[r"^[ \t]*(<[Hh][1-6]([ \t].*)?>.*)$"],
    },
    Driver {
        // `fun`, `class` and `interface` after any lower-case modifiers.
        name: "kotlin",
        icase: false,
        lines: &[r"^[ \t]*(([a-z]+[ \t]+)*(fun|class|interface)[ \t].*)$"],
    },
    Driver {
        // Packages, subs at the first column (not forward declarations; a prototype,
        // when present, is the header, as in git), special blocks (their name is the
        // header) and POD headings.
        name: "perl",
        icase: false,
        lines: &[
            r"^package .*",
            r"^sub [A-Za-z0-9_':]+[ \t]*(\([^)]*\)[ \t]*)?(:[^;#]*)?(\{[ \t]*)?(#.*)?$",
            r"^(BEGIN|END|INIT|CHECK|UNITCHECK|AUTOLOAD|DESTROY)[ \t]*(\{[ \t]*)?(#.*)?$",
            r"^=head[0-9] .*",
        ],
    },
    Driver {
        // Sectioning commands at the first column, starred or not.
        name: "tex",
        icase: false,
        lines: &[r"^(\\((sub)*section|chapter|part)\*?\{.*)$"],
    },
];

/// The pattern lines and case flag of the built-in driver `name`, if there is one.
pub(crate) fn builtin(name: &str) -> Option<(&'static [&'static str], bool)> {
    DRIVERS
        .iter()
        .find(|d| d.name == name)
        .map(|d| (d.lines, d.icase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_pattern_compiles_and_ends_positive() {
        for d in DRIVERS {
            let f = super::super::attrs::Funcname::compile(d.lines.iter().copied(), d.icase);
            assert!(f.is_some(), "{}", d.name);
            assert!(
                !d.lines.last().is_some_and(|l| l.starts_with('!')),
                "{}",
                d.name
            );
        }
        assert!(builtin("rust").is_some());
        assert!(builtin("nonexistent").is_none());
    }
}
