"""Session 39's general readings (issue 12).

Programs that each stream one shared table are a matvec per row only when they multiply what
they stream: a sorted list every program compares its own entries against is searched, not
multiplied, and stacking rows into a tl.dot would not cut its reads."""

from __future__ import annotations

from diagnose.profiling.trace import run_trace, trace_findings
from tests.test_diagnosis_session26 import _task
from tests.test_diagnosis_session38 import HEADER, ROWS, ROWS_TASK

# the same loop over the shared [128, 64] table, each program matching its row's values against it
MATCH = HEADER + '''

@triton.jit
def row_match(x, w, out, K: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    row = tl.program_id(0)
    n = tl.arange(0, N)
    hit = tl.full([N], -1, dtype=tl.int32)
    for k0 in range(0, K, BK):
        k = k0 + tl.arange(0, BK)
        a = tl.load(x + row * K + k)
        b = tl.load(w + k[:, None] * N + n[None, :])
        hit = tl.maximum(hit, tl.max(tl.where(a[:, None] == b, k[:, None], -1), axis=0))
    tl.store(out + row * N + n, hit.to(tl.float32))


def run(x, w):
    out = torch.empty((x.shape[0], w.shape[1]), device=x.device, dtype=x.dtype)
    row_match[(x.shape[0],)](x, w, out, K=128, N=64, BK=32)
    return out
'''


def _shared_operand(tmp_path, name: str, source: str) -> list:
    task = _task(tmp_path, name, ROWS_TASK, source)
    report = run_trace(task, task / "baseline.py", size="small")
    return [f for f in trace_findings(report, task / "baseline.py") if f.card_id == "cuda-matvec-per-row"]


def test_a_shared_table_every_program_only_compares_against_is_no_matvec(tmp_path):
    assert _shared_operand(tmp_path, "match", MATCH) == []
    # the multiplying twin, traced the same way, is one
    assert len(_shared_operand(tmp_path, "rows", ROWS)) == 1
