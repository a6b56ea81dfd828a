"""PyTorch3D TexturesUV.sample_textures: bilinear lookup of every fragment's uv in its mesh's texture map."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _sample_uv(tex, uvs, out, th, tw, n_frag, C: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(1)
    f = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = f < n_frag
    row = b * n_frag + f
    u = tl.load(uvs + row * 2, mask=ok, other=0.0)
    v = tl.load(uvs + row * 2 + 1, mask=ok, other=0.0)
    # grid_sample(align_corners=True, padding_mode="border"); the y flip is folded into the row index
    x = tl.minimum(tl.maximum(u * (tw - 1), 0.0), tw - 1.0)
    y = tl.minimum(tl.maximum((1.0 - v) * (th - 1), 0.0), th - 1.0)
    x0f = tl.floor(x)
    y0f = tl.floor(y)
    fx = (x - x0f)[:, None]
    fy = (y - y0f)[:, None]
    x0 = x0f.to(tl.int32)
    y0 = y0f.to(tl.int32)
    x1 = tl.minimum(x0 + 1, tw - 1)
    y1 = tl.minimum(y0 + 1, th - 1)
    c = tl.arange(0, BLOCK_C)
    m = ok[:, None] & (c < C)[None, :]
    base = tex + b * th * tw * C + c[None, :]
    t00 = tl.load(base + (y0 * tw + x0)[:, None] * C, mask=m, other=0.0)
    t01 = tl.load(base + (y0 * tw + x1)[:, None] * C, mask=m, other=0.0)
    t10 = tl.load(base + (y1 * tw + x0)[:, None] * C, mask=m, other=0.0)
    t11 = tl.load(base + (y1 * tw + x1)[:, None] * C, mask=m, other=0.0)
    val = (1.0 - fy) * ((1.0 - fx) * t00 + fx * t01) + fy * ((1.0 - fx) * t10 + fx * t11)
    tl.store(out + row[:, None] * C + c[None, :], val, mask=m)


def run(maps: torch.Tensor, pixel_uvs: torch.Tensor) -> torch.Tensor:
    n, th, tw, c = maps.shape
    _, h, w, k, _ = pixel_uvs.shape
    # TexturesUV keeps (N, H, W, C): sample the channels-last map in place
    out = torch.empty(n, h, w, k, c, device=maps.device, dtype=maps.dtype)
    n_frag = h * w * k
    grid = (triton.cdiv(n_frag, BLOCK), n)
    _sample_uv[grid](maps, pixel_uvs, out, th, tw, n_frag,
                     C=c, BLOCK_C=triton.next_power_of_2(c), BLOCK=BLOCK)
    return out
