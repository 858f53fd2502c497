#!/usr/bin/env python3
"""Pick the commits the quality bench replays from a public repository (docs/quality.md):
from its newest 400 first-parent commits that are not merges, those whose subject follows Conventional
Commits, by a person (no bot, no `bump:` or release commit), changing 1-8 files; taken
round-robin over the types (newest first within a type), so that every prefix of the
list keeps a mix. Prints the list, with a header naming the project, to standard output.

    python3 bench/quality/pick.py --source ../commitizen --name commitizen \
        --url https://github.com/commitizen-tools/commitizen --licence MIT -n 10
"""
import argparse
import re
import subprocess

CC = re.compile(r"^([a-z]+)(\([^()\s][^()]*\))?!?: \S")
BOT = re.compile(r"\[bot\]|\bbot@|-bot\b|^bot\b|renovate|dependabot|github-actions|semantic-release", re.I)


def git(source, *args):
    return subprocess.run(["git", "-C", source, *args], check=True, capture_output=True,
                          text=True, errors="replace").stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--url", required=True)
    ap.add_argument("--language", default="")
    ap.add_argument("--licence", required=True)
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--newest", type=int, default=400)
    a = ap.parse_args()
    log = git(a.source, "log", "--first-parent", f"-{a.newest}", "--no-merges",
              "--format=%H%x09%an%x09%ae%x09%s")
    by_type = {}
    for line in log.splitlines():
        h, name, mail, subject = line.split("\t", 3)
        m = CC.match(subject)
        if not m or BOT.search(name + " " + mail) or subject.startswith(("bump", "chore(release)")):
            continue
        if re.match(r"^(chore|build)(\([^)]*\))?: (release|bump version|v?\d)", subject):
            continue
        files = [f for f in git(a.source, "diff-tree", "--no-commit-id", "-r", "--name-only",
                                "-M", h).splitlines() if f]
        if not 1 <= len(files) <= 8:
            continue
        by_type.setdefault(m.group(1), []).append((h, subject))
    picked = []
    while len(picked) < a.n and any(by_type.values()):
        for t in sorted(by_type, key=lambda t: -len(by_type[t])):
            if by_type[t] and len(picked) < a.n:
                picked.append(by_type[t].pop(0))
    lang = f", {a.language}" if a.language else ""
    print(f"# Commits of {a.name} ({a.url}{lang}, {a.licence}) the quality bench replays with")
    print(f"# `--source <a clone of {a.name}> --commits <this file> --no-fixtures`: picked by")
    print(f"# bench/quality/pick.py -n {a.n} (newest {a.newest} first-parent commits; Conventional")
    print("# Commits subjects by a person, 1-8 files; round-robin over the types).")
    for h, s in picked:
        print(f"{h}  # {s}")


if __name__ == "__main__":
    main()
