"""Command line of the runner; every answer is one JSON object on stdout (or a table with --table)."""

from __future__ import annotations

import argparse
import json
import sys

from .errors import RunnerError


def _csv(text: str | None) -> list[str] | None:
    return [t.strip() for t in text.split(",") if t.strip()] if text else None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m diagnose.runner",
                                description="Verify, time and profile Triton kernels against a task's reference.")
    sub = p.add_subparsers(dest="command", required=True)

    v = sub.add_parser("verify", help="check a candidate against the task's reference")
    v.add_argument("task"), v.add_argument("candidate")
    _common(v, timeout=120.0)
    v.add_argument("--seeds", type=int, default=3)
    v.add_argument("--no-static-check", action="store_true", help="skip the static torch-fallback check")
    v.add_argument("--budget", type=float, help="seconds for the whole verify (besides --timeout per case)")
    v.add_argument("--no-probes", action="store_true", help="skip the ragged/large-magnitude/task probes")
    v.add_argument("--runs", type=int, help="calls per case on the same inputs (default: 3 on a GPU/NPU, 1 on CPU)")

    b = sub.add_parser("bench", help="time a candidate (default: the baseline) and the torch references")
    b.add_argument("task"), b.add_argument("candidate", nargs="?")
    _common(b, timeout=300.0)
    b.add_argument("--no-compile", action="store_true", help="skip torch.compile(reference)")
    b.add_argument("--warmup-ms", type=float, default=25.0), b.add_argument("--rep-ms", type=float, default=100.0)
    b.add_argument("--cache", help="ceilings cache file or folder")

    pr = sub.add_parser("profile", help="ncu (CUDA) or msprof op (NPU) metrics of one launch")
    pr.add_argument("task"), pr.add_argument("candidate", nargs="?")
    pr.add_argument("--size", required=True)
    _common(pr, timeout=300.0, sizes=False)

    c = sub.add_parser("ceilings", help="measure (or read cached) copy GB/s and matmul TFLOP/s")
    c.add_argument("--device"), c.add_argument("--cache"), c.add_argument("--json", action="store_true")
    c.add_argument("--remeasure", action="store_true", help="ignore the cache and measure again")

    s = sub.add_parser("suite", help="ceilings, then verify + bench every task in kernels/")
    s.add_argument("--tasks"), s.add_argument("--out"), s.add_argument("--device")
    s.add_argument("--cache"), s.add_argument("--json", action="store_true")
    s.add_argument("--no-compile", action="store_true")
    s.add_argument("--workers", type=int, default=6, help="parallel verify/warm-up children")
    return p


def _common(p: argparse.ArgumentParser, timeout: float, sizes: bool = True) -> None:
    if sizes:
        p.add_argument("--sizes", help="comma-separated size names (default: all; small on CPU)")
    p.add_argument("--dtypes", help="comma-separated dtypes (verify default: all; bench: the first)")
    p.add_argument("--device", choices=("cuda", "npu", "cpu"))
    p.add_argument("--timeout", type=float, default=timeout, help="seconds per case before it is killed")
    p.add_argument("--json", action="store_true", help="JSON only (the default output is JSON too)")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_child"]:
        from .child import main as child_main

        return child_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        payload, ok = _dispatch(args)
    except RunnerError as exc:
        payload, ok = {"error": str(exc)}, False
    print(json.dumps(payload, indent=2, default=str))
    return 0 if ok else 1


def _dispatch(args: argparse.Namespace) -> tuple[dict, bool]:
    from .host import resolve_device

    if args.command == "verify":
        from .verify import VerifyOptions, verify

        opts = VerifyOptions(sizes=_csv(args.sizes), dtypes=_csv(args.dtypes), seeds=args.seeds,
                             device=resolve_device(args.device), timeout_s=args.timeout,
                             static_check=not args.no_static_check, budget_s=args.budget,
                             probes=not args.no_probes, runs=args.runs)
        result = verify(args.task, args.candidate, opts).to_json()
        return result, result["verdict"] == "pass"
    if args.command == "bench":
        from .bench import BenchOptions, bench

        opts = BenchOptions(sizes=_csv(args.sizes), dtypes=_csv(args.dtypes), device=resolve_device(args.device),
                            timeout_s=args.timeout, compile=not args.no_compile, warmup_ms=args.warmup_ms,
                            rep_ms=args.rep_ms, cache=args.cache)
        return bench(args.task, args.candidate, opts).to_json(), True
    if args.command == "profile":
        from .profile import ProfileOptions, profile

        opts = ProfileOptions(size=args.size, dtype=(_csv(args.dtypes) or [None])[0],
                              device=resolve_device(args.device), timeout_s=args.timeout)
        return profile(args.task, args.candidate, opts).to_json(), True
    if args.command == "ceilings":
        from .bench import get_ceilings

        ceil, info = get_ceilings(resolve_device(args.device), args.cache, remeasure=args.remeasure)
        return {"ceilings": ceil.to_json(), "device_info": info}, ceil.measured
    from .suite import SuiteOptions, run_suite

    opts = SuiteOptions(tasks=_csv(args.tasks), out=args.out, device=resolve_device(args.device),
                        cache=args.cache, compile=not args.no_compile, workers=args.workers)
    doc, table = run_suite(opts)
    if args.json:
        return doc, True
    print(table)
    return {"out": args.out, "summary": doc["summary"]}, True
