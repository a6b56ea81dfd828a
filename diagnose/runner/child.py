"""The child process: runs work items (verify a case, time an implementation, measure ceilings,
launch once for a profiler) and streams one JSON record per item to a file.

Everything that executes user code happens here, so the parent survives segfaults and hangs.
A record is written *before* each item too, so the parent knows what was running when we died.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

EXIT_FATAL_DEVICE_ERROR = 3  # the CUDA context is unusable; the parent restarts us if needed


@dataclass
class WorkItem:
    """One unit of device work; crosses the process boundary as JSON."""

    kind: str                     # verify | bench | ceilings | launch
    task: str = ""                # path of task.py or the KernelBench file
    task_kind: str = "task"       # task | kernelbench
    candidate: str | None = None  # path; None for eager/compile bench items
    entry: str = "run"            # run | ModelNew
    impl: str = "candidate"       # candidate | eager | compile (bench)
    size: str = ""
    dtype: str | None = None
    seed: int = 0
    atol: float = 0.0
    rtol: float = 0.0
    warmup_ms: float = 25.0
    rep_ms: float = 100.0
    launches: int = 3             # warm-up calls before the profiled one (launch)
    time_it: bool = True          # bench: False compiles and runs once only (cache warming)
    cache: str | None = None      # ceilings: cache file/folder override
    remeasure: bool = False       # ceilings: ignore the cache
    probe: str | None = None      # verify: ragged | large_magnitude | task:NAME (see probes.py)
    refill: bool = False          # verify: reuse the input buffers of this size/dtype's previous case
    recall: bool = False          # verify: afterwards, new data in the same buffers and a second call
    runs: int = 1                 # verify: calls on the same inputs that must all match (3 on a GPU)

    def to_json(self) -> dict:
        return asdict(self)


class TaskError(Exception):
    """The task (not the candidate) failed: make_inputs, reference or cost raised."""


class _Context:
    """Per-process caches: imported tasks, candidates, torch.compile'd references."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.tasks: dict[str, Any] = {}
        self.candidates: dict[tuple[str, str], Any] = {}
        self.compiled: dict[tuple[str, str | None], Any] = {}
        self.buffers: dict[tuple, tuple] = {}  # (task, size, dtype) -> inputs of the last case
        self.trust: Any = None

    def task(self, item: WorkItem) -> Any:
        from .execute import load_task

        if item.task not in self.tasks:
            try:
                self.tasks[item.task] = load_task(Path(item.task), item.task_kind, self.device)
            except Exception as exc:
                raise TaskError(f"importing the task failed with {_describe(exc)}") from exc
        return self.tasks[item.task]

    def candidate(self, item: WorkItem) -> Any:
        from .execute import load_candidate

        key = (item.candidate or "", item.entry)
        if key not in self.candidates:
            self.candidates[key] = load_candidate(Path(item.candidate or ""), item.entry, self.task(item), self.device)
        return self.candidates[key]

    def inputs(self, item: WorkItem) -> tuple:
        try:
            return self.task(item).make_inputs(item.size, self.device, item.seed, item.dtype)
        except TaskError:
            raise
        except Exception as exc:
            raise TaskError(f"make_inputs({item.size!r}, seed={item.seed}) raised {_describe(exc)}") from exc

    def reference(self, item: WorkItem, inputs: tuple) -> Any:
        try:
            with exact_references():
                return self.task(item).reference(*inputs)
        except Exception as exc:
            raise TaskError(f"the reference raised {_describe(exc)}") from exc


def main(argv: list[str]) -> int:
    """python -m diagnose.runner _child ITEMS.json RECORDS.jsonl"""
    spec = json.loads(Path(argv[0]).read_text())
    device = spec["device"]
    out = open(argv[1], "a", buffering=1)  # noqa: SIM115 - line-buffered, lives as long as we do
    ctx = _Context(device)
    info = _device_info(device)
    ctx.trust = _prepare(spec)
    _emit(out, {"event": "hello", "device_info": info, "sandbox": _sandbox_info(spec)})
    items = [WorkItem(**raw) for raw in spec["items"]]
    for index, item in enumerate(items):
        _emit(out, {"event": "begin", "index": index})
        result = _run_item(item, ctx)
        _emit(out, {"event": "end", "index": index, "result": result})
        if result.get("status") == "illegal_memory_access":
            out.close()
            os._exit(EXIT_FATAL_DEVICE_ERROR)  # a poisoned CUDA context fails every later call
        if spec.get("stop_on_failure") and result.get("status") not in PASSING:
            _skip_rest(out, items, index, result["status"])
            break
    out.close()
    return 0


PASSING = ("ok", "not_applicable")


def _prepare(spec: dict) -> Any:
    """Before any task or candidate is imported: interpreter fixes, launch tracking, the sm_90
    compile check (CPU), then the sandbox (its hook cannot be removed once installed)."""
    import triton  # noqa: F401 - imported before the sandbox, as trusted code

    from . import compare, execute, gate, integrity, probes  # noqa: F401 - loaded before the hook
    from .trust import Trust
    from .watch import guard_host_exports, track_launches

    if os.environ.get("TRITON_INTERPRET") == "1":
        from . import gpu_compile
        from .interpreter import patch_interpreter

        patch_interpreter()
        if spec.get("gpu_compile", True):
            gpu_compile.install()
    track_launches()
    guard_host_exports()
    box = spec.get("sandbox")
    if box:
        from . import sandbox

        sandbox.enter(box["dir"], [i["candidate"] for i in spec["items"] if i.get("candidate")])
    _start_threads_guard(box is not None)
    return Trust()


@contextlib.contextmanager
def exact_references():
    """While a reference computes the answer to check against, GEMMs reduce in fp32: by default
    cuBLAS may reduce fp16/bf16 split-K partials in half precision, which on the H200 put the
    reference 0.25 off at K=4099 where a correct fp32-accumulating candidate was right (found by the
    ragged probe). Timed eager/compile references keep torch's defaults."""
    import torch

    matmul = torch.backends.cuda.matmul
    names = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction", "allow_tf32")
    saved = {n: getattr(matmul, n) for n in names}
    for n in names:
        setattr(matmul, n, False)
    try:
        yield
    finally:
        for n, v in saved.items():
            setattr(matmul, n, v)


def _sandbox_info(spec: dict) -> dict:
    from .sandbox import SandboxInfo, netns_id

    box = spec.get("sandbox")
    if not box:
        return SandboxInfo(private_dir=False, python_audit=False, note="sandbox off").to_json()
    netns = bool(box.get("parent_netns")) and netns_id() != box.get("parent_netns")
    return SandboxInfo(network_namespace=netns, note=None if netns else box.get("netns_note")).to_json()


def _start_threads_guard(active: bool) -> None:
    """Threads started by the candidate would run outside the torch watch: refuse them."""
    if not active:
        return
    from .sandbox import guard_threads

    guard_threads()


def _run_item(item: WorkItem, ctx: _Context) -> dict:
    from . import sandbox

    start = time.perf_counter()
    seen, started = len(sandbox.violations()), len(sandbox.started_programs())
    sandbox.set_candidate(item.candidate)
    try:
        result = HANDLERS[item.kind](item, ctx)
    except BaseException as exc:  # SystemExit from a candidate is a crash, not our exit
        result = classify(exc, item)
    if sandbox.started_programs()[started:]:
        result["trusted_processes"] = sandbox.started_programs()[started:]
    new = sandbox.violations()[seen:]
    if new:
        v = new[0]
        result = {"status": "sandbox_violation", "outputs": [], "violations": new,
                  "cause": f"the candidate tried {v['action']}{' at ' + v['at'] if v['at'] else ''}, which the "
                           "sandbox refuses (no network, processes, files outside its folder or runner internals)"}
    result["wall_s"] = round(time.perf_counter() - start, 3)
    return result


def _skip_rest(out: Any, items: list[WorkItem], failed: int, status: str) -> None:
    it = items[failed]
    where = f"size {it.size}, {it.dtype or 'default dtype'}, seed {it.seed}" + (f", probe {it.probe}" if it.probe else "")
    for index in range(failed + 1, len(items)):
        _emit(out, {"event": "begin", "index": index})
        _emit(out, {"event": "end", "index": index, "result": {
            "status": "skipped", "cause": f"skipped after the {status} at {where}", "wall_s": 0.0}})


def _emit(out: Any, record: dict) -> None:
    out.write(json.dumps(record, default=str) + "\n")
    out.flush()


def _device_info(device: str) -> dict:
    from .host import device_info

    return device_info(device, os.environ.get("TRITON_INTERPRET") == "1").to_json()


def verify_case(item: WorkItem, ctx: _Context) -> dict:
    """One verify case: see gate.py."""
    from .gate import verify_case as gate_case

    return gate_case(item, ctx)


def bench_impl(item: WorkItem, ctx: _Context) -> dict:
    """Time one implementation (candidate, eager reference, torch.compile reference) at one size."""
    with _inductor_env_undone() if item.impl == "compile" else contextlib.nullcontext():
        return _bench_impl(item, ctx)


# Inductor points Triton at torch's own ptxas (TRITON_PTXAS_PATH) the first time it compiles; on the
# H200 every candidate timed after a torch.compile reference in the same child was then built by
# another ptxas than the one its own timing and the gate's compile used.
INDUCTOR_ENV = ("TRITON_PTXAS_PATH",)


@contextlib.contextmanager
def _inductor_env_undone():
    saved = {name: os.environ.get(name) for name in INDUCTOR_ENV}
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _bench_impl(item: WorkItem, ctx: _Context) -> dict:
    from .execute import default_cost
    from .host import synchronize
    from .timing import time_fn

    inputs = ctx.inputs(item)
    fn = _impl_fn(item, ctx)
    start = time.perf_counter()
    out = fn(*inputs)  # first call compiles (Triton JIT, autotune, inductor)
    synchronize(ctx.device)
    first_call_s = time.perf_counter() - start
    task = ctx.task(item)
    try:
        cost = task.cost(item.size, item.dtype) if task.cost else default_cost(inputs, out)
    except Exception as exc:
        raise TaskError(f"cost({item.size!r}) raised {_describe(exc)}") from exc
    result = {"status": "ok", "first_call_s": round(first_call_s, 3), "bytes": cost.get("bytes"),
              "flops": cost.get("flops")}
    if item.time_it:
        last: list = [out]

        def call() -> None:
            last[0] = fn(*inputs)

        result["timing"] = time_fn(call, ctx.device, item.warmup_ms, item.rep_ms,
                                   untrusted=item.impl == "candidate").to_json()
        synchronize(ctx.device)
        if item.impl == "candidate":
            from .gate import timed_output_problem

            problem = timed_output_problem(item, ctx, inputs, last[0])
            if problem:
                result.update(status="wrong_result", cause=f"the output of a timed call is wrong: {problem}")
    return result


def _impl_fn(item: WorkItem, ctx: _Context) -> Any:
    if item.impl == "candidate":
        return ctx.candidate(item)
    task = ctx.task(item)
    if item.impl == "eager":
        return task.reference
    key = (item.task, item.dtype)
    if key not in ctx.compiled:
        import torch

        # One compiled callable per task and dtype; dynamic=False specialises each size (best case).
        ctx.compiled[key] = torch.compile(task.reference, dynamic=False)
    return ctx.compiled[key]


def measure_ceilings(item: WorkItem, ctx: _Context) -> dict:
    """Cached ceilings of this device, measured (and cached) when absent or --remeasure."""
    from .ceilings import cache_path, load_cached, measure, save
    from .host import device_info

    info = device_info(ctx.device, False)
    path = cache_path(info.device_name, item.cache)
    cached = None if item.remeasure else load_cached(path)
    if cached and cached.measured:
        return {"status": "ok", "ceilings": cached.to_json(), "cache": str(path), "cached": True}
    ceil = measure(ctx.device, info.device_name, info.date)
    save(ceil, path)
    return {"status": "ok", "ceilings": ceil.to_json(), "cache": str(path), "cached": False}


def launch_once(item: WorkItem, ctx: _Context) -> dict:
    """Warm up, then launch the candidate once inside an NVTX range the profiler filters on."""
    from .host import synchronize

    inputs = ctx.inputs(item)
    fn = _impl_fn(item, ctx)
    for _ in range(item.launches):
        fn(*inputs)
    synchronize(ctx.device)
    if ctx.device == "cuda":
        import torch

        torch.cuda.nvtx.range_push("passwise_profile")
        fn(*inputs)
        torch.cuda.nvtx.range_pop()
    else:
        fn(*inputs)
    synchronize(ctx.device)
    return {"status": "ok"}


HANDLERS = {"verify": verify_case, "bench": bench_impl, "ceilings": measure_ceilings, "launch": launch_once}


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300]}" if text else type(exc).__name__


FATAL_MARKERS = ("illegal memory access", "misaligned address", "unspecified launch failure",
                 "device-side assert", "illegal instruction")


def classify(exc: BaseException, item: WorkItem) -> dict:
    """Turn an exception into a record status and a one-sentence cause."""
    text = f"{type(exc).__name__}: {exc}"
    where = _candidate_frame(exc, item)
    status = _status_of(exc, text)
    if isinstance(exc, TaskError):
        cause = f"the task is broken: {exc}"
    elif status == "compile_error":
        cause = f"the Triton kernel did not compile: {_describe(exc)}{where}"
    elif status == "oom":
        cause = f"the device ran out of memory{where} ({_describe(exc)})"
    elif status == "illegal_memory_access":
        cause = f"a kernel faulted on the device{where}: {_describe(exc)}"
    elif item.impl == "compile" and item.kind == "bench":
        cause = f"torch.compile of the reference failed: {_describe(exc)}"
        status = "compile_failed"
    else:
        cause = f"{_entry_name(item)} raised {_describe(exc)}{where}"
    tb = "".join(traceback.format_exception(exc)[-12:])
    return {"status": status, "cause": cause, "traceback": tb}


def _compile_error_types() -> tuple[type, ...]:
    """Triton's compile-time exceptions; looked up by name since triton-ascend lacks some."""
    import triton.compiler.errors as cerr
    import triton.runtime.errors as rerr

    from .gpu_compile import TargetCompileError

    names = (("CompilationError", cerr), ("OutOfResources", rerr), ("PTXASError", rerr))
    return (TargetCompileError, *(getattr(mod, n) for n, mod in names if hasattr(mod, n)))


def _status_of(exc: BaseException, text: str) -> str:
    if isinstance(exc, TaskError):
        return "bad_task"
    if isinstance(exc, _compile_error_types()) or _interpreter_compile_error(exc):
        return "compile_error"
    lowered = text.lower()
    if "out of memory" in lowered:
        return "oom"
    if any(m in lowered for m in FATAL_MARKERS):
        return "illegal_memory_access"
    return "crash"


def _interpreter_compile_error(exc: BaseException) -> bool:
    """In the interpreter, what the compiler would reject is raised from triton/language/ checks."""
    import triton.runtime.errors as rerr

    interp = getattr(rerr, "InterpreterError", None)
    if interp is None or not isinstance(exc, interp) or exc.__cause__ is None:
        return False
    frames = traceback.extract_tb(exc.__cause__.__traceback__)
    return bool(frames) and f"triton{os.sep}language{os.sep}" in frames[-1].filename


def _entry_name(item: WorkItem) -> str:
    if item.kind == "bench" and item.impl != "candidate":
        return "the reference"
    return "ModelNew.forward()" if item.entry == "ModelNew" else "run()"


def _candidate_frame(exc: BaseException, item: WorkItem) -> str:
    """' at candidate.py:12' for the innermost frame in the candidate file, if any."""
    if not item.candidate:
        return ""
    target = os.path.realpath(item.candidate)
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.realpath(frame.filename) == target:
            line = frame.lineno
    return f" at {Path(item.candidate).name}:{line}" if line else ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
