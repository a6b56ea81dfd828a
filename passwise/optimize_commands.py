"""`passwise optimize`: flags and Settings in; rounds of diagnose -> propose -> verify -> time,
kept as run records under PASSWISE_HOME/runs (docs/runs.md)."""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path

from kb.errors import KBError
from passwise.settings import Settings

# The parser is built for every passwise command; the loop and the ladder load only when used.


def add_parser(sub: argparse._SubParsersAction, common) -> None:
    p = sub.add_parser("optimize", help="rounds of diagnose -> rewrite -> verify -> time that keep "
                       "only correct, faster kernels (run records under PASSWISE_HOME/runs)")
    common(p)
    p.add_argument("target", nargs="?", help="a task name under kernels/ or a task folder")
    p.add_argument("--candidate", help="the kernel to start from (default: the task's baseline.py)")
    p.add_argument("--rounds", type=int, default=15, help="rounds after the input (default 15)")
    p.add_argument("--proposer", choices=["rules", "llm"], help="default: llm when an endpoint "
                   "is configured (PASSWISE_LLM_BASE_URL, PASSWISE_LLM_MODEL), else rules")
    p.add_argument("--backend", choices=["cuda", "ascend"], default="cuda")
    p.add_argument("--executor", default="local", help="local | 'cmd:TEMPLATE' ({dir}, {args}) | "
                   "queue:DIR (calls queued for a device-side batch driver)")
    p.add_argument("--device", choices=["cuda", "npu", "cpu"], help="where kernels run (default: "
                   "cuda if this machine has one or the executor is remote, else cpu)")
    p.add_argument("--size", help="the task size timings are compared at (default: the largest; "
                   "small on cpu)")
    p.add_argument("--repeats", type=int, help="interleaved timing repeats (default 3; 2 on cpu)")
    p.add_argument("--max-tier", type=int, choices=[1, 2, 3, 4], default=4)
    p.add_argument("--resume", metavar="RUN", help="carry on a run (its id or folder)")
    p.add_argument("--all", action="store_true", help="every task (or --tasks), one worker per GPU")
    p.add_argument("--tasks", help="with --all: comma-separated task names")
    p.add_argument("--gpus", help="with --all: GPU ids to pin workers to (default: the visible ones)")
    p.add_argument("--synthesize", nargs="*", metavar="RUN", help="learned pattern cards from "
                   "finished runs (default: every run under PASSWISE_HOME/runs)")


def cmd_optimize(args: argparse.Namespace, s: Settings) -> int:
    from diagnose.executors import ExecutorError
    from diagnose.optimize.runs import RunError
    from diagnose.runner.errors import RunnerError
    from diagnose.target import DiagnosisError

    try:
        if args.synthesize is not None:
            return _synthesize(args, s)
        if args.all:
            return _all(args, s)
        record = _record(args, s)
        summary = _loop(record, args, s).run()
    except (RunError, ExecutorError, DiagnosisError, RunnerError) as exc:
        raise KBError(str(exc)) from None
    if s.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"run {record.run_id}: {summary['status']} ({summary['reason']})")
        print(f"best: round {summary['best_round']}, {summary['best_vs_input']:.2f}x the input"
              + (" (Triton interpreter timing: not a kernel speed)" if summary["interpreter_only"] else ""))
        print(f"kernel: {record.path / 'best.py'}\ndiff:   {record.path / 'best.diff'}")
        diff = (record.path / "best.diff").read_text(encoding="utf-8")
        print(diff if diff else "(no change was accepted: best.py is the input)")
    return 0 if summary["status"] != "stopped" or summary["rounds_done"] > 0 else 1


def _device(args: argparse.Namespace) -> str:
    if args.device:
        return args.device
    if args.executor != "local":
        return "cuda"
    try:
        import torch
        return "cuda" if torch.cuda.is_available() else "cpu"
    except ImportError:
        return "cpu"


def _proposer_name(args: argparse.Namespace, s: Settings) -> str:
    return args.proposer or ("llm" if s.llm_base_url and s.llm_model else "rules")


def _record(args: argparse.Namespace, s: Settings):
    from diagnose.executors import make_executor
    from diagnose.optimize.runs import RunError, RunRecord
    from diagnose.optimize.setup import new_run

    if args.resume:
        return RunRecord.open(s.home, args.resume)
    if not args.target:
        raise RunError("Name a task to optimize (e.g. `passwise optimize softmax`), --resume RUN, or --all.")
    make_executor(args.executor)  # a bad --executor ends here, before a run folder exists
    name = _proposer_name(args, s)
    llm = {"base_url": s.llm_base_url, "model": s.llm_model} if name == "llm" else None
    if name == "llm" and not (s.llm_base_url and s.llm_model):
        raise RunError("--proposer llm needs an endpoint: set PASSWISE_LLM_BASE_URL and PASSWISE_LLM_MODEL.")
    return new_run(s.home, args.target, args.candidate, backend=args.backend, device=_device(args),
                   proposer=name, executor=args.executor, rounds=args.rounds, size=args.size,
                   repeats=args.repeats, llm=llm)


def _loop(record, args: argparse.Namespace, s: Settings):
    from diagnose.executors import make_executor
    from diagnose.optimize.loop import Loop
    from diagnose.optimize.setup import make_diagnoser

    rs = record.settings
    diagnoser = make_diagnoser(Path(rs["task_path"]), rs["backend"], args.max_tier, rs["size"],
                               _open_kb(s), python_cuda=s.python_cuda, home=s.home)
    return Loop(record, diagnoser, _proposer(rs, s), make_executor(rs["executor"]),
                speculate=rs["executor"].startswith("queue:"))


def _proposer(rs: dict, s: Settings):
    if rs["proposer"] == "llm":
        from diagnose.proposers.llm import LLMSettings, propose

        cfg = LLMSettings(rs["llm"]["base_url"], rs["llm"]["model"], s.llm_api_key or "none")
        return partial(propose, cfg=cfg)
    from diagnose.proposers.rules import propose

    return propose


def _open_kb(s: Settings):
    """Tier 4's knowledge base, only when one was indexed under PASSWISE_HOME (or a server)."""
    if not s.chroma_url and not (s.home / "chroma").exists():
        return None

    def open_() -> tuple:
        from passwise.commands import load_registry, open_settings_kb

        kb = open_settings_kb(s)
        return kb, load_registry(kb)
    return open_


def _all(args: argparse.Namespace, s: Settings) -> int:
    from diagnose.optimize.workers import Job, run_pinned, summary_table, visible_gpus
    from diagnose.runner.tasks import list_tasks

    names = [t.strip() for t in args.tasks.split(",")] if args.tasks else list_tasks()
    passthrough = _passthrough(args, s)
    jobs = [Job(n, [sys.executable, "-m", "passwise", "optimize", n, *passthrough]) for n in names]
    gpus = visible_gpus(args.gpus)
    print(f"passwise: {len(jobs)} tasks on {len(gpus) or 1} worker(s) "
          f"(GPUs: {','.join(gpus) or 'none'})", file=sys.stderr)
    run_pinned(jobs, gpus, echo=lambda line: print(line, file=sys.stderr, flush=True))
    summaries = [_latest_summary(s.home, j.name) for j in jobs]
    summaries = [x for x in summaries if x]
    print(json.dumps(summaries, indent=2) if s.json else summary_table(summaries))
    return 0 if all(j.returncode in (0,) for j in jobs) else 1


def _passthrough(args: argparse.Namespace, s: Settings) -> list[str]:
    out = ["--rounds", str(args.rounds), "--backend", args.backend, "--executor", args.executor,
           "--max-tier", str(args.max_tier), "--home", str(s.home), "--quiet"]
    for flag, value in (("--proposer", args.proposer), ("--device", args.device),
                        ("--size", args.size), ("--repeats", args.repeats)):
        if value is not None:
            out += [flag, str(value)]
    return out


def _latest_summary(home: Path, task: str) -> dict | None:
    runs = sorted((home / "runs").glob(f"{task}-*/summary.json"), key=lambda p: p.stat().st_mtime)
    return json.loads(runs[-1].read_text()) if runs else None


def _synthesize(args: argparse.Namespace, s: Settings) -> int:
    from diagnose.optimize.runs import RunRecord
    from diagnose.optimize.synthesis import synthesize, write_cards

    runs = [RunRecord.open(s.home, r) for r in args.synthesize] or [
        RunRecord(p.parent) for p in sorted((s.home / "runs").glob("*/run.json"))]
    cards = synthesize(runs)
    paths = write_cards(cards, s.home / "learned-cards", runs)
    print(json.dumps([c.to_json() for c in cards], indent=2) if s.json else
          "\n".join(f"{p}: {c.rewrite_family} verified on {', '.join(c.tasks)}" for c, p in zip(cards, paths, strict=True))
          or "no mechanism verified on two or more tasks yet")
    return 0
