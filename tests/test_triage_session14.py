"""Tier 1 classes from session 14's development misses: whole tiles held across a serial loop
by the default four warps, a small grid whose loop is a serial recurrence (its split is ruled
out), and launches that share only an integer argument."""

from __future__ import annotations

from pathlib import Path

from diagnose.ladder import Context
from diagnose.target import Target
from diagnose.triage import triage

# One program per point cloud: the cloud's coordinates and the running distances stay in
# registers while each step picks the farthest point and loads it (the address comes from the
# previous step's argmax).
SAMPLER = '''
import torch, triton, triton.language as tl


@triton.jit
def sample(xyz_ptr, idx_ptr, N, steps, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    offs = tl.arange(0, BLOCK_N)
    mask = offs < N
    x = tl.load(xyz_ptr + b * N * 2 + offs * 2, mask=mask, other=0.0)
    y = tl.load(xyz_ptr + b * N * 2 + offs * 2 + 1, mask=mask, other=0.0)
    dist = tl.where(mask, 1e10, -1.0)
    last = b * 0
    for i in range(1, steps):
        cx = tl.load(xyz_ptr + b * N * 2 + last * 2)
        cy = tl.load(xyz_ptr + b * N * 2 + last * 2 + 1)
        dist = tl.minimum(dist, (x - cx) * (x - cx) + (y - cy) * (y - cy))
        last = tl.argmax(dist, axis=0)
        tl.store(idx_ptr + b * steps + i, last)


def run(xyz, steps):
    B, N, _ = xyz.shape
    idx = torch.zeros((B, steps), dtype=torch.int32, device=xyz.device)
    sample[(32,)](xyz, idx, N, steps, BLOCK_N=triton.next_power_of_2(N){warps})
    return idx
'''

# The same small grid over a loop that only accumulates: its steps can be shared out.
ACCUMULATE = '''
import torch, triton, triton.language as tl


@triton.jit
def total(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + b * N + offs, mask=offs < N, other=0.0)
    tl.store(out_ptr + b, tl.sum(acc, axis=0))


def run(x):
    out = torch.empty(32, device=x.device)
    total[(32,)](x, out, x.shape[1], BLOCK=1024)
    return out
'''


def _by_card(source: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for f in triage(source, "k.py", "cuda").findings:
        out.setdefault(f.card_id, []).append(f)
    return out


def test_whole_tiles_kept_across_a_loop_by_default_warps_are_too_few_warps() -> None:
    found = _by_card(SAMPLER.format(warps=""))
    warps = found["cuda-too-few-warps"][0]
    assert warps.rewrite_family == "num-warps-tuning"
    assert "(x, y)" in warps.message and warps.evidence["facts"]["num_warps"] == 4
    # sixteen warps already share the tiles out; a kernel without a resident tile is not flagged
    assert "cuda-too-few-warps" not in _by_card(SAMPLER.format(warps=", num_warps=16"))
    assert "cuda-too-few-warps" not in _by_card(ACCUMULATE)


def test_a_small_grid_over_a_serial_recurrence_is_kept_but_no_hypothesis() -> None:
    serial = _by_card(SAMPLER.format(warps=""))["cuda-small-grid-underfill"][0]
    assert serial.evidence["facts"]["refuted"] and serial.confidence < 0.4
    assert "serial recurrence" in serial.message
    plain = _by_card(ACCUMULATE)["cuda-small-grid-underfill"][0]
    assert "refuted" not in plain.evidence["facts"] and plain.confidence >= 0.6
    ctx = Context(target=Target("k", "kernel", Path("k.py")), backend="cuda",
                  source=SAMPLER.format(warps=""))
    ctx.evidence.append(triage(ctx.source, "k.py", "cuda"))
    cards = {h.card_id for h in ctx.hypotheses()}
    assert "cuda-too-few-warps" in cards and "cuda-small-grid-underfill" not in cards

