"""Detectors over the launcher's host code, the part of a kernel's cost the @triton.jit
functions do not show: dtype casts and layout copies around the launches (`.float()`,
`.to(torch.float32)`, `.contiguous()`, a cast-only kernel) and launches inside Python loops."""

from __future__ import annotations

import ast

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.launch import (
    _launch_match,
    barrier_per_iteration,
    host_read_calls,
    host_read_names,
)
from diagnose.triage.detectors.masks import _expanded, _index_vs_index, _positions, loaded_names
from diagnose.triage.detectors.memory import depends_on, memory_ops, pointer_of
from diagnose.triage.detectors.model import (
    JitKernel,
    KernelModule,
    Launch,
    call_name,
    kwarg,
    names_in,
    plain_functions,
)

CAST_METHODS = {"float", "half", "bfloat16", "double"}
COPY_METHODS = {"contiguous", "clone", "repeat_interleave", "repeat"}
DTYPE_WORDS = ("float", "half", "bfloat16", "double", "int")


def _host_functions(module: KernelModule) -> list[ast.FunctionDef]:
    """Functions of the file that launch a kernel, and the helpers they call that do."""
    return list({id(launch.launcher): launch.launcher for launch in module.launches
                 if launch.launcher is not None}.values())


def _is_cast(call: ast.Call) -> bool:
    """`x.float()`, `x.to(torch.float32)`, `x.to(dtype=...)` on a tensor (not a kernel op)."""
    if not isinstance(call.func, ast.Attribute):
        return False
    if call.func.attr in CAST_METHODS and not call.args:
        return True
    if call.func.attr == "to":
        args = [ast.unparse(a) for a in call.args] + [ast.unparse(k.value) for k in call.keywords
                                                      if k.arg == "dtype"]
        return any(a.startswith("torch.") and any(w in a for w in DTYPE_WORDS) for a in args)
    return False


def _cast_only(kernel: JitKernel) -> bool:
    """A kernel that loads a tile and stores it converted with .to(...), and does nothing else
    (a grid-stride loop over tiles included: one load and one store leave no room for other
    work): a dtype cast done as its own pass through memory."""
    ops = memory_ops(kernel)
    loads = [o for o in ops if call_name(o) == "load"]
    stores = [o for o in ops if call_name(o) == "store"]
    if len(loads) != 1 or len(stores) != 1 or len(stores[0].args) < 2:
        return False
    value = stores[0].args[1]
    if isinstance(value, ast.Name):
        stmts = kernel.assigns.get(value.id, [])
        value = getattr(stmts[-1], "value", value) if len(stmts) == 1 else value
    if not (isinstance(value, ast.Call) and call_name(value) == "to"):
        return False
    inner = value.func.value if isinstance(value.func, ast.Attribute) else None
    if isinstance(inner, ast.Name):
        stmts = kernel.assigns.get(inner.id, [])
        inner = getattr(stmts[-1], "value", inner) if len(stmts) == 1 else inner
    return isinstance(inner, ast.Call) and call_name(inner) == "load"


@detector("host-casts")
def host_casts(module: KernelModule, backend: str) -> list[Match]:
    """Dtype conversions done around the launches: each is a full pass over the tensor
    through HBM (read and write) that the kernel could do in registers on load or store."""
    matches = []
    for fn in _host_functions(module):
        casts = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and _is_cast(n)]
        for call in casts[:1]:
            launch = _first_launch(module, fn)
            matches.append(_launch_match(
                module, launch, "host-casts", 0.7,
                f"`{fn.name}` converts a tensor's dtype in host code (`{ast.unparse(call)[:60]}`"
                f", line {call.lineno}) around the launch of `{launch.kernel}`: an extra read "
                "and write of the whole tensor, where the kernel could load the original dtype "
                "and convert in registers.",
                ["profile: a copy/cast kernel beside the Triton kernel in the trace",
                 "profile: bytes moved above the task's useful bytes"],
                casts=[ast.unparse(c)[:80] for c in casts[:4]], cast_line=call.lineno))
    for launch in module.launches:
        if _cast_only(module.kernels[launch.kernel]) and len(module.launches) > 1:
            matches.append(_launch_match(
                module, launch, "host-casts", 0.8,
                f"`{launch.kernel}` only converts a tensor's dtype (one load, one store): a "
                "separate pass through HBM the neighbouring kernel could do on its own load or "
                "store.", ["profile: the cast kernel's time beside the main kernel"],
                cast_kernel=launch.kernel))
    return matches


def _first_launch(module: KernelModule, fn: ast.FunctionDef) -> Launch:
    return min((launch for launch in module.launches if launch.launcher is fn),
               key=lambda launch: launch.line)


@detector("host-copies")
def host_copies(module: KernelModule, backend: str) -> list[Match]:
    """`.contiguous()` / `.clone()` of a launch argument: a full copy the kernel could avoid
    by taking the strides."""
    matches = []
    for fn in _host_functions(module):
        launches = [launch for launch in module.launches if launch.launcher is fn]
        passed = {n for launch in launches for a in launch.args.values() for n in names_in(a)}
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and (node.func.attr in COPY_METHODS or _reshape_of_expand(node))):
                continue
            if not _bound_to(fn, node) & passed and not _inline_argument(node, launches):
                continue  # a copy of something the kernel never reads (the returned result)
            matches.append(_launch_match(
                module, launches[0], "host-copies", 0.55,
                f"`{fn.name}` copies a launch argument (`{ast.unparse(node)[:60]}`, line "
                f"{node.lineno}) before launching `{launches[0].kernel}`: a full read and "
                "write of the tensor; passing its strides lets the kernel read it in place.",
                ["profile: a copy kernel beside the Triton kernel in the trace"],
                copy_line=node.lineno))
            break
    return matches


def _reshape_of_expand(call: ast.Call) -> bool:
    """`t[:, :, None].expand(...).reshape(...)`: reshaping a broadcast view materialises it."""
    inner = call.func.value if isinstance(call.func, ast.Attribute) else None
    return (isinstance(call.func, ast.Attribute) and call.func.attr in ("reshape", "flatten")
            and isinstance(inner, ast.Call) and call_name(inner) == "expand")


def _bound_to(fn: ast.FunctionDef, call: ast.Call) -> set[str]:
    """Names an assignment binds the copy to (`a, b = (t.contiguous() for t in ...)` too)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and any(c is call for c in ast.walk(node.value)):
            return {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def _inline_argument(call: ast.Call, launches: list[Launch]) -> bool:
    return any(c is call for launch in launches for a in launch.args.values() for c in ast.walk(a))


# a launch loop whose iterations wait on a reduction over the whole grid: a reading, not a cause
BARRIER_LOOP = 0.3


@detector("launch-loop")
def launch_loop(module: KernelModule, backend: str) -> list[Match]:
    """A kernel launched inside a Python loop of the host code: one launch (and its host
    overhead) per iteration, each a small grid, where one launch with the loop as a grid axis
    (or a loop inside the kernel) does the same work."""
    matches = []
    for launch in module.launches:
        if launch.launcher is None:
            continue
        found = _host_loop_around(module, launch.launcher, launch.call)
        if found is None:
            continue
        owner, loop = found
        via = "" if owner is launch.launcher else f" (through `{launch.launcher.name}`)"
        barrier = barrier_per_iteration(module, loop) if owner is launch.launcher else ""
        carried = _carried_accumulator(module, launch, loop) if owner is launch.launcher and not barrier else ""
        matches.append(_launch_match(
            module, launch, "launch-loop", BARRIER_LOOP if barrier else 0.85 if carried else 0.7,
            f"`{launch.kernel}` is launched inside a Python loop (`{_loop_head(loop)}`, line "
            f"{loop.lineno}) of `{owner.name}`{via}: one launch per iteration, each paying "
            "the launch cost and filling the GPU for a fraction of the work"
            + (f"; each launch reads and writes back the same buffer `{carried}`, so the "
               "accumulator makes a round trip through global memory per iteration, where one "
               "launch over the loop keeps it in registers." if carried else
               f". Each iteration reduces its whole input to `{barrier}`, which every program of "
               "a later launch reads, and the iterations carry their state in whole buffers: the "
               "loop steps through a grid-wide barrier, which one launch cannot keep." if barrier else "."),
            ["capture: the kernel launched several times per call",
             "profile: per-launch overhead a large share of the call's time"],
            loop_line=loop.lineno, carried=carried,
            **({"refuted": f"each iteration waits on a grid-wide reduction into `{barrier}`"} if barrier else {})))
    return matches


def _carried_accumulator(module: KernelModule, launch: Launch, loop: ast.For | ast.While) -> str:
    """The host name of a buffer the looped launch loads and stores through the same parameter
    (a read-modify-write), bound outside the loop and not rebound in it: an accumulator carried
    across iterations in global memory. "" when there is none."""
    kernel = module.kernels[launch.kernel]
    loaded, stored = set(), set()
    for op in memory_ops(kernel):
        base = _base_param(kernel, pointer_of(op))
        if base and call_name(op) in ("load", "store"):
            (loaded if call_name(op) == "load" else stored).add(base)
    rebound = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for param, arg in launch.args.items():
        if param in loaded & stored and isinstance(arg, ast.Name) and arg.id not in rebound:
            return arg.id
    return ""


def _base_param(kernel: JitKernel, pointer: ast.expr | None, depth: int = 4) -> str:
    """The pointer parameter an address is an offset from (`acc_ptr + t * H + cols` -> acc_ptr),
    through local names bound once; "" when not plain."""
    while pointer is not None and depth > 0:
        if isinstance(pointer, ast.BinOp) and isinstance(pointer.op, ast.Add | ast.Sub):
            pointer = pointer.left
        elif isinstance(pointer, ast.Call) and call_name(pointer) in ("multiple_of", "max_contiguous") \
                and pointer.args:
            pointer = pointer.args[0]
        elif isinstance(pointer, ast.Name) and kernel.param(pointer.id) is not None:
            return pointer.id
        elif isinstance(pointer, ast.Name) and len(kernel.assigns.get(pointer.id, [])) == 1:
            pointer, depth = getattr(kernel.assigns[pointer.id][0], "value", None), depth - 1
        else:
            return ""
    return ""


def _host_loop_around(module: KernelModule, fn: ast.FunctionDef, call: ast.Call, depth: int = 3
                      ) -> tuple[ast.FunctionDef, ast.For | ast.While] | None:
    """The host loop that repeats `call`: in `fn` itself, or around a call of `fn` (a launcher
    helper called once per tensor, per chunk) in another function of the file, up to `depth`
    helpers up."""
    loop = _enclosing_loop(fn, call)
    if loop is not None:
        return fn, loop
    if depth == 0:
        return None
    for caller in (n for n in plain_functions(module) if n is not fn):
        for site in (c for c in ast.walk(caller) if isinstance(c, ast.Call) and call_name(c) == fn.name):
            found = _host_loop_around(module, caller, site, depth - 1)
            if found is not None:
                return found
    return None


def _enclosing_loop(fn: ast.FunctionDef, call: ast.Call) -> ast.For | ast.While | None:
    loops = [n for n in ast.walk(fn) if isinstance(n, ast.For | ast.While)
             and any(c is call for c in ast.walk(n))]
    return loops[-1] if loops else None


def _loop_head(loop: ast.For | ast.While) -> str:
    if isinstance(loop, ast.For):
        return f"for {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}"[:60]
    return f"while {ast.unparse(loop.test)}"[:60]


ZERO_FILLS = ("zeros", "zeros_like", "new_zeros")


@detector("zeroed-output")
def zeroed_output(module: KernelModule, backend: str) -> list[Match]:
    """An output the launcher fills with zeros and hands to kernels that only store to it (no
    load, no atomic): the fill is a whole extra write of the tensor, which the kernel then
    writes again; `empty` allocates without touching memory."""
    matches = []
    makers = _zero_makers(module)
    for fn in _host_functions(module):
        zeroed = _zero_filled(fn, makers)
        launches = [launch for launch in module.launches if launch.launcher is fn]
        for name, fill in zeroed.items():
            uses = [(launch, param) for launch in launches for param, arg in launch.args.items()
                    if isinstance(arg, ast.Name) and arg.id == name]
            if not uses or not all(_only_stored(module.kernels[launch.kernel], param)
                                   for launch, param in uses):
                continue
            launch, param = uses[0]
            covered = all(_stores_cover_every_element(module.kernels[launch.kernel], param)
                          for launch, param in uses)
            matches.append(_launch_match(
                module, launch, "zeroed-output", 0.7 if covered else 0.6,
                f"`{fn.name}` fills `{name}` with zeros (`{ast.unparse(fill)[:60]}`, line "
                f"{fill.lineno}) and `{launch.kernel}` only stores to it (`{param}`): the fill is "
                "an extra pass writing the whole tensor before the kernel writes it again.",
                ["capture: a fill kernel before the launch",
                 "the kernel's stores cover every element (else the zeros are needed)"],
                buffer=name, fill_line=fill.lineno, stores_cover_all=covered))
    return matches


def _fills_zero(call: ast.Call) -> bool:
    """torch.zeros(...), x.new_zeros(...), torch.full(shape, 0), full_like(x, 0), t.zero_(),
    t.fill_(0): an allocation (or an in-place fill) that writes zeros."""
    name = call_name(call)
    if name in ZERO_FILLS or name == "zero_":
        return True
    value = {"full": 1, "full_like": 1, "new_full": 1, "fill_": 0}.get(name)
    if value is None:
        return False
    fill = call.args[value] if len(call.args) > value else kwarg(call, "fill_value")
    return isinstance(fill, ast.Constant) and fill.value == 0


def _zero_makers(module: KernelModule) -> set[str]:
    """Functions of the file that return a zero-filled allocation (an output-allocating helper)."""
    makers = set()
    for fn in plain_functions(module):
        local = _zero_filled(fn, set())
        if any(isinstance(r, ast.Return) and r.value is not None
               and ((isinstance(r.value, ast.Call) and _fills_zero(r.value))
                    or (isinstance(r.value, ast.Name) and r.value.id in local))
               for r in ast.walk(fn)):
            makers.add(fn.name)
    return makers


def _zero_filled(fn: ast.FunctionDef, makers: set[str]) -> dict[str, ast.Call]:
    """Names the launcher binds to a zero-filled allocation (made here or by a helper in
    `makers`), or fills with zeros in place."""
    out = {}
    for node in ast.walk(fn):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                and (_fills_zero(node.value) or call_name(node.value) in makers)):
            out[node.targets[0].id] = node.value
        elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
              and isinstance(node.value.func, ast.Attribute)
              and isinstance(node.value.func.value, ast.Name) and _fills_zero(node.value)):
            out[node.value.func.value.id] = node.value
    return out


def _stores_cover_every_element(kernel: JitKernel, param: str) -> bool:
    """Every store through `param` is unmasked or masked by bounds only (`cols < N`): no
    position or data condition leaves elements for the zero fill to provide."""
    for op in memory_ops(kernel):
        if call_name(op) != "store" or param not in depends_on(kernel, pointer_of(op)):
            continue
        mask = kwarg(op, "mask") or (op.args[2] if len(op.args) > 2 else None)
        if mask is None:
            continue
        cond = _expanded(kernel, mask, op, keep=_positions(kernel))
        if _index_vs_index(kernel, cond) or depends_on(kernel, mask) & loaded_names(kernel):
            return False
    return True


def _only_stored(kernel: JitKernel, param: str) -> bool:
    """The kernel writes through `param` with tl.store only (no load, no atomic read-modify-write)."""
    ops = [op for op in memory_ops(kernel) if param in depends_on(kernel, pointer_of(op))]
    return bool(ops) and all(call_name(op) == "store" for op in ops)


def _launched_after(module: KernelModule, fn: ast.FunctionDef, line: int) -> Launch | None:
    """The first launch that has to wait for a sync at `line` of `fn`: later in `fn`, or later in
    a host function that calls `fn` (a launcher whose helper synchronises)."""
    # a launch on the sync's own line reads it as an argument: evaluated before the launch
    later = [launch for launch in module.launches if launch.launcher is fn and launch.line >= line]
    if later:
        return min(later, key=lambda launch: launch.line)
    for caller in plain_functions(module):
        calls = [n.lineno for n in ast.walk(caller) if isinstance(n, ast.Call) and call_name(n) == fn.name]
        after = [launch for launch in module.launches if launch.launcher is caller
                 and calls and launch.line >= min(calls)]
        if after:
            return min(after, key=lambda launch: launch.line)
    return None


def _stops_on(fn: ast.FunctionDef, call: ast.Call) -> bool:
    """The read `call` decides whether the host loop around it goes on: it sits in the test of
    an `if` whose body breaks out, or in a `while` loop's own condition."""
    loop = _enclosing_loop(fn, call)
    if isinstance(loop, ast.While) and any(n is call for n in ast.walk(loop.test)):
        return True
    return loop is not None and any(
        isinstance(n, ast.If) and any(c is call for c in ast.walk(n.test))
        and any(isinstance(b, ast.Break) for b in ast.walk(n)) for n in ast.walk(loop))


def _launched_in_loop(module: KernelModule, fn: ast.FunctionDef, call: ast.Call) -> Launch | None:
    """The first launch of `fn` inside the host loop around the read `call` (`for rnd ...:
    relax[grid](...); if changed[rnd].item() == 0: break`): every round waits on the read."""
    loop = _enclosing_loop(fn, call)
    inside = [la for la in module.launches if la.launcher is fn and loop is not None
              and any(c is la.call for c in ast.walk(loop))]
    return min(inside, key=lambda la: la.line) if inside else None


@detector("host-sync")
def host_sync(module: KernelModule, backend: str) -> list[Match]:
    """The host reads a device value (`.item()`, `.cpu()`, `torch.cuda.synchronize()`) between
    launches: the queue drains, the GPU idles while Python decides, and every later launch pays
    its latency again. A value the device can use where it is (a pointer argument, a tl.where on
    it, a device-side clamp) keeps the launches queued back to back."""
    matches = []
    for fn in plain_functions(module):
        produced = {n for la in module.launches if la.launcher is fn
                    for a in la.args.values() for n in names_in(a)}
        for call in host_read_calls(fn):
            # inside a loop that launches, the next iteration's launch waits for the read too
            waiting = _launched_after(module, fn, call.lineno) or _launched_in_loop(module, fn, call)
            launch = waiting or next((la for la in module.launches if la.launcher is fn), None)
            if launch is None:
                continue
            # a value a launch of this function just made, read back only to launch again
            made_here = bool(host_read_names(fn) & produced)
            # a loop of launches that stops on what it reads back (`if changed.item() == 0:
            # break`): a convergence test paid every round, where the rounds themselves are serial
            converging = _stops_on(fn, call)
            match = _launch_match(
                module, launch, "host-sync",
                (0.8 if converging else 0.75 if made_here else 0.7) if waiting else 0.4,
                f"`{fn.name}` reads a device value on the host (`{ast.unparse(call)[:60]}`, line "
                f"{call.lineno})" + (f" before launching `{launch.kernel}`: the GPU drains its "
                                     "queue and idles while the host waits, then pays the launch "
                                     "latency again; keep the value on the device (pass it by "
                                     "pointer, select with tl.where) so the launches stay queued."
                                     if waiting else
                                     ": a synchronisation at the end of the call; each call then "
                                     "waits for the device."),
                ["profile: gaps between kernels in the trace (a cudaStreamSynchronize / memcpy "
                 "DtoH between launches)"],
                sync_line=call.lineno)
            # the read-back is the idiom: point at it, in the function that does it
            match.function, match.line, match.snippet = fn.name, call.lineno, module.snippet(call)
            matches.append(match)
            break
    return matches
