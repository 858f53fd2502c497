#!/bin/sh
# Links jitcommit-check statically (glibc, static-pie) and copies it to OUT.
#
# Usage: scripts/static-check.sh OUT [--debug]
#
# A commit-msg check is a process that lives a millisecond or two, and a dynamically
# linked binary spends a large part of that in the dynamic loader: mapping libc and
# libgcc_s, resolving their symbols, relocating itself (docs/check.md, "Performance").
# A static-pie binary starts without it and keeps address space randomisation. Only
# the final crate is compiled again (`cargo rustc` passes the flag to it alone), so the
# dependencies built for the same profile and target dir are reused; the flag cannot go
# in RUSTFLAGS, which would reach the proc-macros too.
#
# Only on Linux with glibc (`*-linux-gnu` hosts), and it needs glibc's static libraries
# (libc6-dev on Debian and Ubuntu, glibc-static on Fedora). Exits 1 without touching
# OUT on another host or when the link fails: the caller keeps the dynamic binary.
# glibc's static getpwnam and getpwuid_r (used only for `~user/` paths in git config,
# and for the home directory when HOME is unset) read /etc/passwd themselves; other NSS
# sources (LDAP, sssd) are loaded from the system's glibc at run time.
#
# Honours CARGO_TARGET_DIR. --debug builds the dev profile (for the tests).
set -eu
[ "$#" -ge 1 ] || { echo "usage: $0 OUT [--debug]" >&2; exit 2; }
out=$1
profile=--release
dir=release
if [ "${2:-}" = --debug ]; then
	profile=
	dir=debug
fi
src_dir=$(cd -- "$(dirname -- "$0")/.." && pwd -P)

host=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
case $host in
*-linux-gnu) ;;
*)
	echo "static-check: not a *-linux-gnu host (${host:-rustc not found}): jitcommit-check stays dynamically linked" >&2
	exit 1
	;;
esac

target_dir=${CARGO_TARGET_DIR:-$src_dir/target}
log=$(mktemp)
trap 'rm -f -- "$log"' EXIT
# $profile is empty or one word.
# shellcheck disable=SC2086
if ! cargo rustc --manifest-path "$src_dir/Cargo.toml" --locked $profile \
	--bin jitcommit-check --target-dir "$target_dir" \
	-- -C target-feature=+crt-static >"$log" 2>&1; then
	echo "static-check: the static link failed (are glibc's static libraries installed?); jitcommit-check stays dynamically linked:" >&2
	tail -n 5 "$log" >&2
	exit 1
fi
bin=$target_dir/$dir/jitcommit-check
# It must run, and must name no dynamic loader (a static binary has no .interp).
if ! "$bin" --version >/dev/null 2>&1 ||
	head -c 4096 "$bin" | tr -c 'a-z-' '\n' | grep -q '^ld-linux'; then
	echo "static-check: $bin is not a working static binary; jitcommit-check stays dynamically linked" >&2
	exit 1
fi
tmp=$(dirname -- "$out")/.jitcommit-check.static.$$
cp -- "$bin" "$tmp"
chmod 755 "$tmp"
mv -f -- "$tmp" "$out"
