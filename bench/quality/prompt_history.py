#!/usr/bin/env python3
"""The history part of the prompt, compared between builds of `jitcommit-draft` over real
commits (docs/benchmarks.md, section `history-window`): the last N non-merge commits of a
repository whose subject follows Conventional Commits are replayed in one scratch clone
(checked out at the first parent, the commit's tree staged with `git read-tree -m -u`),
and each build's `--print-context` is read for the recent subjects it shows and for how
many earlier commits its type counts cover. The first build is the reference; for each
other one it prints how often the prompt is the same, and how often it shows fewer or
other subjects or counts fewer commits. No model, no server. Python 3's standard
library only.

    python3 bench/quality/prompt_history.py --source /path/to/repo --limit 300 \\
        w200=/path/to/jitcommit-draft w100=/path/to/other/jitcommit-draft
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from offline import cases, replayed  # noqa: E402  (the offline bench's replay)

SUBJECTS = re.compile(r"# Recent subjects\n.*?<evidence[^>]*>\n(.*?)</evidence>", re.S)
COUNTED = re.compile(r"types of the last (\d+) commits")


def subject_of(line):
    """A shown subject as its text: a quoted datum (`"feat: x"`, `"feat: lon…" (cut)`)
    unquoted, an older build's bare line as it is, so builds on either side compare."""
    quoted = line[: -len(" (cut)")] if line.endswith('" (cut)') else line
    if quoted.startswith('"'):
        try:
            return json.loads(quoted)
        except ValueError:
            pass
    return line


def history_of(prompt):
    """(the recent subjects shown, how many commits the type counts cover)."""
    s = SUBJECTS.search(prompt)
    k = COUNTED.search(prompt)
    subjects = [subject_of(line) for line in s.group(1).splitlines()] if s else []
    return subjects, (int(k.group(1)) if k else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", required=True, help="the repository whose history is replayed")
    ap.add_argument("--limit", type=int, default=300, help="only the last N commits")
    ap.add_argument("builds", nargs="+", help="NAME=PATH of a jitcommit-draft; the first is "
                    "the reference")
    a = ap.parse_args()
    builds = [b.split("=", 1) for b in a.builds]
    if any(len(b) != 2 for b in builds) or len(builds) < 2:
        sys.exit("give at least two builds as NAME=PATH")
    todo = cases(a.source, None, a.limit)
    ref = builds[0][0]
    shown, counted, diff = collections.Counter(), collections.Counter(), collections.Counter()
    for _, _, _, repo, env in replayed(a.source, todo, "jitcommit-prompt-history-"):
        out = {}
        for name, path in builds:
            r = subprocess.run([path, "--print-context"], cwd=repo, env=env,
                               capture_output=True, text=True, check=True)
            out[name] = (r.stdout, *history_of(r.stdout))
        for name, _ in builds:
            text, subjects, k = out[name]
            shown[name] += len(subjects)
            counted[name] += k
            if name == ref:
                continue
            rtext, rsubjects, rk = out[ref]
            diff[name, "the same prompt"] += text == rtext
            diff[name, "fewer subjects"] += len(subjects) < len(rsubjects)
            diff[name, "other subjects"] += subjects != rsubjects
            diff[name, "fewer commits counted"] += k < rk
    n = len(todo)
    if not n:
        print("no commits replayed")
        return 1
    others = [name for name, _ in builds[1:]]
    print(f"{os.path.basename(os.path.abspath(a.source))}, the last {n} commits:\n")
    print("| build | subjects shown (mean) | commits the type counts cover (mean) | "
          + " | ".join(f"{w} (against {ref})" for w in
                       ["the same prompt", "fewer subjects", "other subjects",
                        "fewer commits counted"]) + " |")
    print("| --- " * 7 + "|")
    for name, _ in builds:
        cells = [f"{shown[name] / n:.2f}", f"{counted[name] / n:.2f}"]
        cells += (["reference"] * 4 if name not in others else
                  [f"{diff[name, w]} of {n}" for w in ["the same prompt", "fewer subjects",
                                                       "other subjects",
                                                       "fewer commits counted"]])
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
