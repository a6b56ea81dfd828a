"""The online-row-reduction rewrite timed on a GPU beside the whole-row baselines it replaces.

    python bench/optimize/online_lse.py prepare DIR [TASK..]  write the rules proposer's candidates
                                                              for each task to DIR (to read them)
    python bench/optimize/online_lse.py run OUT [TASK..] (GPU host, needs only torch + triton)
                                                         write the candidates to OUT/candidates from
                                                         the current transformation, verify each at
                                                         every size, dtype and seed, then bench
                                                         baseline and candidates at the large size:
                                                         OUT/online-lse.{json,md}

On the H200 (about 2 minutes for cross_entropy, 6-8 for all four tasks; the lead commits OUT's
files as results/online-lse-h200.{json,md}):

    python bench/optimize/online_lse.py run "$OUT" cross_entropy

`run` goes through the runner (`python -m diagnose.runner verify|bench`), one subprocess per call;
torch.compile is timed once per task (beside the baseline), the candidates against eager only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TASKS = ["cross_entropy", "softmax", "log_softmax", "logsumexp"]
DTYPES = {"cross_entropy": "float16,float32"}  # the rest: the task's first dtype
# ONLINE_LSE_DEVICE=cpu: a smoke run of `run` in the interpreter at the small size (no timing meaning)
DEVICE = os.environ.get("ONLINE_LSE_DEVICE", "cuda")
SIZE = "large" if DEVICE == "cuda" else "small"


def prepare(folder: Path, tasks: list[str]) -> dict[str, list[Path]]:
    """The transformation's candidates for each task's baseline, written to `folder` (stdlib and
    this repository only, so the GPU host makes them itself: no generated file is committed)."""
    sys.path.insert(0, str(REPO))
    from diagnose.proposers.rules.online import online_row_reduction

    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, list[Path]] = {}
    for task in tasks:
        for cand in online_row_reduction((REPO / "kernels" / task / "baseline.py").read_text()):
            path = folder / f"{task}-chunk{cand.params['chunk']}-w{cand.params['num_warps']}.py"
            path.write_text(cand.source)
            written.setdefault(task, []).append(path)
            print(path, cand.description, flush=True)
    return written


def _runner(*args: str, timeout: float = 300) -> dict:
    out = subprocess.run([sys.executable, "-m", "diagnose.runner", *args, "--device", DEVICE],
                         cwd=REPO, capture_output=True, text=True, timeout=timeout)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"verdict": "error", "cause": (out.stderr or out.stdout)[-600:]}


def _points(bench: dict) -> dict[str, dict]:
    """dtype -> the large size's candidate time, bandwidth share and ratios."""
    rows = {}
    for p in bench.get("points", []):
        cand = p["impls"].get("candidate", {})
        rows[p["dtype"]] = {"ms": cand.get("median_ms"), "status": cand.get("status"),
                            "pct_of_copy": (cand.get("roofline") or {}).get("pct_of_bandwidth"),
                            "eager_ms": p["impls"].get("eager", {}).get("median_ms"),
                            "compile_ms": (p["impls"].get("compile") or {}).get("median_ms"),
                            "vs_eager": p.get("candidate_vs_eager"), "vs_compile": p.get("candidate_vs_compile"),
                            # why a timing is missing (a refused or failed candidate or torch.compile)
                            "cause": cand.get("cause"), "compile_cause": (p["impls"].get("compile") or {}).get("cause")}
    return rows


def run(out: Path, tasks: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    candidates = prepare(out / "candidates", tasks)
    rows, info = [], {}
    for task in tasks:
        task_dir = str(REPO / "kernels" / task)
        kernels = [REPO / "kernels" / task / "baseline.py", *sorted(candidates.get(task, []))]
        for kernel in kernels:
            started = time.perf_counter()
            verdict = _runner("verify", task_dir, str(kernel)) if kernel.name != "baseline.py" else {"verdict": "baseline"}
            dtypes = DTYPES.get(task)
            args = ["bench", task_dir, str(kernel), "--sizes", SIZE, *(["--dtypes", dtypes] if dtypes else [])]
            bench = _runner(*args, *([] if kernel.name == "baseline.py" else ["--no-compile"]))
            info = bench.get("device_info", info)
            rows.append({"task": task, "kernel": kernel.name, "verify": verdict.get("verdict"),
                         "verify_cause": verdict.get("cause"), SIZE: _points(bench),
                         "copy_gbps": (bench.get("ceilings") or {}).get("copy_gbps"),
                         "seconds": round(time.perf_counter() - started, 1)})
            print(json.dumps(rows[-1]), flush=True)
            # written after every kernel: a run cut off by the device's time limit keeps its rows
            report = {"device_info": info, "command": " ".join(sys.argv), "rows": rows}
            (out / "online-lse.json").write_text(json.dumps(report, indent=2) + "\n")
            (out / "online-lse.md").write_text(_markdown(report))


def _markdown(report: dict) -> str:
    info = report["device_info"]
    lines = [f"# online-row-reduction on {info.get('device_name', '?')} ({info.get('date', '')})", "",
             f"torch {info.get('torch')}, triton {info.get('triton')}; `{report['command']}`", "",
             f"| task | kernel | verify | dtype | ms ({SIZE}) | % of copy | vs baseline | vs eager | baseline vs compile |",
             "|---|---|---|---|---|---|---|---|---|"]
    base = {(r["task"], d): p for r in report["rows"] if r["kernel"] == "baseline.py" for d, p in r[SIZE].items()}
    for r in report["rows"]:
        for dtype, p in r[SIZE].items():
            b = base.get((r["task"], dtype), {})
            speed = f"{b['ms'] / p['ms']:.2f}x" if b.get("ms") and p.get("ms") else ""
            pct = f"{p['pct_of_copy']:.0f}%" if p.get("pct_of_copy") is not None else ""
            ms = f"{p['ms']:.4f}" if p.get("ms") else p.get("status") or ""
            lines.append(f"| {r['task']} | {r['kernel']} | {r['verify']} | {dtype} | {ms} | {pct} | "
                         f"{speed} | {p['vs_eager'] or ''} | {b.get('vs_compile') or ''} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"] and len(sys.argv) > 2:
        prepare(Path(sys.argv[2]), sys.argv[3:] or TASKS)
    elif sys.argv[1:2] == ["run"] and len(sys.argv) > 2:
        run(Path(sys.argv[2]), sys.argv[3:] or TASKS)
    else:
        sys.exit(__doc__)
