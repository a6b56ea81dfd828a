"""Time GELU with exact erf against GELU with the Abramowitz-Stegun 7.1.26 erf on one GPU.

usage: python bench/optimize/erf/run.py OUT.json   (needs a CUDA GPU; writes accuracy and medians)
"""
import functools
import json
import platform
import sys
import time

import torch
import triton

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import kernels as K  # noqa: E402


def _median_ms(fn, reps=30, inner=20):
    """Median over reps of the mean of `inner` back-to-back launches (launch latency hidden behind the queue)."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(inner):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / inner)
    times.sort()
    return times[len(times) // 2]


def _launch(kind, x, out, block, warps):
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    if kind == "exact":
        K.gelu_exact[grid](x, out, n, BLOCK=block, num_warps=warps)
    elif kind == "as26-fast":
        K.gelu_as26[grid](x, out, n, BLOCK=block, FAST=True, num_warps=warps)
    elif kind == "as26-div":
        K.gelu_as26[grid](x, out, n, BLOCK=block, FAST=False, num_warps=warps)
    elif kind == "tanh":
        K.gelu_tanh[grid](x, out, n, BLOCK=block, num_warps=warps)
    else:
        K.scale_copy[grid](x, out, n, BLOCK=block, num_warps=warps)


def main(path):
    rows = []
    g = torch.Generator().manual_seed(0)
    x64 = 2 * torch.randn(8192, 4096, generator=g, dtype=torch.float64)
    probe = torch.cat([x64.flatten()[:1 << 20], torch.linspace(-12, 12, 1 << 20, dtype=torch.float64)])
    for dtype in ("float16", "bfloat16", "float32"):
        dt = getattr(torch, dtype)
        x = x64.to(dt).cuda()
        for kind in ("copy", "exact", "as26-fast", "as26-div", "tanh"):
            for block in (1024, 2048, 4096):
                for warps in (4, 8):
                    out = torch.empty_like(x)
                    ms = _median_ms(functools.partial(_launch, kind, x, out, block, warps))
                    gbs = 2 * x.numel() * x.element_size() / ms / 1e6
                    rows.append({"dtype": dtype, "kind": kind, "block": block, "warps": warps,
                                 "median_ms": ms, "GBps": gbs})
                    print(dtype, kind, block, warps, f"{ms:.4f} ms {gbs:.0f} GB/s", flush=True)
        for kind in ("exact", "as26-fast", "as26-div", "tanh"):
            xp = probe.to(dt).cuda()
            out = torch.empty_like(xp)
            _launch(kind, xp, out, 1024, 4)
            ref = torch.nn.functional.gelu(xp.float()).to(dt).double()
            got = out.double().cpu()
            true = (0.5 * xp.double() * (1 + torch.special.erf(xp.double() / 2 ** 0.5))).cpu()
            rows.append({"dtype": dtype, "kind": kind, "accuracy": True,
                         "max_abs_vs_fp64": float((got - true).abs().max()),
                         "max_abs_vs_torch": float((got - ref.cpu()).abs().max()),
                         "mismatch_vs_torch": int((got != ref.cpu()).sum()), "n": int(xp.numel())})
            print(rows[-1], flush=True)
    meta = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
            "python": platform.python_version(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "shape": [8192, 4096]}
    json.dump({"meta": meta, "rows": rows}, open(path, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
