#!/usr/bin/env python3
"""Adopting jitcommit on real Conventional Commits histories (docs/changelog.md).

For each repository given (a clone with its tags, outside this repository; never
committed), under the default convention (the repository configures none for
jitcommit):

- entries: for each of its last six releases (tags that are also headings of its own
  CHANGELOG.md), the scoped and unscoped feat/fix entries its own tool wrote, and how
  many `jitcommit changelog --format json` lists in the same release (matched by commit
  id when the entry names one, else by its description);
- bump: `jitcommit bump` at each release's parent (the tag's commit's first parent,
  checked out detached) against the tag that was made, under the default convention
  and under the one `jitcommit init` proposes there (from the history up to the
  parent, so the release itself never informs it);
- verdicts: every commit of the history through `jitcommit-check` (`--range` from the
  root, `--commit` for the root) and through `jitcommit changelog --others list`, under
  the default convention and under a permissive one: a commit the gate accepts and the
  reader leaves out as non-conforming is a disagreement (the reader accepting what the
  gate refuses is the house style, counted apart); and `bump` at each release's parent
  against the level the changelog's own release data asks for;
- init: `jitcommit init` on the clone: how many of the last 500 commits pass the
  convention it proposes.

The project's changelog is its CHANGELOG.md (with changelogs/CHANGELOG-*.md, where
older releases were moved) or its CHANGELOG.rst (python-semantic-release's layout).
A repository given as `PATH@pre` is measured on its last six releases that were
preceded by pre-release tags of the same version (v3.4.0-rc.1 … v3.4.0): the releases
a project whose releases pass through pre-releases makes.

Run by hand, not by CI:
    python3 bench/adoption.py /work/bench-repos/cocogitto+cocogitto ...
    python3 bench/adoption.py /work/bench-repos/vuejs+core@pre
    JITCOMMIT_DIR=target/release python3 bench/adoption.py REPO...   # prebuilt binaries
    RECORD=1 python3 bench/adoption.py REPO...   # and write its section of docs/benchmarks.md
The clones' work trees are checked out at release parents and restored to their
branch afterwards.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

BIN = os.environ.get("JITCOMMIT_DIR", os.path.join(os.path.dirname(__file__), "..", "target", "debug"))
JC = os.path.abspath(os.path.join(BIN, "jitcommit"))
CHECK = os.path.abspath(os.path.join(BIN, "jitcommit-check"))
SEMVER = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$")
PERMISSIVE = 'types = []\nbody = "free"\ntrace-paths = false\nsubject-max = 0\nsubject-period = false\nplaceholders = []\n'


def run(args, cwd, check=False):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors="replace")
    if check and p.returncode != 0:
        sys.exit(f"{' '.join(args)} failed in {cwd}: {p.stderr}")
    return p


def git(cwd, *args):
    return run(["git", *args], cwd, check=True).stdout


def version_of(tag):
    m = SEMVER.match(tag)
    return tuple(int(x) for x in m.groups()) if m else None


HEADING = re.compile(r"^#{1,3} \[?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\]?")
FEAT = re.compile(r"^#{3,4} (Features|Feat|Bug Fixes|Fix)\s*$")
OTHER = re.compile(r"^#{1,4} ")
HASH = re.compile(r"\[([0-9a-f]{7,40})\]\(")


def norm(text):
    text = re.sub(r"!\[BREAKING\]\([^)]*\)", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\(#\d+\)", "", text)
    text = re.sub(r"\(\*\*[^*]*\*\*\)|\*\*[^*]*:?\*\*:?", "", text)
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def their_entries(changelog, every=False):
    """version -> list of (hash or None, normalized description) of feat/fix entries
    (of every section's entries with `every`)."""
    out, version, in_feat = {}, None, False
    for line in changelog.splitlines():
        m = HEADING.match(line)
        if m and not line.startswith("####"):
            version, in_feat = m.group(1), False
            out.setdefault(version, [])
            continue
        if FEAT.match(line) or (every and re.match(r"^#{3,4} ", line)):
            in_feat = True
            continue
        if OTHER.match(line):
            in_feat = False
            continue
        if version and in_feat and re.match(r"^[*-] ", line):
            text = line[2:]
            h = HASH.findall(text)
            desc = re.split(r" - \(\[|\s\(\[[0-9a-f]{7}", text)[0]
            out[version].append((h[-1] if h else None, norm(desc)))
    return out


RST_HEADING = re.compile(r"^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?) \(\d{4}-\d\d-\d\d\)$")
RST_HASH = re.compile(r"`([0-9a-f]{7,40})`_")


def their_entries_rst(changelog, every=False):
    """their_entries for python-semantic-release's .rst layout: `v1.2.3 (date)` over
    `===`, sections over `---`, `* ` entries with indented continuation lines."""
    out, version, in_feat = {}, None, False
    lines = changelog.splitlines()
    entry = None

    def flush():
        if entry is not None and version and in_feat:
            h = RST_HASH.findall(entry)
            desc = re.sub(r"^\*\*[^*]*\*\*:\s*", "", entry)
            desc = re.split(r"\s\(`", desc)[0]
            out[version].append((h[-1] if h else None, norm(desc)))

    for i, line in enumerate(lines):
        under = lines[i + 1] if i + 1 < len(lines) else ""
        if re.fullmatch(r"=+", under) and RST_HEADING.match(line):
            flush()
            entry = None
            version, in_feat = RST_HEADING.match(line).group(1), False
            out.setdefault(version, [])
            continue
        if re.fullmatch(r"-+", under) and line.strip():
            flush()
            entry = None
            in_feat = every or bool(re.search(r"Features|Bug Fixes", line))
            continue
        if line.startswith("* "):
            flush()
            entry = line[2:]
        elif entry is not None and line.startswith("  ") and line.strip():
            entry += " " + line.strip()
        elif not line.strip() and entry is not None:
            flush()
            entry = None
    flush()
    return out


def read_changelog(repo, every=False):
    """version -> their feat/fix entries (every entry with `every`), from whichever
    changelog the project keeps."""
    rst = os.path.join(repo, "CHANGELOG.rst")
    if os.path.exists(rst) and not os.path.exists(os.path.join(repo, "CHANGELOG.md")):
        with open(rst, encoding="utf-8") as f:
            return their_entries_rst(f.read(), every)
    texts = []
    with open(os.path.join(repo, "CHANGELOG.md"), encoding="utf-8") as f:
        texts.append(f.read())
    older = os.path.join(repo, "changelogs")
    if os.path.isdir(older):
        for name in sorted(os.listdir(older)):
            if name.endswith(".md"):
                with open(os.path.join(older, name), encoding="utf-8") as f:
                    texts.append(f.read())
    return their_entries("\n".join(texts), every)


def releases(repo, changelog_versions, pre=False):
    tags = []
    names = git(repo, "tag", "--merged", "HEAD").split()
    pre_released = {re.sub(r"^v|-.*$", "", t) for t in names if "-" in t}
    for t in names:
        v = version_of(t)
        if v and re.sub(r"^v", "", t) in changelog_versions and "-" not in t:
            if pre and re.sub(r"^v", "", t) not in pre_released:
                continue
            tags.append((v, t))
    tags.sort()
    return [t for _, t in tags][-6:]


def jc_json(repo, *args, config=None):
    cmd = [JC, *args] + (["--config", config] if config else [])
    p = run(cmd, repo)
    return json.loads(p.stdout) if p.stdout.strip() else None


def every_entry_after_init(repo, tags, theirs):
    """Under the convention `init` proposes at HEAD (the project's release tool
    imported): how many of every entry their changelog lists in these releases ours
    lists, and how many ours lists that theirs does not."""
    proposed = run([JC, "init", "--to", "file"], repo, check=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(proposed)
    log = jc_json(repo, "changelog", "--format", "json", config=f.name)
    os.unlink(f.name)
    total = found = extra = 0
    for r in log["releases"]:
        v = r["version"]
        if v is None or ("v" + v not in tags and v not in tags):
            continue
        mine = list(r["breaking"]) + [e for s in r["sections"] for e in s["entries"]]
        their = theirs.get(v, [])
        for h, d in their:
            total += 1
            if any((h and e["commit"].startswith(h)) or norm(e["summary"]) == d for e in mine):
                found += 1
        for e in mine:
            if not any((h and e["commit"].startswith(h)) or norm(e["summary"]) == d for h, d in their):
                extra += 1
    return total, found, extra


def entries_found(repo, tags, theirs):
    log = jc_json(repo, "changelog", "--format", "json")
    ours = {}
    for r in log["releases"]:
        es = list(r["breaking"]) + [e for s in r["sections"] for e in s["entries"]]
        ours[r["version"]] = es
    total = found = 0
    missed = []
    for t in tags:
        v = re.sub(r"^v", "", t)
        mine = [e for e in ours.get(v, []) if e["type"] in ("feat", "fix")]
        ids = [e["commit"] for e in mine]
        descs = {norm(e["summary"]) for e in mine}
        for h, d in theirs.get(v, []):
            total += 1
            if (h and any(i.startswith(h) for i in ids)) or d in descs:
                found += 1
            else:
                missed.append((v, h, d))
    return total, found, missed


def bump_at_parents(repo, tags):
    branch = git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip()
    results = []
    try:
        for t in tags:
            parent = git(repo, "rev-parse", f"{t}^{{commit}}^").strip()
            git(repo, "checkout", "-q", "--detach", parent)
            p = run([JC, "bump", "--format", "json"], repo)
            got = json.loads(p.stdout)["next"] if p.returncode == 0 else None
            # The level the changelog's own release data asks for at the same commit: the
            # release bump proposes, which collects the pre-releases of its version.
            log = jc_json(repo, "changelog", "--format", "json", "--unreleased",
                          *(["--tag", got] if got else []))
            rel = log["releases"][0] if log and log["releases"] else None
            level = "none"
            if rel:
                if rel["breaking"]:
                    level = "major"
                elif rel["types"].get("feat"):
                    level = "minor"
                elif rel["types"].get("fix") or rel["types"].get("perf"):
                    level = "patch"
            bumped = json.loads(p.stdout)["level"] if p.returncode == 0 else "none"
            # The same after adopting there: the convention `init` proposes from the
            # history up to the parent (never the release itself), then bump under it.
            proposed = run([JC, "init", "--to", "file"], repo, check=True).stdout
            with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
                f.write(proposed)
            q = run([JC, "bump", "--format", "json", "--config", f.name], repo)
            os.unlink(f.name)
            adopted = json.loads(q.stdout)["next"] if q.returncode == 0 else None
            results.append((t, re.sub(r"^v", "", t), got, level == bumped, p.stderr.strip(), adopted))
    finally:
        git(repo, "checkout", "-q", branch)
    return results


def check_verdicts(repo, config):
    roots = git(repo, "rev-list", "--max-parents=0", "HEAD").split()
    args = ["--format", "json"] + (["--config", config] if config else [])
    passed = {}
    lines = run([CHECK, "--range", f"{roots[0]}..HEAD", *args], repo).stdout.splitlines()
    for root in roots:
        lines += run([CHECK, "--commit", root, *args], repo).stdout.splitlines()
    for line in lines:
        try:
            o = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(o, dict) and "commit" in o:
            passed[o["commit"]] = not o.get("findings")
    return passed


def reader_refused(repo, config):
    log = jc_json(repo, "changelog", "--format", "json", "--others", "list", config=config)
    return {o["commit"] for r in log["releases"] for o in r["others"] if o["kind"] == "non-conforming"}


def init_fit(repo):
    p = run([JC, "init"], repo)
    m = re.search(r"the last (\d+) commits: (\d+) pass the convention as imported, (\d+) the Conventional Commits grammar, (\d+) the proposed convention", p.stderr)
    return tuple(int(x) for x in m.groups()) if m else None


def main(repos):
    permissive = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    permissive.write(PERMISSIVE)
    permissive.close()
    totals = {"every": [0, 0, 0], "entries": [0, 0], "bump": [0, 0], "adopted": [0, 0], "disagree": 0, "stricter": 0, "commits": 0}
    rows = []
    for arg in repos:
        repo, _, mode = arg.partition("@")
        name = os.path.basename(repo.rstrip("/")) + (" (releases after pre-releases)" if mode == "pre" else "")
        theirs = read_changelog(repo)
        tags = releases(repo, set(theirs), pre=mode == "pre")
        total, found, missed = entries_found(repo, tags, theirs)
        print(f"## {name} ({git(repo, 'rev-parse', '--short=12', 'HEAD').strip()})")
        print(f"releases: {', '.join(tags)}")
        pct = 100.0 * found / total if total else 100.0
        print(f"entries: {found} of {total} feat/fix entries of its CHANGELOG.md found ({pct:.1f}%)")
        for v, h, d in missed:
            print(f"  missed in {v}: {h or '-'} {d}")
        every_total, every_found, every_extra = every_entry_after_init(repo, tags, read_changelog(repo, every=True))
        print(f"every entry, after init: {every_found} of {every_total} of its changelog's entries listed; {every_extra} listed that it does not list")
        totals["entries"][0] += found
        totals["entries"][1] += total
        bumps = bump_at_parents(repo, tags)
        right = sum(1 for t, want, got, *_ in bumps if got == want)
        adopted_right = sum(1 for t, want, *_, adopted in bumps if adopted == want)
        print(f"bump: {right} of {len(bumps)} release parents predict the tag that was made; {adopted_right} after `init` there")
        for t, want, got, agrees, err, adopted in bumps:
            mark = "ok" if got == want else "MISS"
            amark = "ok" if adopted == want else "MISS"
            print(f"  {t}: bump says {got or '(nothing: ' + err + ')'} [{mark}]; after init {adopted} [{amark}]; bump and changelog agree: {agrees}")
            totals["disagree"] += 0 if agrees else 1
        totals["bump"][0] += right
        totals["bump"][1] += len(bumps)
        totals["adopted"][0] += adopted_right
        totals["adopted"][1] += len(bumps)
        row = [name, git(repo, 'rev-parse', '--short=12', 'HEAD').strip(), f"{tags[0]} … {tags[-1]}",
               f"{found} / {total}", f"{right} / {len(bumps)}", f"{adopted_right} / {len(bumps)}"]
        row.append(f"{every_found} / {every_total}; {every_extra} more")
        disagreements = 0
        for label, config in (("default", None), ("permissive", permissive.name)):
            passed = check_verdicts(repo, config)
            refused = reader_refused(repo, config)
            disagree = [c for c, ok in passed.items() if ok and c in refused]
            stricter = [c for c, ok in passed.items() if not ok and c not in refused]
            print(f"verdicts ({label} convention): {len(passed)} commits; check accepts and changelog refuses: {len(disagree)}; the gate's house style refuses what the reader lists: {len(stricter)}")
            totals["disagree"] += len(disagree)
            disagreements += len(disagree)
            totals["stricter"] += len(stricter)
            totals["commits"] += len(passed)
        fit = init_fit(repo)
        if fit:
            n, imported, spec, proposed = fit
            print(f"init: of the last {n} commits {imported} pass the convention as imported, {spec} the grammar, {proposed} the proposed convention ({100.0 * proposed / n:.1f}%)")
            row.append(f"{proposed} of {n} ({100.0 * proposed / n:.1f} %)")
        else:
            row.append("(init printed no figures)")
        row.insert(6, f"{disagreements} of {len(passed)} × 2")
        totals["every"][0] += every_found
        totals["every"][1] += every_total
        totals["every"][2] += every_extra
        rows.append(row)
        print()
    e, b = totals["entries"], totals["bump"]
    a = totals["adopted"]
    print(f"all: entries {e[0]}/{e[1]}, bump {b[0]}/{b[1]} ({a[0]}/{a[1]} after init), verdict disagreements {totals['disagree']} over {totals['commits']} commit verdicts")
    os.unlink(permissive.name)
    table = [
        "| repository | releases | feat/fix entries found | every entry of its changelog listed after `init`; listed beyond it | bump = real tag (default convention) | bump = real tag (after `init` at the release's parent) | verdict disagreements | init: last commits passing the proposed convention |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        table.append(f"| {r[0]} (`{r[1]}`) | {r[2]} | {r[3]} | {r[7]} | {r[4]} | {r[5]} | {r[6]} | {r[8]} |")
    ev = totals["every"]
    table.append(f"| all | {b[1]} | {e[0]} / {e[1]} | {ev[0]} / {ev[1]}; {ev[2]} more | {b[0]} / {b[1]} | {a[0]} / {a[1]} | {totals['disagree']} of {totals['commits']} | |")
    print("\n".join(table))
    if os.environ.get("RECORD"):
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "record.py"), "adoption",
                        "--title", "Adopting real histories: changelog, bump, verdicts, init",
                        "--command", "RECORD=1 python3 bench/adoption.py " + " ".join(os.path.basename(r) for r in repos)],
                       input="\n".join(table) + "\n", text=True, check=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
