"""One SGD step with Nesterov momentum and weight decay (torch.optim.SGD(momentum=0.9, nesterov=True,
weight_decay=1e-4)) over a whole ResNet-50, parameters, gradients and momentum buffers kept as views of
flat fp32 buffers (Megatron / DeepSpeed style contiguous buffers). Returns the new parameters and buffers."""
import torch

META = {
    "name": "sgd_momentum_step",
    "level": 1,
    "category": "optimizer",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"widths": [4, 8, 16, 32], "blocks": [1, 1, 1, 1], "classes": 10},
        "ragged": {"widths": [8, 16, 24, 40], "blocks": [2, 1, 2, 1], "classes": 37},
        "large": {"widths": [64, 128, 256, 512], "blocks": [3, 4, 6, 3], "classes": 1000},
    },
    "baseline_notes": "One launch over the whole flat buffer (the parameter views are contiguous in it): "
                      "BLOCK = 4096 fp32 elements per program, 4 warps.",
    "deterministic": True,
}


def param_numels(widths: list[int], blocks: list[int], classes: int) -> tuple:
    """Sizes of ResNet-50's parameters (bottleneck, expansion 4) in registration order (161 tensors)."""
    sizes = [widths[0] * 3 * 7 * 7, widths[0], widths[0]]          # conv1, bn1
    inplanes = widths[0]
    for w, n in zip(widths, blocks):
        for i in range(n):
            sizes += [w * inplanes, w, w, w * w * 9, w, w, 4 * w * w, 4 * w, 4 * w]
            if i == 0:                                               # downsample conv + bn
                sizes += [4 * w * inplanes, 4 * w, 4 * w]
            inplanes = 4 * w
    sizes += [classes * inplanes, classes]                           # fc
    return tuple(sizes)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """param, grad, momentum_buffer (flat fp32), the parameters' numels, lr, momentum, weight_decay."""
    s = META["sizes"][size]
    numels = param_numels(s["widths"], s["blocks"], s["classes"])
    n = sum(numels)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    param = torch.randn(n, generator=g) * 0.05
    grad = torch.randn(n, generator=g) * 1e-2
    buf = torch.randn(n, generator=g) * 1e-2
    return (param.to(device=device, dtype=dt), grad.to(device=device, dtype=dt), buf.to(device=device, dtype=dt),
            numels, 0.1, 0.9, 1e-4)


def reference(param, grad, buf, numels, lr, momentum, weight_decay) -> tuple:
    # torch.optim.SGD's _single_tensor_sgd (dampening 0, nesterov), every parameter at once
    d_p = grad.double() + weight_decay * param.double()
    new_buf = momentum * buf.double() + d_p
    d_p = d_p + momentum * new_buf
    new_param = param.double() - lr * d_p
    return new_param.to(param.dtype), new_buf.to(buf.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = sum(param_numels(s["widths"], s["blocks"], s["classes"]))
    return {"bytes": 20 * n, "flops": 7 * n}
