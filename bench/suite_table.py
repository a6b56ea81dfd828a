"""Merge runner `suite` JSON files (later files replace earlier tasks) and write the H200 table.

    python bench/suite_table.py OUT.json OUT.md SUITE.json [SUITE.json ...]
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path


def merge(paths: list[str]) -> dict:
    runs = [json.loads(Path(p).read_text()) for p in paths]
    tasks: dict[str, dict] = {}
    for run in runs:
        for t in run["tasks"]:
            t["device_info"] = run["device_info"]
            tasks[t["task"]] = t
    merged = {"device_info": runs[0]["device_info"], "ceilings": runs[0]["ceilings"],
              "runs": [{"date": r["device_info"]["date"], "tasks": [t["task"] for t in r["tasks"]],
                        "wall_s": r.get("wall_s")} for r in runs],
              "tasks": [tasks[k] for k in sorted(tasks)]}
    ratios = {}
    for t in merged["tasks"]:
        big = next(p for p in t["points"] if p["size"] == t["largest_size"])
        base, comp = big["impls"].get("candidate", {}), big["impls"].get("compile", {})
        if base.get("median_ms") and comp.get("median_ms"):
            ratios[t["task"]] = base["median_ms"] / comp["median_ms"]
    merged["summary"] = {
        "geomean_baseline_over_compile_largest": math.exp(sum(map(math.log, ratios.values())) / len(ratios)),
        "baseline_over_compile_largest": ratios,
        "verdicts": {v: sum(1 for t in merged["tasks"] if t["verdict"] == v)
                     for v in {t["verdict"] for t in merged["tasks"]}},
    }
    return merged


def _ms(impl: dict) -> str:
    return f"{impl['median_ms']:.4f}" if impl.get("median_ms") else impl.get("status", "-")


def table(merged: dict) -> str:
    d, c = merged["device_info"], merged["ceilings"]
    mm = c["matmul_tflops"]
    lines = [
        "# Task suite on the H200: first-conversion baselines vs torch eager and torch.compile",
        "",
        f"Device {d['device_name']}; torch {d['torch']}, Triton {d['triton']}, Python {d['python']}; "
        f"runs {', '.join(r['date'][:19] for r in merged['runs'])} (UTC).",
        f"Measured ceilings: copy {c['copy_gbps']:.0f} GB/s (read+write), matmul fp16 "
        f"{mm['float16']:.0f}, bf16 {mm['bfloat16']:.0f}, tf32 {mm['tf32']:.0f}, fp32 "
        f"{mm['float32']:.1f} TFLOP/s ({c['method']}).",
        "Times are medians (ms); under 0.1 ms they are CUDA-graph replays with a warm L2, so "
        "small sizes can pass 100% of the copy ceiling. `%ceil` is the achieved rate over the "
        "measured ceiling of the bound (memory or compute) the roofline puts the point on.",
        "",
        "| task | size | verify | baseline ms | eager ms | compile ms | GB/s | TFLOP/s | %ceil | bound | base/compile |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for t in merged["tasks"]:
        for p in t["points"]:
            b, e, k = (p["impls"].get(x, {}) for x in ("candidate", "eager", "compile"))
            r = b.get("roofline") or {}
            ratio = (f"{b['median_ms'] / k['median_ms']:.2f}"
                     if b.get("median_ms") and k.get("median_ms") else "-")
            lines.append(f"| {t['task']} | {p['size']} | {t['verdict']} | {_ms(b)} | {_ms(e)} | "
                         f"{_ms(k)} | {r.get('gbps') or 0:.0f} | {r.get('tflops') or 0:.2f} | "
                         f"{r.get('pct_of_bound_ceiling') or 0:.1f} | {r.get('bound', '-')} | {ratio} |")
    s = merged["summary"]
    lines += ["", f"**Geomean baseline / torch.compile at each task's largest size: "
              f"{s['geomean_baseline_over_compile_largest']:.3f}** over {len(s['baseline_over_compile_largest'])} "
              "tasks (> 1: the baseline is slower than torch.compile). Verdicts: "
              f"{s['verdicts']}.", ""]
    return "\n".join(lines)


def main() -> int:
    out_json, out_md, *inputs = sys.argv[1:]
    merged = merge(inputs)
    Path(out_json).write_text(json.dumps(merged, indent=1))
    Path(out_md).write_text(table(merged))
    print(f"geomean {merged['summary']['geomean_baseline_over_compile_largest']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
