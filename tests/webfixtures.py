"""A served passwise home built by the tests: the escalation fixture compiler indexed, a chunk
carrying script (stored injection), a real diagnosis climbed to tier 4 over that index, and an
optimize run folder in the docs/runs.md layout."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from diagnose.ladder import Options, diagnose, make_context
from diagnose.saved import save_diagnosis, symptom_stages
from diagnose.target import resolve_target
from kb.chunk import Chunk

INJECTED = "<script>alert('chunk')</script><img src=x onerror=alert(2)>"

TASK_1D = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4096, generator=g), torch.randn(4096, generator=g))
def reference(x, y):
    return x.clone()
'''

# An unaligned runtime start offset: the coalesce pass cannot prove 16-byte alignment.
SHIFTED_COPY = '''
import torch, triton, triton.language as tl

@triton.jit
def shifted_copy(x_ptr, out_ptr, n, start, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + start + offs, mask=m), mask=m)

def run(x, y):
    out = torch.empty_like(x)
    shifted_copy[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), 3, BLOCK=1024)
    return out
'''


def make_task(root: Path, name: str, baseline: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "task.py").write_text(textwrap.dedent(TASK_1D))
    (folder / "baseline.py").write_text(textwrap.dedent(baseline))
    return folder


def inject_chunk(kb) -> str:
    """Store a chunk whose text and symbol carry script, as a hostile source could."""
    c = Chunk(text=f"// docs/evil.md :: {INJECTED}\nvectorization notes {INJECTED}",
              path="docs/evil.md", start_line=1, end_line=2, kind="doc_section",
              symbol=INJECTED, source="fixture", backend="cuda", language="markdown")
    kb.store.bump_generation()
    kb.store.upsert([c], kb.embedder.embed([c.text]))
    kb.lexical()
    return c.id


def write_run(runs: Path, kernel: str) -> str:
    """A two-round optimize run in the docs/runs.md layout: round 1 accepted, 2 rejected."""
    run_id = "shifted-20261201T100000Z-ab12"
    folder = runs / run_id
    better = kernel.replace("x_ptr + start + offs", "x_ptr + tl.multiple_of(start, 4) + offs")
    files = {
        "run.json": {"schema_version": 1, "run_id": run_id, "target": "shifted",
                     "backend": "cuda", "device": "cuda", "proposer": "rules",
                     "created": "2026-12-01T10:00:00+00:00"},
        "summary.json": {"run_id": run_id, "target": "shifted", "status": "finished",
                         "reason": "2 rounds done", "rounds_done": 2, "accepted": [1],
                         "best_round": 1, "best_vs_input": 1.31, "input_ms": 0.0131,
                         "best_ms": 0.0100, "compile_ms": 0.0112},
        "rounds/00/round.json": {"round": 0, "parent": None},
        "rounds/00/verdict.json": {"verdict": "baseline", "reason": "the input",
                                   "kernel_ms": 0.0131},
        "rounds/01/round.json": {"round": 1, "parent": 0},
        "rounds/01/proposal.json": {"proposer": "rules", "family": "add-divisibility-hints",
                                    "transformation": "add_contiguity_hints"},
        "rounds/01/diagnosis.json": {"tiers": [{"tier": 2, "findings": [{
            "kind": "roofline", "evidence": {"hotspot": True, "floor_us": 8.2}}]}],
            "conclusion": {
            "passes": ["tritongpu-coalesce"], "rewrite_family": "add-divisibility-hints"}},
        "rounds/01/passages.json": [{"path": "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp",
                                     "start_line": 1, "end_line": 40, "repo": "fixture",
                                     "symbol": "CoalescePass", "permalink": ""}],
        "rounds/01/verdict.json": {"verdict": "accepted", "reason": "1.31x faster, bound 1.22",
                                   "ratio": 1.31, "parent_ms": 0.0131, "kernel_ms": 0.0100},
        "rounds/02/round.json": {"round": 2, "parent": 1},
        "rounds/02/verdict.json": {"verdict": "rejected", "reason": "within noise",
                                   "ratio": 1.0, "parent_ms": 0.0100, "kernel_ms": 0.0101},
    }
    for rel, data in files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(data))
    (folder / "input.py").write_text(kernel)
    (folder / "best.py").write_text(better)
    return run_id


def build_home(tmp: Path, embedder) -> dict:
    """The whole served home; returns where things are and the names the tests look for."""
    from tests.escalate_fixtures.repo import index_fixture

    compiler = index_fixture(tmp, embedder)
    injected = inject_chunk(compiler.kb)
    tasks = tmp / "kernels"
    folder = make_task(tasks, "shifted", SHIFTED_COPY)
    ctx = make_context(resolve_target(str(folder)), "cuda", Options(),
                       open_kb=lambda: (compiler.kb, compiler.registry))
    d = diagnose(ctx)
    home = compiler.kb.home
    kept = save_diagnosis(d, home, symptom_stages(ctx.capture, d))[-1]
    run_id = write_run(home / "runs", (folder / "baseline.py").read_text())
    return {"home": home, "kb": compiler.kb, "kernels": tasks, "diagnosis": kept.stem,
            "injected": injected, "run_id": run_id, "upstream": compiler.root}
