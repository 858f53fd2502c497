#!/usr/bin/env python3
"""The offline draft over a whole history (docs/quality.md, "The offline draft over whole
histories"): every non-merge commit of a repository whose subject follows Conventional
Commits is replayed in one scratch clone (checked out at its first parent, the commit's
tree staged with `git read-tree -m -u`), drafted by the real `jitcommit-draft` hook with
no model, and scored against the human subject: type agreement, ROUGE-L of the summary,
the confusion of types, and breaking agreement (the human's `!` or `BREAKING CHANGE`
footer against the draft's); the junk rate by `score.gate` (the offline `<why?>` by design
not counted), the share of `update <file>` summaries (a bare update of a staged path's
name), and, over the commits whose human subject bumps a dependency it names (`bump X`,
`update X requirement`, a `deps` scope), the share whose draft summary names it. No model, no server: a few hundred commits take a minute or
two. Python 3's standard library only.

    python3 bench/quality/offline.py --bin-dir target/release --source /path/to/repo \
        [--range A..B] [--limit N] [--out results.json]
"""

import argparse
import collections
import json
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402
from run import git, run_hook, staged  # noqa: E402  (the model bench's git and hook runners)


def hermetic_env(home):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GIT_", "JITCOMMIT_"))}
    env.update({
        "HOME": home,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.path.join(home, ".gitconfig"),
        "GIT_EDITOR": "vi",
        "LC_ALL": "C",
    })
    return env


def cases(source, rng, limit):
    """(commit, human subject, human message) of every non-merge commit with a parent
    whose subject parses as Conventional Commits, oldest first."""
    args = ["log", "--no-merges", "--reverse", "--format=%H%x00%P%x00%B%x01"]
    args.append(rng or "HEAD")
    out = []
    for record in git(*args, cwd=source).split("\x01"):
        record = record.lstrip("\n")
        if not record:
            continue
        c, parents, message = record.split("\x00", 2)
        subject = message.split("\n", 1)[0]
        if not parents:
            continue
        if score.parse(subject + "\n")["type"] is None:
            continue
        out.append((c, subject, message))
    return out[-limit:] if limit else out


def replayed(source, todo, prefix):
    """Each of `todo` (as `cases` lists them) replayed in one scratch clone of `source`:
    checked out at its first parent, its tree staged with `git read-tree -m -u`. Yields
    (commit, subject, message, clone, env), the clone's hermetic environment."""
    with tempfile.TemporaryDirectory(prefix=prefix) as work:
        home = os.path.join(work, "home")
        os.makedirs(home)
        env = hermetic_env(home)
        repo = os.path.join(work, "repo")
        git("clone", "-q", "--no-checkout", source, repo, env=env)
        git("config", "user.name", "bench", cwd=repo, env=env)
        git("config", "user.email", "bench@example.invalid", cwd=repo, env=env)
        for c, subject, message in todo:
            git("checkout", "-q", "-f", "--detach", c + "^", cwd=repo, env=env)
            git("clean", "-qfdx", cwd=repo, env=env)
            git("read-tree", "-m", "-u", "HEAD", c, cwd=repo, env=env)
            yield c, subject, message, repo, env


# Words of a dependency bump's subject that name no dependency.
NOT_A_NAME = {"the", "a", "an", "all", "dependency", "dependencies", "deps", "requirement",
              "requirements", "version", "versions", "action", "actions", "group", "to",
              "from", "and", "of", "in", "for", "with", "pin", "pins", "lock", "range"}
BUMP_VERB = re.compile(r"\b(?:bump|update|upgrade|extend|expand|lock|pin|downgrade)\s+"
                       r"(?:the\s+)?(?:dependency\s+)?`?([A-Za-z0-9_.@/-]+)`?", re.I)


def bumped_names(subject):
    """The dependencies a human subject says are bumped (`bump rich from 14 to 15`,
    ``ci(deps): bump `actions/checkout@v6` to `v7` ``, `update argcomplete requirement
    from …`), or [] when the subject is no dependency bump or names none (`bump: version
    1.2 → 1.3` is a release)."""
    p = score.parse(subject + "\n")
    if p["type"] is None:
        return []
    summary, scope = p["summary"], (p["scope"] or "").lower()
    if p["type"] == "bump" or re.match(r"(?i)(bump|release)( the)? version\b", summary):
        return []
    deps = re.match(r"deps?(-|$)", scope) is not None
    names = []
    for quoted in re.findall(r"`([^`]+)`", summary) if deps else []:
        name = quoted.split("@", 1)[0].strip()
        if re.search(r"[A-Za-z]", name) and not score.VERSION.match(name) and " " not in name \
                and not re.match(r"^[~^<>=!v]*\d", name):
            names.append(name)
    if not names:
        m = BUMP_VERB.search(summary)
        rest = summary[m.end():] if m else ""
        if m and (deps or re.search(r"\bfrom\b.*\bto\b|\brequirement\b|\bto v?\d", rest)):
            name = m.group(1).split("@", 1)[0]
            if name.lower() not in NOT_A_NAME and not score.VERSION.match(name):
                names.append(name)
    if not names or not (deps or BUMP_VERB.search(summary)):
        return []
    return names


def names_dependency(summary, names):
    """The draft's summary names one of `names`, in full or by its last path segment
    (`actions/checkout` or `checkout`), with `-`, `_` and `.` counted as one; a name
    the human shortened (`importlib` for `importlib-resources`) counts."""
    norm = lambda s: re.sub(r"[-_.]+", "-", s.lower())
    words = set(norm(w) for w in re.findall(r"[A-Za-z0-9_.@/-]+", summary))
    words |= {w.rsplit("/", 1)[-1] for w in words}
    keys = {k for n in names for k in (norm(n), norm(n).rsplit("/", 1)[-1])}
    return any(w == k or w.startswith(k + "-") for w in words for k in keys)


def update_of_a_file(summary, paths):
    """`update <file>`: a bare update of a staged path, its file name or its stem."""
    low = " ".join(summary.lower().split())
    if not low.startswith("update ") or " " in low[len("update "):]:
        return False
    obj = low[len("update "):].strip("`'\"")
    names = set()
    for p in paths:
        p = p.lower()
        base = p.rsplit("/", 1)[-1]
        names |= {p, base, base.split(".", 1)[0] if not base.startswith(".") else base}
    return obj in names


def share(k, n):
    return f"{k} of {n} ({100 * k / n:.1f}%)" if n else "0 of 0"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory holding jitcommit-draft")
    ap.add_argument("--source", required=True, help="the repository whose history is replayed")
    ap.add_argument("--range", help="revision range (default: all of HEAD)")
    ap.add_argument("--limit", type=int, default=0, help="only the last N commits")
    ap.add_argument("--out", help="write every result as JSON here")
    a = ap.parse_args()

    bin_dir = os.path.abspath(a.bin_dir)
    todo = cases(a.source, a.range, a.limit)
    results = []
    t0 = time.time()
    for c, subject, message, repo, env in replayed(a.source, todo, "jitcommit-offline-"):
        r = run_hook(bin_dir, repo, env)
        text = r["message"]
        got = score.parse(text)
        human = score.parse(subject + "\n")
        human_breaking = score.parse(message)["breaking"]
        _, paths, dset = staged(repo, env)
        summary = got["summary"] or "" if got["type"] else ""
        deps = bumped_names(subject)
        results.append({
            "commit": c[:7],
            "human": subject,
            "draft": text.splitlines()[0] if text.strip() else "",
            "type_human": human["type"],
            "type_draft": got["type"],
            "rouge_l": score.rouge_l(got["summary"] or "", human["summary"] or ""),
            "breaking_human": human_breaking,
            "breaking_draft": got["breaking"],
            "files": len(git("diff", "--cached", "--name-only", cwd=repo,
                             env=env).splitlines()),
            "hook_exit": r["exit"],
            "junk": score.gate(got, paths, dset, placeholder_ok=True),
            "update_file": update_of_a_file(summary, paths),
            "deps_human": deps,
            "deps_named": bool(deps) and names_dependency(summary, deps),
        })
    secs = time.time() - t0
    n = len(results)
    if not n:
        print("no commits replayed")
        return 1
    agree = sum(r["type_human"] == r["type_draft"] for r in results)
    rouge = sum(r["rouge_l"] for r in results) / n
    print(f"commits: {n} ({secs:.0f} s)")
    print(f"type agreement: {agree} of {n} ({100 * agree / n:.1f}%)")
    print(f"ROUGE-L of the summary (mean): {rouge:.3f}")
    same = sum(r["breaking_human"] == r["breaking_draft"] for r in results)
    said = [r for r in results if r["breaking_draft"]]
    print(f"breaking agreement: {same} of {n} ({100 * same / n:.1f}%); the draft said "
          f"breaking {len(said)} times, {sum(r['breaking_human'] for r in said)} of them "
          f"as the human did; the human {sum(r['breaking_human'] for r in results)} times")
    junk = [r for r in results if r["junk"]]
    print(f"junk (score.gate): {share(len(junk), n)}")
    reasons = collections.Counter(w.split(":")[0] for r in junk for w in r["junk"])
    for why, k in reasons.most_common(6):
        print(f"  {k:4}  {why}")
    print(f"update <file> summaries: {share(sum(r['update_file'] for r in results), n)}")
    bumps = [r for r in results if r["deps_human"]]
    print(f"dependency bumps whose draft names the dependency: "
          f"{share(sum(r['deps_named'] for r in bumps), len(bumps))}")
    conf = collections.Counter((r["type_human"], r["type_draft"]) for r in results)
    humans = collections.Counter(r["type_human"] for r in results)
    print("\nhuman type: n, agreement, what the draft said instead (most often first)")
    for t, m in humans.most_common():
        ok = conf[(t, t)]
        other = collections.Counter({d: k for (h, d), k in conf.items() if h == t and d != t})
        shown = ", ".join(f"{d} {k}" for d, k in other.most_common(4))
        print(f"  {t:9} {m:4}  {100 * ok / m:5.1f}%  {shown}")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
