"""Session 28's general readings (issue 12), from a respelling of the development kernels
(bench/defects/spellings.py `load-then-where`: a load under its mask alone, then
`tl.where(mask, x, fill)` instead of `other=fill`) that flipped tier 1 on development cases:
- a select of the same mask and fill as the select (not only the load) that made its value is
  redundant;
- a select that fills what its value's load skipped under the same mask cuts no tile of a dot
  loop (a K tail, not a causal triangle);
- a position compared against values loaded over an index tile is data, not a triangle, even
  where the load was inlined into the condition; a scalar bound loaded once per program stays a
  position the loop could stop at."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

from diagnose.triage import triage

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "defects"))
from spellings import REWRITES  # noqa: E402

HEADER = "import torch, triton, triton.language as tl\n"


def _findings(source: str, backend: str = "cuda") -> list:
    return triage(source, "k.py", backend).findings


def _cards(source: str, backend: str = "cuda") -> list[str]:
    return [f.card_id for f in _findings(source, backend)]


def _respelled(source: str, rewrite: str) -> str:
    tree = ast.parse(source)
    assert REWRITES[rewrite](tree), f"{rewrite} did not apply"
    return ast.unparse(ast.fix_missing_locations(tree))


ROW_MAX = HEADER + textwrap.dedent('''
    @triton.jit
    def max_kernel(x_ptr, out_ptr, N, stride_row, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=-float("inf"))
        x = tl.where(mask, x, -float("inf"))
        tl.store(out_ptr + row, tl.max(x, axis=0))

    def run(x):
        M, N = x.shape
        out = torch.empty(M, device=x.device, dtype=x.dtype)
        max_kernel[(M,)](x, out, N, x.stride(0), BLOCK=triton.next_power_of_2(N))
        return out
''')


def test_a_select_repeating_an_earlier_select_is_redundant():
    mutant = _respelled(ROW_MAX, "load-then-where")
    assert "other=" not in mutant and mutant.count("tl.where(mask, x") == 2
    selects = [f for f in _findings(mutant) if f.card_id == "common-redundant-select"]
    assert len(selects) == 1
    # the second select is the redundant one; the first fills what the load skipped
    second = max(i for i, line in enumerate(mutant.splitlines(), 1) if "tl.where(mask, x" in line)
    assert selects[0].location["line"] == second
    assert "select of `x`" in selects[0].message


def test_the_select_that_fills_a_load_without_other_is_not_redundant():
    filled_once = ROW_MAX.replace('mask=mask, other=-float("inf"))', "mask=mask)")
    assert "common-redundant-select" not in _cards(filled_once)
    assert "common-redundant-select" in _cards(ROW_MAX)


def test_a_select_reading_a_value_rebound_since_the_fill_is_not_redundant():
    rebound = ROW_MAX.replace('    x = tl.where(mask, x, -float("inf"))',
                              '    x = tl.abs(x)\n    x = tl.where(mask, x, -float("inf"))')
    assert "tl.abs" in rebound
    assert "common-redundant-select" not in _cards(rebound)


MATMUL = HEADER + textwrap.dedent('''
    @triton.jit
    def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            k_left = K - k * BLOCK_K
            a = tl.load(a_ptr + rm[:, None] * sam + (k * BLOCK_K + rk)[None, :] * sak,
                        mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
            b = tl.load(b_ptr + (k * BLOCK_K + rk)[:, None] * sbk + rn[None, :] * sbn,
                        mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
            acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc,
                 mask=(rm[:, None] < M) & (rn[None, :] < N))

    def run(a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=torch.float32)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        mm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
        return c
''')


def test_a_k_tail_filled_by_a_select_is_no_causal_scan():
    mutant = _respelled(MATMUL, "load-then-where")
    assert mutant.count("tl.where(") == 2
    for source in (MATMUL, mutant):
        assert "common-causal-full-scan" not in _cards(source)


SCAN = HEADER + textwrap.dedent('''
    @triton.jit
    def scan_kernel(x_ptr, w_ptr, out_ptr, L, M, BLOCK_P: tl.constexpr, BLOCK_M: tl.constexpr):
        row = tl.program_id(0)
        m = tl.arange(0, BLOCK_M)
        live = m < M
        last = L - tl.load(w_ptr + m, mask=live, other=0)
        best = tl.full((BLOCK_M,), float("-inf"), tl.float32)
        for start in range(0, L, BLOCK_P):
            p = start + tl.arange(0, BLOCK_P)
            x = tl.load(x_ptr + row * L + p, mask=p < L, other=0.0)
            score = tl.dot(x[:, None].to(tl.float16) * tl.full((BLOCK_P, 16), 1.0, tl.float16),
                           tl.full((16, BLOCK_M), 1.0, tl.float16))
            score = tl.where(p[:, None] <= last[None, :], score, float("-inf"))
            best = tl.maximum(best, tl.max(score, axis=0))
        tl.store(out_ptr + row * M + m, best, mask=live)

    def run(x, w):
        B, L = x.shape
        M = w.shape[0]
        out = torch.empty((B, M), device=x.device, dtype=torch.float32)
        scan_kernel[(B,)](x, w, out, L, M, BLOCK_P=64, BLOCK_M=triton.next_power_of_2(M))
        return out
''')


def test_a_position_against_loaded_tile_values_is_no_triangle():
    # `last` is one value per column loaded from memory: which tiles a column keeps depends on
    # the data, so no tile is wholly outside by position alone
    assert "common-causal-full-scan" not in _cards(SCAN)


def test_a_scalar_bound_loaded_once_per_program_stays_a_position():
    per_row = SCAN.replace("last = L - tl.load(w_ptr + m, mask=live, other=0)",
                           "last = L - tl.load(w_ptr + row)")
    assert "common-causal-full-scan" in _cards(per_row)
