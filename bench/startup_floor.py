#!/usr/bin/env python3
"""What a process start costs on this machine, and how much of it a binary brings.

The one-file goals compare whole processes that do little work, so their floor is the
cost of starting one. This bench measures the kernel's unit costs (a fresh anonymous
page, a copy-on-write page of a file mapping, a file page found in the page cache, a
`stat`, an `open`) and, for each binary given, a start that does nothing (`--version`):
its wall and CPU time and its page faults, in interleaved rounds with `true` as the
baseline, and, when `readelf` is there, the bytes the loader must relocate at each start
(`.data.rel.ro` and `.got`, every page of which is copied on write) and how many
relocations it applies. Prints Markdown for bench/record.py. Python 3's standard
library only.

    python3 bench/startup_floor.py [ROUNDS] NAME=BINARY...

e.g. `python3 bench/startup_floor.py 200 git=git jitcommit-draft=target/release/jitcommit-draft`.
Drop the page cache first (`echo 3 > /proc/sys/vm/drop_caches`) so that every binary is
read back from disk: a fresh `cp` copy starts with fewer faults (docs/benchmarks.md,
section `print-context-speed`).
"""

import mmap
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PAGE = mmap.PAGESIZE


def per_call(fn, n):
    """Nanoseconds per call of `fn`, less the loop's own cost."""
    t = time.perf_counter_ns()
    for _ in range(n):
        fn()
    spent = time.perf_counter_ns() - t
    t = time.perf_counter_ns()
    for _ in range(n):
        pass
    return (spent - (time.perf_counter_ns() - t)) / n


def touch(view, pages):
    """Nanoseconds per page of writing one byte into each of `pages` fresh pages."""
    t = time.perf_counter_ns()
    for i in range(pages):
        view[i * PAGE] = 1
    spent = time.perf_counter_ns() - t
    t = time.perf_counter_ns()
    for i in range(pages):
        pass
    return (spent - (time.perf_counter_ns() - t)) / pages


def unit_costs(scratch):
    """The kernel's unit costs, measured here."""
    pages = 4096
    anon = mmap.mmap(-1, pages * PAGE)
    anon_ns = touch(anon, pages)
    path = os.path.join(scratch, "file")
    with open(path, "wb") as f:
        f.write(b"\0" * pages * PAGE)
    with open(path, "rb") as f:
        # Read once so the pages are in the page cache, then map privately and write.
        f.read()
        cow = mmap.mmap(f.fileno(), pages * PAGE, access=mmap.ACCESS_COPY)
        cow_ns = touch(cow, pages)
        shared = mmap.mmap(f.fileno(), pages * PAGE, access=mmap.ACCESS_READ)
        t = time.perf_counter_ns()
        for i in range(pages):
            shared[i * PAGE]
        read_ns = (time.perf_counter_ns() - t) / pages
    missing = os.path.join(scratch, "missing.toml")
    small = os.path.join(scratch, "small")
    with open(small, "w") as f:
        f.write("ref: refs/heads/main\n")

    def stat_missing():
        try:
            os.stat(missing)
        except FileNotFoundError:
            pass

    def read_small():
        with open(small, "rb") as f:
            f.read()

    return [
        ("a fresh anonymous page (heap, stack), first write", anon_ns),
        ("a page of a private file mapping, first write (copy on write: relocated data)", cow_ns),
        ("a page of a file mapping in the page cache, first read (the kernel maps neighbours too)", read_ns),
        ("`stat` of a path that does not exist", per_call(stat_missing, 20000)),
        ("`stat` of a file", per_call(lambda: os.stat(small), 20000)),
        ("`open` + `read` + `close` of a small file", per_call(read_small, 20000)),
    ]


def relocated(binary):
    """(bytes of .data.rel.ro + .got, relocations) of `binary`, or None without readelf."""
    if not shutil.which("readelf"):
        return None
    sections = subprocess.run(["readelf", "-S", "-W", binary], capture_output=True, text=True).stdout
    size = 0
    for line in sections.splitlines():
        m = re.search(r"\]\s+(\.data\.rel\.ro|\.got)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            size += int(m.group(2), 16)
    relocs = subprocess.run(["readelf", "-r", "-W", binary], capture_output=True, text=True).stdout
    return size, relocs.count("R_X86_64_RELATIVE") + relocs.count("R_AARCH64_RELATIVE")


def main():
    args = sys.argv[1:]
    rounds = int(args.pop(0)) if args and args[0].isdigit() else 200
    if not args or any("=" not in a for a in args):
        sys.exit(__doc__)
    named = [a.split("=", 1) for a in args]
    jobs = [("true", ["true"])] + [(n, [shutil.which(b) or os.path.abspath(b), "--version"]) for n, b in named]
    scratch = tempfile.mkdtemp()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": scratch, "LANG": "C.UTF-8"}
    wall = {n: [] for n, _ in jobs}
    cpu = {n: [] for n, _ in jobs}
    faults = {n: [] for n, _ in jobs}
    for r in range(rounds):
        k = r % len(jobs)
        for name, cmd in jobs[k:] + jobs[:k]:
            t = time.perf_counter()
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)
            wall[name].append(time.perf_counter() - t)
            if status != 0:
                sys.exit(f"{cmd} failed")
            cpu[name].append(usage.ru_utime + usage.ru_stime)
            faults[name].append(usage.ru_minflt + usage.ru_majflt)

    print("Unit costs, each the mean of thousands of operations as Python makes them (so each"
          " holds a fraction of a microsecond of the interpreter's own work):\n")
    print("| operation | cost |\n| --- | --- |")
    for what, ns in unit_costs(scratch):
        print(f"| {what} | {ns / 1000:.2f} µs |")
    print(f"\nA start that does nothing (`--version`; `true` for the process alone), medians of {rounds} interleaved rounds:\n")
    print("| binary | wall | × `true` | CPU | × `true` | page faults | relocated bytes (`.data.rel.ro` + `.got`) | relocations |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    base_wall, base_cpu = statistics.median(wall["true"]), statistics.median(cpu["true"])
    for name, cmd in jobs:
        r = relocated(cmd[0]) if name != "true" else None
        kb = f"{r[0] / 1024:.0f} KiB ({(r[0] + PAGE - 1) // PAGE} pages)" if r else ""
        n = f"{r[1]:,}" if r else ""
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        print(f"| {name} | {w * 1e3:.2f} ms | {w / base_wall:.2f}× | {c * 1e3:.2f} ms | {c / base_cpu:.2f}× | "
              f"{statistics.median(faults[name]):.0f} | {kb} | {n} |")


if __name__ == "__main__":
    main()
