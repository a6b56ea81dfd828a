"""Where a task sits on the roofline before anything is timed: the arithmetic intensity of its
cost model (FLOP per byte of minimal traffic at the captured size) against the target's ridge.

Tier 3 reads it when tier 2 has no timings: a compute-side IR symptom (a dot that missed the
tensor-core path) cannot be what limits a task whose every byte is worth few FLOPs; the
memory-side evidence is then the cost to explain first.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

# The ridge (FLOP per byte where the fp16 matmul rate and copy bandwidth meet) per backend when
# no ceilings were measured: an H200 measured 662 TFLOP/s and 4274 GB/s (results/ceilings-h200.json),
# about 155. Only a task well below it (a factor MARGIN) is called memory-bound.
RIDGE = {"cuda": 155.0, "ascend": 100.0}
MARGIN = 2.0
# The same for a dot that fell off the tensor cores onto fp32 FMA loops: the H200's FP32 rate
# (132 SMs x 128 lanes x 2 FLOP x 1.98 GHz, about 67 TFLOP/s) against 4274 GB/s, about 16.
FMA_RIDGE = {"cuda": 16.0}


@dataclass(frozen=True)
class Estimate:
    intensity: float      # FLOP per byte of the task's minimal traffic
    ridge: float
    memory_bound: bool

    def fma_bound(self, backend: str = "cuda") -> bool:
        """Whether the task would be bound by its arithmetic if its matmul ran as fp32 FMAs."""
        ridge = FMA_RIDGE.get(backend)
        return ridge is not None and self.intensity * MARGIN >= ridge

    def sentence(self) -> str:
        return (f"the task's cost model does {self.intensity:.0f} FLOP per byte at this size, "
                f"{'far below' if self.memory_bound else 'not far below'} the {self.ridge:.0f} "
                "FLOP/byte where matmul rate and bandwidth meet")


def estimate(task_dir: Path | None, size: str, backend: str = "cuda") -> Estimate | None:
    """The estimate from task_dir/task.py's cost(size); None when there is no cost model to read."""
    cost = _cost(task_dir, size)
    if not cost:
        return None
    flops, moved = cost.get("flops"), cost.get("bytes")
    if not isinstance(flops, int | float) or not isinstance(moved, int | float) or moved <= 0:
        return None
    ridge = RIDGE.get(backend, RIDGE["cuda"])
    intensity = float(flops) / float(moved)
    return Estimate(intensity, ridge, intensity * MARGIN < ridge)


def _cost(task_dir: Path | None, size: str) -> dict | None:
    path = Path(task_dir) / "task.py" if task_dir else None
    if path is None or not path.is_file():
        return None
    name = f"_passwise_cost_{abs(hash(str(path)))}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        cost = module.cost(size)
    except Exception:  # a task whose cost model cannot be read gives no estimate, not an error
        return None
    finally:
        sys.modules.pop(name, None)
    return cost if isinstance(cost, dict) else None
