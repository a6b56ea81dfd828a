"""Split MLIR pass-by-pass dump text into Stages.

Tolerates the header shapes MLIR's IR printer emits (and Triton versions wrap):
  // -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //
  // -----// IR Dump After TritonToHIVM (triton-to-hivm) //----- //
  // -----// IR Dump After Canonicalizer Failed (canonicalize) ('tt.func' operation: @k) //----- //
  // -----// SoftwarePipeliner internal IR Dump After: ExpandLoops
Anything before the first header (warnings, Python output) is dropped.
"""

from __future__ import annotations

import re

from .model import Stage

# Triton 3.6 prints "Before Name (arg)"; 3.9 prints "Before Name: arg{options}".
HEADER = re.compile(
    r"^// -----// IR Dump (?P<when>Before|After) (?P<name>[\w:.<>$-]+?)(?P<failed> Failed)?"
    r"(?: \((?P<arg>[^)]*)\)|: (?P<arg39>[\w.-]+)(?:\{[^}]*\})?)"
    r"(?: \('(?P<op>[\w.]+)' operation(?:: @(?P<sym>[\w.$-]+))?\))?"
    r"(?: //----- //)?\s*$"
)
INTERNAL = re.compile(r"^// -----// (?P<name>\w+) internal IR Dump (?P<when>Before|After): (?P<arg>[\w-]+)")
# LLVM's legacy/new pass manager printing (LLVM_IR_ENABLE_DUMP): "*** IR Dump After SROA ***"
LLVM_HEADER = re.compile(r"^;?\*\*\* IR Dump (?P<when>Before|After) (?P<name>.+?) \*\*\*")


def parse_header(line: str) -> dict | None:
    """Fields of one dump header line, or None when the line is not a header."""
    if m := HEADER.match(line):
        return {"when": m["when"].lower(), "name": m["name"], "pass_arg": m["arg"] or m["arg39"] or m["name"],
                "scope": f"{m['op'] or ''}{'@' + m['sym'] if m['sym'] else ''}",
                "failed": bool(m["failed"])}
    if m := INTERNAL.match(line):
        # a pass's own intermediate snapshot (SoftwarePipeliner: LowerLoops, ExpandLoops)
        return {"when": "internal", "name": f"{m['name']}:{m['arg']}",
                "pass_arg": m["name"], "scope": m["name"], "failed": False}
    if m := LLVM_HEADER.match(line):
        return {"when": m["when"].lower(), "name": m["name"], "pass_arg": m["name"],
                "scope": "llvm", "failed": False}
    return None


def split_dump(text: str, pipeline: str = "", start_index: int = 0) -> list[Stage]:
    """Cut a dump into Stages, one per header, in order."""
    stages: list[Stage] = []
    current: dict | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            stages.append(Stage(index=start_index + len(stages), name=current["name"],
                                pass_arg=current["pass_arg"], when=current["when"],
                                text="\n".join(body).strip("\n"), pipeline=pipeline,
                                scope=current["scope"], failed=current["failed"]))

    for line in text.splitlines():
        header = parse_header(line)
        if header is not None:
            close()
            if header["when"] == "internal" and stages and stages[-1].when in ("before", "internal"):
                # a pass's private snapshot belongs to the pass that is running
                header["pass_arg"] = stages[-1].pass_arg
            current, body = header, []
        elif current is not None:
            body.append(line)
    close()
    return stages


def responsible_pass(prev: Stage, cur: Stage) -> str | None:
    """The pass that ran between two consecutive snapshots, or None if none did."""
    if cur.when in ("after", "final", "internal"):
        return cur.pass_arg
    if prev.when in ("before", "internal"):
        return prev.pass_arg
    return None  # After(P) then Before(Q): nothing ran in between


def attach_nested(stages: list[Stage], top_level: list[str]) -> list[Stage]:
    """Give After-dumps of passes a top-level pass ran internally (runPipeline) to that pass.

    MLIR prints a dynamic pipeline's After-dumps before its parent's own After-dump, so a
    stage that is not a top-level pass belongs to the next top-level stage that follows it.
    """
    owner = None
    for stage in reversed(stages):
        if stage.when != "after":
            continue
        if stage.pass_arg in top_level:
            owner = stage.pass_arg
        elif owner is not None:
            stage.name = f"{stage.name} (inside {owner})"
            stage.scope = stage.pass_arg
            stage.pass_arg = owner
    return stages
