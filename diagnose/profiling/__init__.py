"""Tier 2 of the ladder, profiling: roofline placement of the runner's timings, Nsight Compute
counters and Ascend msprof/torch_npu CSVs turned into findings. See docs/profiling.md."""

from .ascend import AscendCores
from .inputs import ProfileError, load_json
from .tier import profile_tier

__all__ = ["AscendCores", "ProfileError", "load_json", "profile_tier"]
