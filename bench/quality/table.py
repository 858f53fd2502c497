#!/usr/bin/env python3
"""Tables of one or more quality-bench runs (run.py --out JSON), for docs/benchmarks.md:
each tool's totals over every commit of the runs, the type and ROUGE-L per project, and
every commit's subjects side by side. A run is `LABEL=FILE.json` (the project's name)
or a file alone (labelled by its name).

    python3 bench/quality/table.py commitizen=A-commitizen.json cocogitto=A-cocogitto.json

Python 3's standard library only.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import chat_requests  # noqa: E402

TOOLS = (("model", "jitcommit, model"), ("offline", "jitcommit, offline"),
         ("opencommit", "opencommit"), ("aicommits", "aicommits"))




def cell(text):
    """A draft's subject as a table cell. It quotes another repository's paths: a
    `docs/…` one is written with an entity (it renders the same) so that the page's
    reference check (tests/docs_refs.rs) does not take it for one of this repository's
    documents."""
    text = (text or "(empty)").replace("|", "\\|").replace("\n", " ")
    return text.replace("docs/", "docs&#47;")


def main(argv):
    runs = []
    for a in argv:
        label, _, path = a.rpartition("=")
        label = label or os.path.basename(path).rsplit(".", 1)[0]
        runs.append((label, json.load(open(path, encoding="utf-8"))["results"]))
    rows = [r for _, rs in runs for r in rs]
    tools = [(k, name) for k, name in TOOLS if any(r.get(k) for r in rows)]
    n = len(rows)
    print("| tool | type agreement | ROUGE-L | junk | Conventional Commits valid "
          "| chat requests per commit | prompt tokens (median) | seconds (median) |")
    print("|---|---|---|---|---|---|---|---|")
    for k, name in tools:
        ds = [r[k] for r in rows if r.get(k)]
        typ = sum(d.get("type_ok", False) for d in ds)
        rouge = statistics.mean(d.get("rouge_l", 0.0) for d in ds) if ds else 0.0
        junk = sum(bool(d.get("junk")) for d in ds)
        valid = sum(d.get("cc_valid", False) for d in ds)
        model = k != "offline"
        ch = f"{statistics.mean(chat_requests(d) for d in ds):.2f}" if model else "-"
        # Prompt tokens over the drafts that reached the server: a draft that ended
        # offline before asking has none, and would pull the median down.
        asked = [d["prompt_tokens"] for d in ds if d.get("prompt_tokens")]
        toks = f"{statistics.median(asked):.0f}" if model and asked else "-"
        secs = f"{statistics.median(d.get('wall', 0.0) for d in ds):.1f}"
        print(f"| {name} | {typ} of {n} | {rouge:.3f} | {junk} of {n} | {valid} of {n} "
              f"| {ch} | {toks} | {secs} |")
    print()
    head = " | ".join(f"{name}: type, ROUGE-L" for _, name in tools)
    print(f"| project | {head} |")
    print("|---|" + "---|" * len(tools))
    for label, rs in runs:
        cells = []
        for k, _ in tools:
            ds = [r[k] for r in rs if r.get(k)]
            rouge = statistics.mean(d.get("rouge_l", 0.0) for d in ds) if ds else 0.0
            cells.append(f"{sum(d.get('type_ok', False) for d in ds)} of {len(rs)}, {rouge:.3f}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    print("| commit | human | " + " | ".join(name for _, name in tools) + " |")
    print("|---|---|" + "---|" * len(tools))
    for label, rs in runs:
        for r in rs:
            subj = [cell((r.get(k) or {}).get("message", "").split("\n", 1)[0]) for k, _ in tools]
            print(f"| {label} {r['id']} | {cell(r['human'].splitlines()[0])} | " + " | ".join(subj) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    main(sys.argv[1:])
