#!/usr/bin/env python3
"""The history walk of `--range` on real clones (docs/check.md, "Performance"): the
check of the newest 200 commits and of the whole history, under a convention file (so
that only the walk and the checks differ, no fit), against `git rev-list` of the same
range, for each build given, in interleaved rounds. Prints Markdown for
bench/record.py. Python 3's standard library only.

    python3 bench/range_walk.py [ROUNDS] NAME=BIN_DIR... -- CLONE...

e.g. `python3 bench/range_walk.py 10 before=/tmp/old after=$CARGO_HOME/bin -- ~/clones/commitizen`.
The clones are read, never changed.
"""

import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fitted_check import run  # noqa: E402  (one timing of a process, CPU and wall)


def main():
    args = sys.argv[1:]
    if "--" not in args:
        raise SystemExit(__doc__)
    cut = args.index("--")
    opts, clones = args[:cut], args[cut + 1:]
    rounds = int(opts.pop(0)) if opts and opts[0].isdigit() else 10
    bins = [a.split("=", 1) for a in opts]
    if not bins or not clones or any(len(b) != 2 for b in bins):
        raise SystemExit(__doc__)
    conv = os.path.join(tempfile.mkdtemp(prefix="jc-walk-"), "conv.toml")
    with open(conv, "w", encoding="utf-8") as f:
        f.write('body = "free"\ntypes = []\nsubject-max = 0\n')
    print(f"Median CPU time (user + system) of {rounds} interleaved rounds; the convention "
          "accepts any Conventional Commit, so every commit of the range is walked and "
          "parsed, none traced.\n")
    print("| clone | range | commits | run | CPU ms | ratio to `git rev-list` |")
    print("|---|---|---|---|---|---|")
    for clone in clones:
        git = lambda *a: subprocess.run(["git", *a], cwd=clone, capture_output=True,  # noqa: E731
                                        text=True, check=True).stdout.strip()
        root = git("rev-list", "--max-parents=0", "HEAD").split("\n")[-1]
        for spec in ("HEAD~200..HEAD", f"{root}..HEAD"):
            n = git("rev-list", "--count", spec)
            cases = [("git rev-list", ["git", "rev-list", spec])]
            cases += [(name, [os.path.join(os.path.abspath(d), "jitcommit-check"),
                              "--config", conv, "--range", spec]) for name, d in bins]
            cpu = {c[0]: [] for c in cases}
            for _ in range(rounds):
                for label, cmd in cases:
                    cpu[label].append(run(cmd, clone)[0])
            base = statistics.median(cpu["git rev-list"])
            shown = spec if spec.startswith("HEAD~") else "root..HEAD"
            for label, _ in cases:
                m = statistics.median(cpu[label])
                print(f"| {os.path.basename(clone)} | {shown} | {n} | {label} | "
                      f"{m * 1000:.1f} | {m / base:.2f}× |")


if __name__ == "__main__":
    main()
