"""Session 42: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

from pathlib import Path

from diagnose.ladder import _read_by_two
from diagnose.profiling.trace import run_trace
from tests.test_diagnosis_session26 import _task

HEADER = "import torch\nimport triton\nimport triton.language as tl\n"

# a separable filter: one pass per axis, each reading what the one before wrote, every pass
# reading the same few taps
PASSES = HEADER + '''

@triton.jit
def smooth(src, dst, taps, n, stride, TAPS: tl.constexpr, BLOCK: tl.constexpr):
    v = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in tl.static_range(TAPS):
        q = v + (k - TAPS // 2) * stride
        w = tl.load(taps + k)
        acc += w * tl.load(src + q, mask=(q >= 0) & (q < n), other=0.0)
    tl.store(dst + v, acc, mask=v < n)


def run(x, taps):
    a = torch.empty_like(x)
    b = torch.empty_like(x)
    n = x.numel()
    for src, dst, stride in {passes}:
        smooth[(triton.cdiv(n, 256),)](src, dst, taps, n, stride, TAPS=taps.shape[0], BLOCK=256)
    return a
'''
CHAIN = "((x, a, 1), (a, b, 32), (b, a, 1024))"  # each pass reads the last one's output
REREAD = "((x, a, 1), (x, b, 32), (x, a, 1024))"  # every pass reads the input again

PASSES_TASK = '''
import torch
META = {"sizes": {"small": {"n": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(4, 32, 32, generator=g).to(device), torch.rand(5, generator=g).to(device))
def reference(x, taps):
    return x
'''


def _launches_read_the_same_bytes(root: Path, name: str, passes: str) -> bool:
    task = _task(root, name, PASSES_TASK, PASSES.replace("{passes}", passes))
    report = run_trace(task, task / "baseline.py", size="small")
    mine = [i for i, x in enumerate(report["launches"]) if x["kernel"] == "smooth"]
    assert len(mine) == 3
    return _read_by_two(report, mine)


def test_launches_sharing_only_a_small_table_do_not_read_their_input_twice(tmp_path):
    """A loop of dependent passes (each reads what the last wrote) shares nothing but the taps
    every pass reads; a loop whose every launch reads the same input reads it again. The old
    reading spanned each launch's loads from its lowest buffer to its highest, so any two
    launches reading the small table overlapped."""
    assert not _launches_read_the_same_bytes(tmp_path, "chain", CHAIN)
    assert _launches_read_the_same_bytes(tmp_path, "reread", REREAD)
