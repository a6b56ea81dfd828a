"""MLIR lit-test chunker: one chunk per `// -----` case (per function when a case is big),
with the RUN commands and the passes they run as metadata."""

from __future__ import annotations

import re
import shlex

from indexer.chunkers.segments import (
    Segment,
    Source,
    body_budget,
    emit,
    merge_siblings,
    symbol_of,
)
from kb.chunk import Chunk, header

_SEPARATOR = re.compile(r"^\s*//\s*-{5,}\s*$")
_RUN = re.compile(r"^\s*//\s*RUN:\s?(.*)$")
_FUNC = re.compile(r"^\s*(?:\w+\.)?func\b[^@\n]*@(\"[^\"]+\"|[\w$.\-]+)")
_FLAG = re.compile(r"^--?([A-Za-z][\w.\-]*)(?:=(.*))?$")
_OPTIONS = re.compile(r"\{[^{}]*\}")
_NAME = re.compile(r"[A-Za-z][\w.\-]*")
# Flags of the opt tools that select no pass.
_NOT_PASSES = frozenset({
    "o", "split-input-file", "verify-diagnostics", "allow-unregistered-dialect",
    "verify-each", "debug", "debug-only", "pass-pipeline", "show-dialects", "emit-bytecode",
    "no-implicit-module", "load-pass-plugin", "load-dialect-plugin",
})
_NOT_PASS_PREFIXES = ("mlir-", "dump-", "print-")
# Tools whose flags are not passes (FileCheck and friends after the pipe).
_NON_OPT_TOOLS = frozenset({
    "FileCheck", "count", "not", "grep", "cat", "echo", "sed", "opt", "llc", "llvm-mc", "clang",
})


def run_commands(lines: list[str]) -> list[str]:
    """RUN commands, with `\\` continuation lines joined."""
    commands: list[str] = []
    current: str | None = None
    for line in lines:
        m = _RUN.match(line)
        if m is None:
            if current is not None:
                commands.append(current.strip())
                current = None
            continue
        part = m.group(1).rstrip()
        current = (current or "") + (part[:-1] + " " if part.endswith("\\") else part)
        if not part.endswith("\\"):
            commands.append(current.strip())
            current = None
    if current is not None:
        commands.append(current.strip())
    return [" ".join(cmd.split()) for cmd in commands]


def pass_flags(command: str) -> list[str]:
    """Pass arguments an opt-tool command runs: `-tritongpu-coalesce`, `--pass-pipeline=...`."""
    found: list[str] = []
    for stage in command.split("|"):
        try:
            words = shlex.split(stage)
        except ValueError:
            words = stage.split()
        if not words or words[0] in _NON_OPT_TOOLS:
            continue
        for word in words[1:]:
            m = _FLAG.match(word)
            if m is None:
                continue
            name, value = m.group(1), m.group(2)
            if name == "pass-pipeline" and value:
                found += pipeline_passes(value)
            elif (len(name) > 2 and name not in _NOT_PASSES
                  and not name.startswith(_NOT_PASS_PREFIXES)):
                found.append(name)
    return list(dict.fromkeys(found))


def pipeline_passes(pipeline: str) -> list[str]:
    """Pass names in a textual pipeline, without op anchors (`builtin.module`) or options."""
    text = pipeline
    for _ in range(8):  # option groups may nest; strip innermost first
        text, n = _OPTIONS.subn("", text)
        if not n:
            break
    return [w for w in _NAME.findall(text) if "." not in w]


def _sections(src: Source) -> list[tuple[int, int]]:
    sections, start = [], 0
    for row, line in enumerate(src.lines):
        if _SEPARATOR.match(line):
            sections.append((start, row - 1))
            start = row + 1
    sections.append((start, src.n - 1))
    return [(s, e) for s, e in sections if e >= s]


def _functions(src: Source, s: int, e: int) -> list[tuple[int, str]]:
    """Rows where functions start (pulled up over the comments above them) and their names."""
    out = []
    for row in range(s, e + 1):
        m = _FUNC.match(src.lines[row])
        if m is None:
            continue
        top = row
        while top - 1 >= s and src.lines[top - 1].lstrip().startswith("//"):
            top -= 1
        out.append((top, m.group(1).strip('"')))
    return out


def _section_segments(src: Source, s: int, e: int, kind: str, max_chars: int) -> list[Segment]:
    funcs = _functions(src, s, e)
    names = [name for _, name in funcs]
    head = header(src.path, "", symbol_of(names, ""))
    if src.size(s, e) <= body_budget(src, max_chars, head) or len(funcs) < 2:
        return [Segment(s, e, kind, symbol=names[0] if names else "", named=bool(names),
                        names=names)]
    starts = [s] + [row for row, _ in funcs[1:]]
    ends = [row - 1 for row in starts[1:]] + [e]
    return [Segment(a, b, kind, symbol=name, named=True, names=[name])
            for a, b, (_, name) in zip(starts, ends, funcs, strict=True)]


def chunk_mlir(src: Source, max_chars: int, min_chars: int) -> list[Chunk]:
    """Chunks of an .mlir file; each carries extra["run"] and the passes its RUN lines run."""
    commands = run_commands(src.lines)
    passes = list(dict.fromkeys(p for cmd in commands for p in pass_flags(cmd)))
    kind = "lit_test" if commands else "module"
    segs = [seg for s, e in _sections(src) for seg in _section_segments(src, s, e, kind, max_chars)]
    segs = merge_siblings(segs, src, max_chars, min_chars)
    chunks = [c for seg in segs for c in emit(seg, src, max_chars, "mlir")]
    for c in chunks:
        c.passes = list(passes)
        if commands:
            c.extra["run"] = list(commands)
    return chunks
