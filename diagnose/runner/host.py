"""Which device to run on and what it is: names, versions, date, and the npu/cuda/cpu switch."""

from __future__ import annotations

import datetime as _dt
import platform
import sys
from dataclasses import asdict, dataclass

from .errors import RunnerError

DEVICES = ("cuda", "npu", "cpu")


@dataclass
class DeviceInfo:
    """Stamped into every JSON the runner writes."""

    device: str                 # "cuda" | "npu" | "cpu"
    device_name: str
    torch: str
    triton: str
    python: str
    date: str                   # ISO 8601, UTC
    triton_interpret: bool      # kernels ran in the Triton interpreter (CPU), timings meaningless
    verified_on_hardware: bool  # False for code paths never run on that hardware (npu)

    def to_json(self) -> dict:
        return asdict(self)


def import_torch_npu() -> None:
    """Import torch_npu (Ascend); absent, say so in one sentence."""
    try:
        import torch_npu  # noqa: F401
    except ImportError:
        raise RunnerError(
            "--device npu needs torch_npu (the Ascend PyTorch adapter), which this host lacks; "
            "install torch_npu on the Ascend host or pick --device cuda or cpu."
        ) from None


def resolve_device(requested: str | None) -> str:
    """The device to use: the requested one if present, else cuda, then npu, then cpu."""
    if requested and requested not in DEVICES:
        raise RunnerError(f"unknown device {requested!r}; pick one of {', '.join(DEVICES)}.")
    if requested == "cpu":
        return "cpu"  # no torch import: the parent of a CPU run only starts children
    import torch

    if requested == "npu":
        import_torch_npu()
        if not torch.npu.is_available():  # type: ignore[attr-defined]
            raise RunnerError("torch_npu is installed but sees no NPU; check the driver (npu-smi info).")
        return "npu"
    if requested == "cuda" and not torch.cuda.is_available():
        raise RunnerError("--device cuda was asked for but torch sees no CUDA GPU; use --device cpu here.")
    if requested:
        return requested
    if torch.cuda.is_available():
        return "cuda"
    try:
        import_torch_npu()
        if torch.npu.is_available():  # type: ignore[attr-defined]
            return "npu"
    except RunnerError:
        pass
    return "cpu"


def device_name(device: str) -> str:
    """A human name for the device (GPU/NPU product name, CPU model otherwise)."""
    import torch

    if device == "cuda":
        return torch.cuda.get_device_name(0)
    if device == "npu":
        return torch.npu.get_device_name(0)  # type: ignore[attr-defined]
    return platform.processor() or platform.machine() or "cpu"


def device_info(device: str, interpret: bool) -> DeviceInfo:
    """Versions and identity of this host for the JSON header."""
    import torch
    import triton

    return DeviceInfo(
        device=device, device_name=device_name(device), torch=torch.__version__,
        triton=triton.__version__, python=platform.python_version(),
        date=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        triton_interpret=interpret, verified_on_hardware=device != "npu",
    )


def synchronize(device: str) -> None:
    """Wait for queued device work so host timers and errors line up with it."""
    import torch

    if device == "cuda":
        torch.cuda.synchronize()
    elif device == "npu":
        torch.npu.synchronize()  # type: ignore[attr-defined]


def python_executable() -> str:
    """The interpreter child processes run with (the one running us)."""
    return sys.executable
