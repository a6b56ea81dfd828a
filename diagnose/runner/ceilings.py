"""Measured device ceilings (copy GB/s, matmul TFLOP/s per dtype), cached per device in a JSON file.

Roofline fractions are against what this device actually reaches, not datasheet peaks.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import RunnerError

COPY_BYTES = 2 << 30          # 2 GiB source: far past L2, so the copy streams HBM
MATMUL_N = 8192
# Which matmul ceiling bounds a kernel of each dtype; fp32 tl.dot runs on tensor cores as tf32.
COMPUTE_CEILING_FOR = {"float16": "float16", "bfloat16": "bfloat16", "float32": "tf32",
                       "float64": "float32"}


@dataclass
class Ceilings:
    """What the device reaches: copy bandwidth counting read+write, and dense matmul rates."""

    device_name: str
    measured: bool
    copy_gbps: float | None = None
    matmul_tflops: dict[str, float] = field(default_factory=dict)  # float16, bfloat16, tf32, float32
    method: str = ""
    date: str = ""

    def to_json(self) -> dict:
        return asdict(self)

    def compute_tflops(self, dtype: str) -> float | None:
        """The compute ceiling that applies to a kernel working in dtype."""
        key = COMPUTE_CEILING_FOR.get(dtype, "float16")
        return self.matmul_tflops.get(key)


def cache_path(device_name: str, override: str | None = None) -> Path:
    """--cache, else $PASSWISE_RUNNER_CACHE, else ~/.cache/passwise/ceilings-<device>.json; a folder gets the file inside."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", device_name).strip("-").lower() or "device"
    raw = override or os.environ.get("PASSWISE_RUNNER_CACHE")
    if not raw:
        return Path.home() / ".cache" / "passwise" / f"ceilings-{slug}.json"
    path = Path(raw).expanduser()
    if path.is_dir() or raw.endswith("/") or path.suffix != ".json":
        return path / f"ceilings-{slug}.json"
    return path


def load_cached(path: Path) -> Ceilings | None:
    """The cached ceilings, or None when absent or unreadable (then they are measured again)."""
    try:
        data = json.loads(path.read_text())
        return Ceilings(**data)
    except (OSError, ValueError, TypeError):
        return None


def save(ceilings: Ceilings, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(ceilings.to_json(), indent=2))
    except OSError as exc:
        raise RunnerError(f"cannot write the ceilings cache {path} ({exc}); pass --cache PATH somewhere writable.") from None


def unmeasured(device_name: str, why: str) -> Ceilings:
    return Ceilings(device_name=device_name, measured=False, method=why)


def measure(device: str, device_name: str, date: str) -> Ceilings:
    """Child-side: time a large device copy and 8192^3 matmuls (CUDA via do_bench, NPU via events)."""
    import torch

    from .timing import time_fn

    src = torch.empty(COPY_BYTES // 2, dtype=torch.float16, device=device).normal_()
    dst = torch.empty_like(src)
    t = time_fn(lambda: dst.copy_(src), device, warmup_ms=50, rep_ms=300)
    copy_gbps = 2 * COPY_BYTES / (t.median_ms * 1e-3) / 1e9
    src = dst = None  # free 4 GiB before the matmuls
    rates = {}
    for name, dtype, tf32 in (("float16", torch.float16, False), ("bfloat16", torch.bfloat16, False),
                              ("tf32", torch.float32, True), ("float32", torch.float32, False)):
        rates[name] = _matmul_tflops(device, dtype, tf32)
    method = "copy_ with 2 GiB fp16 (read+write bytes), torch.matmul 8192^3"
    return Ceilings(device_name=device_name, measured=True, copy_gbps=copy_gbps, matmul_tflops=rates,
                    method=method, date=date)


def _matmul_tflops(device: str, dtype: object, tf32: bool) -> float:
    import torch

    from .timing import time_fn

    if device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(MATMUL_N, MATMUL_N, device=device, dtype=dtype)
    b = torch.randn(MATMUL_N, MATMUL_N, device=device, dtype=dtype)
    out = torch.empty_like(a)
    t = time_fn(lambda: torch.matmul(a, b, out=out), device, warmup_ms=50, rep_ms=200)
    if device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
    return 2 * MATMUL_N**3 / (t.median_ms * 1e-3) / 1e12
