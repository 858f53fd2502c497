#!/bin/sh
# jitcommit installer: builds and installs the two binaries and installs the git
# hook shims from hooks/ into a repository (client) or a bare repository (server).
# Run `./install.sh --help` for the options. POSIX sh; safe to run twice.
set -eu

usage() {
	cat <<'USAGE'
Usage: install.sh [OPTIONS]

Builds jitcommit-draft, jitcommit-check and jitcommit, with git-jitcommit for
`git jitcommit …` (cargo install --path <source> --locked, in <source>/target or
CARGO_TARGET_DIR; with --server only jitcommit-check) and installs the client hooks
(prepare-commit-msg, commit-msg)
into the current repository's hooks folder (`git rev-parse --git-path hooks`:
follows core.hooksPath and linked worktrees).

Options:
  --repo DIR          install into the repository at DIR instead of the current one
  --server BARE_REPO  install the server hook into a bare repository instead
                      (client hooks are not touched)
  --server-hook NAME  with --server: pre-receive (default) or update
  --forge NAME        with --server: where the forge runs server hooks from
                      (default: detected from the repository)
                        plain    BARE_REPO/hooks/<hook> (chaining a hook already there)
                        gitlab   BARE_REPO/custom_hooks/<hook>.d/jitcommit, every line
                                 prefixed GL-HOOK-ERR: so the web UI shows it
                        gitea    BARE_REPO/hooks/<hook>.d/jitcommit (run by Gitea's
                        forgejo  own hooks/<hook>, which it regenerates)
  --check-first-push  with --server: check the commits of the first push into the
                      empty repository too (by default they are the project's
                      history, accepted as they are; git config jitcommit.checkFirstPush)
  --prefix DIR        install the binaries into DIR/bin (cargo install --root DIR)
                      instead of ~/.cargo/bin
  --no-build          do not build: use jitcommit binaries already installed
                      (DIR/bin with --prefix, else PATH, else ~/.cargo/bin)
  --uninstall         remove jitcommit's hooks and put back the hooks they replaced
                      (the binaries stay: `cargo uninstall jitcommit` removes them
                      all, git-jitcommit included; --root DIR for a --prefix DIR)
  -h, --help          show this help

An existing hook that jitcommit did not write is kept: it is moved to <hook>.local
and jitcommit's shim runs it first, with the same arguments and stdin.

Examples:
  ./install.sh                                   # this repository's client hooks
  ./install.sh --server /srv/git/project.git     # a plain bare repository
  ./install.sh --server /var/opt/gitlab/git-data/repositories/@hashed/ab/cd/abcd.git --forge gitlab
USAGE
}

die() {
	printf 'install.sh: error: %s\n' "$1" >&2
	exit 1
}

say() {
	printf '%s\n' "$*"
}

# The source tree is where this script lives, wherever it is run from.
case $0 in
*/*) src_dir=$(dirname -- "$0") ;;
*) src_dir=. ;;
esac
src_dir=$(cd -- "$src_dir" && pwd -P)
[ -d "$src_dir/hooks" ] || die "cannot find hooks/ next to $0 (looked in $src_dir)"

repo=
server=
server_hook=pre-receive
forge=
prefix=
build=1
build_args=
uninstall=0
check_first_push=0
bin_dir=

need_arg() {
	[ "$#" -ge 2 ] || die "$1 needs a value (see --help)"
}

while [ "$#" -gt 0 ]; do
	case $1 in
	--repo) need_arg "$@"; repo=$2; shift 2 ;;
	--repo=*) repo=${1#--repo=}; shift ;;
	--server) need_arg "$@"; server=$2; shift 2 ;;
	--server=*) server=${1#--server=}; shift ;;
	--server-hook) need_arg "$@"; server_hook=$2; shift 2 ;;
	--server-hook=*) server_hook=${1#--server-hook=}; shift ;;
	--forge) need_arg "$@"; forge=$2; shift 2 ;;
	--forge=*) forge=${1#--forge=}; shift ;;
	--prefix) need_arg "$@"; prefix=$2; shift 2 ;;
	--prefix=*) prefix=${1#--prefix=}; shift ;;
	--no-build) build=0; shift ;;
	--check-first-push) check_first_push=1; shift ;;
	--uninstall) uninstall=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown option: $1 (see --help)" ;;
	esac
done

[ -z "$repo" ] || [ -z "$server" ] || die "--repo and --server cannot be used together"
case $server_hook in
pre-receive | update) ;;
*) die "--server-hook must be pre-receive or update, not '$server_hook'" ;;
esac

case $forge in
'' | plain | gitlab | gitea | forgejo) ;;
*) die "--forge must be plain, gitlab, gitea or forgejo, not '$forge'" ;;
esac
[ -z "$forge" ] || [ -n "$server" ] || die "--forge needs --server BARE_REPO"
[ "$check_first_push" = 0 ] || [ -n "$server" ] || die "--check-first-push needs --server BARE_REPO"

command -v git >/dev/null 2>&1 || die "git not found on PATH"

MARK='# jitcommit-managed'

# runs_dir FILE HOOK: FILE is a forge's generated hook that runs HOOK.d/* (Gitea's
# names it through ${hookname}.d).
runs_dir() {
	[ -f "$1" ] && [ -d "$1.d" ] && grep -Eq "($2|hookname\}?)\.d/" "$1" 2>/dev/null
}

# detect_forge BARE_REPO HOOK: the forge whose layout BARE_REPO has.
detect_forge() {
	if [ -d "$1/custom_hooks" ]; then
		echo gitlab
		return
	fi
	case $1 in
	*/@hashed/* | */@pools/* | */@snippets/*) echo gitlab; return ;;
	esac
	if runs_dir "$1/hooks/$2" "$2"; then
		if grep -qi forgejo "$1/hooks/$2" "$1/hooks/$2.d/"* 2>/dev/null; then
			echo forgejo
		elif grep -qi gitea "$1/hooks/$2" 2>/dev/null; then
			echo gitea
		else
			echo plain
		fi
		return
	fi
	echo plain
}

# hook_file HOOK: where HOOK's shim goes.
hook_file() {
	if [ "$layout" = dir ]; then
		printf '%s/%s.d/jitcommit' "$hooks_dir" "$1"
	else
		printf '%s/%s' "$hooks_dir" "$1"
	fi
}

# is_ours FILE: FILE is a hook this installer wrote.
is_ours() {
	[ -f "$1" ] && grep -q "^$MARK" "$1" 2>/dev/null
}

# shim_file HOOK: where HOOK's shim is or goes: hook_file, or <hook>.legacy where the
# pre-commit framework moved jitcommit's shim when it installed its own hook (it runs
# <hook>.legacy first; the shim then leaves to it what its config runs too).
shim_file() {
	f=$(hook_file "$1")
	if [ "$layout" = file ] && ! is_ours "$f" && is_ours "$f.legacy"; then
		f=$f.legacy
	fi
	printf '%s' "$f"
}

# ---- the target repository and its hooks folder ---------------------------------

if [ -n "$server" ]; then
	target=$server
	[ -d "$target" ] || die "--server $target: no such directory"
	bare=$(git -C "$target" rev-parse --is-bare-repository 2>/dev/null) ||
		die "--server $target: not a git repository"
	[ "$bare" = true ] || die "--server $target: not a bare repository (use --repo for a work tree)"
	hooks_wanted=$server_hook
	bins_wanted=jitcommit-check
	target=$(cd -- "$target" && pwd -P)
	if [ -z "$forge" ]; then
		forge=$(detect_forge "$target" "$server_hook")
		[ "$forge" = plain ] || say "forge     $forge (detected; --forge plain installs into hooks/ instead)"
	fi
	# A server runs only the check: build it without the draft's model client.
	build_args='--no-default-features --bin jitcommit-check'
else
	target=${repo:-.}
	[ -d "$target" ] || die "--repo $target: no such directory"
	git -C "$target" rev-parse --git-dir >/dev/null 2>&1 ||
		die "$(cd -- "$target" && pwd -P) is not inside a git repository (use --repo DIR)"
	if [ "$(git -C "$target" rev-parse --is-bare-repository)" = true ]; then
		die "$target is a bare repository: client hooks need a work tree (use --server for a bare repository)"
	fi
	# A relative core.hooksPath is resolved against the work tree root.
	target=$(git -C "$target" rev-parse --show-toplevel)
	hooks_wanted='prepare-commit-msg commit-msg'
	bins_wanted='jitcommit-draft jitcommit-check'
	build_args=
fi

hooks_rel=$(git -C "$target" rev-parse --git-path hooks)
case $hooks_rel in
/*) hooks_dir=$hooks_rel ;;
*) hooks_dir=$target/$hooks_rel ;;
esac
# A forge runs every executable file of <hook>.d/ itself: jitcommit's shim goes there
# as one more file, with nothing to chain.
layout=file
line_prefix=
case $forge in
gitlab)
	hooks_dir=$target/custom_hooks
	layout=dir
	line_prefix='GL-HOOK-ERR: '
	;;
gitea | forgejo)
	layout=dir
	for h in $hooks_wanted; do
		runs_dir "$hooks_dir/$h" "$h" ||
			die "--forge $forge: $hooks_dir/$h does not run $h.d/ (the forge writes it; on the forge: gitea admin regenerate hooks / forgejo admin regenerate hooks)"
	done
	;;
esac

# ---- hook managers: husky and lefthook own their hooks folder ---------------------

# hook_manager: husky or lefthook when one of them writes the client hooks (and
# would overwrite ours), else nothing.
hook_manager() {
	[ -z "$server" ] || return 0
	case $hooks_dir in
	*/.husky | */.husky/*) echo husky; return ;;
	esac
	if [ -f "$hooks_dir/husky.sh" ] || { [ -f "$hooks_dir/h" ] && grep -q husky "$hooks_dir/h" 2>/dev/null; }; then
		echo husky
		return
	fi
	for c in lefthook.yml .lefthook.yml lefthook.yaml .lefthook.yaml lefthook.toml .lefthook.toml lefthook.json .lefthook.json; do
		if [ -f "$target/$c" ]; then
			echo lefthook
			return
		fi
	done
	for h in $hooks_wanted pre-commit; do
		if [ -f "$hooks_dir/$h" ] && grep -q call_lefthook "$hooks_dir/$h" 2>/dev/null; then
			echo lefthook
			return
		fi
	done
}

# manager_snippet NAME: what to add to the manager's own files instead.
manager_snippet() {
	case $1 in
	husky)
		cat <<'SNIPPET'
husky regenerates its hooks folder, so jitcommit's shims would be lost there. Add
these two files (and commit them); husky runs them with git's arguments:

# .husky/prepare-commit-msg: drafts the message, never blocks a commit
if command -v jitcommit-draft >/dev/null 2>&1; then jitcommit-draft "$@" || true; fi

# .husky/commit-msg: checks the message against the convention
if command -v jitcommit-check >/dev/null 2>&1; then jitcommit-check "$1"; fi
SNIPPET
		;;
	lefthook)
		cat <<'SNIPPET'
lefthook writes the git hooks itself (lefthook install), so jitcommit's shims would be
overwritten. Add this to lefthook.yml ({0} passes all of git's arguments, {1} the
message file), then run lefthook install:

prepare-commit-msg:
  commands:
    jitcommit:
      run: if command -v jitcommit-draft >/dev/null 2>&1; then jitcommit-draft {0} || true; fi
commit-msg:
  commands:
    jitcommit:
      run: if command -v jitcommit-check >/dev/null 2>&1; then jitcommit-check {1}; fi
SNIPPET
		;;
	esac
}

manager=$(hook_manager)
[ -z "$manager" ] || [ "$uninstall" = 1 ] ||
	say "hooks     $hooks_dir is managed by $manager: the binaries are installed, the hooks are left to $manager (see below)"

# ---- uninstall ------------------------------------------------------------------

if [ "$uninstall" = 1 ]; then
	changed=0
	for h in $hooks_wanted; do
		f=$(shim_file "$h")
		base=$(hook_file "$h")
		if is_ours "$f"; then
			rm -f -- "$f"
			say "removed   $f"
			changed=1
		elif [ -e "$f" ] || [ -L "$f" ]; then
			say "kept      $f (not written by jitcommit)"
			continue
		fi
		if [ -e "$base.local" ] || [ -L "$base.local" ]; then
			mv -- "$base.local" "$f"
			say "restored  $f (from $h.local)"
			changed=1
		fi
	done
	if [ "$changed" = 0 ]; then
		say "Nothing to uninstall in $hooks_dir: no jitcommit hooks there."
	else
		say "Uninstalled jitcommit's hooks from $hooks_dir."
		say "The binaries are still installed; remove them with: cargo uninstall jitcommit${prefix:+ --root $prefix}"
	fi
	exit 0
fi

# ---- preflight: refuse before changing anything ---------------------------------

[ -n "$manager" ] || for h in $hooks_wanted; do
	f=$(shim_file "$h")
	if [ "$layout" = dir ] && { [ -e "$f" ] || [ -L "$f" ]; } && ! is_ours "$f"; then
		die "refusing to install $h: $f exists and is not jitcommit's. Rename or remove it, then run install.sh again. Nothing was changed."
	fi
	if { [ -e "$f" ] || [ -L "$f" ]; } && ! is_ours "$f"; then
		if { [ -e "$f.local" ] || [ -L "$f.local" ]; } && ! is_ours "$f.local"; then
			die "refusing to install $h: $f exists and is not jitcommit's, and $f.local (where it would be kept and chained) exists too. Merge or remove one of them, then run install.sh again. Nothing was changed."
		fi
	fi
done

# ---- binaries -------------------------------------------------------------------

if [ -n "$prefix" ]; then
	mkdir -p -- "$prefix"
	prefix=$(cd -- "$prefix" && pwd -P)
fi

# current DIR: DIR holds every wanted binary as this source tree's build left it
# (the same bytes as in its target directory), and that build is newer than every
# source file (as make decides): a server install after a client one builds nothing.
current() {
	for b in $bins_wanted; do
		built=${CARGO_TARGET_DIR:-$src_dir/target}/release/$b
		[ -x "$1/$b" ] && [ -f "$built" ] && cmp -s "$built" "$1/$b" || return 1
		newer=$(find "$src_dir/Cargo.toml" "$src_dir/Cargo.lock" "$src_dir/src" "$src_dir/crates" \
			-newer "$built" -type f ! -path '*/target/*' 2>/dev/null | head -n 1)
		[ -z "$newer" ] || return 1
	done
}

if [ "$build" = 1 ] && [ -n "$server" ]; then
	installed=${prefix:+$prefix/bin}
	installed=${installed:-${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin}
	if current "$installed"; then
		build=0
		bin_dir=$installed
		say "current   $installed/jitcommit-check (newer than its sources: not rebuilt)"
	fi
fi

if [ "$build" = 1 ]; then
	command -v cargo >/dev/null 2>&1 ||
		die "cargo not found on PATH: install Rust (https://rustup.rs), or use --no-build with binaries already installed"
	# The build is kept in <source>/target, so that the next install builds only what
	# changed. A source tree we cannot write to builds in a temporary dir, removed
	# afterwards.
	build_tmp=
	if [ -z "${CARGO_TARGET_DIR:-}" ]; then
		if [ -w "$src_dir" ]; then
			CARGO_TARGET_DIR=$src_dir/target
		else
			build_tmp=$(mktemp -d)
			CARGO_TARGET_DIR=$build_tmp
		fi
	fi
	export CARGO_TARGET_DIR
	names=$(echo $bins_wanted | sed 's/ / and /')
	# An older install linked git-jitcommit to jitcommit; it is a binary of the package
	# now (so that cargo uninstall removes it), and cargo will not write over the link.
	old_link=${prefix:+$prefix/bin}
	old_link=${old_link:-${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin}/git-jitcommit
	if [ -L "$old_link" ] && [ "$(readlink -- "$old_link")" = jitcommit ]; then
		rm -f -- "$old_link"
	fi
	if [ -n "$prefix" ]; then
		say "Building and installing $names into $prefix/bin ..."
		# shellcheck disable=SC2086 # build_args holds separate words
		cargo install --path "$src_dir" --locked --root "$prefix" $build_args
		bin_dir=$prefix/bin
	else
		say "Building and installing $names with cargo install ..."
		# shellcheck disable=SC2086
		cargo install --path "$src_dir" --locked $build_args
		bin_dir=${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin
	fi
	for b in $bins_wanted; do
		[ -x "$bin_dir/$b" ] || die "cargo install finished but $bin_dir/$b is missing"
		say "built     $bin_dir/$b"
	done
	# `git jitcommit …` runs git-jitcommit from PATH, which runs the jitcommit beside it.
	if [ -x "$bin_dir/jitcommit" ] && [ -x "$bin_dir/git-jitcommit" ]; then
		say "built     $bin_dir/jitcommit (and git-jitcommit: git jitcommit changelog)"
	fi
	[ -z "$build_tmp" ] || rm -rf -- "$build_tmp"
elif [ -z "$bin_dir" ]; then
	if [ -n "$prefix" ]; then
		candidates=$prefix/bin
	else
		candidates=
		for b in $bins_wanted; do
			p=$(command -v "$b" 2>/dev/null) || p=
			[ -z "$p" ] || candidates="$candidates $(dirname -- "$p")"
		done
		candidates="$candidates ${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin"
	fi
	for d in $candidates; do
		ok=1
		for b in $bins_wanted; do
			[ -x "$d/$b" ] || ok=0
		done
		if [ "$ok" = 1 ]; then
			bin_dir=$(cd -- "$d" && pwd -P)
			break
		fi
	done
	[ -n "$bin_dir" ] ||
		die "--no-build: no directory holds $(echo $bins_wanted | sed 's/ / and /') (looked in:$candidates). Run install.sh without --no-build to build them, or put them on PATH."
	say "using     $bin_dir (--no-build)"
fi

# ---- hooks ----------------------------------------------------------------------

if [ -n "$manager" ]; then
	say ""
	say "Not installed into $hooks_dir: it belongs to $manager."
	manager_snippet "$manager"
	exit 0
fi

mkdir -p -- "$hooks_dir"
tmp=$(mktemp "$hooks_dir/.jitcommit-install.XXXXXX")
trap 'rm -f -- "$tmp"' EXIT

changed=0
for h in $hooks_wanted; do
	f=$(shim_file "$h")
	case $f in
	*.legacy) say "chained   $f (pre-commit's $h runs it first; each hook runs once)" ;;
	esac
	mkdir -p -- "$(dirname -- "$f")"
	# The shim with the binaries' directory and the line prefix written in (awk: no
	# quoting trouble with any character in the path; single quotes are escaped for sh).
	JITCOMMIT_DIR_VALUE=$bin_dir JITCOMMIT_PREFIX_VALUE=$line_prefix awk '
		BEGIN {
			v = ENVIRON["JITCOMMIT_DIR_VALUE"]; gsub(/\047/, "\047\\\047\047", v)
			p = ENVIRON["JITCOMMIT_PREFIX_VALUE"]; gsub(/\047/, "\047\\\047\047", p)
		}
		/^JITCOMMIT_BIN_DIR=/ { print "JITCOMMIT_BIN_DIR=\047" v "\047"; next }
		/^JITCOMMIT_LINE_PREFIX=/ { print "JITCOMMIT_LINE_PREFIX=\047" p "\047"; next }
		{ print }
	' "$src_dir/hooks/$h" >"$tmp"
	chmod 755 "$tmp"
	if is_ours "$f"; then
		if cmp -s "$tmp" "$f"; then
			say "unchanged $f"
			continue
		fi
		mv -f -- "$tmp" "$f"
		say "updated   $f"
	else
		if [ -e "$f" ] || [ -L "$f" ]; then
			# A stale copy of our own shim in .local would loop; the preflight
			# allowed only that case.
			rm -f -- "$f.local"
			mv -- "$f" "$f.local"
			say "moved     $f -> $h.local (kept: jitcommit's hook runs it first)"
		fi
		mv -f -- "$tmp" "$f"
		say "installed $f"
	fi
	changed=1
	tmp=$(mktemp "$hooks_dir/.jitcommit-install.XXXXXX")
done

if [ "$changed" = 0 ]; then
	say "Already installed: nothing changed in $hooks_dir."
fi

if [ -n "$server" ]; then
	say ""
	if [ "$check_first_push" = 1 ]; then
		git -C "$target" config jitcommit.checkFirstPush true
	fi
	say "Next: push to $target; every new commit is checked with jitcommit-check."
	if [ "$(git -C "$target" config --bool --get jitcommit.checkFirstPush 2>/dev/null)" = true ]; then
		say "Existing history: what its default branch holds is accepted as it is; every pushed"
		say "commit not yet there is checked, the history of a first push included. To push an"
		say "existing project whose history predates the convention, name its adoption point in"
		say "the server's policy: adopted = \"<commit id>\" (jitcommit init --write proposes it)."
	else
		say "The first push into the empty repository is the project's history, accepted as it"
		say "is; every later push is checked (a stricter start: install.sh --check-first-push,"
		say "then name the adoption point in the server's policy: adopted = \"<commit id>\";"
		say "jitcommit init --write proposes it)."
	fi
	case $forge in
	gitlab)
		say "GitLab runs custom_hooks/$server_hook.d/jitcommit when the git user owns it and may execute it;"
		say "on Gitaly Cluster set it with gitaly hooks set instead (docs/forges/gitlab.md)."
		;;
	gitea | forgejo)
		say "$forge runs hooks/$server_hook.d/jitcommit from its own hooks/$server_hook (docs/forges/gitea.md)."
		;;
	esac
	say "Set a server-side policy with: git -C $target config jitcommit.policy <convention.toml>"
else
	say ""
	model=${JITCOMMIT_MODEL:-$(git -C "$target" config --get jitcommit.model 2>/dev/null || true)}
	if [ -n "$model" ]; then
		say "Next: commit something (git commit): $model drafts the message (jitcommit doctor"
		say "checks that its server answers)."
	else
		say "Next: commit something (git commit): the message is drafted offline until you"
		say "set a model, e.g. git config jitcommit.model qwen2.5-coder:7b (Ollama on 127.0.0.1:11434)."
	fi
	say "Until the project writes its convention down, commits are held to the one its recent"
	say "history follows (jitcommit-check --dump-config shows it). Write it down, with the"
	say "adoption point: jitcommit init --write. Check the setup: jitcommit doctor."
fi
