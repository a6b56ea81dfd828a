"""Child process of IR capture: runs a task's launcher with launches intercepted, compiles each.

Run as a script by the interpreter of the CUDA compiler environment; imports only torch,
triton and the standard library. Writes one JSON report (schema: CUDA_CHILD_SCHEMA below).
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path

# Report schema, read by diagnose/ir/cuda.py:
# {"tool_dir": str, "triton_version": str, "setup_error": str | None,
#  "launches": [{"kernel", "file", "line", "signature", "constexprs", "attrs", "options",
#                "autotune_configs", "grid", "dump_file", "asm_files", "error", "error_kind"}],
#  "launch_log": [{"kernel", "tensors": {arg name: storage address}}]  (every launch, in order),
#  "io": {"inputs": [storage address], "outputs": [storage address]}}  (of the launcher's call)
CUDA_CHILD_SCHEMA = 1


def _load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _jsonable(value):
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


class LaunchRecorder:
    """Replaces JITFunction.run / Autotuner.run: records each launch and never executes it."""

    def __init__(self, target, max_configs: int):
        from triton.compiler import make_backend

        self.target = target
        self.backend = make_backend(target)
        self.max_configs = max_configs
        self.launches: list[dict] = []
        self.launch_log: list[dict] = []  # every launch, repeats included: the buffers it gets
        self._seen: set[str] = set()
        self._autotune_configs: list[dict] | None = None

    def jit_run(self, fn, args, grid, kwargs) -> None:
        from triton import knobs
        from triton.runtime.jit import create_function_from_signature

        kwargs = dict(kwargs)
        kwargs["debug"] = kwargs.get("debug", fn.debug) or knobs.runtime.debug
        kwargs["instrumentation_mode"] = knobs.compilation.instrumentation_mode
        # Triton's own binder and _pack_args: divisibility/==1 specialisation as a real launch.
        binder = create_function_from_signature(fn.signature, fn.params, self.backend)
        bound_args, specialization, options = binder(*args, **kwargs)
        options, signature, constexprs, attrs = fn._pack_args(
            self.backend, kwargs, bound_args, specialization, options)
        if callable(grid):
            grid = grid(bound_args)
        self.launch_log.append({"kernel": fn.fn.__name__, "tensors": {
            name: _storage(value) for name, value in zip(fn.arg_names, args, strict=False)
            if _storage(value) is not None}, "bytes": {
            name: _nbytes(value) for name, value in zip(fn.arg_names, args, strict=False)
            if _storage(value) is not None}})
        record = {
            "kernel": fn.fn.__name__,
            "file": fn.fn.__code__.co_filename,
            "line": fn.starting_line_number,
            "signature": signature,
            "constexprs": {fn.arg_names[k[0]] if len(k) == 1 else str(k): _jsonable(v)
                           for k, v in constexprs.items()},
            "attrs": {fn.arg_names[k[0]] if len(k) == 1 else str(k): _jsonable(v)
                      for k, v in attrs.items()},
            "options": {k: _jsonable(v) for k, v in options.__dict__.items()
                        if k in ("num_warps", "num_stages", "num_ctas", "maxnreg",
                                 "enable_fp_fusion", "arch", "debug")},
            "autotune_configs": self._autotune_configs or [],
            "grid": _jsonable(list(grid)) if grid is not None else None,
            "_compile": (fn, signature, constexprs, attrs, options),
        }
        key = json.dumps([record["kernel"], record["file"], signature, record["constexprs"],
                          record["attrs"], record["options"]], sort_keys=True, default=str)
        if key not in self._seen:
            self._seen.add(key)
            self.launches.append(record)

    def autotune_run(self, tuner, args, kwargs) -> None:
        configs = list(tuner.configs)
        self._autotune_configs = [_jsonable(c.all_kwargs()) for c in configs]
        try:
            for config in configs[: self.max_configs]:
                tuner.fn.run(*args, **{**kwargs, **config.all_kwargs()})
        finally:
            self._autotune_configs = None


def _install_interceptors(recorder: LaunchRecorder) -> None:
    from triton.runtime.autotuner import Autotuner
    from triton.runtime.jit import JITFunction

    def jit_run(self, *args, grid, warmup, **kwargs):
        recorder.jit_run(self, args, grid, kwargs)
        return None

    def autotune_run(self, *args, **kwargs):
        recorder.autotune_run(self, args, kwargs)
        return None

    JITFunction.run = jit_run
    Autotuner.run = autotune_run


def _storage(value) -> int | None:
    """The address of a tensor's storage (views of one buffer share it), else None."""
    try:
        return int(value.untyped_storage().data_ptr())
    except (AttributeError, RuntimeError, TypeError):
        return None


def _nbytes(value) -> int:
    try:
        return int(value.numel() * value.element_size())
    except (AttributeError, RuntimeError, TypeError):
        return 0


def _input_bytes(value) -> int:
    if isinstance(value, (list, tuple)):
        return sum(_input_bytes(v) for v in value)
    return _nbytes(value)


def _storages(value) -> list[int]:
    """Storage addresses of a tensor or of the tensors in a (nested) tuple/list/dict."""
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in _storages(v)]
    if isinstance(value, dict):
        return [a for v in value.values() for a in _storages(v)]
    address = _storage(value)
    return [] if address is None else [address]


# Host-side torch ops of the launcher that move a whole tensor: casts and layout copies.
HOST_COPY_OPS = ("aten._to_copy", "aten.clone", "aten.copy_", "aten.contiguous")
HOST_OPS: list[dict] = []  # filled while the launcher runs (see _HostOps)


def _host_ops_mode():
    """A TorchDispatchMode that records the launcher's copy and cast ops with their bytes."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class _HostOps(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            name = str(func.overloadpacket) if hasattr(func, "overloadpacket") else str(func)
            if name.startswith(HOST_COPY_OPS) and hasattr(out, "element_size"):
                source = args[0] if args and hasattr(args[0], "dtype") else None
                HOST_OPS.append({"op": name, "bytes": int(out.numel() * out.element_size()),
                                 "dtype": str(out.dtype).replace("torch.", ""),
                                 "from_dtype": str(source.dtype).replace("torch.", "")
                                 if source is not None else ""})
            return out

    return _HostOps()


# What a launcher may ask the device while it picks a grid (persistent kernels size theirs
# from the SM count): the capture target's answers, since no GPU is there to give them.
SM_COUNT = {90: 132, 80: 108, 89: 128, 100: 148}


def _stand_in_device(arch: int) -> None:
    """On a machine without a GPU, torch.cuda's device queries answer for the capture target
    (an sm_90 part has 132 SMs) instead of raising: the launch is captured as it would run."""
    import contextlib
    import types

    import torch

    if torch.cuda.is_available():
        return
    props = types.SimpleNamespace(
        name=f"sm_{arch} stand-in for IR capture", major=arch // 10, minor=arch % 10,
        multi_processor_count=SM_COUNT.get(arch, 132), total_memory=141 * 2**30,
        max_threads_per_multi_processor=2048, warp_size=32, L2_cache_size=50 * 2**20,
        shared_memory_per_block_optin=227 * 2**10)
    torch.cuda.get_device_properties = lambda device=None: props
    torch.cuda.get_device_capability = lambda device=None: (props.major, props.minor)
    torch.cuda.current_device = lambda: 0
    torch.cuda.device_count = lambda: 1
    torch.cuda.get_device_name = lambda device=None: props.name
    torch.cuda.device = lambda device=None: contextlib.nullcontext()


def _call_launcher(task_dir: Path | None, kernel_file: Path, size: str) -> dict:
    """Import the kernel file and call its entry point on the task's CPU inputs at `size`;
    returns the storage addresses of what went in and what came out (see launch_log)."""
    sys.path.insert(0, str(kernel_file.parent))
    module = _load_module(kernel_file, "passwise_candidate")
    if hasattr(module, "ModelNew") and hasattr(module, "get_inputs"):
        init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
        inputs = module.get_inputs()
        model = module.ModelNew(*init)
        params = [p for p in getattr(model, "parameters", lambda: [])()]
        with _host_ops_mode():
            out = model(*inputs)
        return {"inputs": _storages(inputs) + _storages(params), "outputs": _storages(out),
                "input_bytes": _input_bytes(inputs)}
    if task_dir is None or not (task_dir / "task.py").exists():
        raise FileNotFoundError(f"no task.py beside {kernel_file} to make inputs from")
    sys.path.insert(0, str(task_dir))
    task = _load_module(task_dir / "task.py", "passwise_task")
    inputs = task.make_inputs(size=size, device="cpu")
    with _host_ops_mode():
        out = module.run(*inputs)
    return {"inputs": _storages(inputs), "outputs": _storages(out), "input_bytes": _input_bytes(inputs)}


def _compile_one(record: dict, target, out_dir: Path, index: int) -> None:
    """Compile one recorded launch for the target, with MLIR's pass dumps sent to a file."""
    import triton
    from triton.compiler import ASTSource

    fn, signature, constexprs, attrs, options = record.pop("_compile")
    dump_path = out_dir / f"launch{index}.dump.txt"
    record["dump_file"] = str(dump_path)
    record["asm_files"] = {}
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(dump_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)  # MLIR prints through llvm::dbgs(), i.e. file descriptor 2
    try:
        kernel = triton.compile(ASTSource(fn, signature, constexprs, attrs),
                                target=target, options=options.__dict__)
    except Exception as exc:  # the compiler's own error is the evidence
        record["error"] = f"{type(exc).__name__}: {exc}"
        record["error_kind"] = "compile"
        return
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(fd)
        os.close(saved)
    for name, text in kernel.asm.items():
        suffix = "bin" if isinstance(text, bytes) else "txt"
        path = out_dir / f"launch{index}.{name}.{suffix}"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        record["asm_files"][name] = str(path)
    record["metadata"] = {k: _jsonable(getattr(kernel.metadata, k, None))
                          for k in ("shared", "num_warps", "num_stages", "name")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernel", required=True)
    parser.add_argument("--task-dir")
    parser.add_argument("--size", default="small")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--arch", type=int, default=90)
    parser.add_argument("--max-configs", type=int, default=1)
    args = parser.parse_args(argv)

    if "TRITON_CACHE_DIR" not in os.environ:  # a cache of this run only, gone when it ends
        cache = tempfile.mkdtemp(prefix="passwise-tcache-")
        atexit.register(shutil.rmtree, cache, ignore_errors=True)
        os.environ["TRITON_CACHE_DIR"] = cache
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # a cache hit would skip the pass dumps
    os.environ["MLIR_ENABLE_DUMP"] = "1"
    import triton
    from triton.backends.compiler import GPUTarget

    out_dir = Path(args.out_dir)
    report = {"triton_version": triton.__version__, "setup_error": None, "launches": [],
              "tool_dir": str(Path(triton.__file__).parent / "backends" / "nvidia" / "bin")}
    target = GPUTarget("cuda", args.arch, 32)
    recorder = LaunchRecorder(target, args.max_configs)
    _install_interceptors(recorder)
    _stand_in_device(args.arch)
    try:
        report["io"] = _call_launcher(Path(args.task_dir) if args.task_dir else None,
                                      Path(args.kernel), args.size)
    except Exception as exc:
        report["setup_error"] = f"{type(exc).__name__}: {exc}"
        report["setup_traceback"] = traceback.format_exc(limit=-3)
    for index, record in enumerate(recorder.launches):
        _compile_one(record, target, out_dir, index)
        record.setdefault("error", None)
        report["launches"].append(record)
    report["launch_log"] = recorder.launch_log
    report["host_ops"] = HOST_OPS
    (out_dir / "report.json").write_text(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
