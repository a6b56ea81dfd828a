"""FSL slicetimer on the NPU: every slice's voxel time series resampled to mid-TR with a windowed-sinc kernel."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _slice_time_sinc(x_ptr, w_ptr, y_ptr, T, Z, plane, vol,
                     R: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    nb = tl.cdiv(plane, BLOCK)
    for item in range(pid, T * Z * nb, nprog):
        b = item % nb
        t = item // nb // Z
        z = item // nb % Z
        p = b * BLOCK + lanes
        ok = p < plane
        v = z * plane + p
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for j in tl.static_range(2 * R + 1):
            src = tl.minimum(tl.maximum(t + (j - R), 0), T - 1)
            w = tl.load(w_ptr + z * (2 * R + 1) + j)
            x = tl.load(x_ptr + src * vol + v, mask=ok, other=0.0)
            acc += w * x
        tl.store(y_ptr + t * vol + v, acc, mask=ok)


def run(bold: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    T, Z, Y, X = bold.shape
    R = (weights.shape[1] - 1) // 2
    y = torch.empty_like(bold)
    plane = Y * X
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, T * Z * triton.cdiv(plane, BLOCK)),)
    _slice_time_sinc[grid](bold, weights, y, T, Z, plane, Z * plane, R=R, BLOCK=BLOCK)
    return y
