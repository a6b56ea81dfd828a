"""TMVA MLP classifier response: N-transform, two tanh layers of 64 neurons, sigmoid output neuron."""
import torch
import triton
import triton.language as tl

BLOCK_E = 16


@triton.jit
def _tanh(a):
    # tanh(a) = sign(a) (1 - e^{-2|a|}) / (1 + e^{-2|a|}), overflow-free
    t = tl.exp(-2.0 * tl.abs(a))
    r = (1.0 - t) / (1.0 + t)
    return tl.where(a < 0.0, -r, r)


@triton.jit
def _mlp_response(x_ptr, lo_ptr, hi_ptr, w1_ptr, b1_ptr, w2_ptr, b2_ptr, w3_ptr, b3_ptr, out_ptr,
                  n_events, N_VARS: tl.constexpr, N_HIDDEN: tl.constexpr, BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    ev = pid * BLOCK_E + tl.arange(0, BLOCK_E)
    ok = ev < n_events
    var = tl.arange(0, N_VARS)
    hid = tl.arange(0, N_HIDDEN)

    # VarTransform=N: map each input variable to [-1, 1] with the training range
    x = tl.load(x_ptr + ev[:, None] * N_VARS + var[None, :], mask=ok[:, None], other=0.0)
    lo = tl.load(lo_ptr + var)
    hi = tl.load(hi_ptr + var)
    x = 2.0 * (x - lo[None, :]) / (hi - lo)[None, :] - 1.0

    # hidden layer 1: a1[e, n] = sum_k w1[n, k] x[e, k] + b1[n] (each neuron's input weights are a row)
    w1 = tl.load(w1_ptr + hid[:, None] * N_VARS + var[None, :])
    b1 = tl.load(b1_ptr + hid)
    a1 = tl.sum(x[:, None, :] * w1[None, :, :], axis=2) + b1[None, :]
    h1 = _tanh(a1)

    # hidden layer 2
    w2 = tl.load(w2_ptr + hid[:, None] * N_HIDDEN + hid[None, :])
    b2 = tl.load(b2_ptr + hid)
    a2 = tl.sum(h1[:, None, :] * w2[None, :, :], axis=2) + b2[None, :]
    h2 = _tanh(a2)

    # output neuron (cross-entropy estimator: sigmoid)
    w3 = tl.load(w3_ptr + hid)
    b3 = tl.load(b3_ptr)
    z = tl.sum(h2 * w3[None, :], axis=1) + b3
    p = 1.0 / (1.0 + tl.exp(-z))
    tl.store(out_ptr + ev, p, mask=ok)


def run(x, x_min, x_max, w1, b1, w2, b2, w3, b3) -> torch.Tensor:
    n_events, n_vars = x.shape
    n_hidden = w1.shape[0]
    out = torch.empty(n_events, device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(n_events, BLOCK_E),)
    _mlp_response[grid](x, x_min, x_max, w1, b1, w2, b2, w3, b3, out, n_events,
                        N_VARS=n_vars, N_HIDDEN=n_hidden, BLOCK_E=BLOCK_E, num_warps=4)
    return out
