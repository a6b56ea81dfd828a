"""AMCL odometry (diff-drive) motion model: every particle of every robot samples its noisy motion."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 1024


@triton.jit
def _odom_sample(pose, noise, motion, out, R, N, plane, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    blocks = tl.cdiv(N, BLOCK)
    for tile in range(pid, R * blocks, nprog):
        robot = tile // blocks
        offs = (tile - robot * blocks) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        m = motion + robot * 6
        rot1 = tl.load(m)
        trans = tl.load(m + 1)
        rot2 = tl.load(m + 2)
        sd_rot1 = tl.load(m + 3)
        sd_trans = tl.load(m + 4)
        sd_rot2 = tl.load(m + 5)
        idx = robot * N + offs
        x = tl.load(pose + idx, mask=mask, other=0.0)
        y = tl.load(pose + plane + idx, mask=mask, other=0.0)
        th = tl.load(pose + 2 * plane + idx, mask=mask, other=0.0)
        n0 = tl.load(noise + idx, mask=mask, other=0.0)
        n1 = tl.load(noise + plane + idx, mask=mask, other=0.0)
        n2 = tl.load(noise + 2 * plane + idx, mask=mask, other=0.0)
        rot1_hat = rot1 - sd_rot1 * n0
        trans_hat = trans - sd_trans * n1
        rot2_hat = rot2 - sd_rot2 * n2
        heading = th + rot1_hat
        tl.store(out + idx, x + trans_hat * tl.cos(heading), mask=mask)
        tl.store(out + plane + idx, y + trans_hat * tl.sin(heading), mask=mask)
        tl.store(out + 2 * plane + idx, th + rot1_hat + rot2_hat, mask=mask)


def run(pose: torch.Tensor, noise: torch.Tensor, motion: torch.Tensor) -> torch.Tensor:
    _, R, N = pose.shape
    out = torch.empty_like(pose)
    grid = (min(_VECTOR_CORES, R * triton.cdiv(N, BLOCK)),)
    _odom_sample[grid](pose, noise, motion, out, R, N, R * N, BLOCK=BLOCK)
    return out
