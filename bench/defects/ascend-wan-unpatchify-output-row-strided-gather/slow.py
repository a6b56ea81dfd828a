"""Wan 2.1 unpatchify for the Ascend NPU: one program per vector core, each looping over the output rows
(b, c, f, y) of the [B, C, F, 2H, 2W] latents. A row takes pixel (w, r) of its (c, q) slot from every token
of one token row, and is written as one contiguous run of W*pw values."""
import torch
import triton
import triton.language as tl
from triton.runtime import driver

PATCH = (1, 2, 2)
MAX_BLOCK_W = 128


def _vector_core_count(device: torch.device) -> int:
    if device.type == "npu":
        return driver.active.utils.get_device_properties(device.index or 0)["num_vectorcore"]
    return 40


@triton.jit
def _unpatchify_kernel(x_ptr, out_ptr, n_rows, n_f, n_h, n_w,
                       C: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    PPC: tl.constexpr = PH * PW * C
    wl = tl.arange(0, BLOCK_W)
    r = tl.arange(0, PW)
    out_w = n_w * PW
    for row in range(pid, n_rows, nprog):
        q = row % PH
        h = (row // PH) % n_h
        f = (row // (PH * n_h)) % n_f
        bc = row // (PH * n_h * n_f)
        c = bc % C
        b = bc // C
        token_row = (b * n_f + f) * n_h + h
        src_row = x_ptr + token_row * n_w * PPC + (q * PW) * C + c
        for w0 in range(0, n_w, BLOCK_W):
            w = w0 + wl
            m = (w < n_w)[:, None]
            vals = tl.load(src_row + w[:, None] * PPC + r[None, :] * C, mask=m, other=0.0)
            tl.store(out_ptr + row * out_w + w[:, None] * PW + r[None, :], vals, mask=m)


def run(x: torch.Tensor, n_f: int, n_h: int, n_w: int, out_dim: int) -> torch.Tensor:
    pt, ph, pw = PATCH
    batch = x.shape[0]
    out = torch.empty((batch, out_dim, n_f * pt, n_h * ph, n_w * pw), dtype=x.dtype, device=x.device)
    n_rows = batch * out_dim * n_f * pt * n_h * ph
    block_w = min(MAX_BLOCK_W, triton.next_power_of_2(n_w))
    grid = (min(n_rows, _vector_core_count(x.device)),)
    _unpatchify_kernel[grid](x, out, n_rows, n_f * pt, n_h, n_w, C=out_dim, PH=ph, PW=pw, BLOCK_W=block_w)
    return out
