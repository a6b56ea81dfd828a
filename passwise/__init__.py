"""passwise: why is this Triton kernel slow, and which source change fixes it."""

__version__ = "0.1.0"
