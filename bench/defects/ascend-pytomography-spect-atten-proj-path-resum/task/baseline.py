"""Attenuated SPECT projection along depth: proj = sum_x obj * exp(-dx * (mu/2 + mu ahead of x))."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _atten_proj_kernel(obj_ptr, mu_ptr, proj_ptr, N, NN, n_cblk, n_blocks, dx,
                       BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, n_blocks, nprog):
        a = blk // n_cblk
        cols = (blk % n_cblk) * BLOCK + tl.arange(0, BLOCK)
        m = cols < NN
        base = a * N * NN
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        # attenuation path from the current voxel to the detector, carried from the detector side
        path = tl.zeros([BLOCK], dtype=tl.float32)
        for i in range(N):
            x = N - 1 - i
            off = base + x * NN + cols
            f = tl.load(obj_ptr + off, mask=m, other=0.0)
            u = tl.load(mu_ptr + off, mask=m, other=0.0)
            acc += f * tl.exp(-dx * (0.5 * u + path))
            path += u
        tl.store(proj_ptr + a * NN + cols, acc, mask=m)


def run(obj: torch.Tensor, mu: torch.Tensor, dx: float) -> torch.Tensor:
    A, N = obj.shape[0], obj.shape[1]
    NN = obj.shape[2] * obj.shape[3]
    proj = torch.empty((A, obj.shape[2], obj.shape[3]), device=obj.device, dtype=obj.dtype)
    BLOCK = min(1024, triton.next_power_of_2(NN))
    n_cblk = triton.cdiv(NN, BLOCK)
    n_blocks = A * n_cblk
    grid = (min(_VECTOR_CORES, n_blocks),)
    _atten_proj_kernel[grid](obj, mu, proj, N, NN, n_cblk, n_blocks, dx, BLOCK=BLOCK)
    return proj
