"""GELU kernels that differ only in how erf is evaluated (for bench/optimize/erf/run.py)."""
import triton
import triton.language as tl

INV_SQRT2 = 0.7071067811865476


@triton.jit
def _erf_as26(z, FAST: tl.constexpr):
    # Abramowitz & Stegun 7.1.26: |error| <= 1.5e-7 on the whole real line, one exp and one reciprocal.
    a = tl.abs(z)
    if FAST:
        t = tl.fdiv(1.0, 1.0 + 0.3275911 * a)
    else:
        t = 1.0 / (1.0 + 0.3275911 * a)
    p = 1.061405429 * t - 1.453152027
    p = p * t + 1.421413741
    p = p * t - 0.284496736
    p = p * t + 0.254829592
    p = p * t
    e = 1.0 - p * tl.exp(-a * a)
    return tl.where(z < 0, -e, e)


@triton.jit
def gelu_exact(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def gelu_as26(x_ptr, out_ptr, n, BLOCK: tl.constexpr, FAST: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = 0.5 * x * (1.0 + _erf_as26(x * 0.7071067811865476, FAST))
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def gelu_tanh(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Not a candidate (a different function): a lower bound on the time of cheap math.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = x * tl.sigmoid(2.0 * u)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def scale_copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (0.5 * x).to(out_ptr.dtype.element_ty), mask=mask)
