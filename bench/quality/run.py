#!/usr/bin/env python3
"""The quality bench (docs/quality.md): replay real Conventional Commits, draft each
with the real jitcommit-draft hook binary once with a model and once offline, and
score the drafts against the human messages. Run by hand, never by .ci/run.

  bench/quality/run.py --bin-dir DIR --server URL [--server-log FILE] [options]

DIR holds jitcommit-draft and jitcommit-check (e.g. target/release after
`cargo build --release --bins`). URL is an OpenAI-compatible server on 127.0.0.1
(the llama-cpp-python server script in $SERVE_SH: start PORT); the hook reaches it through a recording
proxy this script runs on 127.0.0.1, which counts the requests, their time in the
server and the prompt tokens. --server-log is that server's log (serve.sh writes
$LLM_HOME/server-PORT.log), read for llama.cpp's prefix-match lines.
Python 3 standard library only.
"""

import argparse
import http.client
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

# The generation endpoints: what sends the prompt to the model.
CHAT_PATHS = ("/chat/completions", "/api/chat", "/api/generate", "/completions")


def chat_requests(d):
    """How many chat requests (POSTs to a chat path) a draft `d` made."""
    return sum(q["method"] == "POST" and q["path"].split("?")[0].endswith(CHAT_PATHS)
               for q in d.get("all_requests", []))

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402
import peers  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

GIT_TEMPLATE = """
# Please enter the commit message for your changes. Lines starting
# with '#' will be ignored, and an empty message aborts the commit.
#
# On branch main
"""


# ---------------------------------------------------------------- recording proxy

class Recorder:
    def __init__(self, upstream, server_log):
        u = urllib.parse.urlsplit(upstream)
        self.host, self.port = u.hostname, u.port or 80
        self.server_log = server_log
        self.lock = threading.Lock()
        self.requests = []
        self.in_flight = 0

    def log_offset(self):
        try:
            return os.path.getsize(self.server_log) if self.server_log else 0
        except OSError:
            return 0

    def log_since(self, offset):
        if not self.server_log:
            return ""
        try:
            with open(self.server_log, "rb") as f:
                f.seek(offset)
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def settle(self, limit=900):
        """Wait until no request is in flight (a request the hook gave up on still
        runs in the server and would delay the next commit's)."""
        t0 = time.monotonic()
        while self.in_flight and time.monotonic() - t0 < limit:
            time.sleep(0.1)
        return time.monotonic() - t0

    def take(self):
        with self.lock:
            r, self.requests = self.requests, []
        return r


def make_handler(rec):
    class Proxy(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def _forward(self):
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else None
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("host", "connection", "content-length",
                                            "accept-encoding")}
            with rec.lock:
                rec.in_flight += 1
            off = rec.log_offset()
            t0 = time.monotonic()
            status, data, rheaders = 502, b"", []
            try:
                conn = http.client.HTTPConnection(rec.host, rec.port, timeout=600)
                conn.request(self.command, self.path, body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                status = resp.status
                rheaders = [(k, v) for k, v in resp.getheaders()
                            if k.lower() not in ("transfer-encoding", "connection",
                                                 "content-length")]
                conn.close()
            except OSError as e:
                data = str(e).encode()
            t1 = time.monotonic()
            time.sleep(0.05)  # let the server flush its log lines for this request
            entry = {"method": self.command, "path": self.path, "status": status,
                     "seconds": t1 - t0, "t0": t0, "t1": t1, "request_bytes": len(body or b""),
                     "log": rec.log_since(off)}
            try:
                req = json.loads(body) if body else {}
                entry["response_format"] = (req.get("response_format") or {}).get("type")
                entry["system"] = next((m.get("content") for m in req.get("messages", [])
                                        if m.get("role") == "system"), None)
            except (ValueError, AttributeError):
                pass
            try:
                entry["prompt_tokens"] = json.loads(data)["usage"]["prompt_tokens"]
            except (ValueError, KeyError, TypeError):
                pass
            with rec.lock:
                rec.requests.append(entry)
                rec.in_flight -= 1
            try:
                self.send_response(status)
                for k, v in rheaders:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass
            self.close_connection = True

        do_GET = do_POST = do_HEAD = _forward

    return Proxy


# ---------------------------------------------------------------- cases

def git(*args, cwd=None, env=None, input=None, check=True):
    r = subprocess.run(["git", *args], cwd=cwd, env=env, input=input,
                       capture_output=True, check=False)
    if check and r.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} (in {cwd}): {r.stderr.decode(errors='replace')}")
    return r.stdout.decode("utf-8", "replace")


def load_cases(commits_file, source, fixtures):
    """Each case: id, human message, a setup function building the staged state."""
    cases = []
    for line in open(commits_file) if commits_file else []:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        h = git("rev-parse", "--verify", line + "^{commit}", cwd=source).strip()
        msg = git("log", "-1", "--format=%B", h, cwd=source).strip()
        cases.append({"id": h[:7], "source": "jitcommit", "commit": h, "human": msg})
    for name in sorted(os.listdir(fixtures)) if fixtures else []:
        if not name.endswith(".json"):
            continue
        doc = json.load(open(os.path.join(fixtures, name), encoding="utf-8"))
        for k in doc["cases"]:
            cases.append({"id": k["id"], "source": k["repo"], "human": k["message"].strip(),
                          "before": k["before"], "after": k["after"]})
    return cases


def write_file(repo, rel, text):
    p = os.path.join(repo, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def place_facts(repo, facts):
    """The fact store `facts` (a file's text) as the repository's `.commit-context.md`,
    untracked and excluded, so that it is read but is not part of the change; `None`
    leaves the replayed tree as it is."""
    if facts is None:
        return
    write_file(repo, ".commit-context.md", facts)
    os.makedirs(os.path.join(repo, ".git", "info"), exist_ok=True)
    with open(os.path.join(repo, ".git", "info", "exclude"), "a") as f:
        f.write("/.commit-context.md\n")


def setup_repo(case, source, work, env):
    repo = os.path.join(work, "repo")
    if os.path.exists(repo):
        shutil.rmtree(repo)
    if "commit" in case:
        parent = case["commit"] + "^"
        git("clone", "-q", "--shared", "--no-checkout", source, repo, env=env)
        git("checkout", "-q", "-B", "main", parent, cwd=repo, env=env)
        git("remote", "remove", "origin", cwd=repo, env=env)
        for t in git("tag", "-l", cwd=repo, env=env).split():
            git("tag", "-d", t, cwd=repo, env=env)
        # Stage the commit's tree exactly, work tree included (a fast-forward read-tree).
        git("read-tree", "-m", "-u", "HEAD", case["commit"], cwd=repo, env=env)
    else:
        # A public repository's case: only its touched files, before and after.
        git("init", "-q", "-b", "main", repo, env=env)
        for rel, text in case["before"].items():
            write_file(repo, rel, text)
        git("add", "-A", cwd=repo, env=env)
        git("commit", "-q", "--allow-empty", "-m", "chore: the files before the change",
            cwd=repo, env=env)
        for rel in case["before"]:
            if rel not in case["after"]:
                os.remove(os.path.join(repo, rel))
        for rel, text in case["after"].items():
            write_file(repo, rel, text)
        git("add", "-A", cwd=repo, env=env)
    return repo


def staged(repo, env):
    """The staged status lines, paths (both sides of a rename) and diff lines."""
    status = git("diff", "--cached", "--name-status", "-M", cwd=repo, env=env)
    paths = [l.split("\t")[-1] for l in status.splitlines() if l]
    paths += [l.split("\t")[1] for l in status.splitlines() if l.startswith("R")]
    dset = score.diff_lines(git("diff", "--cached", "-M", cwd=repo, env=env))
    return status, paths, dset


def run_hook(bin_dir, repo, env):
    msg = os.path.join(repo, ".git", "COMMIT_EDITMSG")
    with open(msg, "w") as f:
        f.write(GIT_TEMPLATE)
    t0 = time.monotonic()
    r = subprocess.run([os.path.join(bin_dir, "jitcommit-draft"), msg], cwd=repo, env=env,
                       capture_output=True)
    wall = time.monotonic() - t0
    text = open(msg, encoding="utf-8", errors="replace").read()
    stderr = r.stderr.decode("utf-8", "replace")
    m = re.search(r"used the (\S+) draft", stderr)
    label = m.group(1) if m else None
    why = re.search(r"offline draft \((.*)\)\.?", text + "\n" + stderr)
    footer = [l[2:] for l in text.splitlines() if l.startswith("# jitcommit:")]
    return {"wall": wall, "t0": t0, "t1": t0 + wall, "exit": r.returncode, "label": label, "stderr": stderr.strip(),
            "raw": text, "message": score.strip_comments(text), "footer": footer,
            "offline_why": why.group(1) if why else None}


PATH_RULES = ("body-path", "trace", "path")


def run_check(bin_dir, repo, message, env):
    f = os.path.join(repo, ".git", "BENCH_MSG")
    with open(f, "w") as o:
        o.write(message + "\n")
    r = subprocess.run([os.path.join(bin_dir, "jitcommit-check"), "--format", "json", f],
                       cwd=repo, env=env, capture_output=True)
    findings = []
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        try:
            findings += json.loads(line).get("findings", [])
        except ValueError:
            pass
    rules = [x.get("rule", "") for x in findings]
    return {"exit": r.returncode, "rules": rules,
            "paths_ok": r.returncode in (0, 1) and not any(
                any(k in rule for k in PATH_RULES) for rule in rules),
            "stderr": r.stderr.decode("utf-8", "replace").strip()[:300]}


def score_draft(d, human, paths, dset, mode):
    p = score.parse(d["message"])
    d["parsed"] = {"type": p["type"], "scope": p["scope"], "breaking": p["breaking"],
                   "summary": p["summary"], "bullets": len(p["bullets"])}
    d["type_ok"] = p["type"] == human["type"]
    d["breaking_ok"] = p["breaking"] == human["breaking"]
    d["scope_ok"] = p["scope"] == human["scope"]
    d["junk"] = score.gate(p, paths, dset, placeholder_ok=d["label"] == "offline")
    d["rouge_l"] = score.rouge_l(p["summary"], human["summary"])
    # Conventional Commits 1.0 (the spec, not this tool's house style): a type, an
    # optional scope, `: ` and a summary that is not empty.
    d["cc_valid"] = p["type"] is not None and bool(p["summary"].strip())


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory of jitcommit-draft and jitcommit-check")
    ap.add_argument("--server", required=True, help="the model server, e.g. http://127.0.0.1:18614")
    ap.add_argument("--server-log", help="the server's log, for prefix-cache hits")
    ap.add_argument("--model", default="smollm2", help="jitcommit.model (default smollm2)")
    ap.add_argument("--provider", default="openai")
    ap.add_argument("--timeout", help="jitcommit.timeout (default: the hook's own default)")
    ap.add_argument("--budget-tokens", type=int,
                    help="jitcommit.budgetTokens (default: the server's window and the convention)")
    ap.add_argument("--source", default=os.path.abspath(os.path.join(HERE, "..", "..")),
                    help="the git repository the commits come from (default: this one)")
    ap.add_argument("--commits", default=os.path.join(HERE, "commits.txt"))
    ap.add_argument("--fixtures", default=os.path.join(HERE, "fixtures"),
                    help="directory of public-repository cases (*.json: touched files before and after)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases")
    ap.add_argument("--on-abandoned", metavar="CMD",
                    help="shell command run when the hook exits with a request still in the "
                         "server (e.g. restart it: llama-cpp-python finishes abandoned requests)")
    ap.add_argument("--only-fixtures", action="store_true", help="only the public-repository cases")
    ap.add_argument("--no-fixtures", action="store_true", help="only the commits of --source")
    ap.add_argument("--facts", metavar="FILE",
                    help="use FILE as every replayed repository's .commit-context.md "
                         "(untracked and excluded: read, not part of the change)")
    ap.add_argument("--guards", choices=("auto", "small", "large"),
                    help="jitcommit.guards for the model runs (default: unset, i.e. auto): "
                         "small = word grammar and tight gate on, large = off")
    ap.add_argument("--row", metavar="LABEL",
                    help="also print the model runs' totals as one Markdown table row "
                         "(for bench/record.py), labelled LABEL")
    ap.add_argument("--no-subjects", action="store_true",
                    help="leave the recent subjects of the staged paths out of the prompt "
                         "(JITCOMMIT_SUBJECTS=off), to measure what they add")
    ap.add_argument("--peers", default="",
                    help="comma-separated peers drafted on the same server and commits: "
                         + ", ".join(peers.PEERS) + " (installed from npm: bench/quality/peers.py)")
    ap.add_argument("--peer-bin", default=os.environ.get("JITCOMMIT_PEERS_BIN", ""),
                    help="the node_modules/.bin directory holding the peers "
                         "(default: $JITCOMMIT_PEERS_BIN)")
    ap.add_argument("--out", help="write every result as JSON here")
    ap.add_argument("--rescore", metavar="JSON",
                    help="no drafting: score the drafts of an earlier --out file again")
    a = ap.parse_args()
    bin_dir = os.path.abspath(a.bin_dir)
    source = os.path.abspath(a.source)
    fixtures = a.fixtures if os.path.isdir(a.fixtures) and not a.no_fixtures else None

    rec = Recorder(a.server, a.server_log)
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(rec))
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    proxy_url = f"http://127.0.0.1:{proxy.server_address[1]}"

    work = tempfile.mkdtemp(prefix="jc-quality-")
    home = os.path.join(work, "home")
    os.makedirs(home)
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("JITCOMMIT_", "GIT_", "PRE_COMMIT"))}
    base.update({"HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_EDITOR": "vi",
                 "JITCOMMIT_DEBUG": "1", "LC_ALL": "C.UTF-8", "TERM": "dumb",
                 "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
                 "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"})
    offline_cfg = os.path.join(home, "offline.gitconfig")
    model_cfg = os.path.join(home, "model.gitconfig")
    open(offline_cfg, "w").write("[advice]\n\tdetachedHead = false\n")
    cfg = (f"[jitcommit]\n\tprovider = {a.provider}\n\turl = {proxy_url}\n"
           f"\tmodel = {a.model}\n")
    if a.timeout:
        cfg += f"\ttimeout = {a.timeout}\n"
    if a.budget_tokens:
        cfg += f"\tbudgetTokens = {a.budget_tokens}\n"
    if a.guards:
        cfg += f"\tguards = {a.guards}\n"
    open(model_cfg, "w").write(cfg)
    env_off = dict(base, GIT_CONFIG_GLOBAL=offline_cfg)
    env_model = dict(base, GIT_CONFIG_GLOBAL=model_cfg)
    peer_names = peers.parse_list(a.peers)
    if peer_names and not a.peer_bin:
        raise SystemExit("--peers needs --peer-bin (or $JITCOMMIT_PEERS_BIN)")
    modes = [("model", env_model), ("offline", env_off)]
    modes += [(n, peers.configure(n, home, proxy_url, a.model, env_off, a.timeout)) for n in peer_names]
    if a.no_subjects:
        env_model["JITCOMMIT_SUBJECTS"] = "off"

    facts = open(a.facts, encoding="utf-8").read() if a.facts else None
    cases = load_cases(None if a.only_fixtures else a.commits, source, fixtures)
    if a.limit:
        cases = cases[:a.limit]
    old = {}
    if a.rescore:
        prev = json.load(open(a.rescore))
        old = {r["id"]: r for r in prev["results"]}
        cases = [c for c in cases if c["id"] in old]
    results = []
    t_start = time.monotonic()
    try:
        for i, c in enumerate(cases, 1):
            repo = setup_repo(c, source, work, env_off)
            place_facts(repo, facts)
            status, paths, dset = staged(repo, env_off)
            human = score.parse(c["human"])
            if a.rescore:
                # Score the stored drafts again (after a change to the scorer).
                r = old[c["id"]]
                r["human_junk"] = score.gate(human, paths, dset)
                for mode in [m for m, _ in modes if m in r]:
                    score_draft(r[mode], human, paths, dset, mode)
                results.append(r)
                continue
            r = {"id": c["id"], "source": c["source"], "files": len(status.splitlines()),
                 "human": c["human"].splitlines()[0],
                 "human_type": human["type"], "human_breaking": human["breaking"],
                 "human_junk": score.gate(human, paths, dset)}
            for mode, env in modes:
                rec.take()
                if mode in ("model", "offline"):
                    d = run_hook(bin_dir, repo, env)
                else:
                    d = peers.run(mode, a.peer_bin, repo, env, GIT_TEMPLATE, score.strip_comments)
                d["abandoned"] = rec.in_flight
                if rec.in_flight and a.on_abandoned:
                    # The hook gave up on a request the server is still computing:
                    # restart the server so the next commit does not wait for it.
                    subprocess.run(a.on_abandoned, shell=True, capture_output=True)
                d["settle_seconds"] = rec.settle()
                reqs = rec.take()
                d["check"] = run_check(bin_dir, repo, d["message"], env_off)
                score_draft(d, human, paths, dset, mode)
                d["requests"] = len([q for q in reqs if q["method"] == "POST"])
                d["all_requests"] = [{k: v for k, v in q.items() if k not in ("log", "system")}
                                     for q in reqs]
                # Time in the server while the hook waited (a request it gave up on
                # may run on after it exits: that part is not the hook's wall time).
                d["server_seconds"] = sum(max(0.0, min(q["t1"], d["t1"]) - max(q["t0"], d["t0"]))
                                          for q in reqs)
                d["prompt_tokens"] = sum(q.get("prompt_tokens") or 0 for q in reqs)
                hits = []
                for q in reqs:
                    hits += [(int(m.group(1)), int(m.group(2))) for m in re.finditer(
                        r"(\d+) prefix-match hit, remaining (\d+) prompt tokens", q["log"])]
                d["prefix_hits"] = hits
                d["systems"] = sorted({q["system"] for q in reqs if q.get("system")})
                d.pop("raw")
                r[mode] = d
            r["model"]["fell_back"] = r["model"]["label"] == "offline"
            results.append(r)
            m, o = r["model"], r["offline"]
            print(f"[{i}/{len(cases)}] {c['id']} {m['label']} {m['wall']:.1f}s "
                  f"req={m['requests']} | model: {m['message'].splitlines()[0] if m['message'] else ''!r}"
                  f" | offline: {o['message'].splitlines()[0] if o['message'] else ''!r}"
                  + "".join(f" | {n}: {r[n]['message'].splitlines()[0] if r[n]['message'] else ''!r}"
                            for n in peer_names),
                  file=sys.stderr, flush=True)
    finally:
        proxy.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    total = prev["seconds"] if a.rescore else time.monotonic() - t_start
    report(results, total, a, [m for m, _ in modes])
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"results": results, "seconds": total}, f, indent=1)


def pct(n, d):
    return f"{100 * n / d:.0f}%" if d else "-"


def report(results, total, a, modes=("model", "offline")):
    def cell(s, w):
        s = s.replace("\n", " ")
        return (s[:w - 1] + "\u2026") if len(s) > w else s.ljust(w)

    print(f"{'commit':8} {'human type':10} {'mode':8} {'end':14} {'type':4} {'brk':3} "
          f"{'junk':4} {'rougeL':6} {'paths':5} {'check':5} {'req':3} {'sec':>6} "
          f"{'out%':>5} {'ptok':>5} {'hit':>5}  subject")
    for r in results:
        for mode in [m for m in modes if m in r]:
            d = r[mode]
            out_share = (d["wall"] - d["server_seconds"]) / d["wall"] if d["wall"] else 0
            hit = d["prefix_hits"][0][0] if d["prefix_hits"] else "-"
            print(f"{r['id']:8} {str(r['human_type']):10} {mode:8} {str(d['label']):14} "
                  f"{'y' if d['type_ok'] else 'n':4} {'y' if d['breaking_ok'] else 'n':3} "
                  f"{'J' if d['junk'] else '.':4} {d['rouge_l']:6.2f} "
                  f"{'y' if d['check']['paths_ok'] else 'n':5} "
                  f"{'y' if d['check']['exit'] == 0 else 'n':5} {d['requests']:3} "
                  f"{d['wall']:6.1f} {100 * out_share:5.1f} {d['prompt_tokens']:5} {str(hit):>5}  "
                  f"{cell(d['message'].splitlines()[0] if d['message'] else '', 60)}")
        print(f"{'':8} {'':10} {'human':8} {'':14} {'':4} {'':3} "
              f"{'J' if r['human_junk'] else '.':4} {'':6} {'':5} {'':5} {'':3} {'':6} {'':5} "
              f"{'':5} {'':5}  {cell(r['human'], 60)}")
    n = len(results)
    print()
    print(f"totals over {n} commits ({total:.0f} s wall for the whole run)")
    for mode in modes:
        ds = [r[mode] for r in results if mode in r]
        if not ds:
            continue
        ends = {}
        for d in ds:
            ends[str(d["label"])] = ends.get(str(d["label"]), 0) + 1
        walls = [d["wall"] for d in ds]
        outside = sum(d["wall"] - d["server_seconds"] for d in ds)
        print(f"  {mode}:")
        print(f"    type agreement      {pct(sum(d['type_ok'] for d in ds), n)}")
        print(f"    scope agreement     {pct(sum(d.get('scope_ok', False) for d in ds), n)}")
        print(f"    breaking agreement  {pct(sum(d['breaking_ok'] for d in ds), n)}")
        print(f"    junk rate           {pct(sum(bool(d['junk']) for d in ds), n)}")
        mine = [d for d in ds if d["label"] != "offline"]
        if mode == "model":
            print(f"    junk, model-ended   {sum(bool(d['junk']) for d in mine)} of {len(mine)} drafts "
                  f"that ended as model drafts")
        print(f"    ROUGE-L (mean)      {statistics.mean(d['rouge_l'] for d in ds):.3f}")
        print(f"    Conventional Commits {pct(sum(d.get('cc_valid', False) for d in ds), n)} of drafts "
              f"have a spec-valid subject")
        reqs = [d.get("requests", 0) for d in ds]
        if mode not in ("model", "offline"):
            ptok = [d.get("prompt_tokens", 0) for d in ds]
            print(f"    requests / commit   mean {statistics.mean(reqs):.2f}; prompt tokens mean "
                  f"{statistics.mean(ptok):.0f}, median {statistics.median(ptok):.0f}")
        print(f"    paths valid         {pct(sum(d['check']['paths_ok'] for d in ds), n)}")
        print(f"    check passes        {pct(sum(d['check']['exit'] == 0 for d in ds), n)}")
        print(f"    drafts that ended as {', '.join(f'{k}: {v}' for k, v in sorted(ends.items()))}")
        if mode == "model":
            reqs = [d["requests"] for d in ds]
            ptok = [d["prompt_tokens"] for d in ds]
            print(f"    fell back offline   {sum(d['fell_back'] for d in ds)} of {n} "
                  f"({pct(sum(d['fell_back'] for d in ds), n)}); model drafts "
                  f"{pct(n - sum(d['fell_back'] for d in ds), n)}")
            print(f"    requests / commit   mean {statistics.mean(reqs):.2f}, max {max(reqs)}, "
                  f"one-request commits {pct(sum(x == 1 for x in reqs), n)} (every POST: "
                  f"the prompt's token count too)")
            chats = [chat_requests(d) for d in ds]
            print(f"    chat requests       mean {statistics.mean(chats):.2f} per commit, "
                  f"one-chat commits {pct(sum(x == 1 for x in chats), n)}")
            tool = [d for d in mine if any("in the tool's words" in f for f in d["footer"])]
            print(f"    the tool's bullets  {len(tool)} of {len(mine)} model drafts hold bullets in "
                  f"the tool's words (the model's failed the gate)")
            statuses = {}
            for d in ds:
                for q in d["all_requests"]:
                    k = f"{q['method']} {q['path'].split('?')[0]} {q['status']}"
                    statuses[k] = statuses.get(k, 0) + 1
            print(f"    requests by answer  {', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))}")
            print(f"    prompt tokens       mean {statistics.mean(ptok):.0f} per commit, "
                  f"median {statistics.median(ptok):.0f}, max {max(ptok)}")
            under = []
            for d in ds:
                m = re.search(r"prompt (\d+) of", " ".join(d["footer"]))
                served = [q["prompt_tokens"] for q in d["all_requests"] if q.get("prompt_tokens")]
                if m and served:
                    under.append(1 - int(m.group(1)) / served[-1])
            if under:
                print(f"    own token count     {100 * min(under):.0f}-{100 * max(under):.0f}% below the "
                      f"server's for the same prompt (footer against usage, {len(under)} drafts)")
            print(f"    outside the server  {100 * outside / sum(walls):.1f}% of wall time "
                  f"(median per commit {statistics.median([(d['wall'] - d['server_seconds']) / d['wall'] for d in ds if d['wall']]) * 100:.1f}%)")
            hits = [h for d in ds for h in d["prefix_hits"]]
            systems = {s for d in ds for s in d["systems"]}
            if a.server_log:
                print(f"    prefix-cache hits   {len([h for h in hits if h[0] > 0])} of {len(hits)} "
                      f"logged generations reused a prefix (median {statistics.median([h[0] for h in hits]) if hits else 0:.0f} tokens); "
                      f"distinct system messages: {len(systems)}")
            else:
                print("    prefix-cache hits   not measured (no --server-log)")
        print(f"    seconds / commit    mean {statistics.mean(walls):.2f}, median "
              f"{statistics.median(walls):.2f}, max {max(walls):.2f}")
    hj = sum(bool(r["human_junk"]) for r in results)
    print(f"  human messages through the same junk gate: {hj} of {n} flagged")
    if a.row and results:
        print(markdown_row(a.row, results))
        for m in modes:
            if m not in ("model", "offline") and all(m in r for r in results):
                print(markdown_row(f"{a.row}, {m}", results, m))


ROW_HEADER = ("| run | model-ended | chat requests per commit | junk (model-ended) | type agreement "
              "| ROUGE-L | outside the server | seconds per commit | guards |\n"
              "|---|---|---|---|---|---|---|---|---|")


def markdown_row(label, results, mode="model"):
    """A mode's totals (the model runs', or a peer's) as one row under ROW_HEADER."""
    ds = [r[mode] for r in results]
    n = len(ds)
    mine = [d for d in ds if d["label"] != "offline"]
    chats = [chat_requests(d) for d in ds]
    walls = [d["wall"] for d in ds]
    outside = sum(d["wall"] - d["server_seconds"] for d in ds)
    guards = sorted({m.group(1).split(":")[0] for d in ds
                     for m in [re.search(r"jitcommit-draft: guards (.*)", d.get("stderr", ""))] if m})
    return (f"| {label} | {len(mine)} of {n} ({pct(len(mine), n)}) | {statistics.mean(chats):.2f} "
            f"| {sum(bool(d['junk']) for d in mine)} of {len(mine)} "
            f"| {pct(sum(d['type_ok'] for d in ds), n)} "
            f"| {statistics.mean(d['rouge_l'] for d in ds):.3f} "
            f"| {100 * outside / sum(walls):.1f}% | {statistics.mean(walls):.1f} "
            f"| {'; '.join(guards) or '-'} |")


if __name__ == "__main__":
    main()
