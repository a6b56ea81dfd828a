"""Tier 1 classes from session 10's development misses: atomics that are a segmented reduction
(one contiguous run of elements per address) and a launch loop that carries an accumulator
through global memory."""

from __future__ import annotations

from diagnose.triage import triage


def _families(source: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for f in triage(source, "k.py", "cuda").findings:
        out[f.rewrite_family] = max(out.get(f.rewrite_family, 0.0), f.confidence)
    return out


ATOMICS = '''
import torch, triton, triton.language as tl


@triton.jit
def loss_kernel(x_ptr, idx_ptr, out_ptr, total, L, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    v = tl.load(x_ptr + offs, mask=mask, other=0.0){pre}
    tl.atomic_add(out_ptr + {index}, v * v, mask=mask)


def run(x, idx, L, C):
    out = torch.zeros(x.shape[0], device=x.device, dtype=torch.float32)
    loss_kernel[(triton.cdiv(x.numel(), 1024),)](x, idx, out, x.numel(), L, C, BLOCK=1024)
    return out
'''


def test_atomics_into_flat_index_floor_divided_by_a_row_length_are_a_segmented_reduction() -> None:
    """`offs // L`: every address receives one contiguous run of elements (a row): one program
    per row reduces it in registers, the tree-reduction family, not a scatter to aggregate."""
    found = _families(ATOMICS.format(index="offs // L", pre=""))
    assert found.get("tree-reduction-not-atomics", 0) >= 0.75
    assert "aggregate-before-atomics" not in found


def test_wrapped_or_loaded_atomic_indices_stay_scatters() -> None:
    """`(offs // L) % C` sends many separate runs to each address (a per-channel sum across
    rows), and a loaded index is data-chosen: both stay scatter atomics to aggregate first."""
    loaded = "\n    idx = tl.load(idx_ptr + offs, mask=mask, other=0)"
    for index, pre in (("(offs // L) % C", ""), ("idx", loaded)):
        found = _families(ATOMICS.format(index=index, pre=pre))
        assert found.get("aggregate-before-atomics", 0) >= 0.7, index
        assert found.get("tree-reduction-not-atomics", 0) < 0.75, index


LOOP = '''
import torch, triton, triton.language as tl


@triton.jit
def add_slot_kernel(acc_ptr, x_ptr, out_ptr, H, BLOCK: tl.constexpr):
    t = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + t * H + cols, mask=cols < H, other=0.0).to(tl.float32)
    {body}


def run(x):
    T, K, H = x.shape
    acc = torch.zeros((T, H), dtype=torch.float32, device=x.device)
    outs = torch.empty((K, T, H), dtype=torch.float32, device=x.device)
    for k in range(K):
        add_slot_kernel[(T,)](acc, x[:, k], outs[k], H, BLOCK=1024)
    return acc
'''


def test_a_launch_loop_that_reads_and_writes_back_one_buffer_is_a_carried_accumulator() -> None:
    body = ("a = tl.load(acc_ptr + t * H + cols, mask=cols < H, other=0.0)\n"
            "    tl.store(acc_ptr + t * H + cols, a + x, mask=cols < H)")
    loop = [f for f in triage(LOOP.format(body=body), "k.py", "cuda").findings
            if f.rewrite_family == "one-launch-over-grid"]
    assert loop and loop[0].confidence >= 0.85 and "`acc`" in loop[0].message


def test_a_launch_loop_writing_a_fresh_slice_each_iteration_carries_nothing() -> None:
    """Each iteration stores into its own slice and only reads its input: the loop costs
    launches, not an accumulator's round trips."""
    body = "tl.store(out_ptr + t * H + cols, x * 2, mask=cols < H)"
    loop = [f for f in triage(LOOP.format(body=body), "k.py", "cuda").findings
            if f.rewrite_family == "one-launch-over-grid"]
    assert loop and loop[0].confidence == 0.7


CAST_AFTER = '''
import torch, triton, triton.language as tl


@triton.jit
def square_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    tl.store(acc_ptr + offs, {value}, mask=offs < n)


@triton.jit
def second_kernel(acc_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(acc_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, {second}, mask=offs < n)


def run(x):
    n = x.numel()
    acc = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    out = torch.empty_like(x)
    square_kernel[(triton.cdiv(n, 1024),)](x, acc, n, BLOCK=1024)
    second_kernel[(triton.cdiv(n, 1024),)](acc, out, n, BLOCK=1024)
    return out
'''


def test_a_buffer_handed_to_a_cast_only_kernel_is_the_cast_finding_not_an_unfused_pair() -> None:
    """The second launch only converts the fp32 buffer back: the host-casts finding names the
    round trip (one family, not two); a second launch that computes is an unfused pair."""
    cast = _families(CAST_AFTER.format(value="x * x", second="a.to(out_ptr.dtype.element_ty)"))
    assert cast.get("cast-inside-kernel", 0) >= 0.8 and "fuse-launches" not in cast
    work = _families(CAST_AFTER.format(value="x * x", second="tl.exp(a).to(out_ptr.dtype.element_ty)"))
    assert work.get("fuse-launches", 0) >= 0.75 and "cast-inside-kernel" not in work
