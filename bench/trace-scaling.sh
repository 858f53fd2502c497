#!/bin/sh
# Path tracing over a range, against directory size: does `jitcommit-check --range`
# with tracing stay at or under `git log --raw` (which reads the same trees) at
# every size, and linear in the number of files changed?
#
# For each size N (files in the tree, default 16k 32k 64k 128k) it generates with
# git fast-import a history of COMMITS commits (default 4000), each changing one file
# in one of 7 directories and naming that file in its one bullet, repacks it the way
# clones are packed (git repack -a -d -f), and times, ROUNDS times each in turn:
#   git log --raw base..main           (git reading every commit's tree diff)
#   jitcommit-check --range base..main (release build, tracing on)
# and prints the medians and the ratio, with the CPU time each spent (all threads, from
# `perf stat -e task-clock` when perf is there; steadier than wall times on a loaded
# machine). Run by hand (not by CI or cargo test):
#   sh bench/trace-scaling.sh [N ...]
# Environment: COMMITS, ROUNDS, JITCOMMIT_CHECK (a built binary; default: cargo's
# release build, built first), JITCOMMIT_CHECK_BEFORE (another build, e.g. from before
# a change: timed in the same rounds, and its verdict on every commit, --format json,
# must equal the check's), KEEP=1 keeps the generated repositories, REPOS=DIR reuses
# (or keeps) them in DIR.
set -eu
cd "$(dirname "$0")/.."
commits=${COMMITS:-4000}
rounds=${ROUNDS:-3}
if [ -z "${JITCOMMIT_CHECK:-}" ]; then
    cargo build -q --release --bin jitcommit-check
    JITCOMMIT_CHECK=$PWD/target/release/jitcommit-check
fi
[ $# -gt 0 ] || set -- 16000 32000 64000 128000
tmp=$(mktemp -d)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf -- "$tmp"' EXIT
repos=${REPOS:-$tmp}
before=${JITCOMMIT_CHECK_BEFORE:-}

# Hermetic git: no user or system config, pinned identities.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$tmp
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com
export GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com

# Milliseconds of one run of "$@" (output discarded).
ms() {
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || [ $? -eq 1 ]
    end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# CPU milliseconds one run of "$@" spent, all threads; "-" without perf.
cpums() {
    command -v perf >/dev/null 2>&1 || { echo -; return; }
    perf stat -x, -e task-clock -o "$tmp/perf.out" -- "$@" >/dev/null 2>&1 || true
    awk -F, '/task-clock/ && $1 ~ /^[0-9.]+$/ { printf "%d\n", $1; found = 1 }
        END { if (!found) print "-" }' "$tmp/perf.out"
}

# The median of ROUNDS runs of cpums "$@".
cpu() {
    : > "$tmp/cpu.ms"
    n=0
    while [ $n -lt "$rounds" ]; do cpums "$@" >> "$tmp/cpu.ms"; n=$((n + 1)); done
    median < "$tmp/cpu.ms"
}

ratio() { awk -v c="$1" -v g="$2" 'BEGIN { if (c == "-" || g == "-") print "-"; else printf "%.2f", c / (g > 0 ? g : 1) }'; }

echo "| files | commits | git log --raw ms | check ms | ratio | git CPU ms | check CPU ms | ratio |${before:+ before ms | before ratio | before CPU ms | before ratio |}"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|${before:+---:|---:|---:|---:|}"
for files in "$@"; do
    repo=$repos/r$files
    if [ ! -d "$repo" ]; then
        git init -q -b main "$repo"
        LC_ALL=C awk -v files="$files" -v commits="$commits" '
            function blob(text) { printf "data %d\n%s\n", length(text) + 1, text }
            BEGIN {
                t = 1700000000
                msg = "chore: start\n\n- Add: d0 \342\200\224 the tree to trace against\n"
                printf "commit refs/heads/main\ncommitter C <c@example.com> %d +0000\n", t
                printf "data %d\n%s\n", length(msg), msg
                for (f = 0; f < files; f++) {
                    printf "M 100644 inline d%d/f%06d.txt\n", f % 7, f
                    blob("file " f)
                }
                print ""
                print "reset refs/tags/base\nfrom refs/heads/main\n"
                seed = 1
                for (i = 1; i <= commits; i++) {
                    seed = (seed * 1103515245 + 12345) % 2147483648
                    f = seed % files
                    path = sprintf("d%d/f%06d.txt", f % 7, f)
                    msg = sprintf("feat: step %d\n\n- Update: %s \342\200\224 change %d\n", i, path, i)
                    printf "commit refs/heads/main\ncommitter C <c@example.com> %d +0000\n", t + i * 60
                    printf "data %d\n%s\n", length(msg), msg
                    printf "M 100644 inline %s\n", path
                    blob("file " f " version " i)
                    print ""
                }
            }' | git -C "$repo" fast-import --quiet
        git -C "$repo" repack -q -a -d -f
        git -C "$repo" reset -q --hard main
    fi
    : > "$tmp/git.ms"
    : > "$tmp/check.ms"
    : > "$tmp/before.ms"
    r=0
    while [ $r -lt "$rounds" ]; do
        ms git -C "$repo" log --raw base..main >> "$tmp/git.ms"
        (cd "$repo" && ms "$JITCOMMIT_CHECK" --range base..main) >> "$tmp/check.ms"
        [ -z "$before" ] || (cd "$repo" && ms "$before" --range base..main) >> "$tmp/before.ms"
        r=$((r + 1))
    done
    # The check must have traced every commit and found nothing.
    (cd "$repo" && "$JITCOMMIT_CHECK" --format json --range base..main) > "$tmp/check.out" \
        || { echo "the check failed at $files files" >&2; exit 1; }
    if [ -n "$before" ]; then
        (cd "$repo" && "$before" --format json --range base..main) > "$tmp/before.out" || true
        cmp -s "$tmp/check.out" "$tmp/before.out" \
            || { echo "the verdicts differ from the before build at $files files" >&2; exit 1; }
    fi
    g=$(median < "$tmp/git.ms")
    c=$(median < "$tmp/check.ms")
    gi=$(cpu git -C "$repo" log --raw base..main)
    ci=$(cd "$repo" && cpu "$JITCOMMIT_CHECK" --range base..main)
    row="| $files | $commits | $g | $c | $(ratio "$c" "$g") | $gi | $ci | $(ratio "$ci" "$gi") |"
    if [ -n "$before" ]; then
        b=$(median < "$tmp/before.ms")
        bi=$(cd "$repo" && cpu "$before" --range base..main)
        row="$row $b | $(ratio "$b" "$g") | $bi | $(ratio "$bi" "$gi") |"
    fi
    echo "$row"
    [ "${KEEP:-0}" = 1 ] || [ -n "${REPOS:-}" ] || rm -rf -- "$repo"
done
