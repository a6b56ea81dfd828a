"""Open-Unmix output stage: per-bin output scaling and the ReLU mask applied to the mixture magnitude.

In openunmix.model.OpenUnmix.forward, after fc3 + bn3 the network output is reshaped back to
(nb_frames, nb_samples, nb_channels, nb_bins) and turned into the target's magnitude estimate:

    x = x * output_scale + output_mean          # learned per-bin affine, [nb_bins]
    y = relu(x) * mix                            # non-negative mask times the mixture magnitude

where mix is the (detached) input magnitude spectrogram in the same layout. The final
permute(1, 2, 3, 0) back to (nb_samples, nb_channels, nb_bins, nb_frames) is a view taken outside this
kernel, so the task returns y in the (frames, samples, channels, bins) layout. nb_bins = n_fft / 2 + 1
(2049 for Open-Unmix's n_fft = 4096, hop 1024).
"""
import torch

META = {
    "name": "openunmix_output_mask",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"frames": 6, "samples": 1, "channels": 2, "bins": 129},
        "ragged": {"frames": 9, "samples": 2, "channels": 2, "bins": 257},
        # a 3 min 30 s stereo track at 44.1 kHz, n_fft 4096 / hop 1024: 9044 frames x 2049 bins
        "large": {"frames": 9044, "samples": 1, "channels": 2, "bins": 2049},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 8 spectrogram rows "
                      "(frame, sample, channel); each row block is walked in 1024-bin column tiles, the "
                      "per-bin scale and mean loaded once per tile as contiguous vectors and broadcast over "
                      "the rows; x and mix tiles are plain 2-D block copies. fp32, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x (bn3 output) and mix (|STFT| of the mixture), both [frames, samples, channels, bins];
    output_scale and output_mean [bins] (trained Open-Unmix parameters)."""
    s = META["sizes"][size]
    shape = (s["frames"], s["samples"], s["channels"], s["bins"])
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(shape, generator=g)
    # magnitude spectrogram: Rayleigh-like amplitudes falling off with frequency
    tilt = 1.0 / (1.0 + torch.arange(s["bins"]) / 64.0)
    mix = torch.sqrt(-2.0 * torch.log(torch.rand(shape, generator=g).clamp_min(1e-7))) * tilt
    output_scale = 0.5 + torch.rand(s["bins"], generator=g)
    output_mean = 0.3 * torch.randn(s["bins"], generator=g) + 0.2
    return (x.to(device=device, dtype=dt), mix.to(device=device, dtype=dt),
            output_scale.to(device=device, dtype=dt), output_mean.to(device=device, dtype=dt))


def reference(x: torch.Tensor, mix: torch.Tensor, output_scale: torch.Tensor,
              output_mean: torch.Tensor) -> torch.Tensor:
    y = torch.relu(x.double() * output_scale.double() + output_mean.double()) * mix.double()
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["frames"] * s["samples"] * s["channels"] * s["bins"]
    return {"bytes": 12 * n + 8 * s["bins"], "flops": 4 * n}
