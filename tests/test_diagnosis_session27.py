"""Session 27's general readings (issue 12). Two new respellings of development kernels
(bench/defects/spellings.py: a pointer a loop advances, `tl.expand_dims` for `[:, None]`) flipped
tier 1's first family on 82 of 421 development cases; the model now reads both spellings as the
forms the detectors know. The rest come from round 35's development misses and from respellings
that moved a kernel's loads or selects into @triton.jit helpers:
- an inlined helper's code keeps the helper's lines, which come before the caller's: names bound
  in the kernel are found by the order the body runs in, not by line;
- a value assigned from itself (`state = tl.load(delta + state * 256 + c)`) has the shape of the
  value before it, and a module constant is a scalar;
- a fill value the shape inference cannot name (`-float("inf")`) is left out of a broadcast;
- a count of compares against a table, written through a bound-once `&` mask, against elements
  computed from loads (a hash of them) is a linear table scan;
- a select that only refills what the load's own mask skipped wastes nothing;
- the trace's measure of an underfilled grid and the source's estimate of it count as one look
  with the better of the two confidences;
- of two trace readings of one measure, the one a source idiom also names is taken."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import _supersede_grid
from diagnose.triage import triage
from diagnose.triage.detectors.model import ShapeInference, build_model
from diagnose.weigh import rank

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "defects"))
from spellings import REWRITES  # noqa: E402

HEADER = "import torch, triton, triton.language as tl\n"


def _cards(source: str, backend: str = "cuda") -> list[str]:
    return [f.card_id for f in triage(source, "k.py", backend).findings]


def _respelled(source: str, rewrite: str) -> str:
    tree = ast.parse(source)
    assert REWRITES[rewrite](tree), f"{rewrite} did not apply"
    return ast.unparse(ast.fix_missing_locations(tree))


# ---- a pointer a loop advances, and tl.expand_dims

ROW_MEAN = HEADER + textwrap.dedent('''
    @triton.jit
    def mean_kernel(x_ptr, out_ptr, N, stride_row):
        row = tl.program_id(0)
        acc = 0.0
        for i in range(0, N):
            acc += tl.load(x_ptr + row * stride_row + i).to(tl.float32)
        tl.store(out_ptr + row, acc / N)

    def run(x):
        out = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
        mean_kernel[(x.shape[0],)](x, out, x.shape[1], x.stride(0))
        return out
''')

CAUSAL = HEADER + textwrap.dedent('''
    @triton.jit
    def attn(q_ptr, k_ptr, v_ptr, o_ptr, S, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
        rows = tl.program_id(0) * BM + tl.arange(0, BM)
        dims = tl.arange(0, D)
        q = tl.load(q_ptr + rows[:, None] * D + dims[None, :])
        m = tl.full([BM], -float("inf"), tl.float32)
        l = tl.zeros([BM], tl.float32)
        acc = tl.zeros([BM, D], tl.float32)
        for start in range(0, S, BN):
            cols = start + tl.arange(0, BN)
            k = tl.load(k_ptr + cols[:, None] * D + dims[None, :])
            v = tl.load(v_ptr + cols[:, None] * D + dims[None, :])
            s = tl.dot(q, tl.trans(k))
            s = tl.where(cols[None, :] <= rows[:, None], s, -float("inf"))
            m_new = tl.maximum(m, tl.max(s, axis=1))
            p = tl.exp(s - m_new[:, None])
            alpha = tl.exp(m - m_new)
            l = l * alpha + tl.sum(p, axis=1)
            acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
            m = m_new
        tl.store(o_ptr + rows[:, None] * D + dims[None, :], acc / l[:, None])

    def run(q, k, v):
        o = torch.empty_like(q)
        attn[(q.shape[0] // 64,)](q, k, v, o, q.shape[0], D=64, BM=64, BN=64)
        return o
''')


def test_a_pointer_the_loop_advances_reads_as_the_indexed_address():
    walked = _respelled(ROW_MEAN, "pointer-increments")
    assert "walk_0 += 1" in walked  # the respelling is the one real kernels use
    assert _cards(ROW_MEAN)[0] == "cuda-scalar-element-loop"
    assert _cards(walked)[0] == "cuda-scalar-element-loop"


def test_a_pointer_read_after_its_loop_stays_as_written():
    # the walk's end is used after the loop: it is not an address indexed by the loop alone
    source = HEADER + textwrap.dedent('''
        @triton.jit
        def k(x_ptr, out_ptr, N):
            p = x_ptr + tl.program_id(0) * N
            acc = 0.0
            for i in range(0, N):
                acc += tl.load(p)
                p += 1
            tl.store(out_ptr + tl.program_id(0), acc + tl.load(p))
    ''')
    model = build_model(source, "k.py", ast.parse(source))
    body = ast.unparse(model.kernels["k"].node)
    assert "p += 1" in body and "tl.load(p)" in body


def test_expand_dims_reads_as_the_index_it_spells():
    spelled = _respelled(CAUSAL, "expand-dims-calls")
    assert "tl.expand_dims(cols, 0)" in spelled
    assert _cards(CAUSAL)[0] == "common-causal-full-scan"
    assert _cards(spelled)[0] == "common-causal-full-scan"


# ---- an inlined helper's lines, recurrences and module constants in the shape inference

NEIGHBOURS = HEADER + textwrap.dedent('''
    @triton.jit
    def _count(keep):
        return tl.sum(tl.where(keep, 1, 0), axis=1)

    @triton.jit
    def neighbours(pos, starts, counts, N, BI: tl.constexpr, BJ: tl.constexpr):
        gi = tl.program_id(0) * BI + tl.arange(0, BI)
        jj = tl.arange(0, BJ)
        xi = tl.load(pos + gi, mask=gi < N, other=0.0)
        lo = tl.load(starts + tl.program_id(0))
        hi = tl.load(starts + tl.program_id(0) + 1)
        found = tl.zeros([BI], tl.int32)
        for j0 in range(lo, hi, BJ):
            gj = j0 + jj
            live = gj < hi
            xj = tl.load(pos + gj, mask=live, other=0.0)
            keep = (tl.abs(xi[:, None] - xj[None, :]) < 1.0) & live[None, :]
            found += _count(keep)
        tl.store(counts + gi, found, mask=gi < N)

    def run(pos, starts):
        counts = torch.empty(pos.numel(), dtype=torch.int32, device=pos.device)
        neighbours[(pos.numel() // 16,)](pos, starts, counts, pos.numel(), BI=16, BJ=128)
        return counts
''')


def test_a_select_in_a_helper_reads_the_callers_names_in_the_order_the_body_runs():
    # the helper is defined above the kernel: its select's line comes before `keep`'s
    assert "ascend-int-compare-where" in _cards(NEIGHBOURS, "ascend")
    inline = NEIGHBOURS.replace("found += _count(keep)", "found += tl.sum(tl.where(keep, 1, 0), axis=1)")
    assert "ascend-int-compare-where" in _cards(inline, "ascend")


# a development case: one packet per program walking a DFA whose state each step gathers
DFA = (Path(__file__).resolve().parents[1] / "bench" / "defects"
       / "kargus-aho-corasick-dfa-packet-per-program" / "slow.py").read_text()


def test_a_value_assigned_from_itself_and_a_module_constant_have_shapes():
    model = build_model(DFA, "k.py", ast.parse(DFA))
    kernel = model.kernels["_ac_match"]
    shapes = ShapeInference(kernel)
    loads = [c for c in kernel.calls("load")]
    assert all(shapes.shape(c, c.lineno) == () for c in loads)
    # one item per program carrying a gathered state: the items belong on the lanes
    assert "common-item-recurrence" in _cards(DFA)


def test_an_unnamed_fill_value_is_left_out_of_a_broadcast():
    model = build_model(CAUSAL, "k.py", ast.parse(CAUSAL))
    kernel = model.kernels["attn"]
    where = next(c for c in kernel.calls("where"))
    assert ShapeInference(kernel).shape(where, where.lineno) == ("BM", "BN")
    # the score tile's K is BN wide: no thin-K reading of `tl.dot(p, v)`
    assert "cuda-thin-k-tile" not in _cards(CAUSAL)


# ---- a table scan counted through a mask, against hashed elements

LOOKUP = HEADER + textwrap.dedent('''
    @triton.jit
    def _mix(x):
        x = x ^ (x >> 16)
        x = x * 73244475
        return x ^ (x >> 16)

    @triton.jit
    def lookup(data, keys, slot, N, F, BP: tl.constexpr, BF: tl.constexpr):
        p = tl.program_id(0) * BP + tl.arange(0, BP)
        live = p < N
        h = _mix(tl.load(data + p, mask=live, other=0)).to(tl.int64)
        rank = tl.zeros([BP], dtype=tl.int32)
        for start in range(0, F, BF):
            k = start + tl.arange(0, BF)
            kv = tl.load(keys + k, mask=k < F, other=0)
            below = (kv[None, :] < h[:, None]) & (k < F)[None, :]
            rank += tl.sum(below.to(tl.int32), axis=1)
        tl.store(slot + p, rank, mask=live)

    def run(data, keys):
        slot = torch.empty(data.numel(), dtype=torch.int32, device=data.device)
        lookup[(triton.cdiv(data.numel(), 128),)](data, keys, slot, data.numel(), keys.numel(), BP=128, BF=32)
        return slot
''')


def test_a_count_of_table_compares_through_a_mask_against_hashed_elements_is_a_table_scan():
    assert "common-linear-table-scan" in _cards(LOOKUP)
    # the same loop counting compares of the table with a constant is no per-element rank
    constant = LOOKUP.replace("(kv[None, :] < h[:, None])", "(kv[None, :] < 7)")
    assert "common-linear-table-scan" not in _cards(constant)


# ---- a select that only refills what the load's mask skipped

SOFTMAX = HEADER + textwrap.dedent('''
    @triton.jit
    def _masked_softmax(s, keep):
        s = tl.where(keep, s, float("-inf"))
        e = tl.exp(s - tl.max(s, axis=0))
        return e / tl.sum(e, axis=0)

    @triton.jit
    def softmax(x_ptr, len_ptr, out_ptr, T, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        length = tl.load(len_ptr + row)
        cols = tl.arange(0, BLOCK)
        keep = cols < length
        x = tl.load(x_ptr + row * T + cols, {mask}other=0.0)
        p = _masked_softmax(x, keep)
        tl.store(out_ptr + row * T + cols, p, mask=cols < T)

    def run(x, lengths):
        out = torch.empty_like(x)
        softmax[(x.shape[0],)](x, lengths, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return out
''')


def test_a_select_refilling_what_the_load_skipped_wastes_nothing():
    assert "common-mask-after-load" not in _cards(SOFTMAX.replace("{mask}", "mask=keep, "))
    # loaded whole up to the row's width, the select drops elements read for nothing
    assert "common-mask-after-load" in _cards(SOFTMAX.replace("{mask}", "mask=cols < T, "))


# ---- the ladder's weighing

def _finding(kind: str, family: str, card: str, confidence: float, kernel: str) -> Finding:
    return Finding(tier=1, kind=kind, card_id=card, rewrite_family=family, message="m",
                   confidence=confidence, location={"path": "k.py", "line": 3},
                   evidence={"facts": {"kernel": kernel}}, evidence_needed=[])


@pytest.mark.parametrize("estimate,measure,expected", [(0.75, 0.644, 0.75), (0.5, 0.644, 0.644)])
def test_the_trace_measure_of_an_idle_grid_counts_with_the_estimate_it_measured(estimate, measure, expected):
    source = _finding("pattern", "split-work-across-programs", "ascend-small-grid-underfill", estimate, "squeeze")
    traced = _finding("trace", "split-work-across-programs", "ascend-small-grid-underfill", measure, "squeeze")
    matvec = _finding("pattern", "tile-rows-into-dot", "ascend-matvec-per-row", 0.7, "excite")
    first = TierResult(tier=1, name="triage", findings=[source, matvec, traced])
    _supersede_grid(first, [traced])
    assert source.evidence.get("superseded_by_trace")
    ranked = {c.rewrite_family: c.score for c in rank([first])}
    # one fact, one look: the better of the estimate and the measure, not both together
    assert ranked["split-work-across-programs"] == expected
