#!/usr/bin/env python3
"""`--print-context` of two jitcommit-draft binaries against git, in interleaved rounds.

Runs on the staged changes `JITCOMMIT_BENCH_KEEP=1 cargo bench --bench draft` keeps (the
directory it prints, holding pc1, pc500 and pc5000): each round runs `git status --short`
+ `git diff --cached`, the BEFORE binary and the AFTER binary once, in a rotating order, so
that a change of load meets all three alike. Prints a Markdown table of the medians and
their ratios to git, for bench/record.py. Python 3's standard library only.

    python3 bench/print_context_ab.py KEPT_DIR BEFORE AFTER
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, before, after = sys.argv[1:]
    home = tempfile.mkdtemp()
    env = {"PATH": os.environ["PATH"], "HOME": home, "GIT_CONFIG_NOSYSTEM": "1",
           "LANG": "C.UTF-8"}

    def run(cmds, cwd):
        t = time.perf_counter()
        for c in cmds:
            subprocess.run(c, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t

    print("| staged change | git status --short + git diff --cached | before | ratio before"
          " | after | ratio after |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, d, rounds in [("1 file", "pc1", 41), ("500 files / 1 MB", "pc500", 15),
                             ("5,000 files / 10 MB", "pc5000", 9)]:
        cwd = os.path.join(root, d)
        g, b, a = [], [], []
        jobs = [(g, [["git", "status", "--short"], ["git", "diff", "--cached"]]),
                (b, [[before, "--print-context"]]),
                (a, [[after, "--print-context"]])]
        for i in range(rounds):
            k = i % 3
            for v, cmds in jobs[k:] + jobs[:k]:
                v.append(run(cmds, cwd))
        g, b, a = (statistics.median(x) for x in (g, b, a))
        print(f"| {label} | {g * 1e3:.2f} ms | {b * 1e3:.2f} ms | {b / g:.2f}× "
              f"| {a * 1e3:.2f} ms | {a / g:.2f}× |")


if __name__ == "__main__":
    main()
