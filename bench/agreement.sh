#!/bin/sh
# The agreement bench (docs/check.md, "Agreement with convco and cog"): runs
# `jitcommit-check --range` over the full history of real Conventional Commits
# repositories and compares each commit's verdict with `convco check` and `cog check` on
# the same commits. Not a test and not run by CI.
#
#   bench/agreement.sh REPO...        each REPO a clone with a work tree (never this one)
#
# jitcommit runs with the convention a project adopting it on an existing history would
# start from (docs/check.md, "Fitting an existing history"): the default types, any
# case, body = "free", no path tracing, no length or period rule, the default exemptions.
# convco and cog run with their defaults. Merge commits are left out: all three skip or
# exempt them. Needs python3; convco and cog on PATH (CONVCO, COG override), e.g. from
#   cargo install --locked convco@0.6.2 --root ~/.cache/jitcommit-tools
#   cargo install --locked cocogitto --root ~/.cache/jitcommit-tools
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 REPO..." >&2; exit 2; }
check=${JITCOMMIT_CHECK:-}
if [ -z "$check" ]; then
    (cd "$here" && cargo build -q --release --bin jitcommit-check)
    check=$here/target/release/jitcommit-check
fi
convco=${CONVCO:-convco}
cog=${COG:-cog}
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
cat > "$work/convention.toml" <<'TOML'
body = "free"
trace-paths = false
subject-max = 0
subject-period = false
TOML
echo "jitcommit-check $("$check" --version | cut -d' ' -f2), $("$convco" --version), $("$cog" --version)"
for repo in "$@"; do
    repo=$(cd "$repo" && pwd)
    name=$(basename "$repo")
    git -C "$repo" rev-list --no-merges HEAD > "$work/$name.ids"
    : > "$work/$name.jit"
    for root in $(git -C "$repo" rev-list --max-parents=0 HEAD); do
        (cd "$repo" && "$check" --config "$work/convention.toml" --format json --commit "$root" \
            >> "$work/$name.jit") || true
        (cd "$repo" && "$check" --config "$work/convention.toml" --format json --range "$root..HEAD" \
            >> "$work/$name.jit") || true
    done
    # convco: one "FAIL  <short id>  <reason>  <subject>" line per rejected commit.
    (cd "$repo" && "$convco" check 2>&1) > "$work/$name.convco" || true
    # cog: one block per rejected commit, "Errored commit: <id> <author>".
    (cd "$repo" && RUST_BACKTRACE=0 "$cog" check 2>&1) > "$work/$name.cog" || true
    python3 - "$repo" "$work/$name" <<'PY'
import json, re, subprocess, sys
repo, base = sys.argv[1], sys.argv[2]
ids = open(base + '.ids').read().split()
subject = {}
for line in subprocess.run(['git', '-C', repo, 'log', '--no-merges', '--format=%H %s'],
                           capture_output=True, text=True, check=True).stdout.splitlines():
    h, _, s = line.partition(' ')
    subject[h] = s
jit, jit_subject = {}, {}
for line in open(base + '.jit'):
    r = json.loads(line)
    jit[r['commit']] = [f['rule'] for f in r['findings']]
    # The subject verdict: the findings about line 1 (type, scope, colon, description).
    jit_subject[r['commit']] = [f['rule'] for f in r['findings'] if f['line'] == 1]
def short_fails(path, pattern):
    return {m.group(1) for m in re.finditer(pattern, open(path, errors='replace').read(), re.M)}
convco = short_fails(base + '.convco', r'^FAIL\s+([0-9a-f]{7,40})\b')
cog = short_fails(base + '.cog', r'^\s*Errored commit: ([0-9a-f]{7,40})\b')
def failed(h, shorts):
    return any(h.startswith(s) for s in shorts)
rows = []
agree = {'convco': 0, 'cog': 0}
agree_subject = {'convco': 0, 'cog': 0}
for h in ids:
    ours = bool(jit.get(h))
    theirs = {'convco': failed(h, convco), 'cog': failed(h, cog)}
    for tool, bad in theirs.items():
        agree[tool] += bad == ours
        agree_subject[tool] += bad == bool(jit_subject.get(h))
    if ours != theirs['convco'] or ours != theirs['cog']:
        rows.append((h[:12], 'fail' if ours else 'pass', 'fail' if theirs['convco'] else 'pass',
                     'fail' if theirs['cog'] else 'pass', ','.join(jit.get(h, [])), subject.get(h, '')))
n = len(ids)
print(f"\n{repo}: {n} non-merge commits; rejected by jitcommit {sum(1 for h in ids if jit.get(h))}, "
      f"convco {sum(1 for h in ids if failed(h, convco))}, cog {sum(1 for h in ids if failed(h, cog))}")
for tool in ('convco', 'cog'):
    print(f"  agreement with {tool}: subject verdicts {agree_subject[tool]} of {n} "
          f"({100 * agree_subject[tool] / max(n, 1):.1f} %), whole messages {agree[tool]} "
          f"({100 * agree[tool] / max(n, 1):.1f} %)")
if rows:
    print("  disagreements (commit, jitcommit, convco, cog, jitcommit's rules, subject):")
    for r in rows:
        print("    %s  %-4s %-4s %-4s  %-20s %s" % r)
PY
done
