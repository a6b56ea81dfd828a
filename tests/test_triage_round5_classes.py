"""Four defect classes fresh development cases showed (issue 12, round 5), in general form: a zero
fill of an output the kernel writes in full, a triangle drawn by a distance between positions, a
launch loop reached through a launcher helper, and a memory-reading @triton.jit helper called with
loop-invariant arguments. Each: tier 1 on a kernel it fits and one it must leave alone."""

from __future__ import annotations

from diagnose.triage import triage


def _top(source: str) -> tuple[str, float]:
    findings = triage(source, "k.py", "cuda").findings
    return findings[0].card_id, findings[0].confidence


def _cards(source: str) -> dict[str, float]:
    return {f.card_id: f.confidence for f in triage(source, "k.py", "cuda").findings}


TRIL = '''
import torch, triton, triton.language as tl

@triton.jit
def lower_kernel(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r * N + cols, mask=cols < N, other=0.0)
    tl.store(out_ptr + r * N + cols, tl.where(cols <= r % M, x, 0.0), mask={store_mask})

def run(x):
    B, M, N = x.shape
    out = torch.zeros_like(x)
    lower_kernel[(B * M, triton.cdiv(N, 1024))](x, out, M, N, BLOCK=1024)
    return out
'''


def test_a_zero_fill_of_an_output_every_element_of_which_is_stored_outranks_a_load_mask() -> None:
    card, confidence = _top(TRIL.format(store_mask="cols < N"))
    assert card == "common-zeroed-output" and confidence == 0.7
    # stores cut by position leave the zeros to provide the rest: the fill is then only maybe extra
    cards = _cards(TRIL.format(store_mask="(cols < N) & (cols <= r % M)"))
    assert cards["common-zeroed-output"] == 0.6


DECAY = '''
import torch, triton, triton.language as tl

@triton.jit
def decay_kernel(q_ptr, k_ptr, v_ptr, o_ptr, N, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + d[None, :])
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start in range({loop_end}):
        cols = start + tl.arange(0, BN)
        k = tl.load(k_ptr + cols[None, :] * D + d[:, None])
        v = tl.load(v_ptr + cols[:, None] * D + d[None, :])
        dist = (rows[:, None] - cols[None, :]).to(tl.float32)
        w = tl.where(dist >= 0, tl.exp2(-dist), 0.0)
        acc += tl.dot((tl.dot(q, k) * w).to(v.dtype), v)
    tl.store(o_ptr + rows[:, None] * D + d[None, :], acc.to(tl.float16))
'''


def test_a_triangle_drawn_by_the_distance_between_positions_is_a_causal_full_scan() -> None:
    assert "common-causal-full-scan" in _cards(DECAY.format(loop_end="0, N, BN"))
    # the loop already stops at the program's diagonal
    stopped = DECAY.format(loop_end="0, (tl.program_id(0) + 1) * BM, BN")
    assert "common-causal-full-scan" not in _cards(stopped)


def test_a_difference_of_an_index_and_a_scalar_is_a_bounds_check_not_a_triangle() -> None:
    bounds = DECAY.replace("dist = (rows[:, None] - cols[None, :])", "dist = (N - cols[None, :])")
    assert "common-causal-full-scan" not in _cards(bounds.format(loop_end="0, N, BN"))


LOOPED = '''
import torch, triton, triton.language as tl

@triton.jit
def sq_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x * x, mask=offs < n)

def one(x, out):
    sq_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)

def run(xs, outs):
{body}
'''


def test_a_launch_repeated_by_a_loop_around_its_launcher_helper_is_a_launch_loop() -> None:
    cards = _cards(LOOPED.format(body="    for x, out in zip(xs, outs):\n        one(x, out)\n    return outs"))
    assert "common-launch-loop" in cards
    once = LOOPED.format(body="    one(xs, outs)\n    return outs")
    assert "common-launch-loop" not in _cards(once)


HELPER = '''
import torch, triton, triton.language as tl

@triton.jit
def _row_rstd(x_row, N, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc += x * x
    return tl.rsqrt(tl.sum(acc, axis=0) / N)

@triton.jit
def norm_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    x_row = x_ptr + tl.program_id(0) * N
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        r = _row_rstd({row_arg}, N, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0)
        tl.store(y_ptr + tl.program_id(0) * N + cols, x * r, mask=cols < N)
'''


def test_a_memory_reading_helper_called_with_loop_invariant_arguments_is_loop_invariant_work() -> None:
    assert "common-loop-invariant-work" in _cards(HELPER.format(row_arg="x_row"))
    # an argument that changes every iteration: the helper's work is not the same each time
    assert "common-loop-invariant-work" not in _cards(HELPER.format(row_arg="x_row + start"))


CONV = '''
import torch, triton, triton.language as tl

@triton.jit
def walk_kernel(x_ptr, y_ptr, L, stride_xr, stride_xl, BLOCK: tl.constexpr):
    pos = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * stride_xr + pos * stride_xl, mask=pos < L, other=0.0)
    tl.store(y_ptr + tl.program_id(0) * L + pos, x * 2, mask=pos < L)

def run(x):
    B, L, D = x.shape
    y = torch.empty(B * D, L, device=x.device, dtype=x.dtype)
    xt = {view}
    walk_kernel[(B * D, triton.cdiv(L, 256))](xt, y, L, xt.stride(1), xt.stride(2), BLOCK=256)
    return y
'''


def test_a_kernel_driven_through_a_transposed_views_strides_walks_a_strided_inner_axis() -> None:
    assert "cuda-strided-fast-axis" in _cards(CONV.format(view="x.transpose(1, 2)"))
    assert "cuda-strided-fast-axis" in _cards(CONV.format(view="x.permute(0, 2, 1)"))
    # the view's untouched axis: x.stride(2) of x itself is the unit stride
    assert "cuda-strided-fast-axis" not in _cards(CONV.format(view="x"))


RUNS = '''
import torch, triton, triton.language as tl

@triton.jit
def chan_kernel(x_ptr, dw_ptr, HW, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(dw_ptr + {address}, x, mask=offs < n)
'''


def test_per_element_atomics_to_a_computed_index_shared_by_neighbouring_lanes_are_a_scatter() -> None:
    # runs wrapped onto the same addresses again (a per-channel sum over [N, C, HW]): a scatter
    assert _cards(RUNS.format(address="(offs // HW) % 4")).get("common-scatter-atomics") == 0.7
    # session 10: the program's flat index floor-divided with no wrap gives each address one
    # contiguous segment: a segmented reduction (tests/test_triage_session10.py)
    assert _cards(RUNS.format(address="offs // HW")).get("cuda-atomic-reduction") == 0.75
    # one address per lane: nothing collides within the program
    assert "common-scatter-atomics" not in _cards(RUNS.format(address="offs"))


HELPERS = '''
import torch, triton, triton.language as tl

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, a + tl.load(b_ptr + offs, mask=offs < n), mask=offs < n)

def _scale(x):
    out = {alloc}
    scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out

def _add(a, b):
    out = torch.empty_like(a)
    add_kernel[(triton.cdiv(a.numel(), 1024),)](a, b, out, a.numel(), BLOCK=1024)
    return out

def run(x, r):
    return {body}
'''


def test_a_buffer_one_launcher_helper_writes_and_another_reads_is_an_unfused_round_trip() -> None:
    for body in ("_add(r, _scale(x))", "_add(_scale(x), r)"):
        assert _cards(HELPERS.format(alloc="torch.empty_like(x)", body=body)).get(
            "common-unfused-launches") == 0.75
    # two helpers on unrelated inputs: nothing is handed between them
    apart = HELPERS.format(alloc="torch.empty_like(x)", body="(_add(r, x), _scale(x))")
    assert "common-unfused-launches" not in _cards(apart)


def test_a_zero_fill_made_by_an_allocation_helper_is_seen_at_the_launch() -> None:
    source = HELPERS.format(alloc="_zeros(x)", body="_scale(x)").replace(
        "def _scale(x):", "def _zeros(like):\n    return torch.zeros_like(like)\n\ndef _scale(x):")
    assert "common-zeroed-output" in _cards(source)
    assert "common-zeroed-output" not in _cards(source.replace("torch.zeros_like(like)", "torch.empty_like(like)"))
