#!/usr/bin/env python3
"""What the convention fitted to a history costs the gates, on a real clone with no
convention file (docs/check.md, "Before the project adopts a convention"): the
commit-msg check of one staged change, fitted to the newest 500 commits, against the
same check under a convention file (nothing to fit), against git's own
`git diff --cached --name-only`, and beside git's own read of the 500 messages
(`git log -500 --format=%B`, the floor of what fitting adds); and `--range` over the newest 200 commits, fitted to
the history below them, against `git rev-list` of the same range. Each binary
directory given is measured in the same interleaved rounds, so two builds compare.
Prints Markdown for bench/record.py. Python 3's standard library only.

    python3 bench/fitted_check.py CLONE [ROUNDS] NAME=BIN_DIR...

e.g. `python3 bench/fitted_check.py ~/clones/python-semantic-release 40
before=/tmp/old after=$CARGO_HOME/bin`. The clone is never changed: the change is
staged in a shared clone of it in a temporary directory.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd, cwd):
    """CPU seconds (user + system) and wall seconds of one run of `cmd`."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {code} in {cwd}")
    return usage.ru_utime + usage.ru_stime, wall


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    clone = os.path.abspath(args.pop(0))
    rounds = int(args.pop(0)) if args and args[0].isdigit() else 30
    bins = [a.split("=", 1) for a in args]
    if not bins or any(len(b) != 2 for b in bins):
        raise SystemExit("name each binary directory: NAME=BIN_DIR")
    work = tempfile.mkdtemp(prefix="jc-fitted-")
    repo = os.path.join(work, "repo")
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    subprocess.run(["git", "clone", "-q", "--shared", clone, repo], check=True, env=env)
    for name in (".commit-convention.toml",):
        if os.path.exists(os.path.join(repo, name)):
            raise SystemExit(f"{clone} has a {name}: the fitted convention needs none")
    readme = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout.split("\n")[0]
    with open(os.path.join(repo, readme), "a", encoding="utf-8") as f:
        f.write("\n")
    subprocess.run(["git", "add", readme], cwd=repo, check=True)
    msg = os.path.join(work, "MSG")
    with open(msg, "w", encoding="utf-8") as f:
        f.write("docs: add a line to the first file\n")
    conv = os.path.join(work, "conv.toml")
    with open(conv, "w", encoding="utf-8") as f:
        f.write('body = "optional"\n')
    commits = int(subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=repo,
                                 capture_output=True, text=True, check=True).stdout)
    span = min(200, commits - 1)
    cases = [("git diff --cached --name-only", "git", ["git", "diff", "--cached", "--name-only"]),
             (f"git rev-list HEAD~{span}..HEAD", "git-range",
              ["git", "rev-list", f"HEAD~{span}..HEAD"]),
             # What reading the 500 messages a fit reads costs git itself: the floor of
             # what fitting adds to a check.
             ("git log -500 --format=%B", "git", ["git", "log", "-500", "--format=%B"])]
    for name, d in bins:
        check = os.path.join(os.path.abspath(d), "jitcommit-check")
        cases += [(f"{name}: commit-msg, fitted", "git", [check, msg]),
                  (f"{name}: commit-msg, a convention file", "git", [check, "--config", conv, msg]),
                  (f"{name}: --range HEAD~{span}..HEAD, fitted", "git-range",
                   [check, "--range", f"HEAD~{span}..HEAD"])]
    cpu = {c[0]: [] for c in cases}
    for _ in range(rounds):
        for label, _, cmd in cases:
            cpu[label].append(run(cmd, repo)[0])
    base = {"git": statistics.median(cpu[cases[0][0]]),
            "git-range": statistics.median(cpu[cases[1][0]])}
    head = subprocess.run(["git", "log", "-1", "--format=%h %cs"], cwd=clone,
                          capture_output=True, text=True).stdout.strip()
    print(f"{os.path.basename(clone)} at {head}: {commits} commits, no convention file; "
          f"{rounds} interleaved rounds, median CPU time (user + system).\n")
    print("| run | CPU ms | ratio |")
    print("|---|---|---|")
    for label, against, _ in cases:
        m = statistics.median(cpu[label])
        print(f"| {label} | {m * 1000:.1f} | {m / base[against]:.2f}× `{'git diff --cached --name-only' if against == 'git' else 'git rev-list'}` |")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
