"""Session 28's general readings (issue 12), from a respelling of the development kernels
(bench/defects/spellings.py `load-then-where`: a load under its mask alone, then
`tl.where(mask, x, fill)` instead of `other=fill`) that flipped tier 1 on development cases:
- a select of the same mask and fill as the select (not only the load) that made its value is
  redundant;
- a select that fills what its value's load skipped under the same mask cuts no tile of a dot
  loop (a K tail, not a causal triangle);
- a position compared against values loaded over an index tile is data, not a triangle, even
  where the load was inlined into the condition; a scalar bound loaded once per program stays a
  position the loop could stop at.
Four more respellings real authors use flipped tier 1 on 92 of 957 mutants of the development
cases (58 from a right answer): tensor methods (`x.sum(axis=1)`), a scale inside an expansion
(`(rows * s)[:, None]`), a pointer parameter moved once at the top (`x_ptr += row * stride`) and
sums in another order (`offs + start`). The model now reads each as the form the detectors know.
Two more (the left operand of a sum bound to a temporary first, a mask written out at each access)
flipped 3 of 610; a recurrence's step through a temporary, a broadcast difference of named
expansions and a mask named at the select but written out at the load are now read through.
From round 36's development misses: a piecewise lookup that tests every segment of a table for
every element (`res = tl.where((v >= x0) & (v < x1), ..., res)` in a loop over the table) is a
linear table scan, and its per-step table loads are not an element-by-element walk."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

from diagnose.triage import triage
from diagnose.triage.detectors.model import build_model

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


DEFECTS = Path(__file__).resolve().parents[1] / "bench" / "defects"
# a row max that masks its padding twice: other= on the load, then tl.where on the same mask
ROW_MAX = (DEFECTS / "max-where-after-load" / "slow.py").read_text()


def test_a_select_repeating_an_earlier_select_is_redundant():
    mutant = _respelled(ROW_MAX, "load-then-where")
    assert "other=-float" not in mutant and mutant.count("tl.where(mask, x") == 2
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


@pytest.mark.parametrize("case, rewrite", [
    ("addmm-broadcast-sum-tiles", "builtins-as-methods"),
    ("bucketize-linear-boundary-scan", "builtins-as-methods"),
    ("ascend-transpose-strided-read", "scale-before-expand"),
    ("infonce-loss-row-matvec", "scale-before-expand"),
    ("mean-scalar-element-loop", "rebase-pointer-params"),
    ("paged-decode-attention-token-loop", "rebase-pointer-params"),
    ("monai-hausdorff-surface-distance-point-programs", "commute-sums"),
    ("gsplat-tile-composite-full-list-walk", "commute-sums"),
    ("matmul-leakyrelu-fp32-operands", "load-then-where"),
    ("rglru-recurrence-serial-time-loop", "sum-temporaries"),
    ("encodec-rvq-broadcast-diff-distance", "sum-temporaries"),
    ("conformer-rel-shift-host-contiguous", "masks-inline"),
])
def test_respelled_development_kernels_keep_their_first_finding(case, rewrite):
    path = DEFECTS / case / "slow.py"
    backend = "ascend" if case.startswith("ascend-") else "cuda"
    source = path.read_text()
    mutant = _respelled(source, rewrite)
    assert mutant != ast.unparse(ast.parse(source))
    assert _cards(mutant, backend)[0] == _cards(source, backend)[0]


def _body(source: str, kernel: str) -> str:
    return ast.unparse(build_model(source, "k.py", ast.parse(source)).kernels[kernel].node)


def test_the_model_reads_each_respelling_as_the_usual_form():
    usual = HEADER + textwrap.dedent('''
        @triton.jit
        def k(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
            row = tl.program_id(0)
            cols = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + row * stride + cols[None, :] * 2, mask=cols[None, :] < n_cols, other=0.0)
            tl.store(out_ptr + row, tl.sum(tl.exp(x), axis=1))
    ''')
    respelled = HEADER + textwrap.dedent('''
        @triton.jit
        def k(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
            row = tl.program_id(0)
            x_ptr += row * stride
            cols = tl.arange(0, BLOCK)
            x = tl.load((cols * 2)[None, :] + x_ptr, mask=cols[None, :] < n_cols, other=0.0)
            tl.store(row + out_ptr, x.exp().sum(axis=1))
    ''')
    assert _body(respelled, "k") == _body(usual, "k")


def test_a_division_inside_an_expansion_stays_whole():
    source = HEADER + textwrap.dedent('''
        @triton.jit
        def k(x_ptr, pos_ptr, n, s_tok, PAGE: tl.constexpr, D: tl.constexpr):
            pos = tl.load(pos_ptr + tl.arange(0, 16))
            d = tl.arange(0, D)
            x = tl.load(x_ptr + (pos % PAGE)[:, None] * s_tok + d[None, :])
            tl.store(x_ptr + (pos * s_tok)[:, None] + d[None, :], x)
    ''')
    body = _body(source, "k")
    assert "(pos % PAGE)[:, None] * s_tok" in body
    assert "pos[:, None] * s_tok" in body


TONE_CURVE = HEADER + textwrap.dedent('''
    @triton.jit
    def curve_kernel(x_ptr, knots_x, knots_y, out_ptr, n, n_knots, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        v = tl.load(x_ptr + offs, mask=m, other=0.0)
        res = tl.zeros([BLOCK], dtype=tl.float32) + tl.load(knots_y + n_knots - 1)
        x0 = tl.load(knots_x)
        y0 = tl.load(knots_y)
        for k in range(1, n_knots):
            x1 = tl.load(knots_x + k)
            y1 = tl.load(knots_y + k)
            inside = (v >= x0) & (v < x1)
            res = tl.where(inside, y0 + (v - x0) * (y1 - y0) / (x1 - x0), res)
            x0 = x1
            y0 = y1
        tl.store(out_ptr + offs, res, mask=m)

    def run(x, kx, ky):
        out = torch.empty_like(x)
        curve_kernel[(triton.cdiv(x.numel(), 1024),)](x, kx, ky, out, x.numel(), kx.numel(), BLOCK=1024)
        return out
''')


def test_a_segment_search_over_a_table_is_a_linear_table_scan():
    findings = _findings(TONE_CURVE)
    assert findings[0].card_id == "common-linear-table-scan"
    # the table's entries are loaded at the loop's first two lines: IR narrow loads there are its
    loads = [i for i, line in enumerate(TONE_CURVE.splitlines(), 1) if "tl.load(knots_" in line and "+ k)" in line]
    assert len(loads) == 2 and set(loads) <= set(findings[0].location["reaches"])
    # one table entry per step against a tile of elements is no element-by-element walk
    assert "cuda-scalar-element-loop" not in _cards(TONE_CURVE)


def test_a_select_not_carried_across_steps_is_no_segment_search():
    plain = TONE_CURVE.replace("res = tl.where(inside, y0 + (v - x0) * (y1 - y0) / (x1 - x0), res)",
                               "tl.store(out_ptr + offs, tl.where(inside, y0, 0.0), mask=m)")
    assert plain != TONE_CURVE
    assert "common-linear-table-scan" not in _cards(plain)


def test_a_data_bound_compare_reads_the_same_written_either_way_round():
    # both sides index a tile (`p` positions, `last` one value per column): which side is written
    # first must not decide whether the loaded side is data
    reversed_ = SCAN.replace("p[:, None] <= last[None, :]", "last[None, :] >= p[:, None]")
    assert reversed_ != SCAN
    assert "common-causal-full-scan" not in _cards(reversed_)


# ---- a counted while loop, and a detector that cannot read a construct

WHILE_WALK = HEADER + textwrap.dedent('''
    @triton.jit
    def mean_kernel(x_ptr, out_ptr, N, stride_row):
        row = tl.program_id(0)
        acc = 0.0
        i = 0
        while i < N:
            acc += tl.load(x_ptr + row * stride_row + i).to(tl.float32)
            i += 1
        tl.store(out_ptr + row, acc / N)

    def run(x):
        out = torch.empty(x.shape[0], device=x.device, dtype=torch.float32)
        mean_kernel[(x.shape[0],)](x, out, x.shape[1], x.stride(0))
        return out
''')


def test_a_counted_while_loop_reads_as_the_for_loop_it_spells():
    as_for = WHILE_WALK.replace("    i = 0\n    while i < N:", "    for i in range(0, N):").replace(
        "        i += 1\n", "")
    assert "while" not in as_for
    assert _body(WHILE_WALK, "mean_kernel") .replace("pass\n    ", "") == _body(as_for, "mean_kernel")
    assert _cards(WHILE_WALK)[0] == "cuda-scalar-element-loop"
    # the loop's variable read after it holds the bound, not the last step: left as a while loop
    read_after = WHILE_WALK.replace("tl.store(out_ptr + row, acc / N)", "tl.store(out_ptr + row, acc / i)")
    assert "while" in _body(read_after, "mean_kernel")


def test_for_as_while_keeps_the_first_finding_of_development_kernels():
    for case in ("mean-scalar-element-loop", "logsumexp-two-pass-row-reload"):
        source = (DEFECTS / case / "slow.py").read_text()
        assert _cards(_respelled(source, "for-as-while"))[0] == _cards(source)[0]


def test_a_while_loop_around_a_for_loop_does_not_end_the_triage():
    nested = HEADER + textwrap.dedent('''
        @triton.jit
        def k(x_ptr, out_ptr, n, steps, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            s = tl.program_id(0)
            while s < steps:
                acc = tl.zeros([BLOCK], dtype=tl.float32)
                for t in range(0, s):
                    acc += tl.load(x_ptr + t * n + offs, mask=offs < n, other=0.0)
                tl.store(out_ptr + s * n + offs, acc, mask=offs < n)
                s += tl.num_programs(0)
    ''')
    # `s` is read after the loop, so the while loop stays one: the detectors meet it as written
    kept = nested.replace("        s += tl.num_programs(0)\n", "        s += tl.num_programs(0)\n    tl.store(out_ptr, s)\n")
    assert kept != nested and "while" in _body(kept, "k")
    for source in (nested, kept):
        result = triage(source, "k.py", "cuda")
        assert "could not read" not in result.reason
