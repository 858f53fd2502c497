#!/bin/sh
# jitcommit in one minute, without a model: creates a repository in a temporary
# directory (or DIR), installs the hooks with install.sh --no-build, commits with
# the offline draft, and shows the validated result.
#
# Usage: examples/demo.sh [DIR]
# Needs jitcommit-draft and jitcommit-check installed (./install.sh) or on PATH.
set -eu

here=$(cd -- "$(dirname -- "$0")" && pwd -P)
src=$(cd -- "$here/.." && pwd -P)
dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/jitcommit-demo.XXXXXX")}
mkdir -p -- "$dir"
dir=$(cd -- "$dir" && pwd -P)

step() {
	printf '\n== %s\n' "$*"
}

step "A new repository in $dir/repo"
git init -q -b main "$dir/repo"
cd "$dir/repo"
git config user.name "jitcommit demo"
git config user.email "demo@example.invalid"
# Offline on purpose: no model listens on this loopback port, so the draft hook
# uses its offline draft (what a fresh install does before a model is set up).
JITCOMMIT_URL=http://127.0.0.1:9
export JITCOMMIT_URL

step "Install the hooks"
sh "$src/install.sh" --no-build

step "A first commit, with a message written by hand (checked by commit-msg)"
printf '# demo\n' >README.md
git add README.md
git commit -q -F - <<'MSG'
docs: start the demo repository

- Add: README.md — say what the demo repository is for
MSG
git log -1 --format='%h %s'

step "Stage a change and run a plain git commit"
mkdir -p src
printf 'def greet(name):\n    return "hello " + name\n' >src/greet.py
git add src/greet.py
git status --short

# The editor you would see: it shows the draft, then does what you would do, which
# is to replace the placeholder reason (the check rejects the draft until then).
cat >"$dir/editor.sh" <<'EDITOR'
#!/bin/sh
echo "---- the draft in your editor ----------------------------------"
grep -v '^#' "$1" | sed '/^$/N;/^\n$/D'
echo "-----------------------------------------------------------------"
sed -e 's/^\(- [A-Za-z]*: [^ ]* — \).*/\1greet people by name on the home page/' \
	-e 's/^\(- [A-Za-z]*: [^ ]* -- \).*/\1greet people by name on the home page/' "$1" >"$1.edited"
mv "$1.edited" "$1"
EDITOR
chmod +x "$dir/editor.sh"
GIT_EDITOR=$dir/editor.sh git commit -q

step "The commit as stored"
git log -1 --format='%H%n%n%B'

step "Validated: jitcommit-check --range HEAD~1..HEAD"
check=$(command -v jitcommit-check) || check=${CARGO_HOME:-$HOME/.cargo}/bin/jitcommit-check
"$check" --range HEAD~1..HEAD
echo "ok: the commit follows the convention"
