"""Scoring for the quality bench (docs/quality.md): parse Conventional Commits messages,
the draft-quality gate of issue 14, and ROUGE-L. Python 3 standard library only."""

import re

SUBJECT = re.compile(r"^(?P<type>[A-Za-z]+)(?:\((?P<scope>[^()]*)\))?(?P<bang>!)?: (?P<summary>.*)$")
BULLET = re.compile(r"^- (?P<verb>[A-Za-z]+): (?P<path>.+?) \u2014 (?P<what>.*)$")
BREAKING_FOOTER = re.compile(r"^BREAKING[ -]CHANGE: ", re.M)
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]")
VERSION = re.compile(r"^v?\d+(\.\d+)+([-.+][0-9A-Za-z.-]+)?$")

# Words and phrases of the prompt's scaffolding: schema keys, section names, evidence
# markers. Matched case-insensitively as whole words, except BREAKING (upper case only,
# since "breaking" is a plain English word a summary may use).
SCAFFOLD_PHRASES = [
    "what_why", "breaking_change", "output contract", "omission note", "stat lines",
    "stat line", "user-words", "<evidence", "</evidence", "evidence>", "json schema",
    "trimmed=", "additionalProperties", "<why?>", "Fix these problems",
]
SCAFFOLD_SCOPES = {
    "breaking", "type", "scope", "summary", "bullets", "verb", "path", "what_why",
    "default", "none", "null", "string", "boolean", "enum", "schema", "evidence",
    "convention", "environment", "task", "output", "json",
}


def _word_list(name):
    """A word list of crates/draft/data/words.toml, the one the drafter builds its
    constants from, so the two never differ."""
    import pathlib
    import tomllib
    path = pathlib.Path(__file__).resolve().parents[2] / "crates/draft/data/words.toml"
    return tomllib.loads(path.read_text())[name]["words"]


# A draft that talks about the prompt or the message instead of the change (issue 14's
# "says nothing"), and summaries that open with a comment: crates/draft/src/quality.rs's.
SELF_REFERENCE = _word_list("SELF_REFERENCE")
FILLER_OPENINGS = _word_list("FILLER_OPENINGS")
TYPE_NOT_VERB = set(_word_list("TYPE_NOT_VERB"))
FUNCTION_WORDS = set(_word_list("FUNCTION_WORDS"))
SUMMARY_VERBS = set(_word_list("SUMMARY_VERBS"))
TYPES = {"feat", "fix", "perf", "refactor", "docs", "test", "tests", "build", "ci", "chore",
         "revert", "style"}


def short_summary_ok(summary):
    """Two words as people write them (`fix typo`, `add greeting`): one of the summary
    verbs, then a word of letters that is neither a function word nor a commit type
    (the tight gate of rules/quality.rs, without its staged-path words)."""
    w = summary.split()
    return (len(w) == 2 and len(words(summary)) == 2 and w[0].lower() in SUMMARY_VERBS
            and w[1].lower() not in FUNCTION_WORDS and w[1].lower() not in TYPES)


def repeats_a_word(text):
    """rules/quality.rs's repeats_a_word: one word twice in a row, a word that is
    not a function word three times or more and a third of the words at least, or a
    phrase of two such words three times, compared without case, plural endings and a
    final e; numbers are not words."""
    # Numbers are no words (`+1 −1 lines`): only a word with a letter can loop.
    low = [w.lower() for w in re.split(r"[^0-9A-Za-z_']+", text) if re.search("[A-Za-z]", w)]
    stems = [w.removesuffix("'s").rstrip("s").removesuffix("e") for w in low]
    content = [w not in FUNCTION_WORDS and len(s) > 1 for w, s in zip(low, stems)]
    if any(x == y for x, y in zip(low, low[1:])) or any(
            a == b and ca and cb for a, b, ca, cb in zip(stems, stems[1:], content, content[1:])):
        return True
    counts = {}
    for stem, c in zip(stems, content):
        if c:
            counts[stem] = counts.get(stem, 0) + 1
    if any(n >= 3 and n * 3 >= len(low) for n in counts.values()):
        return True
    # A phrase of two content words said three times.
    pairs = {}
    for a, b, ca, cb in zip(stems, stems[1:], content, content[1:]):
        if ca and cb:
            pairs[(a, b)] = pairs.get((a, b), 0) + 1
    return any(n >= 3 for n in pairs.values())


def strip_comments(text, prefix="#"):
    """The message as git would keep it: comment lines and everything below a scissors
    line dropped, trailing blank lines removed."""
    out = []
    for line in text.splitlines():
        if line.startswith(prefix + " ------------------------ >8"):
            break
        if line.startswith(prefix):
            continue
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return "\n".join(out)


def parse(message):
    """type, scope, breaking, summary, subject, bullets [(verb, path, what)] of a
    message; type None when the subject is not Conventional Commits."""
    lines = message.splitlines()
    subject = lines[0] if lines else ""
    m = SUBJECT.match(subject)
    bullets = []
    for line in lines[1:]:
        b = BULLET.match(line)
        if b:
            bullets.append((b["verb"], b["path"], b["what"]))
        elif line.startswith("  ") and bullets:  # a wrapped bullet's continuation
            v, p, w = bullets[-1]
            bullets[-1] = (v, p, w + " " + line.strip())
    body = "\n".join(lines[1:])
    if not m:
        return {"type": None, "scope": None, "breaking": bool(BREAKING_FOOTER.search(body)),
                "summary": subject, "subject": subject, "bullets": bullets}
    return {
        "type": m["type"].lower(),
        "scope": m["scope"],
        "breaking": bool(m["bang"]) or bool(BREAKING_FOOTER.search(body)),
        "summary": m["summary"],
        "subject": subject,
        "bullets": bullets,
    }


def words(text):
    return WORD.findall(text)


def _norm(s):
    return " ".join(s.strip().lower().split())


def diff_lines(diff_text):
    """The normalised content of every added, removed or context line of a diff."""
    out = set()
    for line in diff_text.splitlines():
        if line.startswith(("+++", "---", "diff ", "index ", "@@")):
            continue
        if line[:1] in "+- ":
            n = _norm(line[1:])
            if n:
                out.add(n)
    return out


def scaffolding(text, diff_set=()):
    """The first scaffolding phrase found in text, or None. A phrase the staged diff
    itself holds (a function named breaking_change, a doc about stat lines) is
    evidence, not scaffolding."""
    low = text.lower()
    for p in SCAFFOLD_PHRASES + ["BREAKING"]:
        hit = re.search(r"\bBREAKING\b", text) if p == "BREAKING" else p.lower() in low
        if hit and not any(p.lower() in line for line in diff_set):
            return p
    return None


def has_phrase(text, phrase):
    """phrase in text as whole words ("summary of the change" is not in "… changelog")."""
    return re.search(r"(?<![0-9a-z])" + re.escape(phrase) + r"(?![0-9a-z])", text) is not None


def gate(parsed, paths, diff_set, placeholder_ok=False):
    """The draft-quality gate of issue 14: a list of reasons the draft is junk (empty
    when it passes). paths: the staged paths; diff_set: diff_lines() of the change.
    placeholder_ok: the offline draft's `<why?>` is by design, not junk."""
    why = []
    if parsed["type"] is None:
        return ["subject is not type(scope): summary"]
    summary = parsed["summary"].strip()
    if len(words(summary)) < 3 and not short_summary_ok(summary):
        why.append("summary has fewer than three words of letters (two: a verb and its object)")
    s = scaffolding(summary, diff_set)
    if s:
        why.append(f"summary holds scaffolding {s!r}")
    low_summary = " ".join(summary.lower().split())
    meta = [p for p in SELF_REFERENCE if has_phrase(low_summary, p)]
    if meta:
        why.append(f"summary talks about the prompt {meta[0]!r}")
    if any(low_summary.startswith(o) for o in FILLER_OPENINGS):
        why.append("summary opens with a comment")
    if re.split(r"[^a-z0-9]", low_summary)[0] in TYPE_NOT_VERB:
        why.append("summary opens with a commit type")
    if parsed["scope"] is not None and parsed["scope"].strip().lower() in SCAFFOLD_SCOPES:
        why.append(f"scope is scaffolding {parsed['scope']!r}")
    low = _norm(summary)
    names = {_norm(p) for p in paths} | {_norm(p.rsplit("/", 1)[-1]) for p in paths}
    if low in names:
        why.append("summary is a path")
    elif " " in low and low.split(" ", 1)[1].strip("`'\"") in names:
        why.append("summary names only a path")
    if URL.search(summary):
        why.append("summary holds a URL or a Markdown link")
    cut = cut_off(summary, paths, diff_set)
    if cut:
        why.append(f"summary is cut: {cut}")
    if VERSION.match(summary):
        why.append("summary is a version string")
    if low and low in diff_set:
        why.append("summary is a copy of a diff line")
    if repeats_a_word(summary):
        why.append("summary repeats a word")
    for verb, path, what in parsed["bullets"]:
        if placeholder_ok:
            what = what.replace("<why?>", "")
        if not words(what.replace("<why?>", "")):
            why.append(f"bullet for {path} has no words")
            break
        s = scaffolding(what, diff_set)
        if s:
            why.append(f"bullet for {path} holds scaffolding {s!r}")
            break
        meta = [p for p in SELF_REFERENCE if has_phrase(" ".join(what.lower().split()), p)]
        if meta:
            why.append(f"bullet for {path} talks about the prompt {meta[0]!r}")
            break
        if _norm(what) in diff_set:
            why.append(f"bullet for {path} is a copy of a diff line")
            break
        if repeats_a_word(what):
            why.append(f"bullet for {path} repeats a word")
            break
    return why


URL = re.compile(r"://|\[[^\]]*\]\(")
DANGLING = {"and", "or", "the", "a", "an", "of", "to", "in", "for", "with", "from", "by", "on",
            "as", "at", "into"}


def cut_off(summary, paths, diff_set):
    """Why a summary reads as cut mid-word or mid-phrase (issue 45: a length bound that
    falls inside a word), or None: it ends in a dangling word or punctuation, leaves a
    bracket or quote open, or its last word is the start of a longer word of the staged
    paths or the diff and is no word of them itself (`pyproject.tom`; a file's name
    without its extension, `base` for `base.py`, is a word of them)."""
    s = summary.rstrip()
    if not s:
        return None
    last = s.split()[-1].lower()
    if last in DANGLING:
        return f"ends in {last!r}"
    if s[-1] in ",;:-(/":
        return f"ends in {s[-1]!r}"
    for o, c in ("()", "[]", "{}"):
        if s.count(o) > s.count(c):
            return f"leaves {o!r} open"
    if s.count("`") % 2:
        return "leaves a backtick open"
    word = re.sub(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "", last)
    if len(word) >= 3:
        known = set()
        for p in paths:
            known.update(re.split(r"[/]", p.lower()))
        for line in diff_set:
            known.update(re.findall(r"[a-z0-9_.-]+", line))
        known = {k.strip(".-_") for k in known}
        # A file's name without its extension is a whole word (`change imports in base`
        # for `base.py`); only a cut inside the name itself reads as cut.
        known |= {k.split(".", 1)[0] for k in known if "." in k}
        if word not in known and any(k.startswith(word) and len(k) > len(word) for k in known):
            longer = min((k for k in known if k.startswith(word) and len(k) > len(word)), key=len)
            if "." in word or "." in longer or len(longer) - len(word) <= 2:
                return f"{word!r} reads as the start of {longer!r}"
    return None


def tokens(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def rouge_l(candidate, reference):
    """ROUGE-L F-measure (beta = 1) over lower-cased word tokens."""
    c, r = tokens(candidate), tokens(reference)
    if not c or not r:
        return 0.0
    prev = [0] * (len(r) + 1)
    for x in c:
        cur = [0]
        for j, y in enumerate(r):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    lcs = prev[-1]
    if lcs == 0:
        return 0.0
    p, rec = lcs / len(c), lcs / len(r)
    return 2 * p * rec / (p + rec)
