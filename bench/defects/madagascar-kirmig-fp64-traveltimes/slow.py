"""Prestack Kirchhoff depth migration: sum every trace along its straight-ray diffraction traveltime."""
import torch
import triton
import triton.language as tl


@triton.jit
def _kirchhoff_image(data, src_x, rec_x, img_x, img_z, vavg, image, S, R, T, NX, NZ, dt,
                     BX: tl.constexpr, BZ: tl.constexpr):
    ix = tl.program_id(0) * BX + tl.arange(0, BX)[:, None]
    iz = tl.program_id(1) * BZ + tl.arange(0, BZ)[None, :]
    x = tl.load(img_x + ix, mask=ix < NX, other=0.0).to(tl.float64)
    z = tl.load(img_z + iz, mask=iz < NZ, other=0.0).to(tl.float64)
    vdt = tl.load(vavg + iz, mask=iz < NZ, other=1.0).to(tl.float64) * dt
    z2 = z * z
    acc = tl.zeros([BX, BZ], dtype=tl.float32)
    for s in range(0, S):
        dxs = x - tl.load(src_x + s).to(tl.float64)
        ts = tl.sqrt(z2 + dxs * dxs)
        for r in range(0, R):
            dxr = x - tl.load(rec_x + s * R + r).to(tl.float64)
            tsamp = (ts + tl.sqrt(z2 + dxr * dxr)) / vdt
            i0 = tsamp.to(tl.int32)
            frac = (tsamp - i0.to(tl.float64)).to(tl.float32)
            trace = data + (s * R + r) * T
            d0 = tl.load(trace + i0, mask=i0 < T, other=0.0)
            d1 = tl.load(trace + i0 + 1, mask=i0 + 1 < T, other=0.0)
            acc += d0 + frac * (d1 - d0)
    tl.store(image + ix * NZ + iz, acc, mask=(ix < NX) & (iz < NZ))


def run(data, src_x, rec_x, img_x, img_z, vavg, dt: float) -> torch.Tensor:
    S, R, T = data.shape
    NX, NZ = img_x.shape[0], img_z.shape[0]
    image = torch.empty(NX, NZ, device=data.device, dtype=torch.float32)
    BX, BZ = 4, 64
    grid = (triton.cdiv(NX, BX), triton.cdiv(NZ, BZ))
    _kirchhoff_image[grid](data, src_x, rec_x, img_x, img_z, vavg, image, S, R, T, NX, NZ, dt,
                           BX=BX, BZ=BZ, num_warps=4)
    return image
