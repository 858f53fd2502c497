#!/bin/sh
# `jitcommit changelog` against git-cliff on the same generated history: 20,000
# conforming commits (types, scopes, 1-3 bullets each, non-ASCII text, a merge every
# 100 commits, a version tag every 500), repacked the way a clone is. Each tool renders
# the whole changelog; the best of 5 runs is reported. Run by hand; not run by CI.
#
# git-cliff comes from crates.io: installed (without its forge integrations) into
# ~/.cache/jitcommit-bench/git-cliff unless GIT_CLIFF names a binary.
#   sh bench/changelog.sh            # 20000 commits
#   COMMITS=5000 sh bench/changelog.sh
#   JITCOMMIT_BIN=/path/to/jitcommit sh bench/changelog.sh   # skip the release build
set -eu
cd "$(dirname "$0")/.."
commits=${COMMITS:-20000}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/jitcommit-bench
cliff=${GIT_CLIFF:-$cache/git-cliff/bin/git-cliff}
if [ ! -x "$cliff" ]; then
    cargo install --locked --no-default-features git-cliff --root "$cache/git-cliff" ||
        cargo install --no-default-features git-cliff --root "$cache/git-cliff"
fi
if [ -n "${JITCOMMIT_BIN:-}" ]; then
    jc=$JITCOMMIT_BIN
else
    cargo build --release --locked --bin jitcommit
    jc=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd -P)/jitcommit
fi

work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
repo=$work/repo
git init -q -b main "$repo"

# A fast-import stream: one file changed per commit, a side commit merged every 100.
awk -v n="$commits" 'BEGIN {
    split("feat fix perf refactor docs test chore", types, " ")
    split("core cli parser io docs", scopes, " ")
    split("Add Update Fix Refactor Document Test", verbs, " ")
    srand(7); t = 1767225600; mark = 0
    for (i = 1; i <= n; i++) {
        ty = types[int(rand() * 7) + 1]; sc = scopes[int(rand() * 5) + 1]
        if (i % 100 == 0) {
            # a side commit off the previous one, then its merge
            side = ++mark
            printf "commit refs/heads/side\nmark :%d\ncommitter Bench <b@example.com> %d +0000\n", side, t
            printf "data <<EOM\nfix(%s): side fix %d\n\n- Fix: src/side_%d.rs — réparé à côté\nEOM\n", sc, i, i % 7
            printf "from :%d\nM 644 inline src/side_%d.rs\ndata <<EOF\nside %d\nEOF\n", mark - 1, i % 7, i
            t += 30
            printf "commit refs/heads/main\nmark :%d\ncommitter Bench <b@example.com> %d +0000\n", ++mark, t
            printf "data <<EOM\nMerge branch '\''side'\''\nEOM\nfrom :%d\nmerge :%d\n", side - 1, side
            t += 30
        } else {
        printf "commit refs/heads/main\nmark :%d\ncommitter Bench <b@example.com> %d +0000\n", ++mark, t
        bullets = int(rand() * 3) + 1
        printf "data <<EOM\n%s(%s): change number %d of the %s module\n\n", ty, sc, i, sc
        for (b = 1; b <= bullets; b++)
            printf "- %s: src/%s/f%d.rs — so that the %s handles case %d (naïve → exact)\n", verbs[int(rand() * 6) + 1], sc, (i + b) % 50, sc, i
        printf "EOM\n"
        if (mark > 1) printf "from :%d\n", mark - 1
        for (b = 1; b <= bullets; b++)
            printf "M 644 inline src/%s/f%d.rs\ndata <<EOF\n%d %d\nEOF\n", sc, (i + b) % 50, i, b
        t += 60
        }
        if (i % 500 == 0) {
            printf "tag v%d.%d.0\nfrom :%d\ntagger Bench <b@example.com> %d +0000\ndata <<EOM\nrelease\nEOM\n", int(i / 5000) + 1, (i % 5000) / 500, mark, t
        }
    }
}' | git -C "$repo" fast-import --quiet
git -C "$repo" checkout -q main
git -C "$repo" repack -adq
git -C "$repo" gc -q --prune=now
printf 'commits: %s\n' "$(git -C "$repo" rev-list --count HEAD)"

cat >"$work/cliff.toml" <<'EOF'
[changelog]
header = ""
body = """
{% if version %}## [{{ version | trim_start_matches(pat="v") }}] - {{ timestamp | date(format="%Y-%m-%d") }}{% else %}## [Unreleased]{% endif %}
{% for group, commits in commits | group_by(attribute="group") %}
### {{ group }}
{% for commit in commits %}
- {% if commit.scope %}**{{ commit.scope }}:** {% endif %}{{ commit.message }} (`{{ commit.id | truncate(length=7, end="") }}`)
{% if commit.body %}{{ commit.body | indent(prefix="  ") }}{% endif %}
{%- endfor %}
{% endfor %}
"""
trim = true

[git]
conventional_commits = true
filter_unconventional = true
split_commits = false
commit_parsers = [
    { message = "^feat", group = "Added" },
    { message = "^fix", group = "Fixed" },
    { message = "^perf", group = "Changed" },
    { message = "^refactor", group = "Changed" },
    { message = ".*", skip = true },
]
filter_commits = false
tag_pattern = "v[0-9].*"
topo_order = false
sort_commits = "newest"
EOF

best() {
    b=
    for _ in 1 2 3 4 5; do
        s=$(date +%s%N)
        "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
        e=$(date +%s%N)
        ms=$(( (e - s) / 1000000 ))
        if [ -z "$b" ] || [ "$ms" -lt "$b" ]; then b=$ms; fi
    done
    printf '%s' "$b"
}

cd "$repo"
j=$(best "$jc" changelog)
jl=$(wc -l <"$work/out")
c=$(best "$cliff" --config "$work/cliff.toml")
cl=$(wc -l <"$work/out")
printf 'jitcommit changelog  %6s ms  (%s lines)\n' "$j" "$jl"
printf 'git-cliff            %6s ms  (%s lines)\n' "$c" "$cl"
awk -v j="$j" -v c="$c" 'BEGIN { if (c > 0) printf "ratio                %6.2fx git-cliff\n", j / c }'
