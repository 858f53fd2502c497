#!/usr/bin/env python3
"""The offline draft's figures over several histories, as a Markdown table for
`bench/record.py` (docs/benchmarks.md, section `offline-draft`): per repository and
overall, the commits replayed, type agreement and mean ROUGE-L of the summary, then the
confusion of types over all of them. Reads the `--out` files of `offline.py`; with
`--before`, the same table for the figures before a change follows a `<!-- before -->`
line. Python 3's standard library only.

    python3 bench/quality/offline_table.py --label "this branch" NAME=after.json ... \
        [--before-label "main" --before NAME=before.json ...]
"""

import argparse
import collections
import json


def load(pairs):
    out = []
    for pair in pairs:
        name, path = pair.split("=", 1)
        with open(path, encoding="utf-8") as f:
            out.append((name, json.load(f)))
    return out


def breaking(results):
    """The human's breaking changes, the draft's, and both (`-` for results of an
    offline.py that did not score them)."""
    if not results or "breaking_draft" not in results[0]:
        return "-"
    human = sum(r["breaking_human"] for r in results)
    draft = sum(r["breaking_draft"] for r in results)
    both = sum(r["breaking_human"] and r["breaking_draft"] for r in results)
    return f"{human}, {draft}, {both}"


def table(label, runs):
    lines = [f"**{label}**", "",
             "| repository | commits | type agreement | ROUGE-L (mean) | breaking: human, draft, both |",
             "|---|---|---|---|---|"]
    every = []
    for name, results in runs:
        n = len(results)
        agree = sum(r["type_human"] == r["type_draft"] for r in results)
        rouge = sum(r["rouge_l"] for r in results) / n if n else 0.0
        lines.append(f"| {name} | {n} | {agree} ({100 * agree / n:.1f}%) | {rouge:.3f} "
                     f"| {breaking(results)} |")
        every += results
    n = len(every)
    agree = sum(r["type_human"] == r["type_draft"] for r in every)
    rouge = sum(r["rouge_l"] for r in every) / n if n else 0.0
    lines.append(f"| **overall** | **{n}** | **{agree} ({100 * agree / n:.1f}%)** "
                 f"| **{rouge:.3f}** | **{breaking(every)}** |")
    conf = collections.Counter((r["type_human"], r["type_draft"]) for r in every)
    humans = collections.Counter(r["type_human"] for r in every)
    lines += ["", "| human type | commits | agreement | drafted instead (most often first) |",
              "|---|---|---|---|"]
    for t, m in humans.most_common():
        ok = conf[(t, t)]
        other = collections.Counter({d: k for (h, d), k in conf.items() if h == t and d != t})
        shown = ", ".join(f"{d} {k}" for d, k in other.most_common(4))
        lines.append(f"| {t} | {m} | {100 * ok / m:.1f}% | {shown} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="NAME=results.json from offline.py --out")
    ap.add_argument("--label", default="after")
    ap.add_argument("--before", nargs="*", default=[], help="NAME=results.json, before")
    ap.add_argument("--before-label", default="before")
    a = ap.parse_args()
    print(table(a.label, load(a.runs)))
    if a.before:
        print("\n<!-- before -->\n")
        print(table(a.before_label, load(a.before)))


if __name__ == "__main__":
    main()
