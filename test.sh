#!/usr/bin/env bash
# The README's test command. It installs what the tests drive and a fresh machine
# lacks into a cache of its own (never into a repository), then runs the whole suite,
# and prints how long each phase took.
#
#   ./test.sh                      # everything
#   ./test.sh -- draft_hook        # arguments after `--` go to the test binaries
#   ./test.sh --tools-only         # install the tools and print where they are
#
# The tools (docs/install.md, "The test command"):
#   dash                    the hook shims are tested under it (POSIX sh, no bashisms)
#   pre-commit (PyPI)       the tests drive the real framework
#   husky, lefthook (npm)   the tests install beside them
# They go into $JITCOMMIT_TEST_TOOLS (default: ~/.cache/jitcommit-test-tools). dash and
# Node.js come from Debian's packages when this runs as root; otherwise a missing one
# is a failure that names it. A tool the tests need and cannot get is never skipped.
set -euo pipefail
cd "$(dirname "$0")"

tools_only=0
if [ "${1:-}" = "--tools-only" ]; then
  tools_only=1
  shift
fi

tools="${JITCOMMIT_TEST_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/jitcommit-test-tools}"
mkdir -p "$tools"
tools=$(cd "$tools" && pwd -P)
export JITCOMMIT_TEST_TOOLS="$tools"

phases=()
phase_start=$(date +%s)
phase_done() {
  local now
  now=$(date +%s)
  phases+=("$(printf '%-10s %4d s' "$1" $((now - phase_start)))")
  phase_start=$now
}

fail() {
  echo "test.sh: $*" >&2
  exit 2
}

# Debian packages, only as root (a developer's machine gets a message instead).
apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    fail "$1 is required by the tests and is not installed; install it (Debian: apt-get install $2)"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq "$2" >/dev/null ||
    fail "apt-get install $2 failed; the tests need $1"
}

command -v dash >/dev/null 2>&1 || apt_install dash dash

# The pre-commit framework, in a virtual environment of its own.
if [ ! -x "$tools/venv/bin/pre-commit" ]; then
  command -v python3 >/dev/null 2>&1 || apt_install python3 "python3 python3-venv"
  python3 -m venv "$tools/venv" || fail "python3 -m venv failed; the pre-commit tests need it (Debian: python3-venv)"
  "$tools/venv/bin/pip" install -q --disable-pip-version-check "pre-commit>=2.21,<5" ||
    fail "pip install pre-commit failed; the pre-commit tests need it"
fi

# husky and lefthook. `--ignore-scripts`: lefthook's install script would run
# `lefthook install` in the repository npm was started from, writing a lefthook.yml
# and hooks into it; its binary comes from a package of its own and needs no script.
# npm runs from the tools directory, outside any repository we know of.
if [ ! -x "$tools/npm/node_modules/.bin/husky" ] || [ ! -x "$tools/npm/node_modules/.bin/lefthook" ]; then
  command -v npm >/dev/null 2>&1 || apt_install npm "nodejs npm"
  (cd "$tools" && unset INIT_CWD && LEFTHOOK=0 npm install --prefix "$tools/npm" --ignore-scripts \
    --no-audit --no-fund --silent husky@9.1.7 lefthook@1.13.6) ||
    fail "npm install husky lefthook failed; the tests that install beside them need both"
fi
phase_done tools

export PATH="$tools/venv/bin:$PATH"
export JITCOMMIT_NPM_BIN="$tools/npm/node_modules/.bin"
if [ "$tools_only" = 1 ]; then
  echo "pre-commit: $tools/venv/bin/pre-commit"
  echo "husky:      $JITCOMMIT_NPM_BIN/husky"
  echo "lefthook:   $JITCOMMIT_NPM_BIN/lefthook"
  exit 0
fi

# The tests build in the release profile, with the dependencies as ./install.sh builds
# them, so after it only the workspace's crates compile (tests/release-build.toml).
# Build first, so the build and the run are timed apart.
test_build=(--config tests/release-build.toml test --workspace --locked --release)
cargo "${test_build[@]}" --no-run --quiet
phase_done build

status=0
cargo "${test_build[@]}" --no-fail-fast "$@" || status=$?
phase_done tests

echo
echo "test.sh phases (tools in $tools):"
printf '  %s\n' "${phases[@]}"
exit "$status"
