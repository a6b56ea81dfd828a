"""Session 21's general rules. An Ascend grid sized to the smallest Atlas A2 part (40 vector cores,
20 cube cores) fills the part it runs on: neither the source reading nor the CPU trace calls it
an underfilled grid, while a grid well below it still is."""

from __future__ import annotations

import pytest

from diagnose.triage import triage

# a triton-ascend style reduction: a fixed grid of CORES programs, each looping over its rows
GRID_LOOP = '''
import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    for row in range(pid, n_rows, step):
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(out_ptr + row, tl.sum(v, axis=0))


def run(x):
    out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
    cores = CORES
    k[(cores,)](x, out, x.shape[0], x.shape[1], BLOCK=1024)
    return out
'''


def _underfill(cores: int) -> list:
    found = triage(GRID_LOOP.replace("CORES", str(cores)), "k.py", "ascend").findings
    return [f for f in found if f.rewrite_family == "split-work-across-programs"]


@pytest.mark.parametrize("cores", [40, 44])
def test_a_grid_of_the_smallest_parts_vector_cores_is_not_underfill(cores):
    assert _underfill(cores) == []


def test_a_grid_well_below_the_cores_is_still_underfill():
    found = _underfill(8)
    assert found and "8 programs" in found[0].message


TASK = '''
import torch

META = {"sizes": {"small": {"R": 256, "C": 1024}, "large": {"R": 256, "C": 1024}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(s["R"], s["C"], generator=g).to(device),)


def reference(x):
    return x.sum(dim=1)
'''


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("trace21")
    (root / "task.py").write_text(TASK)
    for cores in (8, 40):
        (root / f"grid{cores}.py").write_text(GRID_LOOP.replace("CORES", str(cores)))
    return root


@pytest.mark.xdist_group("trace")
@pytest.mark.parametrize("cores, underfilled", [(8, True), (40, False)])
def test_the_trace_weighs_an_ascend_grid_against_the_part_it_fills(folder, cores, underfilled, tmp_path_factory,
                                                                    monkeypatch):
    from diagnose.profiling.trace import run_trace, trace_findings

    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path_factory.getbasetemp() / "trace21-cache"))
    kernel = folder / f"grid{cores}.py"
    report = run_trace(folder, kernel, size="small")
    assert report["setup_error"] is None, report.get("setup_traceback")
    found = [f for f in trace_findings(report, kernel, backend="ascend")
             if f.rewrite_family == "split-work-across-programs"]
    assert bool(found) is underfilled


# ---------------------------------------------------------------- a walk whose prefix states are used

# one program per list, its length read from memory, walked backwards one element per step:
# a running (max, sum) pair carried through a helper, and a function of it summed every step
SCAN_WALK = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _merge(m, s, x):
    m_new = tl.maximum(m, x)
    return m_new, s * tl.exp(m - m_new) + tl.exp(x - m_new)


@triton.jit
def k(x_ptr, idx_ptr, len_ptr, out_ptr, stride):
    row = tl.program_id(0)
    n = tl.load(len_ptr + row)
    base = x_ptr + row * stride
    m = -float("inf")
    s = 0.0
    total = 0.0
    for i in range(0, n):
        x = tl.load(base + tl.load(idx_ptr + row * stride + n - 1 - i))
        m, s = _merge(m, s, x)
        total += {use}
    tl.store(out_ptr + row, total)
'''


def _families(source: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for f in triage(source, "k.py", "cuda").findings:
        found[f.rewrite_family] = max(found.get(f.rewrite_family, 0.0), f.confidence)
    return found


def test_a_walk_that_sums_a_function_of_its_running_state_is_a_scan():
    found = _families(SCAN_WALK.replace("{use}", "tl.log(s) + m - x"))
    assert found.get("use-associative-scan", 0) >= 0.7
    assert "vectorize-loads" not in found  # a tile and one tl.sum cannot keep every prefix
    # the trip count is the program's own length, read from memory, over its own row: no
    # earlier program's tiles are re-read
    assert "carry-running-prefix" not in found


def test_a_walk_whose_running_state_is_only_used_at_the_end_is_no_scan():
    found = _families(SCAN_WALK.replace("{use}", "x"))
    assert "use-associative-scan" not in found
    assert found.get("vectorize-loads", 0) >= 0.6


# ---------------------------------------------------------------- a causal mask through derived positions

BLOCK_CAUSAL = '''
import triton
import triton.language as tl


@triton.jit
def k(q_ptr, k_ptr, o_ptr, L, chunk, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + d[None, :])
    q_block = rows // chunk
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start in range(0, L, BLOCK_N):
        cols = start + offs_n
        kt = tl.load(k_ptr + cols[None, :] * D + d[:, None])
        s = tl.dot(q, kt)
        keep = {keep}
        p = tl.where(keep, s, 0.0)
        acc += tl.dot(p.to(tl.float16), tl.trans(kt))
    tl.store(o_ptr + rows[:, None] * D + d[None, :], acc)
'''


def test_a_block_causal_mask_of_derived_positions_is_a_full_scan():
    found = _families(BLOCK_CAUSAL.replace("{keep}", "(cols // chunk)[None, :] <= q_block[:, None]"))
    assert found.get("skip-masked-tiles", 0) >= 0.7


def test_a_bounds_check_of_a_derived_position_is_no_full_scan():
    found = _families(BLOCK_CAUSAL.replace("{keep}", "(cols < L)[None, :]"))
    assert "skip-masked-tiles" not in found


# ---------------------------------------------------------------- a weak cause does not take a symptom

def test_a_weak_hypothesis_does_not_take_a_symptom_from_a_confident_one():
    from diagnose.evidence import Finding
    from diagnose.ladder import _most_direct

    fact = Finding(tier=3, kind="ir-symptom", card_id="", rewrite_family="", message="unstructured",
                   confidence=0.9, evidence={"explains_cards": ["ascend-div-mod-unstructured",
                                                                "ascend-transposed-tile"], "weight": 3})
    weak = Finding(tier=1, kind="pattern", card_id="ascend-div-mod-unstructured",
                   rewrite_family="avoid-div-mod-index", message="// by 2", confidence=0.4)
    sure = Finding(tier=1, kind="pattern", card_id="ascend-transposed-tile",
                   rewrite_family="load-contiguous-transpose-on-chip", message="transposed", confidence=0.7)
    kept = _most_direct([(weak, fact), (sure, fact)])
    assert [h.card_id for h, _ in kept] == ["ascend-transposed-tile"]
    # of two causes about as sure, the fact's own order still decides
    weak.confidence = 0.65
    kept = _most_direct([(weak, fact), (sure, fact)])
    assert [h.card_id for h, _ in kept] == ["ascend-div-mod-unstructured"]


# ---------------------------------------------------------------- a dot over rows a mask zeroed

DOT_TASK = '''
import torch

META = {"name": "taps", "sizes": {"small": {"T": 32768, "C": 64, "N": 64}, "large": {"T": 32768, "C": 64, "N": 64}},
        "dtypes": ["float16"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["T"], s["C"], generator=g).to(torch.float16)
    w = torch.randn(8, s["C"], s["N"], generator=g).to(torch.float16)
    return x.to(device), w.to(device)


def reference(x, w):
    return None
'''

# each output row uses one tap of eight (t % 8); every tap's step multiplies the whole row tile
TAPS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def taps_kernel(x_ptr, w_ptr, out_ptr, T, C: tl.constexpr, N: tl.constexpr, BLOCK_M: tl.constexpr,
                BLOCK_K: tl.constexpr):
    t = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.arange(0, N)
    acc = tl.zeros([BLOCK_M, N], dtype=tl.float32)
    for tap in range(0, 8):
        live = {live}
        for k0 in range(0, C, BLOCK_K):
            kk = k0 + tl.arange(0, BLOCK_K)
            x = tl.load(x_ptr + t[:, None] * C + kk[None, :], mask=live[:, None] & (t[:, None] < T), other=0.0)
            w = tl.load(w_ptr + tap * C * N + kk[:, None] * N + n[None, :])
            acc += tl.dot(x, w)
    tl.store(out_ptr + t[:, None] * N + n[None, :], acc.to(tl.float16), mask=t[:, None] < T)


def run(x, w):
    T, C = x.shape
    out = torch.empty((T, w.shape[2]), dtype=x.dtype, device=x.device)
    cfg = {"BLOCK_M": 128, "BLOCK_K": C // 4}  # 16: known only at the launch
    taps_kernel[(triton.cdiv(T, 128),)](x, w, out, T, C=C, N=w.shape[2], **cfg)
    return out
'''


@pytest.fixture(scope="module")
def taps(tmp_path_factory):
    root = tmp_path_factory.mktemp("taps21")
    for name, live in (("sparse", "(t % 8) == tap"), ("dense", "t >= 0")):
        folder = root / name
        folder.mkdir()
        (folder / "task.py").write_text(DOT_TASK)
        (folder / "baseline.py").write_text(TAPS.replace("{live}", live))
    return root


@pytest.mark.xdist_group("trace")
@pytest.mark.parametrize("name, zeroed", [("sparse", True), ("dense", False)])
def test_the_trace_measures_dot_products_of_rows_a_mask_zeroed(taps, name, zeroed, tmp_path_factory, monkeypatch):
    from diagnose.profiling.trace import run_trace, trace_findings

    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path_factory.getbasetemp() / "taps21-cache"))
    folder = taps / name
    report = run_trace(folder, folder / "baseline.py", size="small")
    assert report["setup_error"] is None, report.get("setup_traceback")
    found = [f for f in trace_findings(report, folder / "baseline.py") if f.card_id == "common-zero-row-dot"]
    assert bool(found) is zeroed
    if zeroed:
        assert found[0].evidence["facts"]["zero_share"] >= 0.85  # 7 rows of 8


@pytest.mark.xdist_group("trace")
def test_a_measured_waste_of_most_of_the_work_outweighs_an_ir_fact_that_concludes_alone(
        taps, tmp_path_factory, monkeypatch):
    """Tier 3 names the thin K step (16 fp16 values per dot); the trace measured seven eighths
    of the products made by zero rows: that answers. Without the zeroed rows the IR fact stands."""
    from tests.test_ladder import climb

    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path_factory.getbasetemp() / "taps21-cache"))
    sparse, dense = climb(taps / "sparse", trace=True), climb(taps / "dense", trace=True)
    assert dense.conclusion is not None and dense.conclusion.rewrite_family == "block-size-tuning"
    assert sparse.conclusion is not None and sparse.conclusion.rewrite_family == "skip-masked-tiles"
    # confirmed or alone (the IR's launch values re-read into the source decide which), the
    # IR's thin-K fact gives way to the measure
    assert "cuda-thin-k-tile" in sparse.reason and "the CPU trace measured where the" in sparse.reason
