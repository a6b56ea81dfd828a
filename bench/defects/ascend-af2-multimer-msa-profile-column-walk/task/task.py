"""MSA profile of AlphaFold-Multimer (alphafold/model/modules_multimer.py, make_msa_profile).

Each recycling iteration computes the masked per-column amino-acid distribution of the full MSA,
profile[r, a] = sum_s mask[s, r] * [msa[s, r] == a] / (sum_s mask[s, r] + 1e-10) over 22 classes
(utils.mask_mean over the one-hot MSA), which the masked-MSA (BERT) sampling draws from.
"""
import torch

META = {
    "name": "msa_profile",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"S": 24, "R": 40},
        "ragged": {"S": 37, "R": 45},
        "large": {"S": 4096, "R": 1280},
    },
    "baseline_notes": "40 programs (vector cores), one block of 32 residue columns each: [8, 32] tiles of "
                      "tokens and mask (contiguous along residues) down the sequences, one-hot against "
                      "32 padded classes accumulated in an [8, 32, 32] fp32 tile, reduced once and divided.",
    "deterministic": True,
}
NUM_CLASSES = 22


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """msa [S, R] int32 tokens 0..21 (21 = gap), msa_mask [S, R] (0/1, padded rows and residues off)."""
    s = META["sizes"][size]
    S, R = s["S"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    msa = torch.randint(0, 20, (S, R), generator=g, dtype=torch.int32)
    gaps = torch.rand(S, R, generator=g) < 0.15
    msa[gaps] = 21
    msa[torch.rand(S, R, generator=g) < 0.02] = 20
    mask = (torch.rand(S, R, generator=g) < 0.95).to(dt)
    mask[S - S // 5:] = 0.0
    mask[:, R - 2:] = 0.0
    return msa.to(device), mask.to(device)


def reference(msa: torch.Tensor, msa_mask: torch.Tensor) -> torch.Tensor:
    one_hot = torch.nn.functional.one_hot(msa.long(), NUM_CLASSES).double()
    m = msa_mask.double()[:, :, None]
    return ((m * one_hot).sum(0) / (m.sum(0) + 1e-10)).to(msa_mask.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, R = s["S"], s["R"]
    return {"bytes": 8 * S * R + 4 * R * NUM_CLASSES, "flops": 3 * S * R * NUM_CLASSES}
