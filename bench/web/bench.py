"""Web/API latency under concurrency: `passwise serve` (waitress) on a full compiler index,
N clients issuing search-page and /api/v1/search requests; p50/p95/p99 per route, with the
machine's load recorded before, during and after (the machine may be shared).

    python bench/web/bench.py --home /work/kbcopy-web --clients 8 --requests 400
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
ROUTES = {"page": "/search", "api": "/api/v1/search"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, corpus_set: str, port: int, threads: int,
                 workers: int) -> subprocess.Popen:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "passwise", "serve", "--home", str(home),
                             "--corpus-set", corpus_set, "--port", str(port),
                             "--threads", str(threads), "--search-workers", str(workers)],
                            cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 180
    while time.time() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/api/v1/tasks", timeout=2)
            return proc
        except requests.ConnectionError:
            if proc.poll() is not None:
                raise SystemExit(f"the server exited: {proc.stderr.read()[-2000:]}") from None
            time.sleep(0.5)
    raise SystemExit("the server did not start within 180 s")


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the server process and its search workers have used so far."""
    return sum(_cpu_of(p) for p in [pid, *_children(pid)])


def _cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # gone meanwhile
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    """Every descendant (the search workers are the server's children), from /proc's ppids."""
    parent = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                parent[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def busy_processes(n: int = 6) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pcpu,comm", "--sort=-pcpu"], capture_output=True,
                         text=True).stdout.splitlines()[1:n + 1]
    return [" ".join(line.split()) for line in out]


def distinct_queries(queries: list[str], n: int, seed: int) -> list[str]:
    """n different questions, each the head of one listed question and the tail of another,
    so no two requests share a query (nothing is served from the server's search cache)."""
    rng = random.Random(seed)
    pairs = [(a, b) for a in queries for b in queries if a != b]
    rng.shuffle(pairs)
    out = []
    for a, b in pairs[:n]:
        wa, wb = a.split(), b.split()
        out.append(" ".join(wa[:max(2, len(wa) // 2)] + wb[len(wb) // 2:]))
    return out


def plan_for(scenario: str, queries: list[str], total: int, seed: int) -> list[tuple]:
    """distinct: every request a new query, page 1; repeated: the listed questions again and
    again, pages 1-2, as people paging through shared results."""
    rng = random.Random(seed)
    if scenario == "distinct":
        return [(rng.choice(list(ROUTES)), q, 1)
                for q in distinct_queries(queries, total, seed)]
    return [(rng.choice(list(ROUTES)), rng.choice(queries), rng.choice([1, 1, 1, 2]))
            for _ in range(total)]


def run_clients(base: str, plan: list[tuple], clients: int) -> list[dict]:
    """`clients` threads, each with its own session, share the planned requests."""
    plan = list(plan)
    lock, results = threading.Lock(), []

    def client() -> None:
        s = requests.Session()
        while True:
            with lock:
                if not plan:
                    return
                route, q, page = plan.pop()
            t0 = time.perf_counter()
            r = s.get(base + ROUTES[route], params={"q": q, "page": page}, timeout=120)
            ms = (time.perf_counter() - t0) * 1000
            with lock:
                results.append({"route": route, "ms": ms, "status": r.status_code})

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def summarize(results: list[dict], seconds: float) -> dict:
    out = {}
    for route in ROUTES:
        ms = [r["ms"] for r in results if r["route"] == route]
        out[route] = {"n": len(ms), "p50_ms": round(percentile(ms, 50), 1),
                      "p95_ms": round(percentile(ms, 95), 1),
                      "p99_ms": round(percentile(ms, 99), 1), "max_ms": round(max(ms), 1),
                      "mean_ms": round(statistics.mean(ms), 1),
                      "errors": sum(r["status"] != 200 for r in results if r["route"] == route)}
    out["seconds"] = round(seconds, 1)
    out["throughput_rps"] = round(len(results) / seconds, 2)
    return out


def versions() -> dict:
    v = {"python": platform.python_version()}
    for pkg in ("passwise", "flask", "waitress", "chromadb", "sentence-transformers", "torch"):
        try:
            v[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            pass
    v["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                 capture_output=True, text=True).stdout.strip()
    return v


def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")), "")
    mem = next((line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                if line.startswith("MemTotal")), "0")
    return {"cpus": os.cpu_count(), "cpu": cpu, "mem_gib": round(int(mem) / 2**20, 1),
            "kernel": platform.release()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    ap.add_argument("--search-workers", type=int, default=min(os.cpu_count() or 1, 4),
                    help="processes that rank new questions (serve's default: one per CPU, at most 4)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenarios", default="one-client,distinct,repeated")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "web-bench.json")
    args = ap.parse_args()
    queries = [q for q in (ROOT / "bench/web/queries.txt").read_text().splitlines() if q]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    t0 = time.time()
    proc = start_server(args.home, args.corpus_set, port, args.threads, args.search_workers)
    try:
        started_s = time.time() - t0
        w0 = time.perf_counter()
        requests.get(base + "/api/v1/search", params={"q": "warm up"}, timeout=300)
        warm_s = time.perf_counter() - w0
        sources = requests.get(base + "/api/v1/sources", timeout=300).json()
        run_clients(base, plan_for("repeated", queries, 2 * args.clients, 99), args.clients)
        before, busy = load(), busy_processes()
        scenarios = {}
        for n, name in enumerate(args.scenarios.split(",")):
            clients, total = (1, args.requests // 5) if name == "one-client" else \
                (args.clients, args.requests)
            plan = plan_for("distinct" if name == "one-client" else name, queries, total,
                            args.seed + n + (100 if name == "one-client" else 0))
            t1, c1 = time.perf_counter(), cpu_seconds(proc.pid)
            results = run_clients(base, plan, clients)
            wall = time.perf_counter() - t1
            scenarios[name] = summarize(results, wall)
            used = cpu_seconds(proc.pid) - c1
            scenarios[name]["server_cpu_ms_per_request"] = round(1000 * used / len(results), 1)
            scenarios[name]["server_cores_busy"] = round(used / wall, 2)
            scenarios[name]["load_after"] = load()
        after = load()
    finally:
        proc.terminate()
        proc.wait(30)
    report = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
              "versions": versions(), "home": str(args.home), "clients": args.clients,
              "requests": args.requests, "waitress_threads": args.threads,
              "search_workers": args.search_workers,
              "index": {"chunks": sum(s.get("chunks", 0) for s in sources),
                        "sources": {s["name"]: s.get("chunks") for s in sources}},
              "server_start_s": round(started_s, 1), "first_query_s": round(warm_s, 2),
              "load_before": before, "load_after": after, "busiest_processes_before": busy,
              "scenarios": scenarios}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(markdown(report))
    print(json.dumps(report, indent=2))


def markdown(r: dict) -> str:
    """The committed summary: one row per scenario and route, with the machine's state."""
    m, v = r["machine"], r["versions"]
    lines = [f"# Web and API search latency ({r['date'][:10]})", "",
             f"`python bench/web/bench.py --home {r['home']} --clients {r['clients']} "
             f"--requests {r['requests']} --search-workers {r.get('search_workers', 0)}`: "
             f"`passwise serve` (waitress, {r['waitress_threads']} threads; "
             f"{r.get('search_workers', 0)} search worker processes) on an index of "
             f"{r['index']['chunks']} chunks "
             f"({', '.join(f'{k} {n}' for k, n in r['index']['sources'].items())}), "
             f"{r['clients']} concurrent clients, search page (`/search`) and API "
             "(`/api/v1/search`) requests mixed at random.", "",
             "| scenario | route | requests | p50 ms | p95 ms | p99 ms | max ms | errors | req/s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, sc in r["scenarios"].items():
        for route in ROUTES:
            x = sc[route]
            lines.append(f"| {name} | {route} | {x['n']} | {x['p50_ms']} | {x['p95_ms']} | "
                         f"{x['p99_ms']} | {x['max_ms']} | {x['errors']} | {sc['throughput_rps']} |")
    lines += ["", "| scenario | server CPU per request (ms) | server cores busy (of 2) |",
              "|---|---|---|"]
    lines += [f"| {name} | {sc['server_cpu_ms_per_request']} | {sc['server_cores_busy']} |"
              for name, sc in r["scenarios"].items()]
    lines += ["", "- **one-client**: one client, new questions one after another: the latency of "
              "a single retrieval with no queueing (requests/5 requests).",
              "- **distinct**: every request a new question (no search-cache hit): the cost "
              "of a real retrieval (query embedding, Chroma HNSW, BM25, fusion) per request.",
              "- **repeated**: the 40 listed questions again and again, pages 1-2: what a team "
              "paging through shared results sees (the server's search cache answers repeats).",
              "", f"Machine: {m['cpus']} CPUs ({m['cpu']}), {m['mem_gib']} GiB, Linux "
              f"{m['kernel']}. Versions: " + ", ".join(f"{k} {x}" for k, x in v.items()) + ".",
              f"Load average (1/5/15 min) before: {r['load_before']}, after: {r['load_after']}; "
              f"busiest processes before: {', '.join(r['busiest_processes_before'][:4])}.",
              f"Server start {r['server_start_s']} s; first query {r['first_query_s']} s "
              "(loads the embedder and the lexical index)."]
    d = r["scenarios"].get("distinct")
    if d:
        cpu = d["server_cpu_ms_per_request"]
        best = 2000 / cpu if cpu else 0
        lines += ["", f"Bound: a new question costs the server {cpu} ms of CPU, so even with both "
                  f"cores to itself it answers at most ~{best:.0f} new questions/s, and 8 "
                  f"clients that each wait for their answer see ~{8000 / best if best else 0:.0f} "
                  "ms on average. During this run the server got "
                  f"{d['server_cores_busy']} of the 2 cores (the rest went to the other jobs "
                  "the load average counts)."]
    return "\n".join(lines) + "\n"
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
