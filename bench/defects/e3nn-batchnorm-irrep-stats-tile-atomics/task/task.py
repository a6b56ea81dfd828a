"""e3nn nn.BatchNorm, training forward, for node features with irreps "MUL0x0e + MUL1x1o + MUL2x2e".

x is [N, D] in e3nn's mul_ir layout (D = MUL0 + 3 MUL1 + 5 MUL2): the 0e block is [N, MUL0], the 1o block
[N, MUL1, 3] and the 2e block [N, MUL2, 5], each flattened channel-major with the m component fastest.
With reduce="mean", normalization="component", affine=True, eps and momentum as e3nn's defaults:

  scalars  (u < MUL0):  mean_u = mean_n x[n, u];  var_u = mean_n (x[n, u] - mean_u)^2
                        y[n, u] = (x[n, u] - mean_u) * weight_u / sqrt(var_u + eps) + bias_u
  l = 1, 2 (channel u): var_u = mean_n mean_m x[n, u, m]^2
                        y[n, u, m] = x[n, u, m] * weight_u / sqrt(var_u + eps)

and the running statistics are rolled: running_mean <- (1 - momentum) running_mean + momentum mean,
running_var <- (1 - momentum) running_var + momentum var (var over all MUL0 + MUL1 + MUL2 channels, in
irreps order). Returns (y [N, D], new running_mean [MUL0], new running_var [MUL0 + MUL1 + MUL2]).
"""
import torch

META = {
    "name": "e3nn_batchnorm_train",
    "level": 2,
    "category": "equivariant_gnn",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 40, "mul0": 8, "mul1": 4, "mul2": 4},
        "ragged": {"N": 77, "mul0": 12, "mul1": 6, "mul2": 5},
        "large": {"N": 262144, "mul0": 64, "mul1": 32, "mul2": 16},
    },
    "baseline_notes": "Three launches: a statistics kernel whose 512 programs each walk 16 tiles of 32 nodes, "
                      "keep per-channel sums (scalars: sum and sum of squares; l = 1, 2: sum of the "
                      "component-mean squares) in registers and add them into fp32 buffers with one vector "
                      "atomic per channel block at the end; a one-program kernel that turns the sums into "
                      "mean, scale and the rolled running statistics; a normalisation kernel over 32-node "
                      "tiles. 4 warps, no autotune.",
    "deterministic": True,
}


def _muls(size: str) -> tuple:
    s = META["sizes"][size]
    return s["N"], s["mul0"], s["mul1"], s["mul2"]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, D], running_mean [MUL0], running_var [MUL0+MUL1+MUL2], weight [same], bias [MUL0],
    then MUL0, MUL1, MUL2 (ints), eps and momentum (floats)."""
    n, m0, m1, m2 = _muls(size)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    feats = m0 + m1 + m2
    d = m0 + 3 * m1 + 5 * m2
    # node features after a gated convolution: scalars with a per-channel offset, vectors of mixed size
    x = torch.randn(n, d, generator=g)
    x[:, :m0] = x[:, :m0] * (0.5 + torch.rand(m0, generator=g)) + torch.randn(m0, generator=g)
    x[:, m0:] = x[:, m0:] * (0.5 + torch.rand(d - m0, generator=g))
    running_mean = 0.1 * torch.randn(m0, generator=g)
    running_var = 1.0 + 0.1 * torch.rand(feats, generator=g)
    weight = 1.0 + 0.1 * torch.randn(feats, generator=g)
    bias = 0.1 * torch.randn(m0, generator=g)
    return (x.to(device=device, dtype=dt), running_mean.to(device=device, dtype=dt),
            running_var.to(device=device, dtype=dt), weight.to(device=device, dtype=dt),
            bias.to(device=device, dtype=dt), m0, m1, m2, 1e-5, 0.1)


def reference(x, running_mean, running_var, weight, bias, mul0, mul1, mul2, eps, momentum) -> tuple:
    xd = x.double()
    n = xd.shape[0]
    outs, means, varis = [], [], []
    ix = 0
    for mul, dim in ((mul0, 1), (mul1, 3), (mul2, 5)):
        field = xd[:, ix:ix + mul * dim].reshape(n, mul, dim)
        ix += mul * dim
        if dim == 1:
            mean = field.mean(dim=(0, 2))
            means.append(mean)
            field = field - mean[None, :, None]
        outs.append(field)
        varis.append(field.pow(2).mean(2).mean(0))
    var = torch.cat(varis)
    scale = weight.double() * (var + eps).pow(-0.5)
    ys, iw = [], 0
    for field, (mul, dim) in zip(outs, ((mul0, 1), (mul1, 3), (mul2, 5))):
        y = field * scale[iw:iw + mul][None, :, None]
        if dim == 1:
            y = y + bias.double()[None, :, None]
        iw += mul
        ys.append(y.reshape(n, mul * dim))
    y = torch.cat(ys, dim=1)
    new_mean = (1 - momentum) * running_mean.double() + momentum * means[0]
    new_var = (1 - momentum) * running_var.double() + momentum * var
    return y.to(x.dtype), new_mean.to(x.dtype), new_var.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n, m0, m1, m2 = _muls(size)
    d = m0 + 3 * m1 + 5 * m2
    return {"bytes": 3 * 4 * n * d, "flops": 6 * n * d}
