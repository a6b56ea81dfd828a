"""Device-side batch driver for `--executor queue:DIR`: runs every queued runner call of DIR in one
device session and writes DIR/results/<id>.json, the JSON the runner's CLI would have printed.

    python bench/optimize/device_batch.py DIR [--budget S] [--workers N] [--device cuda]

Needs only torch, triton, numpy and the runner (DIR/bundle holds the runner, the tasks and the
candidates). Verifies run as `python -m diagnose.runner verify ...`, N at a time (they need no
quiet GPU); every candidate bench then runs in ONE sandboxed runner child, one item after another,
in the order the loop gave (parent and candidates interleaved), so no two timings share the GPU and
no process start sits between them; the eager and torch.compile references follow in one child of
their own, outside the sandbox (diagnose.runner.procs.run_items). torch.compile references are warmed in parallel first. A call
whose verify did not pass is not timed. Past --budget seconds no new work starts; what is left
stays queued for the next session."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("queue", type=Path)
    ap.add_argument("--budget", type=float, default=400.0, help="seconds; no new work after")
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    ap.add_argument("--device", default="cuda")
    args = ap.parse_args()
    start = time.monotonic()
    queue = args.queue.resolve()
    bundle = queue / "bundle"
    sys.path.insert(0, str(bundle))
    os.chdir(bundle)
    results = queue / "results"
    results.mkdir(exist_ok=True)
    jobs = {j["id"]: j for j in (json.loads(p.read_text()) for p in sorted((queue / "jobs").glob("*.json")))}
    done = {i: json.loads((results / f"{i}.json").read_text()) for i in jobs if (results / f"{i}.json").is_file()}
    log = {"jobs": len(jobs), "already_done": len(done), "phases": {}}
    _ceilings(results, args.device, log)
    verifies = [j for i, j in jobs.items() if i not in done and j["command"] == "verify"]
    t = time.monotonic()
    with ThreadPoolExecutor(args.workers) as pool:
        warm = pool.submit(_warm_compiles, [j for j in jobs.values() if j["command"] == "bench"
                                            and "--no-compile" not in j["argv"] and j["id"] not in done],
                           args.device, args.workers)
        for job, answer in zip(verifies, pool.map(lambda j: _verify(j, start, args.budget), verifies), strict=True):
            if answer is not None:
                done[job["id"]] = answer
                _write(results / f"{job['id']}.json", answer)
        warm.result()
    log["phases"]["verify_s"] = round(time.monotonic() - t, 1)
    t = time.monotonic()
    benches = sorted((j for i, j in jobs.items() if i not in done and j["command"] == "bench" and _ready(j, done)),
                     key=lambda j: (j["order"], j["id"]))
    log["benches"] = _bench_all(benches, results, args.device, start, args.budget)
    log["phases"]["bench_s"] = round(time.monotonic() - t, 1)
    log["wall_s"] = round(time.monotonic() - start, 1)
    log["left"] = len([i for i in jobs if not (results / f"{i}.json").is_file()])
    _write(results / "driver.json", log)
    print(json.dumps(log, indent=2))
    return 0


def _write(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str))
    tmp.replace(path)


def _passed(answer: dict | None) -> bool:
    return bool(answer) and answer.get("verdict") == "pass"


def _ready(job: dict, done: dict) -> bool:
    if job.get("after") and not _passed(done.get(job["after"])):
        return False
    any_of = job.get("after_any") or []
    return not any_of or any(_passed(done.get(k)) for k in any_of)


def _ceilings(results: Path, device: str, log: dict) -> None:
    proc = subprocess.run([sys.executable, "-m", "diagnose.runner", "ceilings", "--device", device,
                           "--cache", str(results.parent / "ceilings-cache")], capture_output=True, text=True)
    try:
        _write(results / "ceilings.json", json.loads(proc.stdout))
    except json.JSONDecodeError:
        log["ceilings_error"] = proc.stderr[-500:]


def _verify(job: dict, start: float, budget: float) -> dict | None:
    if time.monotonic() - start > budget:
        return None
    try:
        proc = subprocess.run([sys.executable, "-m", "diagnose.runner", *job["argv"]],
                              capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return {"error": "the runner did not answer within 900 s"}
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"error": f"the runner gave no JSON (exit {proc.returncode}): {proc.stderr[-300:]}"}


def _bench_opts(job: dict):
    from diagnose.runner.bench import BenchOptions
    from diagnose.runner.cli import _csv, build_parser

    a = build_parser().parse_args(job["argv"])
    return a, BenchOptions(sizes=_csv(a.sizes), dtypes=_csv(a.dtypes), device=a.device or "cuda",
                           timeout_s=a.timeout, compile=not a.no_compile, warmup_ms=a.warmup_ms,
                           rep_ms=a.rep_ms)


def _items(job: dict, time_it: bool = True, only: str | None = None) -> list:
    from diagnose.runner.bench import bench_items
    from diagnose.runner.tasks import find_task, read_candidate
    from diagnose.runner.verify import pick_dtypes, pick_sizes

    a, opts = _bench_opts(job)
    task = find_task(a.task)
    cand = read_candidate(a.candidate, task)
    sizes = pick_sizes(task, opts.sizes, opts.device)
    dtypes = pick_dtypes(task, opts.dtypes)[:1]
    items = bench_items(task, str(cand.path), cand.entry, sizes, dtypes, opts, time_it=time_it)
    return [i for i in items if only is None or i.impl == only]


def _warm_compiles(jobs: list[dict], device: str, workers: int) -> None:
    """Compile each task's torch.compile reference once, in parallel children (fills the caches)."""
    from diagnose.runner.procs import run_items

    seen, batches = set(), []
    for job in jobs:
        items = [i for i in _items(job, time_it=False, only="compile") if (i.task, i.size, i.dtype) not in seen]
        seen |= {(i.task, i.size, i.dtype) for i in items}
        if items:
            batches.append(items)
    from diagnose.runner.verify import interpret_env

    env = {"TORCHINDUCTOR_COMPILE_THREADS": "1", **interpret_env(device)}
    with ThreadPoolExecutor(max(1, workers // 2)) as pool:
        list(pool.map(lambda b: run_items(b, device, 600, skip=lambda f, later: True, env=env), batches))


def _bench_all(jobs: list[dict], results: Path, device: str, start: float, budget: float) -> dict:
    """All bench jobs' items in one child, in order; then each job's answer as `bench` prints it."""
    from diagnose.runner.bench import assemble, device_notes, get_ceilings
    from diagnose.runner.procs import run_items
    from diagnose.runner.verify import interpret_env

    ceil, _ = get_ceilings(device, str(results.parent / "ceilings-cache"))
    # Small chunks: a session cut short (a device call's time limit) loses at most one chunk, and
    # the last chunk's duration predicts whether the next one still fits the budget.
    chunk, written, last = 12, 0, 0.0
    for at in range(0, len(jobs), chunk):
        if time.monotonic() - start + last > budget:
            break
        began = time.monotonic()
        part = jobs[at:at + chunk]
        owners, items = [], []
        for job in part:
            mine = _items(job)
            if "--no-compile" in job["argv"]:  # the loop reads the candidate; eager is timed with compile
                mine = [i for i in mine if i.impl == "candidate"]
            owners += [job["id"]] * len(mine)
            items += mine
        run = run_items(items, device, 300, env={"TORCHINDUCTOR_COMPILE_THREADS": "1", **interpret_env(device)},
                        skip=lambda failed, later: (failed.task, failed.candidate, failed.impl)
                        == (later.task, later.candidate, later.impl))
        for job in part:
            outs = [o for o, owner in zip(run.outcomes, owners, strict=True) if owner == job["id"]]
            a, opts = _bench_opts(job)
            answer = {"task": Path(a.task).name, "candidate": a.candidate, "device": device,
                      "points": [asdict(p) for p in assemble(outs, ceil)], "ceilings": ceil.to_json(),
                      "device_info": run.device_info, "notes": device_notes(device, ceil),
                      "batch": "bench/optimize/device_batch.py: timed in one child with the session's other benches"}
            _write(results / f"{job['id']}.json", answer)
            written += 1
        last = time.monotonic() - began
    return {"queued": len(jobs), "written": written}


if __name__ == "__main__":
    sys.exit(main())
