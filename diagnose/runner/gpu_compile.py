"""On a CPU host kernels run in Triton's interpreter, which accepts code the GPU compiler rejects
(a plain Python global read in a kernel, host-only calls). So every interpreted launch is also
compiled for sm_90, the compile tier 3 already runs without a GPU; a failure is a compile_error.
Each distinct specialisation is compiled once per child (Triton's disk cache makes repeats cheap).
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

TARGET_ARCH = 90
MAX_SPECIALISATIONS = 4  # per kernel: autotuned kernels launch many configs in the interpreter


class TargetCompileError(Exception):
    """The kernel ran in the interpreter but does not compile for the GPU."""


_done: dict[str, int] = {}


def install() -> bool:
    """Wrap the interpreter's launch so each new specialisation is compiled first; False if absent."""
    interp = sys.modules.get("triton.runtime.interpreter")
    if interp is None or getattr(interp.InterpretedFunction.run, "_passwise_compiles", False):
        return interp is not None
    original = interp.InterpretedFunction.run

    def run(self: Any, *args: Any, grid: Any, warmup: Any, **kwargs: Any) -> Any:
        if not warmup:
            compile_for_gpu(self.fn, args, kwargs)
        return original(self, *args, grid=grid, warmup=warmup, **kwargs)

    run._passwise_compiles = True  # type: ignore[attr-defined]
    interp.InterpretedFunction.run = run
    return True


def _quick_key(py_fn: Any, args: tuple, kwargs: dict) -> tuple:
    """What a launch specialises on, cheaply (dtype and 16-byte alignment of tensors, ==1 and
    divisibility by 16 of integers, constexpr values), so repeated launches skip the binder."""
    def part(v: Any) -> Any:
        if hasattr(v, "data_ptr") and hasattr(v, "dtype"):
            return ("t", str(v.dtype), v.data_ptr() % 16 == 0)
        if isinstance(v, bool) or not isinstance(v, int):
            return repr(v)[:64]
        return ("i", v == 1, v % 16 == 0, abs(v) < 2**31)
    return (id(py_fn), tuple(part(a) for a in args), tuple(sorted((k, part(v)) for k, v in kwargs.items())))


_seen_launches: set[tuple] = set()
_jit_of: dict[int, Any] = {}


def compile_for_gpu(py_fn: Any, args: tuple, kwargs: dict) -> None:
    """Bind the launch's arguments as a GPU launch would and compile for sm_90."""
    quick = _quick_key(py_fn, args, kwargs)
    if quick in _seen_launches:
        return
    _seen_launches.add(quick)
    from triton import knobs
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import JITFunction, create_function_from_signature

    target = GPUTarget("cuda", TARGET_ARCH, 32)
    backend = make_backend(target)
    if id(py_fn) not in _jit_of:
        _jit_of[id(py_fn)] = JITFunction(py_fn)
    fn = _jit_of[id(py_fn)]
    kwargs = {**kwargs, "debug": kwargs.get("debug", False) or knobs.runtime.debug,
              "instrumentation_mode": knobs.compilation.instrumentation_mode}
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    bound, specialization, options = binder(*args, **kwargs)
    options, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound, specialization, options)
    key = json.dumps([py_fn.__module__, py_fn.__qualname__, signature, str(constexprs), str(attrs),
                      str(sorted(options.__dict__.items()))], default=str)
    name = f"{py_fn.__module__}.{py_fn.__qualname__}"
    if key in _done or _done.get(name, 0) >= MAX_SPECIALISATIONS:
        return
    _done[key] = 1
    _done[name] = _done.get(name, 0) + 1
    try:
        with _jit_functions(py_fn.__globals__):
            _compile_stages(ASTSource(fn, signature, constexprs, attrs), target, backend, options)
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])
        detail = next((ln for ln in reversed(first) if ln.strip()), first[0])[:300]
        raise TargetCompileError(f"{py_fn.__name__} runs in the interpreter but does not compile for sm_"
                                 f"{TARGET_ARCH}: {type(exc).__name__}: {detail}") from exc


_as_jit: dict[int, Any] = {}


@contextlib.contextmanager
def _jit_functions(candidate_globals: dict) -> Iterator[None]:
    """Under TRITON_INTERPRET=1 every @jit function (tl.max, tl.softmax, the candidate's helpers) is
    an InterpretedFunction, which the compiler cannot call: swap in JITFunctions while compiling."""
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    scopes = [m.__dict__ for n, m in list(sys.modules.items()) if n.startswith("triton.language") and m]
    scopes.append(candidate_globals)
    changes = []
    for scope in scopes:
        for name, value in list(scope.items()):
            if isinstance(value, InterpretedFunction):
                if id(value) not in _as_jit:
                    _as_jit[id(value)] = (value, JITFunction(value.fn))
                scope[name] = _as_jit[id(value)][1]
                changes.append((scope, name, value))
    try:
        yield
    finally:
        for scope, name, value in reversed(changes):
            scope[name] = value


def _compile_stages(src: Any, target: Any, backend: Any, options: Any) -> None:
    """triton.compile's pipeline (front end, ttir, ttgir, llir, ptx, cubin with ptxas) without its
    disk cache: the cache key hashes all of libtriton, which costs more than compiling a kernel."""
    from triton import __version__
    from triton._C.libtriton import ir

    options = backend.parse_options(dict(options.__dict__, **src.parse_options()))
    metadata = {"hash": "0" * 64, "target": target, **options.__dict__, "triton_version": __version__}
    stages: dict = {}
    backend.add_stages(stages, options, src.language)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = src.make_ir(target, options, backend.get_codegen_implementation(options),
                         backend.get_module_map(), context)
    for compile_ir in list(stages.values())[list(stages).index(src.ext):]:
        module = compile_ir(module, metadata)
