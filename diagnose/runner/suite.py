"""suite: ceilings once, then verify and bench every task of kernels/, as one JSON and a table.

Phase 1 runs several children at once: verification and warming the Triton and inductor
caches are CPU-bound and do not need a quiet GPU. Phase 2 times everything in one child, one
item after another, so timings never share the GPU and compiles come from the warm caches.
"""

from __future__ import annotations

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import static_check
from .bench import BenchOptions, assemble, bench_items, get_ceilings, same_impl
from .ceilings import Ceilings
from .child import WorkItem
from .errors import RunnerError
from .procs import run_items
from .tasks import TaskSpec, find_task, kernels_dir, list_tasks, read_candidate
from .verify import VerifyOptions, _case_json, _verdict, interpret_env, pick_sizes, verify_items

SUITE_SEEDS = 2
SUITE_BENCH = BenchOptions(warmup_ms=10.0, rep_ms=50.0)
ITEM_TIMEOUT_S = 180.0
CHILD_ENV = {"TORCHINDUCTOR_COMPILE_THREADS": "1"}  # one reference op: a compile worker pool costs more than it saves


@dataclass
class SuiteOptions:
    tasks: list[str] | None = None
    out: str | None = None
    device: str = "cuda"
    cache: str | None = None
    compile: bool = True
    workers: int = 6


@dataclass
class TaskResult:
    task: str
    verdict: str
    cause: str
    static_findings: list[dict] = field(default_factory=list)
    verify_cases: list[dict] = field(default_factory=list)
    points: list[dict] = field(default_factory=list)
    largest_size: str | None = None


def run_suite(opts: SuiteOptions) -> tuple[dict, str]:
    """Run the suite; returns the JSON document and the table printed for people."""
    start = time.monotonic()
    names = opts.tasks or list_tasks()
    if not names:
        raise RunnerError(f"no tasks under {kernels_dir()}; add task folders or pass --tasks.")
    ceil, info = get_ceilings(opts.device, opts.cache)
    specs, results = _read_tasks(names)
    bench_opts = BenchOptions(device=opts.device, compile=opts.compile,
                              warmup_ms=SUITE_BENCH.warmup_ms, rep_ms=SUITE_BENCH.rep_ms)
    with ThreadPoolExecutor(max(1, opts.workers)) as pool:
        verified = list(pool.map(lambda s: _verify_and_warm(s, opts, bench_opts), specs))
    for r in verified:
        prior = results.get(r.task)
        if prior and prior.verdict == "torch_fallback":  # the static verdict stands; keep the run's detail
            prior.verify_cases, prior.largest_size = r.verify_cases, r.largest_size
        else:
            results[r.task] = r
    timing_info = _bench_all(specs, results, opts, bench_opts, ceil)
    doc = {"device_info": timing_info or info, "ceilings": ceil.to_json(),
           "tasks": [asdict(results[n]) for n in sorted(results)],
           "summary": _summary(results), "wall_s": round(time.monotonic() - start, 1)}
    table = format_table(doc)
    if opts.out:
        Path(opts.out).write_text(json.dumps(doc, indent=2, default=str))
    return doc, table


def _read_tasks(names: list[str]) -> tuple[list[tuple[TaskSpec, str, str]], dict[str, TaskResult]]:
    """(task, baseline path, entry) for readable tasks; bad ones become results right away."""
    specs, results = [], {}
    for name in names:
        try:
            task = find_task(name)
            if not task.baseline:
                raise RunnerError(f"task {name} has no baseline.py.")
            cand = read_candidate(task.baseline, task)
        except RunnerError as exc:
            results[name] = TaskResult(name, "bad_task", str(exc))
            continue
        findings = static_check.torch_fallbacks(cand.tree)
        specs.append((task, str(cand.path), cand.entry))
        if findings:  # still timed: the lead wants the numbers, the verdict says what is wrong
            results[task.name] = TaskResult(task.name, "torch_fallback", static_check.summary(findings),
                                            static_findings=[asdict(f) for f in findings])
    return specs, results


def _verify_and_warm(spec: tuple[TaskSpec, str, str], opts: SuiteOptions, bench_opts: BenchOptions) -> TaskResult:
    task, cand_path, entry = spec
    vopts = VerifyOptions(seeds=SUITE_SEEDS, device=opts.device)
    cand = read_candidate(cand_path, task)
    items = verify_items(task, cand, vopts)
    sizes = pick_sizes(task, None, opts.device)
    warm = bench_items(task, cand_path, entry, sizes, task.dtypes[:1], bench_opts, time_it=False)
    warm = [w for w in warm if w.impl != "eager"]
    n_verify = len(items)
    run = run_items(items + warm, opts.device, ITEM_TIMEOUT_S, skip=lambda failed, later: failed.kind == later.kind,
                    env={**CHILD_ENV, **interpret_env(opts.device)})
    verify_outcomes = run.outcomes[:n_verify]
    verdict, cause = _verdict(verify_outcomes, task)
    return TaskResult(task.name, verdict, cause, verify_cases=[_case_json(o) for o in verify_outcomes],
                      largest_size=sizes[-1])


def _bench_all(specs: list[tuple[TaskSpec, str, str]], results: dict[str, TaskResult], opts: SuiteOptions,
               bench_opts: BenchOptions, ceil: Ceilings) -> dict:
    """Time every task in one child, one item at a time; skip baselines that crashed in verify."""
    items: list[WorkItem] = []
    for task, cand_path, entry in specs:
        sizes = pick_sizes(task, None, opts.device)
        task_items = bench_items(task, cand_path, entry, sizes, task.dtypes[:1], bench_opts)
        if results[task.name].verdict not in ("pass", "wrong_result", "torch_fallback"):
            task_items = [i for i in task_items if i.impl != "candidate"]
        items += task_items
    if not items:
        return {}
    run = run_items(items, opts.device, ITEM_TIMEOUT_S, skip=same_impl,
                    env={**CHILD_ENV, **interpret_env(opts.device)})
    by_task: dict[str, list] = {}
    for o in run.outcomes:
        by_task.setdefault(o.item.task, []).append(o)
    for task, _, _ in specs:
        points = assemble(by_task.get(str(task.path), []), ceil)
        results[task.name].points = [asdict(p) for p in points]
    return run.device_info


def _point_ms(point: dict, impl: str) -> float | None:
    """Median of impl at a point, in the method the point's ratios use."""
    t = point["impls"].get(impl) or {}
    if not t.get("median_ms"):
        return None
    if point.get("ratio_method") == "do_bench" and t.get("do_bench_median_ms"):
        return t["do_bench_median_ms"]
    return t["median_ms"]


def _summary(results: dict[str, TaskResult]) -> dict:
    """Geomean over tasks of baseline ms / torch.compile ms at each task's largest size."""
    ratios = {}
    for r in results.values():
        point = next((p for p in r.points if p["size"] == r.largest_size), None)
        if point:
            base, comp = _point_ms(point, "candidate"), _point_ms(point, "compile")
            if base and comp:
                ratios[r.task] = base / comp
    geo = math.exp(sum(math.log(x) for x in ratios.values()) / len(ratios)) if ratios else None
    verdicts: dict[str, int] = {}
    for r in results.values():
        verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
    return {"geomean_baseline_over_compile_largest": geo, "tasks_in_geomean": len(ratios),
            "verdicts": verdicts, "baseline_over_compile_largest": ratios}


def _fmt(x: float | None, spec: str) -> str:
    return format(x, spec) if x is not None else "-"


def format_table(doc: dict) -> str:
    """One line per task and size: times, rates, share of the ceiling, baseline/compile."""
    head = (f"{'task':<24} {'size':<8} {'verify':<15} {'base ms':>9} {'eager ms':>9} {'comp ms':>9} "
            f"{'GB/s':>8} {'TFLOP/s':>8} {'%ceil':>6} {'bound':<7} {'base/comp':>9}")
    lines = [head, "-" * len(head)]
    for t in doc["tasks"]:
        if not t["points"]:
            lines.append(f"{t['task']:<24} {'-':<8} {t['verdict']:<15} {t['cause'][:80]}")
        for p in t["points"]:
            base, eager, comp = (_point_ms(p, i) for i in ("candidate", "eager", "compile"))
            roof = (p["impls"].get("candidate") or {}).get("roofline") or {}
            ratio = base / comp if base and comp else None
            lines.append(
                f"{t['task']:<24} {p['size']:<8} {t['verdict']:<15} {_fmt(base, '9.4f')} {_fmt(eager, '9.4f')} "
                f"{_fmt(comp, '9.4f')} {_fmt(roof.get('gbps'), '8.1f')} {_fmt(roof.get('tflops'), '8.2f')} "
                f"{_fmt(roof.get('pct_of_bound_ceiling'), '6.1f')} {roof.get('bound') or '-':<7} {_fmt(ratio, '9.2f')}")
    s = doc["summary"]
    lines.append("")
    lines.append(f"geomean baseline/torch.compile at the largest size: "
                 f"{_fmt(s['geomean_baseline_over_compile_largest'], '.3f')} over {s['tasks_in_geomean']} tasks "
                 f"(>1: the baseline is slower); verdicts {s['verdicts']}; wall {doc['wall_s']} s")
    return "\n".join(lines)
