"""Bad candidate: lets torch do the work."""
import torch


def run(x, y):
    out = torch.empty_like(x)
    return torch.add(x, y, out=out)
