#!/bin/sh
# A git server that checks every pushed commit message with jitcommit-check.
#
# Creates, in DIR (default: a new temporary directory):
#   server.git            a bare repository with jitcommit's pre-receive hook
#   server.git/jitcommit-policy.toml   the server's policy (set as jitcommit.policy)
#   work/                 a clone that pushes one rejected and one accepted commit
#
# Usage: examples/server/setup.sh [DIR]
# Needs jitcommit-check installed (./install.sh, or on PATH): it runs
# install.sh --server --no-build --check-first-push. Exits non-zero unless the bad push is rejected and
# the good one accepted.
set -eu

here=$(cd -- "$(dirname -- "$0")" && pwd -P)
src=$(cd -- "$here/../.." && pwd -P)
dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/jitcommit-server.XXXXXX")}
mkdir -p -- "$dir"
dir=$(cd -- "$dir" && pwd -P)

step() {
	printf '\n== %s\n' "$*"
}

step "A bare repository with the pre-receive hook"
git init -q --bare -b main "$dir/server.git"
# --check-first-push: this example's first push is the bad one. By default the first
# push into an empty repository is taken as the project's history, unchecked.
sh "$src/install.sh" --server "$dir/server.git" --no-build --check-first-push

step "The server's policy (a push cannot loosen it: it is not in the repository)"
cat >"$dir/server.git/jitcommit-policy.toml" <<'POLICY'
types = ["feat", "fix", "docs", "test", "build", "ci", "chore"]
verbs = ["Add", "Update", "Fix", "Remove", "Rename", "Move", "Document", "Test"]
subject-max = 72
body = "required"
trace-paths = true
POLICY
git -C "$dir/server.git" config jitcommit.policy jitcommit-policy.toml
cat "$dir/server.git/jitcommit-policy.toml"

step "A clone that pushes"
git clone -q "$dir/server.git" "$dir/work" 2>/dev/null
cd "$dir/work"
git config user.name "jitcommit example"
git config user.email "example@example.invalid"
printf 'print("hello")\n' >hello.py
git add hello.py
# --no-verify: client hooks can be skipped; the server's cannot.
git commit -q --no-verify -F - <<'MSG'
feat: add the greeting

- Changed: hello.py — print a greeting on start
MSG
git log -1 --format='%h %s%n%n%b'

step "Push with a verb the policy does not allow: rejected"
if git push origin main; then
	echo "UNEXPECTED: the server accepted a commit that breaks its policy" >&2
	exit 1
fi

step "Reword the commit and push again: accepted"
git commit -q --amend --no-verify -F - <<'MSG'
feat: add the greeting

- Add: hello.py — print a greeting on start
MSG
git log -1 --format='%h %s%n%n%b'
if ! git push origin main; then
	echo "UNEXPECTED: the server rejected a conforming commit" >&2
	exit 1
fi

step "Done"
echo "server: $dir/server.git (hook: $dir/server.git/hooks/pre-receive)"
echo "The rejected push left nothing behind; main on the server is $(git -C "$dir/server.git" rev-parse --short main)."
