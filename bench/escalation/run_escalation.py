"""Tier 4 on the seeded-defect suite: for every case with needs_escalation, escalate the symptom
(as case.toml gives it, and as tier 3 captures it from slow.py) and score the passages and the
rewrite family against the case's deciding_source and expected_family.

    python bench/escalation/run_escalation.py [CASE..] [--home DIR] [--corpus-set bench] [--k 5]
        [--modes given,given+facts,captured] [--ascend-python PY] [--out DIR]

Writes OUT/results.json and OUT/results.md (default: this folder).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench" / "defects")]

from cases import DefectCase, SourceRange, load_cases  # noqa: E402

from diagnose.escalation.escalate import escalate, kernel_facts  # noqa: E402
from diagnose.ir import attribute, capture_ascend, capture_cuda  # noqa: E402
from diagnose.ir.errors import IRCaptureError  # noqa: E402
from kb.errors import KBError  # noqa: E402

TOP = 3
DEFAULT_HOME = "/tmp/passwise-kb-bench"
MODES = ("given", "given+facts", "captured")
# sizes at which the slow kernel shows its symptom (as bench/defects/check_ir.py captures them)
CAPTURE_SIZE = {"add-ragged-mask-scalar": "ragged"}
SMALL_ON_ASCEND = "small"


@dataclass
class Row:
    """One escalation of one case in one mode, scored."""

    case: str
    mode: str
    backend: str
    symptom: str
    pass_name: str
    expected_family: str
    family: str = ""
    family_ok: bool = False
    family_acceptable: bool = False
    deciding_at: int = 0  # 1-based rank of the first passage overlapping deciding_source, 0 = none
    related_at: int = 0
    top3_deciding: bool = False
    top3_related: bool = False
    verdict: str = ""
    condition: str = ""
    kernel_check: str = ""
    passages: list[str] = field(default_factory=list)
    other_symptoms: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""


def overlaps(p, src: SourceRange) -> bool:
    """Same source, same path, overlapping line ranges."""
    return (p.repo == src.repo and p.path == src.path
            and p.start_line <= src.end_line and src.start_line <= p.end_line)


def first_hit(passages, sources: list[SourceRange]) -> int:
    return next((i for i, p in enumerate(passages, 1) if any(overlaps(p, s) for s in sources)), 0)


def score(row: Row, esc, case: DefectCase) -> Row:
    row.family = esc.rewrite.family
    row.family_ok = row.family == case.expected_family
    row.family_acceptable = row.family_ok or row.family in case.acceptable_families
    row.deciding_at = first_hit(esc.passages, [case.deciding_source] if case.deciding_source else [])
    row.related_at = first_hit(esc.passages, case.related_sources)
    row.top3_deciding = 0 < row.deciding_at <= TOP
    row.top3_related = 0 < row.related_at <= TOP
    row.verdict = esc.verdict
    row.kernel_check = esc.rewrite.kernel_check
    d = next((p for p in esc.passages if p.deciding and p.deciding.term), None)
    row.condition = f"{d.path}:{d.deciding.line} {d.deciding.text}" if d else ""
    row.passages = [f"{p.repo}:{p.cite} {p.symbol}" for p in esc.passages]
    row.seconds = esc.elapsed_s
    return row


def capture(case: DefectCase, ascend_python: str | None):
    size = CAPTURE_SIZE.get(case.name, SMALL_ON_ASCEND if case.backend == "ascend" else "large")
    if case.backend == "ascend":
        return capture_ascend(case.task_dir, case.slow, size=size, python=ascend_python)
    return capture_cuda(case.task_dir, case.slow, size=size)


def facts_of(cap) -> dict:
    """Facts of the first kernel that compiled (the defect kernels have one launch)."""
    kir = next((k for k in cap.kernels if k.failure is None), None) or (cap.kernels or [None])[0]
    return kernel_facts(kir) if kir is not None and kir.stages else {}


def ask(kb, registry, case: DefectCase, mode: str, symptom: str, pass_name: str, facts: dict | None,
        k: int) -> Row:
    row = Row(case.name, mode, case.backend, symptom, pass_name, case.expected_family)
    try:
        esc = escalate(kb, registry, symptom=symptom, pass_name=pass_name or None,
                       backend=case.backend, k=k, kernel_facts=facts or None)
    except KBError as exc:
        row.error = str(exc)
        return row
    return score(row, esc, case)


def captured_rows(kb, registry, case: DefectCase, cap, facts: dict, k: int) -> list[Row]:
    """Escalate every captured symptom; the case is scored by the row of its expected symptom
    (else the first captured one); the others are listed."""
    symptoms = [s for s in attribute(cap) if s.id != "compile-failure"]
    if not symptoms:
        why = "; ".join(f.message.splitlines()[-1][:160] for f in cap.failures if f.message) or "none"
        return [Row(case.name, "captured", case.backend, "", "", case.expected_family,
                    error=f"tier 3 captured no symptom (compile failures: {why})")]
    seen, rows = set(), []
    for s in symptoms:
        if (s.id, s.pass_arg) in seen:
            continue
        seen.add((s.id, s.pass_arg))
        # tier 3's pass is where the symptom appeared; the table's pass is the one to question
        rows.append(ask(kb, registry, case, "captured", s.id, "", facts, k))
    rows.sort(key=lambda r: r.symptom != case.expected_symptom)
    rows[0].other_symptoms = [r.symptom for r in rows[1:]]
    return rows


def run_case(kb, registry, case: DefectCase, modes: tuple[str, ...], k: int,
             ascend_python: str | None) -> tuple[list[Row], list[Row], dict]:
    """(scored rows, extra captured rows, facts) for one case."""
    pass_name = case.expected_passes[0] if case.expected_passes else ""
    cap, facts, cap_error = None, {}, ""
    if {"given+facts", "captured"} & set(modes):
        try:
            cap = capture(case, ascend_python)
            facts = facts_of(cap)
        except IRCaptureError as exc:
            cap_error = str(exc)
    scored, extra = [], []
    if "given" in modes:
        scored.append(ask(kb, registry, case, "given", case.expected_symptom, pass_name, None, k))
    if "given+facts" in modes:
        scored.append(ask(kb, registry, case, "given+facts", case.expected_symptom, pass_name, facts, k))
    if "captured" in modes:
        if cap is None:
            scored.append(Row(case.name, "captured", case.backend, "", "", case.expected_family,
                              error=f"capture failed: {cap_error}"))
        else:
            rows = captured_rows(kb, registry, case, cap, facts, k)
            scored.append(rows[0])
            extra += rows[1:]
    return scored, extra, facts


def summary(rows: list[Row], extra: list[Row]) -> dict:
    out = {}
    for mode in dict.fromkeys(r.mode for r in rows):
        mine = [r for r in rows if r.mode == mode]
        times = [r.seconds for r in mine + [e for e in extra if e.mode == mode] if r.seconds]
        n = len(mine)
        out[mode] = {
            "cases": n,
            "top3_deciding": sum(r.top3_deciding for r in mine) / n,
            "top3_related": sum(r.top3_related for r in mine) / n,
            "top3_deciding_or_related": sum(r.top3_deciding or r.top3_related for r in mine) / n,
            "family": sum(r.family_ok for r in mine) / n,
            "family_acceptable": sum(r.family_acceptable for r in mine) / n,
            "errors": sum(bool(r.error) for r in mine),
            "escalations": len(times),
            "seconds_mean": round(statistics.mean(times), 3) if times else 0.0,
            "seconds_median": round(statistics.median(times), 3) if times else 0.0,
            "seconds_max": round(max(times), 3) if times else 0.0,
        }
    return out


def environment(home: Path, corpus_set: str, kb) -> dict:
    import importlib.metadata as md

    def version(dist: str) -> str:
        try:
            return md.version(dist)
        except md.PackageNotFoundError:
            return ""
    commit = ""
    try:
        commit = os.popen(f"git -C {ROOT} rev-parse --short HEAD").read().strip()
    except OSError:
        pass
    sources = {}
    for key in kb.store.state_keys():
        state = kb.store.get_state(key) or {}
        if key.startswith("source:"):
            sources[key[len("source:"):]] = {"version": state.get("version", ""),
                                             "compiler_version": state.get("compiler_version", ""),
                                             "files": len(state.get("files", {}))}
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": platform.node(),
        "platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
        "passwise_commit": commit, "kb_home": str(home), "corpus_set": corpus_set,
        "kb_chunks": kb.store.count(), "kb_sources": sources,
        "versions": {d: version(d) for d in ("triton", "torch", "chromadb", "sentence-transformers")},
    }


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def markdown(env: dict, summ: dict, rows: list[Row], extra: list[Row]) -> str:
    out = ["# Tier 4 on the seeded-defect suite (bench/escalation/run_escalation.py)", "",
           f"{env['date']} on {env['machine']} ({env['platform']}, {env['cpus']} CPUs, Python "
           f"{env['python']}); passwise {env['passwise_commit']}; KB {env['kb_home']} corpus set "
           f"`{env['corpus_set']}` ({env['kb_chunks']} chunks); "
           + ", ".join(f"{k} {v}" for k, v in env["versions"].items() if v), "",
           "Modes: `given` = case.toml's expected_symptom and first expected pass, no kernel facts; "
           "`given+facts` = the same plus the kernel facts of the slow kernel's capture; "
           "`captured` = tier 3 (capture_cuda / capture_ascend + attribute) on slow.py, each "
           "symptom escalated with its facts, the case scored by its expected symptom's row "
           "(else the first).", "",
           "| mode | cases | deciding source in top 3 | related in top 3 | deciding or related | "
           "family right | family acceptable | errors | s/escalation mean (median, max) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for mode, s in summ.items():
        out.append(f"| {mode} | {s['cases']} | {_pct(s['top3_deciding'])} | {_pct(s['top3_related'])} | "
                   f"{_pct(s['top3_deciding_or_related'])} | {_pct(s['family'])} | "
                   f"{_pct(s['family_acceptable'])} | {s['errors']} | {s['seconds_mean']} "
                   f"({s['seconds_median']}, {s['seconds_max']}) |")
    out += ["", "| case | mode | symptom | deciding @ | related @ | family (expected) | ok | "
            "condition | s |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows + extra:
        fam = f"{r.family or '-'} ({r.expected_family})"
        cond = (r.condition[:110] + (f"; {r.kernel_check}" if r.kernel_check else "")).replace("|", "\\|")
        out.append(f"| {r.case} | {r.mode}{' (extra)' if r in extra else ''} | {r.symptom or '-'} | "
                   f"{r.deciding_at or '-'} | {r.related_at or '-'} | {fam} | "
                   f"{'yes' if r.family_ok else 'no'} | {r.error[:160] if r.error else cond} | {r.seconds} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--home", default=os.environ.get("PASSWISE_HOME_BENCH", DEFAULT_HOME))
    ap.add_argument("--corpus-set", default="bench")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--ascend-python", default=os.environ.get("PASSWISE_ASCEND_PYTHON"))
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)
    from indexer.registry import registry_path
    from kb.passes import PassRegistry
    from kb.search import open_kb

    kb = open_kb(Path(args.home), corpus_set=args.corpus_set)
    registry = PassRegistry.load(registry_path(kb))
    modes = tuple(m for m in args.modes.split(",") if m)
    cases = [c for c in load_cases(args.cases or None) if c.needs_escalation]
    rows, extra, facts = [], [], {}
    for case in cases:
        r, e, f = run_case(kb, registry, case, modes, args.k, args.ascend_python)
        rows += r
        extra += e
        facts[case.name] = {k: v for k, v in f.items() if k != "constexprs"}
        for x in r:
            print(f"{x.case:32} {x.mode:12} deciding@{x.deciding_at} related@{x.related_at} "
                  f"{x.family or '-'} ({'ok' if x.family_ok else 'want ' + x.expected_family}) "
                  f"{x.seconds}s {x.error[:100]}", flush=True)
    env = environment(Path(args.home), args.corpus_set, kb)
    summ = summary(rows, extra)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps({
        "environment": env, "top": TOP, "k": args.k, "summary": summ,
        "rows": [asdict(r) for r in rows], "extra_rows": [asdict(r) for r in extra],
        "kernel_facts": facts}, indent=1, default=str))
    (args.out / "results.md").write_text(markdown(env, summ, rows, extra))
    print(json.dumps(summ, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
