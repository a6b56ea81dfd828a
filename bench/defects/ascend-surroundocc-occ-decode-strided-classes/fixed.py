"""Occupancy decoding: per-voxel argmax label and softmax confidence over the class axis."""
import torch
import triton
import triton.language as tl

NUM_PROGRAMS = 40


@triton.jit
def _occ_decode(logits, label, conf, V, C, n_blocks, BLOCK_V: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for t in range(pid, n_blocks, nprog):
        b = t // tl.cdiv(V, BLOCK_V)
        v0 = (t % tl.cdiv(V, BLOCK_V)) * BLOCK_V
        v = v0 + tl.arange(0, BLOCK_V)
        m = v < V
        plane = logits + b * C * V
        best = tl.load(plane + v, mask=m, other=0.0)
        arg = tl.zeros([BLOCK_V], dtype=tl.int32)
        total = tl.full([BLOCK_V], 1.0, dtype=tl.float32)
        for c in range(1, C):
            x = tl.load(plane + c * V + v, mask=m, other=0.0)
            hi = tl.maximum(best, x)
            total = total * tl.exp(best - hi) + tl.exp(x - hi)
            arg = tl.where(x > best, c, arg)
            best = hi
        tl.store(label + b * V + v, arg, mask=m)
        tl.store(conf + b * V + v, 1.0 / total, mask=m)


def run(logits: torch.Tensor):
    B, C = logits.shape[0], logits.shape[1]
    V = logits[0, 0].numel()
    label = torch.empty((B,) + tuple(logits.shape[2:]), device=logits.device, dtype=torch.int32)
    conf = torch.empty(label.shape, device=logits.device, dtype=logits.dtype)
    BLOCK_V = 1024
    n_blocks = B * triton.cdiv(V, BLOCK_V)
    grid = (min(NUM_PROGRAMS, n_blocks),)
    _occ_decode[grid](logits, label, conf, V, C, n_blocks, BLOCK_V=BLOCK_V)
    return label, conf
