"""The peers of the quality bench (docs/quality.md, "The peers"): opencommit and
aicommits from npm, each run as the prepare-commit-msg hook it installs itself, on the
same replayed commits and through the same recording proxy to the same model server as
jitcommit, so that every figure has its peer figure from the same run.

  npm install --prefix DIR --ignore-scripts opencommit@3.3.10 aicommits@3.4.0
  run.py ... --peers opencommit,aicommits --peer-bin DIR/node_modules/.bin

Each peer is configured in the bench's private HOME and environment only: the
OpenAI-compatible endpoint is the proxy on 127.0.0.1, the model the bench's model, its
own Conventional Commits prompt, English, no emoji, no push, and opencommit's check for
a newer version off (it would ask the npm registry). Nothing of theirs is kept in this
repository. Python 3 standard library only.
"""

import os
import subprocess
import time

# The versions the figures in docs/benchmarks.md were taken with.
PEERS = {
    "opencommit": {"bin": "opencommit", "version": "3.3.10"},
    "aicommits": {"bin": "aicommits", "version": "3.4.0"},
}


def parse_list(text):
    """The peers named by --peers, in a stable order; an unknown name is an error."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in PEERS]
    if unknown:
        raise SystemExit(f"--peers: unknown peer {', '.join(unknown)} (known: {', '.join(PEERS)})")
    return names


def script(peer_bin, name):
    """The peer's JavaScript entry point (the .bin link resolved), which the hook links to."""
    path = os.path.join(peer_bin, PEERS[name]["bin"])
    if not os.path.exists(path):
        raise SystemExit(f"--peer-bin {peer_bin}: no {PEERS[name]['bin']} there "
                         f"(npm install --prefix DIR {name}@{PEERS[name]['version']})")
    return os.path.realpath(path)


def seconds(timeout):
    """run.py's --timeout (`60s`, `2m`, `90`) in seconds, or None."""
    if not timeout:
        return None
    t = timeout.strip().lower()
    scale = {"ms": 0.001, "s": 1, "m": 60}
    for unit in ("ms", "s", "m"):
        if t.endswith(unit):
            return float(t[:-len(unit)]) * scale[unit]
    return float(t)


def configure(name, home, proxy_url, model, env, timeout=None):
    """The environment a peer runs in: `env` with the peer's own settings. aicommits
    reads ~/.aicommits (an ini file); opencommit reads OCO_* variables first. `timeout`
    (run.py's --timeout) is aicommits' request timeout too, whose own default of 10 s
    ends most drafts on a CPU before the model answers; opencommit has none."""
    env = dict(env)
    if name == "opencommit":
        env.update({
            "OCO_AI_PROVIDER": "openai",
            "OCO_API_KEY": "bench",
            "OCO_API_URL": proxy_url + "/v1",
            "OCO_MODEL": model,
            "OCO_PROMPT_MODULE": "conventional-commit",
            "OCO_LANGUAGE": "en",
            "OCO_EMOJI": "false",
            "OCO_DESCRIPTION": "false",
            "OCO_WHY": "false",
            "OCO_ONE_LINE_COMMIT": "false",
            "OCO_GITPUSH": "false",
            "OCO_HOOK_AUTO_UNCOMMENT": "true",
            # The bench's servers run with a 4,096-token context.
            "OCO_TOKENS_MAX_INPUT": "3500",
            "OCO_TOKENS_MAX_OUTPUT": "500",
            "OCO_TEST_SKIP_VERSION_CHECK": "true",
        })
    elif name == "aicommits":
        with open(os.path.join(home, ".aicommits"), "w") as f:
            f.write(f"OPENAI_API_KEY=bench\nOPENAI_BASE_URL={proxy_url}/v1\n"
                    f"OPENAI_MODEL={model}\nprovider=custom\ntype=conventional\n"
                    f"locale=en\ngenerate=1\n")
            if seconds(timeout):
                f.write(f"timeout={int(seconds(timeout) * 1000)}\n")
    return env


def run(name, peer_bin, repo, env, template, strip_comments):
    """Draft the staged change in `repo` with peer `name`, as git runs its hook:
    `.git/hooks/prepare-commit-msg .git/COMMIT_EDITMSG` on a file holding git's
    comment block. The same fields as run.py's run_hook."""
    hooks = os.path.join(repo, ".git", "hooks")
    os.makedirs(hooks, exist_ok=True)
    hook = os.path.join(hooks, "prepare-commit-msg")
    if os.path.lexists(hook):
        os.remove(hook)
    os.symlink(script(peer_bin, name), hook)
    msg = os.path.join(repo, ".git", "COMMIT_EDITMSG")
    with open(msg, "w") as f:
        f.write(template)
    t0 = time.monotonic()
    try:
        r = subprocess.run(["node", hook, msg], cwd=repo, env=env, capture_output=True,
                           stdin=subprocess.DEVNULL, timeout=900)
        code, err = r.returncode, r.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        code, err = None, "timed out after 900 s"
    wall = time.monotonic() - t0
    os.remove(hook)
    text = open(msg, encoding="utf-8", errors="replace").read()
    message = strip_comments(text)
    return {"wall": wall, "t0": t0, "t1": t0 + wall, "exit": code, "label": name,
            "stderr": err.strip()[-2000:], "raw": text, "message": message, "footer": [],
            "offline_why": None}
