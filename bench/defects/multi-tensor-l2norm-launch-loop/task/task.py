"""Per-parameter gradient L2 norms of a whole model (torch.nn.utils.clip_grad_norm_'s per-tensor norms / apex multi_tensor_l2norm), the gradients being views into one flat fp32 buffer (DDP / Megatron contiguous grad buffer)."""
import torch

META = {
    "name": "multi_tensor_l2norm",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"model": "toy"},
        "ragged": {"model": "bert-base"},
        "large": {"model": "gpt2"},
    },
    "baseline_notes": "Two launches for all tensors: grid (tensor, 64 splits), each program strides over its "
                      "tensor's 1024-element chunks (bounds loaded from offsets) into an fp32 partial; then one "
                      "program per tensor sums its 64 partials and takes the sqrt; no autotune.",
    "deterministic": True,
}


def _shapes(model: str) -> list[int]:
    """Parameter sizes (elements) in registration order."""
    if model == "toy":
        return [1000, 33, 4096, 7, 500, 2048]
    if model == "bert-base":
        h, inter, layers, vocab = 768, 3072, 12, 30522
        layer = [h * h, h] * 4 + [h, h] + [inter * h, inter, h * inter, h] + [h, h]
        return [vocab * h, 512 * h, 2 * h, h, h] + layer * layers + [h * h, h]
    # gpt2 (124M): wte, wpe, 12 blocks, ln_f
    h, layers, vocab = 768, 12, 50257
    layer = [h, h, h * 3 * h, 3 * h, h * h, h, h, h, h * 4 * h, 4 * h, 4 * h * h, h]
    return [vocab * h, 1024 * h] + layer * layers + [h, h]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """flat [total] fp32 gradients (normals times 1e-3) and offsets [T + 1] (int64) of each parameter's view."""
    sizes = _shapes(META["sizes"][size]["model"])
    g = torch.Generator().manual_seed(seed)
    flat = torch.randn(sum(sizes), generator=g) * 1e-3
    offsets = torch.tensor([0] + sizes, dtype=torch.int64).cumsum(0)
    return flat.to(device), offsets.to(device)


def reference(flat: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    b = offsets.tolist()
    return torch.stack([torch.linalg.vector_norm(flat[b[i]:b[i + 1]].double()) for i in range(len(b) - 1)]).float()


def cost(size: str, dtype: str | None = None) -> dict:
    sizes = _shapes(META["sizes"][size]["model"])
    return {"bytes": 4 * sum(sizes) + 12 * len(sizes), "flops": 2 * sum(sizes)}
