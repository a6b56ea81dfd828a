"""`passwise diagnose` and `passwise escalate`: flags and Settings in, the ladder's report out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from diagnose.ladder import (
    Context,
    Options,
    capture_for,
    could_not_diagnose,
    diagnose,
    make_context,
)
from diagnose.report import Diagnosis, render_text
from diagnose.runner.errors import RunnerError
from diagnose.saved import save_diagnosis, symptom_stages
from diagnose.target import DiagnosisError, resolve_target
from diagnose.triage import TriageError
from kb.errors import KBError
from passwise.settings import Settings


def cmd_diagnose(args: argparse.Namespace, s: Settings) -> int:
    """Climb the ladder for TASK|FILE, print the report (or JSON) and keep the JSON.

    Exits 1 when no diagnosis could be made (the kernel does not parse or compile); the
    record of why is still printed and kept."""
    try:
        ctx = _context(args, s)
        diagnosis = diagnose(ctx, progress=_progress if args.progress else None)
    except (DiagnosisError, TriageError, RunnerError) as exc:
        raise KBError(str(exc)) from None  # cli.main prints it as one sentence
    saved = _save(diagnosis, args.out, s.home, symptom_stages(ctx.capture, diagnosis))
    if s.json:
        print(diagnosis.to_json())
    else:
        print(render_text(diagnosis, _card_hint(ctx, diagnosis)), end="")
        print("\nSaved: " + ", ".join(str(p) for p in saved))
    if could_not_diagnose(diagnosis):
        print(f"passwise: no diagnosis could be made: {diagnosis.reason}", file=sys.stderr)
        return 1
    return 0


def _progress(line: str) -> None:
    print(f"passwise: {line}", file=sys.stderr, flush=True)


def _context(args: argparse.Namespace, s: Settings) -> Context:
    target = resolve_target(args.target, args.candidate)
    options = Options(max_tier=args.max_tier, size=args.size, trace=getattr(args, "trace", True),
                      runner_json=Path(args.runner_json) if args.runner_json else None,
                      python_cuda=s.python_cuda, python_ascend=s.python_ascend, home=s.home)
    return make_context(target, args.backend, options, open_kb=lambda: _open_kb(s))


def _open_kb(s: Settings) -> tuple:
    """(KnowledgeBase, PassRegistry) for tier 4; chromadb and the embedder load only here."""
    from passwise.commands import load_registry, open_settings_kb

    kb = open_settings_kb(s)
    return kb, load_registry(kb)


def _card_hint(ctx: Context, diagnosis: Diagnosis) -> tuple[str, str] | None:
    """Before/after code of the pattern card the conclusion names, when there is one."""
    card = ctx.cards.get(diagnosis.conclusion.card_id) if diagnosis.conclusion else None
    return (card.before, card.after) if card else None


def _save(diagnosis: Diagnosis, out: str | None, home: Path, stages: dict) -> list[Path]:
    """Write the JSON to --out and to $PASSWISE_HOME/diagnoses/<target>-<timestamp>.json."""
    try:
        return save_diagnosis(diagnosis, home, stages, Path(out).expanduser() if out else None)
    except OSError as exc:
        raise KBError(f"Cannot write the diagnosis ({exc.strerror or exc}: "
                      f"{exc.filename or home}); choose a writable --out or PASSWISE_HOME.") from None


def _kernel_facts(args: argparse.Namespace, s: Settings) -> tuple:
    """(KernelFacts, compiler version) of --kernel, from the same capture tier 3 makes: the
    kernel whose IR shows the symptom, else the first one that compiled."""
    from diagnose.escalation import escalate
    from diagnose.ir import IRCaptureError, attribute

    try:
        ctx = make_context(resolve_target(args.kernel, args.candidate), args.backend,
                           Options(size=args.size, python_cuda=s.python_cuda,
                                   python_ascend=s.python_ascend, home=s.home))
        if ctx.target.launch_problem:
            raise KBError(f"Cannot capture {args.kernel}: {ctx.target.launch_problem}.")
        capture = capture_for(ctx)
    except (DiagnosisError, TriageError, IRCaptureError) as exc:
        raise KBError(str(exc)) from None
    built = [k for k in capture.kernels if k.failure is None
             or any(st.when == "after" for st in k.stages)]
    if not built:
        why = capture.failures[0].message.splitlines()[-1] if capture.failures else "nothing launched"
        raise KBError(f"No kernel of {args.kernel} could be captured ({why}); escalate without "
                      "--kernel, or fix the kernel first.")
    showing = {sym.kernel for sym in attribute(capture) if sym.id == args.symptom}
    kir = next((k for k in built if k.kernel in showing), built[0])
    version = capture.compiler_version.split()[-1] if capture.compiler_version else None
    return escalate.kernel_facts(kir), version


def cmd_escalate(args: argparse.Namespace, s: Settings) -> int:
    """Tier 4 on its own: a thin call into diagnose.escalation.escalate (its errors are KBErrors)."""
    from diagnose.escalation import escalate
    from passwise.commands import load_registry, open_settings_kb

    llm = escalate.LLMConfig.from_settings(s) if args.llm else None
    if args.llm and llm is None:
        raise KBError("--llm needs an endpoint: set PASSWISE_LLM_BASE_URL and "
                      "PASSWISE_LLM_MODEL.")
    facts, version = _kernel_facts(args, s) if args.kernel else (None, None)
    kb = open_settings_kb(s)
    answer = escalate.escalate(kb, load_registry(kb), symptom=args.symptom,
                               pass_name=args.pass_, backend=args.backend, k=args.k, llm=llm,
                               kernel_compiler_version=version, kernel_facts=facts)
    print(json.dumps(answer.to_json(), indent=2) if s.json else escalate.render_text(answer))
    return 0
