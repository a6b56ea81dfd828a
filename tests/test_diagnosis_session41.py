"""Session 41: behaviour added for issue 12 (generalization), each test on the idiom, not a case."""

from __future__ import annotations

from diagnose.triage import triage
from tests.test_diagnosis_session26 import traced

HEADER = "import torch\nimport triton\nimport triton.language as tl\n"

# complex values (re, im interleaved) of a [B, T, F] spectrum; one program per frequency bin walks
# time, so its lanes are a whole row of F complex values apart
COMPLEX = HEADER + '''

@triton.jit
def bins(spec, coef, out, T, F, BLOCK_T: tl.constexpr):
    f = tl.program_id(0)
    b = tl.program_id(1)
    t = tl.arange(0, BLOCK_T)
    ok = t < T
    src = {address}
    re = tl.load(spec + src, mask=ok, other=0.0)
    im = tl.load(spec + src + 1, mask=ok, other=0.0)
    c_re = tl.load(coef + src, mask=ok, other=0.0)
    c_im = tl.load(coef + src + 1, mask=ok, other=0.0)
    tl.store(out + src, re * c_re - im * c_im, mask=ok)
    tl.store(out + src + 1, re * c_im + im * c_re, mask=ok)


def run(spec, coef):
    n_b, n_t, n_f, _ = spec.shape
    out = torch.empty_like(spec)
    bins[(n_f, n_b)](spec, coef, out, n_t, n_f, BLOCK_T=triton.next_power_of_2(n_t))
    return out
'''
BIN_MAJOR = "((b * T + t) * F + f) * 2"  # time walks rows F complex values long
TIME_MAJOR = "((b * F + f) * T + t) * 2"  # time is the contiguous axis: re and im fill it

COMPLEX_TASK = '''
import torch
META = {"sizes": {"small": {"n": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(2, 64, 96, 2, generator=g).to(device), torch.rand(2, 64, 96, 2, generator=g).to(device))
def reference(spec, coef):
    return torch.view_as_real(torch.view_as_complex(spec) * torch.view_as_complex(coef))
'''


def _strided(source: str) -> list:
    return [f for f in triage(source, "k.py", "cuda").findings if f.card_id == "cuda-strided-fast-axis"]


def test_a_scale_around_a_sum_multiplies_the_stride_of_the_index_inside_it():
    """`((b * T + t) * F + f) * 2`: `t` steps by F * 2 elements, not by the outer 2 alone, so the
    two fields (re at +0, im at +1) do not fill the gaps between lanes."""
    found = _strided(COMPLEX.replace("{address}", BIN_MAJOR))
    assert found and all(sorted(f.evidence["facts"]["multiplier"].split(" * ")) == ["2", "F"] for f in found)
    assert all(f.confidence >= 0.5 for f in found)
    # the time-major twin steps by 2 along time, and its two fields cover every address
    twin = _strided(COMPLEX.replace("{address}", TIME_MAJOR))
    assert all(f.evidence["facts"]["multiplier"] == "2" and f.confidence <= 0.35 for f in twin)


def test_two_fields_of_a_record_that_leave_most_of_each_sector_unused_are_strided_traffic(tmp_path):
    """Six accesses, none a fifth of the traffic alone: the trace weighs them together, and does
    not count re and im of complex values a row apart as one record's fields filling each other's
    sectors (together they use 8 of each 32-byte sector)."""
    wide = traced(tmp_path, "bin_major", COMPLEX_TASK, COMPLEX.replace("{address}", BIN_MAJOR))
    assert "coalesce-contiguous-axis" in {f.rewrite_family for f in wide}
    narrow = traced(tmp_path, "time_major", COMPLEX_TASK, COMPLEX.replace("{address}", TIME_MAJOR))
    assert "coalesce-contiguous-axis" not in {f.rewrite_family for f in narrow}


POINTS_TASK = '''
import torch
META = {"sizes": {"small": {"n": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(4096, 3, generator=g).to(device),)
def reference(p):
    return p / torch.sqrt((p * p).sum(dim=1, keepdim=True) + 1e-12)
'''
POINTS = HEADER + '''

@triton.jit
def norms(p, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    x = tl.load(p + i * 3, mask=ok, other=0.0)
    y = tl.load(p + i * 3 + 1, mask=ok, other=0.0)
    z = tl.load(p + i * 3 + 2, mask=ok, other=0.0)
    inv = 1.0 / tl.sqrt(x * x + y * y + z * z + 1e-12)
    tl.store(out + i * 3, x * inv, mask=ok)
    tl.store(out + i * 3 + 1, y * inv, mask=ok)
    tl.store(out + i * 3 + 2, z * inv, mask=ok)


def run(p):
    out = torch.empty_like(p)
    norms[(triton.cdiv(p.shape[0], 1024),)](p, out, p.shape[0], BLOCK=1024)
    return out
'''


def test_the_fields_of_small_records_still_fill_each_others_sectors(tmp_path):
    """x, y, z of 12-byte points, read and written back: six accesses whose fields fill the
    sectors together, so no strided traffic."""
    found = traced(tmp_path, "points", POINTS_TASK, POINTS)
    assert "coalesce-contiguous-axis" not in {f.rewrite_family for f in found}


ROLLING = HEADER + '''

@triton.jit
def _sq_return(row, u, ok):
    live = ok & (u >= 1)
    a = tl.load(row + u, mask=live, other=1.0)
    b = tl.load(row + u - 1, mask=live, other=1.0)
    r = tl.log(a / b)
    return r * r


@triton.jit
def rolling(mid, rv, T, W, stride, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    t = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = t < T
    row = mid + s * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, W):
        acc += {term}
    tl.store(rv + s * stride + t, tl.sqrt(acc), mask=ok)


def run(mid, W):
    rv = torch.empty_like(mid)
    rolling[(mid.shape[0], triton.cdiv(mid.shape[1], 1024))](mid, rv, mid.shape[1], W, mid.stride(0), BLOCK=1024)
    return rv
'''


def _cards(source: str) -> set[str]:
    return {f.card_id for f in triage(source, "k.py", "cuda").findings}


def test_a_window_re_summed_through_a_function_of_its_elements_is_a_window_resum():
    """The window's elements reach the sum through names computed from them (`r = log(a / b)`,
    here inside a helper): still one pass per offset over overlapping windows."""
    assert "common-window-resum" in _cards(ROLLING.replace("{term}", "_sq_return(row, t - k, ok)"))
    # a filter's taps: a second load indexed by the offset alone weighs each element differently
    taps = ROLLING.replace("    for k in range(0, W):\n        acc += {term}",
                           "    for k in range(0, W):\n"
                           "        w = tl.load(mid + k)\n"
                           "        acc += w * tl.load(row + t - k, mask=ok & (t >= k), other=0.0)")
    assert "common-window-resum" not in _cards(taps)


RANKS = HEADER + '''

@triton.jit
def ranks(keys, out, L, BI: tl.constexpr, BL: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.arange(0, BL)
    k_j = tl.load(keys + b * L + cols, mask=cols < L, other=-float("inf"))
    for i0 in range(0, L, BI):
        rows = i0 + tl.arange(0, BI)
        k_i = tl.load(keys + b * L + rows, mask=rows < L, other=-float("inf"))
        earlier = {earlier}
        ahead = (k_j[None, :] > k_i[:, None]) | ((k_j[None, :] == k_i[:, None]) & earlier)
        rank = tl.sum(ahead.to(tl.float32), axis=1)
        tl.store(out + b * L + rows, tl.where(rank < 10.0, rank, -1.0), mask=rows < L)


def run(keys):
    out = torch.empty_like(keys)
    ranks[(keys.shape[0],)](keys, out, keys.shape[1], BI=8, BL=triton.next_power_of_2(keys.shape[1]))
    return out
'''


def test_an_integer_compare_turned_into_numbers_runs_on_the_scalar_unit_on_ascend():
    """A stable sort's tie-break (`cols < rows`) counted through `.to(tl.float32)`: the int32
    compare is data, not a transfer's bounds, so it is the where-int-compare idiom on Ascend; the
    same compare on float positions is not."""
    findings = triage(RANKS.replace("{earlier}", "cols[None, :] < rows[:, None]"), "k.py", "ascend").findings
    assert any(f.card_id == "ascend-int-compare-where" and "turns into numbers" in f.message for f in findings)
    floats = RANKS.replace("{earlier}", "cols.to(tl.float32)[None, :] < rows.to(tl.float32)[:, None]")
    assert "ascend-int-compare-where" not in {f.card_id for f in triage(floats, "k.py", "ascend").findings}


def test_a_triangle_counted_into_a_rank_is_no_causal_mask_over_the_tiles():
    """The compare of two position tiles sits inside a sum that turns it into a rank: the select
    after it cuts no triangle of tiles, so no loop can skip tiles past a diagonal."""
    source = RANKS.replace("{earlier}", "cols[None, :] < rows[:, None]")
    assert "common-causal-full-scan" not in {f.card_id for f in triage(source, "k.py", "cuda").findings}


def test_a_launch_loops_kernel_handing_a_buffer_to_another_kernel_is_no_reread_of_its_own_input():
    """The trace's passes through memory refine a launch loop into a fusion only when the loop's
    kernel reads again what it read before; a buffer it hands to another kernel launched beside it
    is an intermediate, and the loop's launches stay the cost."""
    from diagnose.evidence import Finding
    from diagnose.ladder import _rereads_own_input

    loop = Finding(tier=1, kind="pattern", card_id="common-launch-loop", rewrite_family="one-launch-over-grid",
                   message="launch loop", confidence=0.7, evidence={"facts": {"kernel": "rank"}})

    def passes(readers: list[str]) -> Finding:
        return Finding(tier=1, kind="trace", card_id="common-unfused-launches", rewrite_family="fuse-launches",
                       message="passes", confidence=0.4,
                       evidence={"facts": {"kernels": ["rank"], "readers": readers}})

    assert _rereads_own_input(passes(["rank"]), loop)
    assert not _rereads_own_input(passes(["lambda"]), loop)
    assert not _rereads_own_input(passes(["rank", "lambda"]), loop)


BOOK = HEADER + '''

@triton.jit
def imbalance(book, out, n_levels, {stride_param}, BL: tl.constexpr):
    t = tl.program_id(0) + 1
    lvl = tl.arange(0, BL)
    ok = lvl < n_levels
    now = book + t * {stride} + lvl * 2
    before = book + (t - 1) * {stride} + lvl * 2
    bid = tl.load(now, mask=ok, other=0.0) - tl.load(before, mask=ok, other=0.0)
    ask = tl.load(now + 1, mask=ok, other=0.0) - tl.load(before + 1, mask=ok, other=0.0)
    tl.store(out + t * n_levels + lvl, bid - ask, mask=ok)


def run(book):
    out = torch.empty((book.shape[0], book.shape[1] // 2), device=book.device)
    imbalance[(book.shape[0] - 1,)](book, out, book.shape[1] // 2, {stride_arg},
                                    BL=triton.next_power_of_2(book.shape[1] // 2))
    return out
'''


def _launch_readings(source: str) -> set[str]:
    # the ladder re-reads the source with the launch values its IR capture resolved
    return {f.card_id for f in triage(source, "k.py", "cuda", resolved={"imbalance": {"BL": 16}}).findings}


def test_one_item_per_program_a_stride_apart_is_a_row_per_program_not_a_small_block():
    """A program per book update, its tile one row of levels found at the program's id times the
    stride the launch passes: the rows are not one flat range a bigger block could cover, so the
    fix is more rows per program. Rows laid back to back (the id times the row's own length) are
    one range, and there the block's size is the knob."""
    strided = BOOK.replace("{stride_param}", "row_stride").replace("{stride}", "row_stride") \
        .replace("{stride_arg}", "book.stride(0)")
    readings = _launch_readings(strided)
    assert "common-row-per-program" in readings and "common-block-size" not in readings
    packed = BOOK.replace("{stride_param}", "row_len").replace("{stride}", "row_len") \
        .replace("{stride_arg}", "book.shape[1]")
    readings = _launch_readings(packed)
    assert "common-block-size" in readings and "common-row-per-program" not in readings
