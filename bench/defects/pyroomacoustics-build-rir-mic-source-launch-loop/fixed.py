"""pyroomacoustics compute_rir: the 81-tap fractional-delay sinc of every image source added into the RIR."""
import torch
import triton
import triton.language as tl

PI = tl.constexpr(3.141592653589793)
FDL = 81           # pyroomacoustics' frac_delay_length
BLOCK_I = 32
TAPS = 128         # FDL padded to a power of two


@triton.jit
def _build_rir(images, damping, mics, rir, n_img, n_src, rir_len, fs_over_c,
               FDL: tl.constexpr, TAPS: tl.constexpr, BLOCK_I: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.program_id(1)
    m = tl.program_id(2)
    images += src * n_img * 3
    damping += src * n_img
    mic = mics + m * 3
    rir += (m * n_src + src) * rir_len
    i = pid * BLOCK_I + tl.arange(0, BLOCK_I)
    ok = i < n_img
    mx = tl.load(mic)
    my = tl.load(mic + 1)
    mz = tl.load(mic + 2)
    dx = tl.load(images + 3 * i, mask=ok, other=0.0) - mx
    dy = tl.load(images + 3 * i + 1, mask=ok, other=0.0) - my
    dz = tl.load(images + 3 * i + 2, mask=ok, other=0.0) - mz
    dist = tl.sqrt(dx * dx + dy * dy + dz * dz)
    alpha = tl.load(damping + i, mask=ok, other=0.0) / (4.0 * PI * dist)
    tau = dist * fs_over_c + (FDL - 1) // 2
    ip = tl.floor(tau)
    frac = tau - ip
    k = tl.arange(0, TAPS)
    f = (k - (FDL - 1) // 2).to(tl.float32)
    hann = 0.5 - 0.5 * tl.cos((2.0 * PI / (FDL - 1)) * k.to(tl.float32))
    x = f[None, :] - frac[:, None]
    px = PI * x
    sinc = tl.where(x == 0.0, 1.0, tl.sin(px) / px)
    val = alpha[:, None] * hann[None, :] * sinc
    pos = ip.to(tl.int32)[:, None] + (k - (FDL - 1) // 2)[None, :]
    keep = ok[:, None] & (k[None, :] < FDL) & (pos >= 0) & (pos < rir_len)
    tl.atomic_add(rir + pos, val, mask=keep, sem="relaxed")


def run(images: torch.Tensor, damping: torch.Tensor, mics: torch.Tensor,
        fs: float, c: float, rir_len: int) -> torch.Tensor:
    S, N, _ = images.shape
    M = mics.shape[0]
    rir = torch.zeros((M, S, rir_len), device=images.device, dtype=torch.float32)
    grid = (triton.cdiv(N, BLOCK_I), S, M)
    _build_rir[grid](images, damping, mics, rir, N, S, rir_len, fs / c,
                     FDL=FDL, TAPS=TAPS, BLOCK_I=BLOCK_I, num_warps=4)
    return rir
