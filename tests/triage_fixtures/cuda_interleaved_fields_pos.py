# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def pose_kernel(pose_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    rec = pose_ptr + i * 12
    r0 = tl.load(rec + 0, mask=m, other=0.0)  # expect: cuda-interleaved-fields
    r1 = tl.load(rec + 1, mask=m, other=0.0)
    r2 = tl.load(rec + 2, mask=m, other=0.0)
    r3 = tl.load(rec + 3, mask=m, other=0.0)
    r4 = tl.load(rec + 4, mask=m, other=0.0)
    r5 = tl.load(rec + 5, mask=m, other=0.0)
    r6 = tl.load(rec + 6, mask=m, other=0.0)
    r7 = tl.load(rec + 7, mask=m, other=0.0)
    r8 = tl.load(rec + 8, mask=m, other=0.0)
    tx = tl.load(rec + 9, mask=m, other=0.0)
    ty = tl.load(rec + 10, mask=m, other=0.0)
    tz = tl.load(rec + 11, mask=m, other=0.0)
    det = r0 * (r4 * r8 - r5 * r7) - r1 * (r3 * r8 - r5 * r6) + r2 * (r3 * r7 - r4 * r6)
    tl.store(out_ptr + i, det + tx * tx + ty * ty + tz * tz, mask=m)


def run(poses):
    n = poses.shape[0]
    out = torch.empty(n, device=poses.device)
    pose_kernel[(triton.cdiv(n, 256),)](poses, out, n, BLOCK=256)
    return out
