#!/bin/sh
# The steps of the GitHub Action in action.yml (tests/action.rs runs them locally).
#
# Usage: scripts/action.sh prepare | run
#
#   prepare  writes `dir=` (where the built check lives) and `key=` (its cache key) to
#            $GITHUB_OUTPUT, for the actions/cache step that restores `dir` before `run`.
#            The key hashes the action's own sources, so each ref of the action gets its
#            own build, and a new ref builds again.
#   run      builds jitcommit-check into `dir` unless the cache restored it, then checks
#            every commit of the pull request (base..head from $GITHUB_EVENT_PATH) with
#            `--format github`, and with INPUT_CHECK_TITLE=true also the pull request's
#            title, as the subject of the squash merge GitHub would make of it. The
#            convention is the base commit's (`--convention-from`; with INPUT_CONFIG, that
#            file as the base has it), never the pull request's own.
#
# Environment: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_WORKSPACE, GITHUB_OUTPUT
# (prepare), RUNNER_OS, RUNNER_ARCH, RUNNER_TOOL_CACHE (else $HOME/.cache); the inputs
# INPUT_CHECK_TITLE and INPUT_CONFIG (a convention file, relative to the workspace).
#
# Exit status: 0 every commit (and the title) follows the convention, 1 findings (as
# annotations), 2 an error the ::error line explains (not a pull request, a shallow
# checkout, a failed build).
set -eu

action_root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)

die() {
    printf '::error title=jitcommit::%s\n' "$*"
    exit 2
}

# The sources the check is built from, hashed (the action comes as a tarball: no .git).
source_hash() {
    (
        cd "$action_root"
        find Cargo.toml Cargo.lock src crates -type f -not -path '*/target/*' \
            -exec sha256sum {} + | LC_ALL=C sort -k 2 | sha256sum | cut -c 1-20
    )
}

build_dir() {
    printf '%s/jitcommit-action/%s\n' "${RUNNER_TOOL_CACHE:-$HOME/.cache}" "$(source_hash)"
}

# A string field of the event file (jq on GitHub's runners; python3 elsewhere).
event_field() {
    if command -v jq >/dev/null 2>&1; then
        jq -r "$1 // empty" "$GITHUB_EVENT_PATH"
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].lstrip(".").split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("" if v is None else v)' "$GITHUB_EVENT_PATH" "$1"
    fi
}

prepare() {
    : "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set (run inside GitHub Actions)}"
    dir=$(build_dir)
    {
        printf 'dir=%s\n' "$dir"
        printf 'key=jitcommit-check-%s-%s-%s\n' "${RUNNER_OS:-local}" "${RUNNER_ARCH:-any}" \
            "${dir##*/}"
    } >>"$GITHUB_OUTPUT"
}

# The check binary: the cached build, else a new one. The root package's default
# features serve the drafter; the check needs none of them.
install_check() {
    dir=$(build_dir)
    if [ ! -x "$dir/bin/jitcommit-check" ]; then
        echo "::group::Building jitcommit-check from $action_root (cached for later runs)"
        cargo install --path "$action_root" --no-default-features --bin jitcommit-check \
            --locked --root "$dir" >&2 || die "building jitcommit-check failed (see the log above)"
        echo "::endgroup::"
    fi
    check="$dir/bin/jitcommit-check"
}

run() {
    case "${GITHUB_EVENT_NAME:-}" in
        pull_request | pull_request_target) ;;
        *) die "this action checks pull requests; the event is \"${GITHUB_EVENT_NAME:-unset}\" (use on: pull_request)" ;;
    esac
    command -v jq >/dev/null 2>&1 || command -v python3 >/dev/null 2>&1 ||
        die "reading the event file needs jq or python3 on PATH"
    [ -r "${GITHUB_EVENT_PATH:-}" ] || die "the event file GITHUB_EVENT_PATH (${GITHUB_EVENT_PATH:-unset}) is not readable"
    base=$(event_field .pull_request.base.sha)
    head=$(event_field .pull_request.head.sha)
    [ -n "$base" ] && [ -n "$head" ] || die "$GITHUB_EVENT_PATH has no pull_request.base.sha and head.sha"
    cd "${GITHUB_WORKSPACE:?GITHUB_WORKSPACE is not set}" || die "cannot enter GITHUB_WORKSPACE ($GITHUB_WORKSPACE)"

    # A shallow checkout lacks the base, or the commits between it and the head: the
    # range would be wrong or fail, so say what to change instead.
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
        die "the checkout is shallow, so the pull request's commits are not all there: give actions/checkout 'fetch-depth: 0'"
    fi
    for rev in "$base" "$head"; do
        git cat-file -e "$rev^{commit}" 2>/dev/null ||
            die "commit $rev of the pull request is not in the checkout: give actions/checkout 'fetch-depth: 0'"
    done

    install_check
    # The pull request is judged by the base's convention, as a server judges a push
    # by the convention from before it: a pull request that relaxes the convention (or
    # the file the config input names) does not pass its own commits by it, and the
    # commit that changes the convention answers to the old one too.
    set -- --convention-from "$base"
    if [ -n "${INPUT_CONFIG:-}" ]; then
        set -- "$@" --config "$INPUT_CONFIG"
    fi

    status=0
    "$check" "$@" --range "$base..$head" --format github || status=$?
    [ "$status" -le 1 ] || exit "$status"

    if [ "${INPUT_CHECK_TITLE:-false}" = true ]; then
        title=$(event_field .pull_request.title)
        # The squash merge's subject is the title; its body is GitHub's, so any body
        # passes: the repository's convention with `body = "optional"`.
        conv=$(mktemp)
        trap 'rm -f "$conv"' EXIT
        # (Without [sections], which the check does not use: the dump lists sections of
        # the built-in types even when the convention allows fewer, and would not load.)
        "$check" "$@" --dump-config | awk '
            /^\[/ { skip = ($0 == "[sections]") }
            skip || /^#/ { next }
            /^body = / { print "body = \"optional\""; next }
            { print }' >"$conv"
        title_status=0
        found=$(printf '%s\n' "$title" |
            "$check" --config "$conv" --stdin --no-trace-paths --format github) || title_status=$?
        [ "$title_status" -le 1 ] || exit "$title_status"
        if [ -n "$found" ]; then
            printf '%s\n' "$found" | sed 's/^\(::error [^:]*::\)/\1pull request title: /'
        fi
        [ "$title_status" -eq 0 ] || status=1
    fi
    exit "$status"
}

case "${1:-}" in
    prepare) prepare ;;
    run) run ;;
    *)
        echo "usage: $0 prepare | run" >&2
        exit 2
        ;;
esac
