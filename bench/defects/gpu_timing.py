"""Time every CUDA defect case's slow.py against its fixed.py on the GPU, after verifying both.

Runs on the GPU host with only torch, triton and numpy: the case list is read through
cases.py loaded by file path, tasks and candidates are imported by path. Ascend cases are
listed as skipped. Inputs are built once per case at the case's size and shared by both
candidates (candidates never write their inputs; verify_cpu.py checks that).

    python bench/defects/gpu_timing.py OUT.json [CASE ...] [--rep-ms 40] [--size SIZE] [--warm-workers N]

--warm-workers N first runs every case's slow and fixed once in N parallel processes, so Triton's
on-disk cache holds their kernels and the (sequential) timing pass does not wait on compiles.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

import torch
import triton
import triton.testing

HERE = Path(__file__).resolve().parent


def load(path: Path, name: str) -> ModuleType:
    """Import a file by path under a unique module name (triton.jit reads source via __file__)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


cases_mod = load(HERE / "cases.py", "defect_cases")


def mismatch(task: ModuleType, dtype: str, inputs: tuple, out, ref) -> str | None:
    """One sentence when the output differs from the reference, else None."""
    if not task.META["deterministic"]:
        return task.check(inputs, out)
    tol = task.META["tolerance"][dtype]
    outs = out if isinstance(out, tuple) else (out,)
    refs = ref if isinstance(ref, tuple) else (ref,)
    if len(outs) != len(refs):
        return f"{len(outs)} outputs, reference has {len(refs)}"
    for i, (o, r) in enumerate(zip(outs, refs, strict=True)):
        if o.shape != r.shape or o.dtype != r.dtype:
            return f"output {i} is {o.dtype}{list(o.shape)}, reference {r.dtype}{list(r.shape)}"
        if not torch.allclose(o.double(), r.double(), atol=tol["atol"], rtol=tol["rtol"]):
            return f"output {i} max abs error {(o.double() - r.double()).abs().max().item():.3g}"
    return None


def time_case(case, size: str, rep_ms: float) -> dict:
    """Verify and time slow and fixed of one case; every failure is recorded, never raised."""
    row = {"case": case.name, "task": case.task, "size": size, "backend": case.backend}
    if case.backend != "cuda":
        return {**row, "status": "skipped", "why": "Ascend case: timed on an NPU, not here", "seconds": 0.0}
    started = time.perf_counter()
    try:
        task = load(case.task_dir / "task.py", f"task_{case.name}")
        dtype = task.META["dtypes"][0]
        inputs = task.make_inputs(size, device="cuda", seed=0, dtype=dtype)
        ref = task.reference(*inputs)
        for label in ("slow", "fixed"):
            fn = load(getattr(case, label), f"{label}_{case.name}").run
            problem = mismatch(task, dtype, inputs, fn(*inputs), ref)
            if problem:  # the row itself, so that `finally` stamps its seconds
                row.update(status="wrong", why=f"{label}.py: {problem}")
                return row
            row[f"{label}_ms"] = triton.testing.do_bench(lambda fn=fn: fn(*inputs), warmup=10, rep=rep_ms)
        row["speedup"] = row["slow_ms"] / row["fixed_ms"]
        row["status"] = "ok"
    except Exception as exc:  # one broken case must not stop the sweep
        row["status"] = "error"
        row["why"] = f"{type(exc).__name__}: {str(exc).strip()[:300]}"
        row["traceback"] = traceback.format_exc()[-2000:]
    finally:
        row["seconds"] = round(time.perf_counter() - started, 1)
        torch.cuda.empty_cache()
    return row


def warm_case(name: str, size: str | None) -> float:
    """Run slow and fixed of one case once at its size (fills Triton's cache); failures are left
    to the timing pass, which records them."""
    started = time.perf_counter()
    case = cases_mod.load_cases([name])[0]
    try:
        task = load(case.task_dir / "task.py", f"task_{case.name}")
        inputs = task.make_inputs(size or case.size, device="cuda", seed=0, dtype=task.META["dtypes"][0])
        for label in ("slow", "fixed"):
            try:
                load(getattr(case, label), f"{label}_{case.name}").run(*inputs)
            except Exception:  # noqa: BLE001 - the timing pass reports it
                pass
        torch.cuda.synchronize()
    except Exception:  # noqa: BLE001 - the timing pass reports it
        pass
    return time.perf_counter() - started


def warm(names: list[str], size: str | None, workers: int) -> None:
    """Compile every case's kernels in parallel processes before the timing pass."""
    started = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(warm_case, names, [size] * len(names)))
    print(f"warmed {len(names)} cases in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def table(rows: list[dict]) -> str:
    out = ["| case | task | size | slow ms | fixed ms | speedup | status |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["status"] == "ok":
            out.append(f"| {r['case']} | {r['task']} | {r['size']} | {r['slow_ms']:.3f} | "
                       f"{r['fixed_ms']:.3f} | {r['speedup']:.2f}x | ok |")
        else:
            out.append(f"| {r['case']} | {r['task']} | {r['size']} | | | | {r['status']}: {r.get('why', '')} |")
    return "\n".join(out)


def write(out: Path, rows: list[dict], started: float) -> dict:
    """Write the rows so far with their summary (device, versions, geometric-mean speedup)."""
    timed = [r for r in rows if r["status"] == "ok"]
    summary = {"device": torch.cuda.get_device_name(), "triton": triton.__version__, "torch": torch.__version__,
               "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "cases": len(rows), "timed": len(timed),
               "fixed_faster": sum(r["speedup"] > 1.05 for r in timed),
               "geomean_speedup": (float(torch.tensor([r["speedup"] for r in timed]).log().mean().exp())
                                   if timed else None),
               "seconds": round(time.perf_counter() - started, 1)}
    out.write_text(json.dumps({"summary": summary, "cases": rows}, indent=2))
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="where to write the JSON results")
    ap.add_argument("cases", nargs="*", help="case folder names (default: all)")
    ap.add_argument("--size", help="override every case's size")
    ap.add_argument("--rep-ms", type=float, default=40.0, help="do_bench rep time per candidate")
    ap.add_argument("--warm-workers", type=int, default=0, help="compile in N processes before timing")
    args = ap.parse_args(argv)
    if not torch.cuda.is_available():
        print("gpu_timing.py needs a CUDA device; run it on the GPU host.", file=sys.stderr)
        return 2
    started = time.perf_counter()
    cases = cases_mod.load_cases(args.cases or None)
    summary: dict = {}
    if args.warm_workers > 0:
        warm([c.name for c in cases if c.backend == "cuda"], args.size, args.warm_workers)
    rows = []
    for case in cases:
        rows.append(time_case(case, args.size or case.size, args.rep_ms))
        print(f"{case.name}: {rows[-1]['status']} ({rows[-1]['seconds']} s)", file=sys.stderr, flush=True)
        summary = write(args.out, rows, started)  # after every case: a cut-off run keeps what it timed
    print(table(rows))
    print(json.dumps(summary))
    return 0 if all(r["status"] in ("ok", "skipped") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
