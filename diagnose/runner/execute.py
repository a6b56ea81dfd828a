"""Child-side loading: import a task or KernelBench file and a candidate, and call them."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_modules: dict[Path, Any] = {}


def load_module(path: Path) -> Any:
    """Import a file by path under a unique module name (cached: triton caches compiled kernels per function)."""
    path = Path(path).resolve()
    if path not in _modules:
        name = f"passwise_loaded_{len(_modules)}_{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # triton.jit reads the source via the module's __file__
        spec.loader.exec_module(module)
        _modules[path] = module
    return _modules[path]


@dataclass
class LoadedTask:
    """A task made callable: inputs per (size, device, seed, dtype), reference, cost, check."""

    make_inputs: Callable[[str, str, int, str | None], tuple]
    reference: Callable[..., Any]
    cost: Callable[[str, str | None], dict] | None
    check: Callable[[tuple, Any], str | None] | None
    module: Any
    model: Any = None  # the KernelBench Model instance


def load_task(path: Path, kind: str, device: str) -> LoadedTask:
    """Import task.py, or adapt a KernelBench file to the same shape."""
    module = load_module(path)
    if kind == "task":
        return LoadedTask(
            make_inputs=lambda size, dev, seed, dtype: tuple(module.make_inputs(size, device=dev, seed=seed, dtype=dtype)),
            reference=module.reference, cost=module.cost, check=getattr(module, "check", None),
            module=module,
        )
    return _kernelbench_task(module, device)


def _kernelbench_task(module: Any, device: str) -> LoadedTask:
    import torch

    torch.manual_seed(0)  # KernelBench seeds before building both Model and ModelNew
    model = module.Model(*module.get_init_inputs()).to(device).eval()

    def make_inputs(size: str, dev: str, seed: int, dtype: str | None) -> tuple:
        torch.manual_seed(seed)
        return tuple(x.to(dev) if isinstance(x, torch.Tensor) else x for x in module.get_inputs())

    def reference(*inputs: Any) -> Any:
        with torch.no_grad():
            return model(*inputs)

    return LoadedTask(make_inputs=make_inputs, reference=reference, cost=None, check=None,
                      module=module, model=model)


def load_candidate(path: Path, entry: str, task: LoadedTask, device: str) -> Callable[..., Any]:
    """The candidate as a function of the inputs: run itself, or a seeded ModelNew's forward."""
    module = load_module(path)
    if entry == "run":
        return module.run
    import torch

    torch.manual_seed(0)
    model = module.ModelNew(*task.module.get_init_inputs()).to(device).eval()
    _copy_matching_weights(task.model, model)

    def run(*inputs: Any) -> Any:
        with torch.no_grad():
            return model(*inputs)

    return run


def _copy_matching_weights(src: Any, dst: Any) -> None:
    """Give ModelNew the reference weights when its parameters have the same names and shapes."""
    mine, theirs = dst.state_dict(), src.state_dict()
    if mine.keys() == theirs.keys() and all(mine[k].shape == theirs[k].shape for k in mine):
        dst.load_state_dict(theirs)


def default_cost(inputs: tuple, outputs: Any) -> dict:
    """Bytes of every tensor input read once and every output written once; FLOPs unknown."""
    import torch

    outs = outputs if isinstance(outputs, tuple | list) else (outputs,)
    tensors = [t for t in (*inputs, *outs) if isinstance(t, torch.Tensor)]
    return {"bytes": sum(t.numel() * t.element_size() for t in tensors), "flops": None}
