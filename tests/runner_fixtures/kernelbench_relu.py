"""Fixture in KernelBench's format: a reference Model and its inputs."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """ReLU followed by a scale; one learnable-free op chain."""

    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x) * self.scale


batch_size = 16
dim = 1000


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [2.0]
