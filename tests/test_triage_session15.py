"""Tier 1 classes from session 15's development misses: a grid that fills most of an NPU's
vector cores is a weak hypothesis (one program per core: the idle share bounds the gain)."""

from __future__ import annotations

from diagnose.triage import triage

# Each program strides over the rows; the grid is a module constant (the core count it assumes).
STRIDED_ROWS = '''
import torch, triton, triton.language as tl

CORES = {cores}


@triton.jit
def rows(x_ptr, out_ptr, n_rows, N, PROGS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for r in range(pid, n_rows, PROGS):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, N, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + r * N + offs, mask=offs < N, other=0.0)
        tl.store(out_ptr + r, tl.sum(acc, axis=0))


def run(x):
    out = torch.empty(x.shape[0], device=x.device)
    rows[(CORES,)](x, out, x.shape[0], x.shape[1], PROGS=CORES, BLOCK=1024)
    return out
'''


def _grid_confidence(cores: int, backend: str) -> float | None:
    card = f"{backend}-small-grid-underfill"
    found = [f for f in triage(STRIDED_ROWS.format(cores=cores), "k.py", backend).findings
             if f.card_id == card]
    return found[0].confidence if found else None


def test_an_npu_grid_near_the_core_count_is_a_weak_hypothesis() -> None:
    near = _grid_confidence(40, "ascend")  # 40 of 48 vector cores: 1.2x at most
    half = _grid_confidence(24, "ascend")  # half of them idle: 2x at most
    few = _grid_confidence(8, "ascend")
    assert near is not None and half is not None and few is not None
    assert near <= 0.25 < half <= few
    assert _grid_confidence(48, "ascend") is None  # every core busy: no finding


def test_a_gpu_grid_below_the_sm_count_keeps_its_weight() -> None:
    # a GPU program's warps hide latency badly alone: more programs win beyond the idle share
    assert _grid_confidence(120, "cuda") == _grid_confidence(70, "cuda") >= 0.6
