"""Session 46: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

import textwrap

from diagnose.triage import triage
from tests.test_diagnosis_session26 import traced

HEADER = "import torch\nimport triton\nimport triton.language as tl\n"

# every lane of every program adds its value into one word (a grid-wide total), while the
# launch also reads a sorted integer field (mostly zeros: runs of one key) to mask the lanes
TOTAL = HEADER + textwrap.dedent('''
    @triton.jit
    def total(tag, x, out, n, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        t = tl.load(tag + i, mask=i < n, other=0)
        v = tl.load(x + i, mask=i < n, other=0.0)
        at = out + {address}
        tl.atomic_add(at, tl.where(t == 1, v, 0.0), mask=i < n)

    def run(tag, x):
        out = torch.zeros(64, dtype=torch.float32, device=x.device)
        total[(triton.cdiv(x.numel(), 128),)](tag, x, out, x.numel(), BLOCK=128)
        return out
''')

TOTAL_TASK = '''
import torch
META = {"sizes": {"small": {"N": 65536}, "large": {"N": 65536}}, "dtypes": ["float32"]}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    n = META["sizes"][size]["N"]
    tag = (torch.rand(n, generator=g) < 0.01).to(torch.int32).sort().values
    return tag.to(device), torch.rand(n, generator=g).to(device)
def reference(tag, x):
    return torch.zeros(64)
'''


def test_an_atomic_every_lane_sends_to_one_word_is_a_reduction_not_sorted_keys(tmp_path):
    one_word = traced(tmp_path, "one", TOTAL_TASK, TOTAL.format(address="tl.zeros([BLOCK], dtype=tl.int32)"))
    atomics = {f.rewrite_family for f in one_word if (f.evidence.get("facts") or {}).get("atomics")}
    assert atomics == {"tree-reduction-not-atomics"}
    # addressed through the sorted field itself, the runs of one key are what a segmented
    # reduction adds up first
    keyed = traced(tmp_path, "keyed", TOTAL_TASK, TOTAL.format(address="t"))
    assert "segment-reduce-sorted-keys" in {f.rewrite_family for f in keyed if (f.evidence.get("facts") or {}).get("atomics")}


MOMENTS = HEADER + textwrap.dedent('''
    @triton.jit
    def moments(f, g, m, out, n, BLOCK: tl.constexpr, Q: tl.constexpr):
        rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        q = tl.arange(0, Q)
        x = tl.load(f + rows[:, None] * Q + q[None, :])
        y = tl.load(g + rows[:, None] * Q + q[None, :])
        w = tl.load(m + q[:, None] * Q + q[None, :])
        d = tl.sum({product}, axis=2)
        tl.store(out + rows[:, None] * Q + q[None, :], d)
''')

# one row per program: its vector broadcast against the matrix tile
ROW = HEADER + textwrap.dedent('''
    @triton.jit
    def matvec(f, m, out, Q: tl.constexpr):
        row = tl.program_id(0)
        q = tl.arange(0, Q)
        x = tl.load(f + row * Q + q)
        w = tl.load(m + q[:, None] * Q + q[None, :])
        tl.store(out + row * Q + q, tl.sum(x[None, :] * w, axis=1))
''')


def test_a_tile_of_rows_times_a_matrix_as_a_3d_broadcast_is_no_row_per_program():
    def families(product: str) -> set[str]:
        return {f.rewrite_family for f in triage(MOMENTS.format(product=product), "k.py", "cuda").findings}

    # a [rows, Q] tile's difference expanded to rank 3 meets the matrix: a matrix product
    tiled = families("(x[:, None, :] - y[:, None, :]) * w[None, :, :]")
    assert "use-dot-for-broadcast-sum" in tiled and "tile-rows-into-dot" not in tiled
    # one row's vector against the matrix (a matrix-vector product per program) still is one
    row = {f.rewrite_family for f in triage(ROW, "k.py", "cuda").findings}
    assert "tile-rows-into-dot" in row
