#!/usr/bin/env python3
"""Write one bench's figures into docs/benchmarks.md, the generated figures page.

Every bench that produces figures pipes its Markdown table through this script, which
replaces that bench's section of the page (or adds it, keeping the sections sorted by
name) and heads it with the date, the machine and its load, and the command that
reproduces it. Nothing else writes the page: figures quoted elsewhere in docs/ name the
section instead of repeating numbers that go stale.

    some-bench | python3 bench/record.py NAME --title "Title" --command "bench/x.sh ARGS"

NAME is a short identifier (letters, digits, dashes). The body read from stdin is kept
as it is; a body with a line `<!-- before -->` keeps everything from that line on from
the section's previous body when the new body has no such line (the figures before a
change, kept beside the ones after it). Python 3's standard library only.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "benchmarks.md")
HEADER = """# Benchmarks

Generated: every section below is written by the bench it names, through
`bench/record.py`; do not edit it by hand. Each section says when and on what machine it
was measured, how loaded the machine was when the bench started, and the command that
reproduces it. From a `<!-- before -->` line on, a section keeps the figures of the runs
before it, which record.py carries over when the bench runs again. Ratios are taken
against a baseline run in the same process, so they compare; absolute times only
describe that machine on that day.
"""
SECTION = re.compile(r"<!-- bench:([a-z0-9-]+) begin -->\n(.*?)<!-- bench:\1 end -->\n", re.S)


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{os.cpu_count()} cores ({cpu}), load {load:.2f} at the start"


def revision():
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=os.path.dirname(PAGE), check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name")
    ap.add_argument("--title", required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--page", default=PAGE)
    args = ap.parse_args()
    if not re.fullmatch(r"[a-z0-9-]+", args.name):
        sys.exit(f"record.py: section name {args.name!r} is not letters, digits and dashes")
    body = sys.stdin.read().strip("\n")
    if not body:
        sys.exit("record.py: nothing on stdin; the page is left as it was")
    try:
        with open(args.page, encoding="utf-8") as f:
            old = f.read()
    except FileNotFoundError:
        old = HEADER
    sections = {m.group(1): m.group(2) for m in SECTION.finditer(old)}
    previous = sections.get(args.name, "")
    if "<!-- before -->" not in body and "<!-- before -->" in previous:
        body += "\n\n" + previous[previous.index("<!-- before -->"):].strip("\n")
    today = datetime.date.today().isoformat()
    measured = f"Measured {today} at {revision()} on {machine()}, with\n`{args.command}`."
    sections[args.name] = f"## {args.title}\n\n{measured}\n\n{body}\n"
    text = HEADER + "".join(
        f"\n<!-- bench:{name} begin -->\n{sections[name]}<!-- bench:{name} end -->\n"
        for name in sorted(sections)
    )
    tmp = args.page + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.page)
    print(f"record.py: wrote section {args.name} of {os.path.relpath(args.page)}", file=sys.stderr)


if __name__ == "__main__":
    main()
