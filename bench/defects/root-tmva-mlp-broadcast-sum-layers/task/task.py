"""TMVA MLP response for a batch of events (ROOT TMVA MethodMLP / MethodDL classifier applied with TMVA::Reader).

A signal/background classifier trained with the TMVA option string
"NeuronType=tanh:VarTransform=N:HiddenLayers=64,64:EstimatorType=CE" is evaluated on every event:
the 16 input variables are first mapped to [-1, 1] with the training ranges (the "N" transform,
x' = 2 (x - x_min) / (x_max - x_min) - 1), then pass two fully connected tanh layers of 64 neurons
and a single sigmoid output neuron (cross-entropy estimator). Returns the classifier response
p [E] fp32 in (0, 1).

Inputs: x [E, 16] fp32 (event-major, as an RDataFrame AsNumpy/Take of 16 columns), x_min [16],
x_max [16], w1 [64, 16], b1 [64], w2 [64, 64], b2 [64], w3 [64], b3 [1] (all fp32; weights stored
per receiving neuron as in the TMVA weight file, w[n, k] is the synapse from neuron k of the
previous layer to neuron n).
"""
import torch

META = {
    "name": "tmva_mlp_response",
    "level": 2,
    "category": "hep-inference",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"E": 40},
        "ragged": {"E": 77},
        "large": {"E": 4194304},
    },
    "baseline_notes": "One program per block of 16 events: the event block is loaded once, normalised, and "
                      "pushed through both hidden layers with tl.dot against the whole (transposed) weight "
                      "matrices (tensor cores, tf32), tanh and the sigmoid output in registers; one fp32 store per "
                      "event. 4 warps, no autotune.",
    "deterministic": True,
}
N_VARS = 16
N_HIDDEN = 64


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Events x with physics-like ranges, the training min/max of each variable and Xavier-scaled weights."""
    e = META["sizes"][size]["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # variable ranges: momenta in GeV, angles, b-tag scores, ... (training-sample min and max)
    x_min = torch.tensor([20., 20., 0., 0., -2.5, -2.5, -3.1416, -3.1416, 0., 0., 0., 0., 0., 0., 60., 0.])
    x_max = torch.tensor([800., 600., 400., 1500., 2.5, 2.5, 3.1416, 3.1416, 1., 1., 5., 300., 12., 1., 2500., 4.5])
    u = torch.rand(e, N_VARS, generator=g)
    u[:, :4] = u[:, :4] ** 3  # steeply falling momentum spectra
    x = x_min + (x_max - x_min) * u
    w1 = torch.randn(N_HIDDEN, N_VARS, generator=g) / N_VARS ** 0.5
    b1 = 0.1 * torch.randn(N_HIDDEN, generator=g)
    w2 = torch.randn(N_HIDDEN, N_HIDDEN, generator=g) / N_HIDDEN ** 0.5
    b2 = 0.1 * torch.randn(N_HIDDEN, generator=g)
    w3 = 2.0 * torch.randn(N_HIDDEN, generator=g) / N_HIDDEN ** 0.5
    b3 = 0.1 * torch.randn(1, generator=g)
    return tuple(t.to(device=device, dtype=dt) for t in (x, x_min, x_max, w1, b1, w2, b2, w3, b3))


def reference(x, x_min, x_max, w1, b1, w2, b2, w3, b3) -> torch.Tensor:
    d = lambda t: t.double()
    xn = 2.0 * (d(x) - d(x_min)) / (d(x_max) - d(x_min)) - 1.0
    h1 = torch.tanh(xn @ d(w1).T + d(b1))
    h2 = torch.tanh(h1 @ d(w2).T + d(b2))
    return torch.sigmoid(h2 @ d(w3) + d(b3)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    e = META["sizes"][size]["E"]
    return {"bytes": 4 * e * (N_VARS + 1), "flops": 2 * e * (N_VARS * N_HIDDEN + N_HIDDEN * N_HIDDEN + N_HIDDEN)}
