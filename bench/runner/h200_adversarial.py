"""Show the gate's GPU classes on a real GPU: verify and bench adversarial and correct candidates,
write one JSON document (verdicts, causes, sandbox layers, timings) to OUT/adversarial.json.

Run on the GPU host from the repository root:  python bench/runner/h200_adversarial.py OUT_DIR
(results/runner-adversarial-h200.md is written from that JSON).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from diagnose.runner.bench import BenchOptions, bench  # noqa: E402
from diagnose.runner.sandbox import network_namespace_wrapper  # noqa: E402
from diagnose.runner.verify import VerifyOptions, verify  # noqa: E402

FIX = ROOT / "tests" / "runner_fixtures"
K = ROOT / "kernels"
VERIFY = [  # (label, task, candidate, sizes, seeds)
    ("split-K race (plain load-add-store)", K / "gemm_fp16", FIX / "gate/gpu/splitk_race.py", ["small", "ragged", "large"], 2),
    ("split-K with atomics (correct)", K / "gemm_fp16", FIX / "gate/good/splitk_atomic_gemm.py", ["small", "ragged", "large"], 2),
    ("side-stream softmax (verify)", K / "softmax", FIX / "gate/gpu/side_stream.py", ["large"], 2),
    ("softmax baseline", K / "softmax", K / "softmax/baseline.py", None, 2),
    ("persistent softmax (correct)", K / "softmax", FIX / "gate/good/persistent_softmax.py", None, 2),
    ("torch via getattr", FIX / "vecadd", FIX / "gate/bad/getattr_fallback.py", ["large"], 2),
    ("cache keyed on data_ptr", FIX / "vecadd", FIX / "gate/bad/cache_by_ptr.py", ["large"], 2),
    ("mutates an input", FIX / "vecadd", FIX / "gate/bad/mutates_input.py", ["large"], 2),
    ("softmax without max subtraction", K / "softmax", FIX / "gate/bad/no_max_subtraction.py", ["small"], 1),
    ("writes outside its folder", FIX / "vecadd", FIX / "gate/bad/writes_outside.py", ["small"], 1),
]
BENCH = [("side-stream softmax (bench)", K / "softmax", FIX / "gate/gpu/side_stream.py"),
         ("softmax baseline (bench)", K / "softmax", K / "softmax/baseline.py")]


def one_verify(case: tuple) -> dict:
    label, task, cand, sizes, seeds = case
    start = time.monotonic()
    v = verify(str(task), str(cand), VerifyOptions(sizes=sizes, seeds=seeds, device="cuda", timeout_s=120.0))
    d = v.to_json()
    return {"label": label, "task": d["task"], "candidate": str(Path(cand).relative_to(ROOT)),
            "verdict": d["verdict"], "cause": d["cause"], "sandbox": d["sandbox"],
            "cases": [{k: c.get(k) for k in ("size", "dtype", "seed", "probe", "status", "runs", "wall_s")}
                      for c in d["sizes"]], "wall_s": round(time.monotonic() - start, 1)}


def one_bench(case: tuple) -> dict:
    label, task, cand = case
    r = bench(str(task), str(cand), BenchOptions(device="cuda", compile=False, sizes=["large"], dtypes=["float16"]))
    impl = r.points[0].impls["candidate"]
    return {"label": label, "candidate": str(Path(cand).relative_to(ROOT)), "status": impl.status,
            "cause": impl.cause, "method": impl.method, "median_ms": impl.median_ms,
            "do_bench_median_ms": impl.do_bench_median_ms, "device_sync_median_ms": impl.device_sync_median_ms,
            "note": impl.note, "eager_ms": r.points[0].impls["eager"].median_ms}


def save(out: Path, doc: dict) -> None:
    """Written after every step, so a run cut short still brings back what it did."""
    (out / "adversarial.json").write_text(json.dumps(doc, indent=2, default=str))


def markdown(doc: dict) -> str:
    """The results page from the JSON (python bench/runner/h200_adversarial.py --md adversarial.json)."""
    lines = ["| candidate | task | verdict | cases (status x count) | cause |", "|---|---|---|---|---|"]
    for v in doc.get("verify", []):
        counts: dict[str, int] = {}
        for c in v["cases"]:
            counts[c["status"]] = counts.get(c["status"], 0) + 1
        cause = v["cause"].replace("|", "\\|")
        lines.append(f"| {v['label']} (`{v['candidate']}`) | {v['task']} | **{v['verdict']}** | "
                     f"{', '.join(f'{k} x{n}' for k, n in counts.items())} | {cause} |")
    lines += ["", "| bench (softmax, large, float16) | status | method | median ms | do_bench ms | device-sync ms | eager ms |",
              "|---|---|---|---|---|---|---|"]
    for b in doc.get("bench", []):
        lines.append(f"| {b['label']} | {b['status']} | {b['method']} | {b['median_ms']} | {b['do_bench_median_ms']} | "
                     f"{b['device_sync_median_ms']} | {b['eager_ms']} |")
    return "\n".join(lines)


def main() -> int:
    if sys.argv[1] == "--md":
        print(markdown(json.loads(Path(sys.argv[2]).read_text())))
        return 0
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    doc: dict = {"command": "python bench/runner/h200_adversarial.py $OUT", "netns_wrapper": list(network_namespace_wrapper())}
    probe = subprocess.run([*network_namespace_wrapper(), sys.executable, "-c",
                            "import torch; print(torch.cuda.get_device_name(0), torch.__version__)"],
                           capture_output=True, text=True, timeout=120)
    doc["cuda_inside_netns"] = (probe.stdout or probe.stderr).strip()[-300:]
    if probe.returncode != 0 and network_namespace_wrapper():  # keep the run useful: audit hook only
        os.environ["PASSWISE_RUNNER_NETNS"] = "0"
        network_namespace_wrapper.cache_clear()
        doc["netns_disabled"] = "CUDA failed inside the network namespace; ran with the audit hook only"
    import torch
    import triton

    doc["versions"] = {"torch": torch.__version__, "triton": triton.__version__, "python": sys.version.split()[0],
                       "device": torch.cuda.get_device_name(0)}
    doc["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    doc["bench"] = []
    for case in BENCH:  # first, alone on the GPU
        doc["bench"].append(one_bench(case))
        save(out, doc)
    start = time.monotonic()
    doc["verify"] = []
    with ThreadPoolExecutor(3) as pool:
        for result in pool.map(one_verify, VERIFY):
            doc["verify"].append(result)
            save(out, doc)
            print(f"{result['label']:<40} {result['verdict']:<18} {result['wall_s']:>6} s", flush=True)
    doc["verify_wall_s"] = round(time.monotonic() - start, 1)
    save(out, doc)
    for b in doc.get("bench", []):
        print(f"{b['label']:<40} {b['status']} {b['method']} median {b['median_ms']} device_sync {b['device_sync_median_ms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
