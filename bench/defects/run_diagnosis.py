"""Run the diagnosis ladder over every seeded-defect case and score its root cause (top-1).

For each case, `python -m passwise diagnose <task> --candidate slow.py --json --backend <b>
--size <case size>` runs in a subprocess (or, with --mode library, diagnose.ladder in-process),
with `--runner-json` when --runner-dir holds the case's device measurements. The concluded
rewrite family is compared with the case's expected_family; an inconclusive run is scored on
its own best guess (the first family of its evidence ranking, diagnose/weigh.py). Each report
is also checked for consistency (diagnose/consistency.py). Writes diagnosis.json and
diagnosis.md to --out.

Held-out cases (split.py) are scored blind: --split dev (the default) runs only development
cases; with held-out or all, the held-out cases appear only as aggregates (accuracy per
backend, tiers, consistency problems): no per-case row, family or report is printed or written.

    .venv/bin/python bench/defects/run_diagnosis.py [CASE ...] [--split dev|held-out|all]
        [--out DIR] [--max-tier 4] [--runner-dir bench/defects/results/runner-h200]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cases import DEFECTS_DIR, REPO_ROOT, DefectCase, load_cases

RANKING_KEPT = 6


@dataclass
class CaseScore:
    """The ladder's answer for one case and how it compares with the seeded defect."""

    case: str
    backend: str
    expected_family: str
    expected_tier: int
    needs_escalation: bool
    held_out: bool
    verdict: str                 # concluded | inconclusive | error
    found_family: str            # the conclusion's family, else the top-ranked finding's
    from_conclusion: bool
    concluded_tier: int | None
    tiers_climbed: list[int]
    correct: bool
    acceptable: bool             # correct, or one of the case's acceptable_families
    tier_match: bool
    seconds: float
    error: str = ""
    h200_speedup: float | None = None  # slow/fixed on the H200 (gpu_timing_h200.json), if timed
    at_roofline: bool = False          # the ladder stopped because tier 2 put it near its ceiling
    inconsistencies: list[str] = field(default_factory=list)  # diagnose.consistency.problems
    rank: int | None = None            # where the expected family first sits in the ranking (1-based)
    anywhere: bool = False             # the expected family is named by some finding of some tier
    # the report's first RANKING_KEPT ranking entries ({family, score, by_tier, concluded}): what a
    # later ranking rule can be fitted and checked on (written for development cases only)
    ranking: list[dict] = field(default_factory=list)


def top_family(report: dict) -> str:
    """The diagnosis's own best guess (its evidence ranking, diagnose.weigh); reports without
    one: the rewrite family of the most confident finding (ties: the higher tier)."""
    if report.get("ranking"):
        return report["ranking"][0]["rewrite_family"]
    findings = [f for t in report.get("tiers", []) for f in t.get("findings", []) if f.get("rewrite_family")]
    if not findings:
        return ""
    best = max(findings, key=lambda f: (f.get("confidence", 0.0), f.get("tier", 0)))
    return best["rewrite_family"]


def ranked_families(report: dict) -> list[str]:
    """The ranking's families in order, each once."""
    seen: list[str] = []
    for entry in report.get("ranking") or []:
        family = entry.get("rewrite_family")
        if family and family not in seen:
            seen.append(family)
    return seen


def named_families(report: dict) -> set[str]:
    """Every family some finding of some tier names."""
    return {f["rewrite_family"] for t in report.get("tiers", []) for f in t.get("findings", [])
            if f.get("rewrite_family")}


def diagnose_cli(case: DefectCase, max_tier: int, timeout: float, runner_json: Path | None,
                 trace: bool = True) -> dict:
    """The diagnosis JSON from the CLI; a failure becomes {"error": sentence}."""
    cmd = [sys.executable, "-m", "passwise", "diagnose", str(case.task_dir), "--candidate", str(case.slow),
           "--json", "--backend", case.backend, "--max-tier", str(max_tier), "--size", case.size]
    if not trace:
        cmd.append("--no-trace")
    if runner_json is not None:
        cmd += ["--runner-json", str(runner_json)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=REPO_ROOT,
                              env=dict(os.environ))
    except subprocess.TimeoutExpired:
        return {"error": f"passwise diagnose ran past {timeout:.0f} s"}
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"exit {proc.returncode}: {tail[:300]}"}


def diagnose_library(case: DefectCase, max_tier: int, runner_json: Path | None,
                     trace: bool = True) -> dict:
    """The same diagnosis in-process (no knowledge base: tier 4 is skipped unless one is configured)."""
    sys.path.insert(0, str(REPO_ROOT))
    from diagnose.ladder import Options, diagnose, make_context
    from diagnose.target import resolve_target

    try:
        ctx = make_context(resolve_target(str(case.task_dir), str(case.slow)), case.backend,
                           Options(max_tier=max_tier, size=case.size, runner_json=runner_json,
                                   trace=trace))
        return diagnose(ctx).to_dict()
    except Exception as exc:  # one failing case is a data point, not the end of the sweep
        return {"error": f"{type(exc).__name__}: {exc}"}


def consistency_problems(report: dict) -> list[str]:
    """What diagnose.consistency finds wrong in a report (nothing for an error)."""
    if "error" in report:
        return []
    sys.path.insert(0, str(REPO_ROOT))
    from diagnose.consistency import problems

    return problems(report)


def score(case: DefectCase, report: dict, seconds: float) -> CaseScore:
    conclusion = report.get("conclusion") or {}
    family = conclusion.get("rewrite_family") or top_family(report)
    tier = report.get("concluded_tier")
    return CaseScore(
        case=case.name, backend=case.backend, expected_family=case.expected_family,
        expected_tier=case.expected_tier, needs_escalation=case.needs_escalation,
        held_out=case.held_out,
        verdict="error" if "error" in report else report.get("verdict", "?"),
        found_family=family, from_conclusion=bool(conclusion.get("rewrite_family")),
        concluded_tier=tier, tiers_climbed=[t.get("tier") for t in report.get("tiers", []) if not t.get("skipped")],
        correct=family == case.expected_family,
        acceptable=family == case.expected_family or family in case.acceptable_families,
        tier_match=tier == case.expected_tier, seconds=round(seconds, 1), error=report.get("error", ""),
        h200_speedup=h200_speedups().get(case.name),
        at_roofline="near its ceiling" in report.get("reason", ""),
        inconsistencies=consistency_problems(report),
        rank=_rank(case.expected_family, family, ranked_families(report)),
        anywhere=case.expected_family in named_families(report) | {family},
        ranking=[{"family": c.get("rewrite_family", ""), "score": c.get("score"), "by_tier": c.get("by_tier", {}),
                  "concluded": bool(c.get("concluded"))} for c in (report.get("ranking") or [])[:RANKING_KEPT]])


def _rank(expected: str, found: str, ranked: list[str]) -> int | None:
    """1 when the answer is right; otherwise the expected family's place in the ranking."""
    if found == expected:
        return 1
    rest = [f for f in ranked if f != found]
    return rest.index(expected) + 2 if expected in rest else None


@functools.cache
def h200_speedups() -> dict[str, float]:
    """slow/fixed per CUDA case as measured on the H200, or on the H100 where the file's name and
    device say so (bench/defects/gpu_timing.py): every results/gpu_timing_h200*.json and
    _h100*.json, in name order (a later sweep's row replaces an earlier one)."""
    speedups: dict[str, float] = {}
    for path in sorted((DEFECTS_DIR / "results").glob("gpu_timing_h[0-9]*.json")):
        rows = json.loads(path.read_text()).get("cases", [])
        speedups.update({r["case"]: round(r["speedup"], 2) for r in rows if r.get("speedup")})
    return speedups


FLAT = 1.05  # a fix that wins less than this on the H200: the defect does not cost time there


def in_split(case: DefectCase, split: str) -> bool:
    return split == "all" or case.held_out == (split == "held-out")


def _failed_run(path: Path) -> bool:
    sys.path.insert(0, str(REPO_ROOT))
    from diagnose.target import runner_json_failed
    return runner_json_failed(path) is not None


def run_case(case: DefectCase, args: argparse.Namespace) -> CaseScore:
    runner_json = args.runner_dir / f"{case.name}.json" if args.runner_dir else None
    if runner_json is not None and not runner_json.exists():
        runner_json = None  # no device timings for this case (e.g. Ascend): tier 2 is skipped
    elif runner_json is not None and _failed_run(runner_json):
        runner_json = None  # the device run failed (a timeout): no timings, as for a missing file
    started = time.perf_counter()
    if args.mode == "library":
        report = diagnose_library(case, args.max_tier, runner_json, args.trace)
    else:
        report = diagnose_cli(case, args.max_tier, args.timeout, runner_json, args.trace)
    if args.reports is not None and not case.held_out:  # held-out reports are never written
        args.reports.mkdir(parents=True, exist_ok=True)
        (args.reports / f"{case.name}.json").write_text(json.dumps(report, indent=1, default=str))
    return score(case, report, time.perf_counter() - started)


def summary(scores: list[CaseScore], blind: bool = False) -> dict:
    """Aggregates over `scores`; `blind` (held-out) leaves out everything that names a case."""
    n = len(scores) or 1

    def accuracy(group: list[CaseScore]) -> float | None:
        return round(sum(s.correct for s in group) / len(group), 3) if group else None

    return {
        "cases": len(scores),
        "top1_accuracy": accuracy(scores),
        "top1_accuracy_with_acceptable": round(sum(s.acceptable for s in scores) / n, 3),
        # the rule: a defect whose fix wins < FLAT on the H200 costs nothing there, so
        # top-1 over the defects that do (cases not timed on the H200 stay in)
        "top1_accuracy_costly": accuracy([s for s in scores if not (s.h200_speedup and s.h200_speedup < FLAT)]),
        "accuracy_by_backend": {b: accuracy([s for s in scores if s.backend == b])
                                for b in sorted({s.backend for s in scores})},
        "accuracy_needs_escalation": accuracy([s for s in scores if s.needs_escalation]),
        "accuracy_general": accuracy([s for s in scores if not s.needs_escalation]),
        "concluded": sum(s.verdict == "concluded" for s in scores),
        "tier_histogram": dict(sorted(Counter(str(s.concluded_tier) for s in scores).items())),
        # where the answers go wrong, without naming a case: by the tier that concluded (None:
        # the ladder's top finding), and how far down the ranking the right family sits
        "accuracy_by_concluded_tier": {t: accuracy([s for s in scores if str(s.concluded_tier) == t])
                                       for t in sorted({str(s.concluded_tier) for s in scores})},
        "top3_accuracy": round(sum(s.rank is not None and s.rank <= 3 for s in scores) / n, 3),
        "named_by_some_finding": round(sum(s.anywhere for s in scores) / n, 3),
        "tier_matches_expected": sum(s.tier_match for s in scores),
        "flat_on_h200": _names_or_count([s.case for s in scores if s.h200_speedup and s.h200_speedup < FLAT],
                                        blind),
        "stopped_at_roofline": _names_or_count([s.case for s in scores if s.at_roofline], blind),
        "errors": sum(s.verdict == "error" for s in scores),
        # named on both splits: an error is a fault of the tool, not an answer, and says nothing
        # about a case's label (fixing one by opening the case still spends it)
        "errored": {s.case: s.error[:200] for s in scores if s.verdict == "error"},
        "inconsistent_reports": _names_or_count([s.case for s in scores if s.inconsistencies], blind),
        # what was inconsistent, without the case (a fault of the report, not a label): held-out
        # problems can be fixed in general form without opening the case
        "inconsistency_kinds": dict(Counter(p for s in scores for p in s.inconsistencies)),
        "mean_seconds": round(sum(s.seconds for s in scores) / n, 1),
    }


def _names_or_count(names: list[str], blind: bool) -> list[str] | int:
    return len(names) if blind else sorted(names)


def split_summary(scores: list[CaseScore]) -> dict:
    """Development and held-out aggregates side by side (held-out blind)."""
    return {"development": summary([s for s in scores if not s.held_out]),
            "held_out": summary([s for s in scores if s.held_out], blind=True)}


def markdown(scores: list[CaseScore], totals: dict) -> str:
    """Per-case rows for development cases only; then the aggregates of both splits."""
    scores = [s for s in scores if not s.held_out]
    rows = ["| case | backend | expected family | found family | verdict | tier (expected) | correct | seconds "
            "| H200 slow/fixed |",
            "|---|---|---|---|---|---|---|---|---|"]
    for s in scores:
        found = s.found_family or "-"
        name = s.case
        found += "" if s.from_conclusion or not s.found_family else " (top finding)"
        mark = "yes" if s.correct else ("acceptable" if s.acceptable else "no")
        verdict = s.verdict + (f": {s.error[:80]}" if s.error else "") + (" (at roofline)" if s.at_roofline else "")
        verdict += f" [{len(s.inconsistencies)} inconsistent]" if s.inconsistencies else ""
        speed = f"{s.h200_speedup}x" if s.h200_speedup else "-"
        rows.append(f"| {name} | {s.backend} | {s.expected_family} | {found} | {verdict} | "
                    f"{s.concluded_tier} ({s.expected_tier}) | {mark} | {s.seconds} | {speed} |")
    rows += ["", "| split | cases | top-1 | top-1, costly on H200 | by backend | with acceptable | general | "
                 "needs tier 4 | concluded | tiers | inconsistent reports | errors | mean s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for split, t in totals.items():
        if not t["cases"]:
            continue
        inconsistent = t["inconsistent_reports"]
        rows.append(f"| {split} | {t['cases']} | {t['top1_accuracy']} | {t['top1_accuracy_costly']} | "
                    f"{t['accuracy_by_backend']} | "
                    f"{t['top1_accuracy_with_acceptable']} | {t['accuracy_general']} | "
                    f"{t['accuracy_needs_escalation']} | {t['concluded']} | {t['tier_histogram']} | "
                    f"{inconsistent if isinstance(inconsistent, int) else len(inconsistent)} | "
                    f"{t['errors']} | {t['mean_seconds']} |")
    dev = totals["development"]
    rows += ["", f"Development: defects whose fix wins < {FLAT}x on the H200: "
                 f"{', '.join(dev['flat_on_h200']) or 'none'}; stopped at the roofline by tier 2: "
                 f"{', '.join(dev['stopped_at_roofline']) or 'none'}; inconsistent reports: "
                 f"{', '.join(dev['inconsistent_reports']) or 'none'}."]
    errored = {name: error for t in totals.values() if t["cases"] for name, error in t["errored"].items()}
    if errored:
        rows += ["", "Errors (a fault of the tool, named on both splits): "
                 + "; ".join(f"{name}: {error}" for name, error in sorted(errored.items())) + "."]
    return "\n".join(rows)


def provenance(args: argparse.Namespace) -> str:
    """Where, when and with what the table was measured, and the command that repeats it."""
    import platform
    from datetime import UTC, datetime
    from importlib import metadata

    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "-"

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=REPO_ROOT).stdout.strip()
    stamp = REPO_ROOT / ".commit"  # a snapshot of the tree (no .git) names its commit here
    commit = commit or (stamp.read_text().strip() if stamp.is_file() else "?")
    env = " ".join(f"{k}={os.environ[k]}" for k in ("PASSWISE_HOME", "PASSWISE_CORPUS_SET",
                                                      "PASSWISE_CAPTURE_CACHE")
                   if os.environ.get(k))
    flags = f" --split {args.split}" + (f" --runner-dir {args.runner_dir}" if args.runner_dir else "")
    return (f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()} ({os.cpu_count()} CPUs, "
            f"no GPU: IR captured for sm_90 and the triton-ascend front end), Python "
            f"{platform.python_version()}, triton {version('triton')}, torch {version('torch')}, "
            f"chromadb {version('chromadb')}; passwise commit {commit}.\n"
            f"Command: `{env} .venv/bin/python bench/defects/run_diagnosis.py --out DIR{flags}` "
            f"(mode {args.mode}, max tier {args.max_tier}).")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case folder names (default: all)")
    ap.add_argument("--out", type=Path, default=DEFECTS_DIR / "results", help="folder for diagnosis.json/.md")
    ap.add_argument("--mode", choices=("cli", "library"), default="cli")
    ap.add_argument("--runner-dir", type=Path, default=None,
                    help="folder of <case>.json runner bench/profile answers measured on the device "
                         "(bench_slow_on_device.py), passed to tier 2; default: none")
    ap.add_argument("--max-tier", type=int, choices=(1, 2, 3, 4), default=4)
    ap.add_argument("--no-trace", dest="trace", action="store_false",
                    help="diagnose without tier 1's CPU trace (passwise diagnose --no-trace)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per case (cli mode)")
    ap.add_argument("--workers", type=int, default=1, help="cases diagnosed in parallel")
    ap.add_argument("--split", choices=("dev", "held-out", "all"), default="dev",
                    help="which cases to run (split.py); held-out cases are reported only as aggregates")
    ap.add_argument("--reports", type=Path, default=None,
                    help="folder for each development case's diagnosis JSON (held-out ones: never)")
    ap.add_argument("--backend", choices=("cuda", "ascend"), default=None, help="only this backend's cases")
    args = ap.parse_args(argv)
    cases = [c for c in load_cases(args.cases or None) if in_split(c, args.split)
             and (args.backend is None or c.backend == args.backend)]
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        scores = list(pool.map(lambda c: run_case(c, args), cases))
    totals = split_summary(scores)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "diagnosis.json").write_text(json.dumps(
        {"summary": totals, "cases": [asdict(s) for s in scores if not s.held_out]}, indent=2))
    table = markdown(scores, totals)
    (args.out / "diagnosis.md").write_text(provenance(args) + "\n\n" + table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
