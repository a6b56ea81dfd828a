"""The task suite in kernels/: metadata, inputs, cost models, and each baseline against its reference.

Baselines run under TRITON_INTERPRET=1 in a fresh subprocess per task, so the interpreter flag is
set before triton is first imported and a crash in one task cannot take the others down.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import torch

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
TASKS = sorted(p.name for p in KERNELS.iterdir() if (p / "task.py").is_file())

CATEGORIES = {
    "elementwise", "activation", "reduction", "softmax", "norm", "scan", "gemm", "attention",
    "loss", "gather", "layout", "sort", "rope", "fused", "dropout", "fft",
}
META_KEYS = {"name", "level", "category", "dtypes", "tolerance", "sizes", "baseline_notes",
             "deterministic"}
# Allocation and dtype names are all a baseline may take from torch (the runner rejects the rest).
TORCH_ALLOWED = {"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "float16",
                 "bfloat16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool",
                 "dtype", "Tensor", "device"}


def load_module(path: Path, name: str) -> ModuleType:
    """Import one file by path, without needing kernels/ on sys.path."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_task(name: str) -> ModuleType:
    return load_module(KERNELS / name / "task.py", f"task_{name}")


def as_tuple(value: object) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def tensors_of(inputs: tuple) -> list[torch.Tensor]:
    return [x for x in inputs if isinstance(x, torch.Tensor)]


# -- the suite as a whole ---------------------------------------------------------------------

REQUIRED_TASKS = {
    "gelu", "silu", "sum", "mean", "max", "argmax", "logsumexp", "softmax", "log_softmax",
    "layernorm", "rmsnorm", "cumsum", "gemm_fp16", "gemm_bf16", "batched_gemm",
    "gemm_bias_gelu", "naive_attention", "cross_entropy", "embedding", "transpose", "topk",
    "rope", "swiglu", "dropout", "moe_group_topk_mask", "fft_pad_window_pack",
}


def test_suite_has_at_least_37_tasks_with_18_fused():
    levels = [load_task(name).META["level"] for name in TASKS]
    assert len(TASKS) >= 37, TASKS
    assert levels.count(2) >= 18
    assert levels.count(1) >= 18


def test_suite_covers_every_required_op_and_category():
    assert REQUIRED_TASKS <= set(TASKS), sorted(REQUIRED_TASKS - set(TASKS))
    categories = {load_task(name).META["category"] for name in TASKS}
    assert categories == CATEGORIES, sorted(CATEGORIES ^ categories)


def test_readme_lists_every_task_with_its_baseline_notes():
    readme = (KERNELS / "README.md").read_text()
    missing = [name for name in TASKS if f"`{name}`" not in readme]
    assert not missing, f"kernels/README.md does not list {missing}"
    stale = [name for name in TASKS
             if load_task(name).META["baseline_notes"].replace("|", "\\|") not in readme]
    assert not stale, f"kernels/README.md has stale baseline notes for {stale}"


# -- each task's metadata, inputs and cost ----------------------------------------------------

def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


@pytest.mark.parametrize("name", TASKS)
def test_meta_is_complete_and_sane(name: str):
    meta = load_task(name).META
    assert META_KEYS <= set(meta), sorted(META_KEYS - set(meta))
    assert meta["name"] == name
    assert meta["level"] in (1, 2)
    assert meta["category"] in CATEGORIES
    assert meta["dtypes"] and set(meta["dtypes"]) <= set(meta["tolerance"])
    for dtype in meta["dtypes"]:
        assert isinstance(getattr(torch, dtype), torch.dtype)
        tol = meta["tolerance"][dtype]
        assert 0 <= tol["atol"] <= 0.1 and 0 <= tol["rtol"] <= 0.1
    sizes = meta["sizes"]
    assert len(sizes) >= 3 and {"small", "large"} <= set(sizes)
    dims = [v for size in sizes.values() for v in size.values() if isinstance(v, int)]
    assert any(v > 2 and not _is_power_of_two(v) for v in dims), "no non-power-of-two size"
    assert isinstance(meta["deterministic"], bool)
    assert len(meta["baseline_notes"]) > 40
    if not meta["deterministic"]:
        assert callable(getattr(load_task(name), "check", None))


@pytest.mark.parametrize("name", TASKS)
def test_make_inputs_is_deterministic_by_seed(name: str):
    task = load_task(name)
    first, again = task.make_inputs("small", seed=0), task.make_inputs("small", seed=0)
    other = task.make_inputs("small", seed=1)
    assert len(first) == len(again) == len(other)
    for a, b in zip(tensors_of(first), tensors_of(again), strict=True):
        assert a.dtype == b.dtype and torch.equal(a, b)
    assert any(not torch.equal(a, b) for a, b in zip(tensors_of(first), tensors_of(other),
                                                     strict=True))
    default = getattr(torch, task.META["dtypes"][0])
    assert any(x.dtype == default for x in tensors_of(first)), "inputs ignore the default dtype"


@pytest.mark.parametrize("name", TASKS)
def test_cost_is_positive_and_large_size_is_large(name: str):
    task = load_task(name)
    for size in task.META["sizes"]:
        for dtype in task.META["dtypes"]:
            cost = task.cost(size, dtype)
            assert cost["bytes"] > 0 and cost["flops"] >= 0, (size, dtype, cost)
    large = task.cost("large")
    # Busy well past launch overhead: 64 MB moved or 10 GFLOP; yet inputs fit in a few GB.
    assert large["bytes"] >= 64e6 or large["flops"] >= 1e10, large
    assert large["bytes"] < 4e9, large
    assert task.cost("small")["bytes"] < large["bytes"]


@pytest.mark.parametrize("name", TASKS)
def test_baseline_calls_no_torch_compute(name: str):
    tree = ast.parse((KERNELS / name / "baseline.py").read_text())
    used = {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "torch"}
    assert used <= TORCH_ALLOWED, sorted(used - TORCH_ALLOWED)
    imports = {alias.name.split(".")[0] for node in ast.walk(tree)
               if isinstance(node, ast.Import | ast.ImportFrom)
               for alias in node.names} | {node.module.split(".")[0] for node in ast.walk(tree)
                                           if isinstance(node, ast.ImportFrom) and node.module}
    assert imports <= {"torch", "triton", "math", "__future__"}, imports


# -- each baseline against its reference, under the interpreter --------------------------------

# Triton 3.6's interpreter has two bugs that are not the kernels' fault: with numpy >= 2.4 a scalar
# kernel argument cannot be a loop bound (int() of a 1-element array now raises), and tl.dot on
# bfloat16 multiplies the raw uint16 bit patterns. The shim fixes both for the check only.
@pytest.mark.slow
@pytest.mark.parametrize("name", TASKS)
def test_baseline_matches_reference_under_interpreter(name: str):
    # Through the runner, as CI on a CPU machine uses it: TRITON_INTERPRET=1, size small.
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    proc = subprocess.run([sys.executable, "-m", "diagnose.runner", "verify", str(KERNELS / name),
                           str(KERNELS / name / "baseline.py"), "--device", "cpu", "--sizes",
                           "small", "--seeds", "2", "--json"],
                          cwd=KERNELS.parent, capture_output=True, text=True, env=env, timeout=300)
    result = json.loads(proc.stdout)
    assert result["verdict"] == "pass", result["cause"]


def test_cost_of_gemm_counts_two_flops_per_multiply_add():
    task = load_task("gemm_fp16")
    size = task.META["sizes"]["large"]
    cost = task.cost("large", "float16")
    assert cost["flops"] == 2 * size["M"] * size["N"] * size["K"]
    assert cost["bytes"] == 2 * (size["M"] * size["K"] + size["K"] * size["N"]
                                 + size["M"] * size["N"])


def test_fft_size_is_the_smallest_even_5_smooth_length_and_baseline_agrees():
    task = load_task("fft_pad_window_pack")
    source = (KERNELS / "fft_pad_window_pack" / "baseline.py").read_text()
    helper = ast.get_source_segment(source, next(
        node for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name == "fft_size"))
    scope: dict = {}
    exec(helper, scope)

    def smooth(m: int) -> bool:
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        return m == 1

    for n in (1, 2, 7, 997, 1000, 1531, 100_003):
        size = task.fft_size(n)
        assert size >= n and size % 2 == 0 and smooth(size)
        assert not any(m % 2 == 0 and smooth(m) for m in range(n, size))
        assert scope["fft_size"](n) == size


def test_group_routing_reference_keeps_exactly_topk_groups_per_token():
    task = load_task("moe_group_topk_mask")
    scores, n_group, topk_group = task.make_inputs("ragged", seed=3)
    out = task.reference(scores, n_group, topk_group)
    T, E = scores.shape
    kept = out.view(T, n_group, E // n_group).ne(0).any(dim=-1)
    assert kept.sum(dim=-1).eq(topk_group).all()
    # A kept group is untouched, and each kept group's top-2 sum beats every dropped group's.
    grouped = scores.view(T, n_group, -1)
    assert torch.equal(out.view(T, n_group, -1)[kept], grouped[kept])
    top2 = grouped.topk(2, dim=-1).values.sum(-1)
    worst_kept = top2.masked_fill(~kept, float("inf")).amin(dim=-1)
    best_dropped = top2.masked_fill(kept, float("-inf")).amax(dim=-1)
    assert (worst_kept > best_dropped).all()


def test_fft_pack_reference_interleaves_windowed_even_and_odd_samples():
    task = load_task("fft_pad_window_pack")
    x, window = task.make_inputs("small", seed=0)
    packed = task.reference(x, window)
    B, N = x.shape
    assert packed.shape == (B, task.fft_size(N) // 2, 2)
    flat = packed.reshape(B, -1)
    assert torch.allclose(flat[:, :N], x * window)
    assert flat[:, N:].eq(0).all()
