"""Detectors of how a kernel computes: fp32 dots, reductions across the strided axis,
atomics used as a reduction, and matmul program order without L2 grouping."""

from __future__ import annotations

import ast
import copy
import re

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.masks import contiguous_segment
from diagnose.triage.detectors.memory import (
    _loops_around,
    _match,
    bound_to_call,
    depends_on,
    memory_ops,
    pointer_of,
    prefix_consumed,
    scan_step,
)
from diagnose.triage.detectors.model import (
    REDUCE_OPS,
    JitKernel,
    KernelModule,
    ShapeInference,
    additive_terms,
    bindings_before,
    bound_once,
    call_name,
    is_tile,
    kwarg,
    module_value,
    names_in,
    uncast,
)


def _upcast_operands(kernel, dot: ast.Call, depth: int = 3, module: KernelModule | None = None) -> list[str]:
    """Dot operands bound (through up to `depth` local assignments) to a value converted
    with .to(tl.float32): the fp16/bf16 tile is widened before the MMA."""
    found = []
    for arg in dot.args[:2]:
        todo, seen = [arg], 0
        while todo and seen < depth * 4:
            node = todo.pop()
            seen += 1
            if isinstance(node, ast.Call) and converts_to(node, "float32", module, kernel):
                found.append(ast.unparse(arg))
                break
            if isinstance(node, ast.Name):
                todo += [s.value for s in bindings_before(kernel, node.id, dot)
                         if getattr(s, "value", None) is not None]
            elif isinstance(node, ast.Call) and call_name(node) in ("trans", "permute"):
                todo += node.args[:1]
    return found


def converts_to(node: ast.Call, dtype: str, module: KernelModule | None = None,
                 kernel: JitKernel | None = None) -> bool:
    """`x.to(tl.<dtype>)`, `x.to(dtype=tl.<dtype>)` or `tl.cast(x, tl.<dtype>)`; given the module
    and the kernel, also a dtype named by a constexpr parameter (`x.to(COMPUTE)`) that every call
    and launch reaching the kernel binds to that dtype, directly or through a module constant."""
    name = call_name(node)
    if name == "to":
        target = node.args[0] if node.args else kwarg(node, "dtype")
    elif name == "cast":
        target = node.args[1] if len(node.args) > 1 else kwarg(node, "dtype")
    else:
        return False
    if target is None:
        return False
    if module is not None and kernel is not None and isinstance(target, ast.Name):
        bound = _bound_dtypes(module, kernel, target.id)
        return bool(bound) and all(dtype in b for b in bound)
    return dtype in ast.unparse(target)


def _bound_dtypes(module: KernelModule, kernel: JitKernel, name: str, depth: int = 3) -> list[str]:
    """The texts a name in `kernel` stands for: a module constant's value, or, for a constexpr
    parameter, what each launch of the kernel and each call of it from another kernel passes
    (followed up to `depth` calls). [] when some binding is unknown."""
    value = module_value(module.tree, name)
    param = kernel.param(name)
    if param is None:
        return [ast.unparse(value)] if value is not None and name not in kernel.assigns else []
    if depth == 0:
        return []
    index = [p.name for p in kernel.params].index(name)
    found: list[str] = []
    for launch in module.launches:
        if launch.kernel == kernel.name:
            arg = launch.args.get(name)
            if arg is None:
                return []
            found.append(_resolve_text(module, arg))
    for caller in module.kernels.values():
        for call in caller.calls(kernel.name):
            arg = call.args[index] if index < len(call.args) else kwarg(call, name)
            if arg is None:
                return []
            found += (_bound_dtypes(module, caller, arg.id, depth - 1) if isinstance(arg, ast.Name)
                      else [ast.unparse(arg)])
    return found


def _resolve_text(module: KernelModule, node: ast.expr) -> str:
    """A host expression's text, a module constant's value in place of its name."""
    if isinstance(node, ast.Name) and (value := module_value(module.tree, node.id)) is not None:
        return ast.unparse(value)
    return ast.unparse(node)


@detector("fp32-dot")
def fp32_dot(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        for dot in kernel.calls("dot"):
            precision = kwarg(dot, "input_precision")
            allow_tf32 = kwarg(dot, "allow_tf32")
            text = ast.unparse(dot)
            if precision is not None and "ieee" in ast.unparse(precision):
                confidence, why = 0.7, 'input_precision="ieee" forces full fp32 FMA math'
            elif isinstance(allow_tf32, ast.Constant) and allow_tf32.value is False:
                confidence, why = 0.7, "allow_tf32=False forces full fp32 FMA math"
            elif any(isinstance(n, ast.Call) and converts_to(n, "float32") for n in ast.walk(dot)):
                confidence, why = 0.45, "operands are upcast to fp32 before the dot"
            elif re.search(r"\.to\(tl\.(bfloat16|float16)\)", text):
                confidence, why = 0.55, ("operands are converted to 16-bit right before the dot "
                                         "(from fp8 that gives up the fp8 tensor-core rate)")
            elif upcast := _upcast_operands(kernel, dot, module=module):
                names = ", ".join(upcast)
                confidence, why = 0.6, (f"operand(s) {names} are upcast to fp32 before the dot "
                                        "(twice the registers, no fp16/bf16 tensor-core path)")
            else:
                continue
            matches.append(_match(
                module, kernel, dot, "fp32-dot", confidence,
                f"`tl.dot` in `{kernel.name}`: {why}; "
                + ("the cube unit runs bf16/fp16 several times faster than fp32, on tiles half "
                   "the size." if backend == "ascend" else
                   "tensor cores run tf32/bf16/fp16 several times faster."),
                ["task tolerance admits tf32 (or bf16/fp16) inputs to the dot",
                 "SASS: FFMA loop or mma with .tf32x3 instead of HMMA/WGMMA at this line",
                 "profile: kernel is compute-bound (FLOP % of roofline above byte %)"],
                reason=why))
    return matches


def _axis0_strided(shapes: ShapeInference, kernel, node: ast.expr, line: int) -> bool:
    """True when a load feeding `node` scales its axis-0 index by a stride or size."""
    loads = {n for n in depends_on(kernel, node)
             if any(isinstance(getattr(s, "value", None), ast.Call)
                    and call_name(s.value) == "load" for s in kernel.assigns.get(n, []))}
    for name in loads:
        load = shapes.definition(name, line)
        if not (isinstance(load, ast.Call) and load.args):
            continue
        for term in additive_terms(load.args[0], shapes, line):
            shape = shapes.shape(term, line)
            if (isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult)
                    and shape and len(shape) == 2 and shape[0] != 1 and shape[1] == 1):
                return True
    return False


@detector("reduce-axis")
def reduce_strided_axis(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for call in kernel.calls(*REDUCE_OPS):
            if not call.args:
                continue
            axis = kwarg(call, "axis") or (call.args[1] if len(call.args) > 1 else None)
            if not (isinstance(axis, ast.Constant) and axis.value == 0):
                continue
            shape = shapes.shape(call.args[0], call.lineno)
            if not (shape and len(shape) == 2 and shape[0] != 1 and shape[1] != 1):
                continue
            strided = _axis0_strided(shapes, kernel, call.args[0], call.lineno)
            matches.append(_match(
                module, kernel, call, "reduce-axis", 0.45 if strided else 0.35,
                f"`tl.{call_name(call)}(..., axis=0)` in `{kernel.name}` reduces a "
                f"[{shape[0]}, {shape[1]}] tile across its rows, the axis that is strided in "
                "memory, so partial results cross warps through shared memory.",
                ["TTGIR: ttg.convert_layout / shared-memory round trip around tt.reduce",
                 "ncu: shared-memory throughput or bank conflicts dominate stalls"
                 if backend == "cuda" else "msprof: vector ratio low with many UB moves"],
                tile=[str(d) for d in shape], axis0_strided=strided))
    return matches


def _inside_loop(kernel, node: ast.AST) -> bool:
    return any(isinstance(loop, ast.For | ast.While) and node in list(ast.walk(loop))
               for loop in ast.walk(kernel.node) if loop is not kernel.node)


def _loop_invariant_in_loop(kernel, call: ast.Call, pointer: ast.expr | None) -> str | None:
    """The innermost loop's variable when `call` sits in a loop whose steps all address the same
    place: the address does not depend on that variable (nor on anything assigned in the loop)."""
    if pointer is None:
        return None
    loops = [n for n in _loops_around(kernel, call) if isinstance(n, ast.For)]
    if not loops:
        return None
    loop = loops[-1]  # the innermost
    if not isinstance(loop.target, ast.Name):
        return None
    targets = [t for n in ast.walk(loop) if isinstance(n, ast.Assign | ast.AugAssign)
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target])]
    assigned = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    used = {n.id for n in ast.walk(pointer) if isinstance(n, ast.Name)}
    return None if used & (assigned | {loop.target.id}) else loop.target.id


def _data_addressed(kernel, pointer, line: int) -> bool:
    from diagnose.triage.detectors.masks import _data_terms

    return pointer is not None and bool(_data_terms(kernel, pointer, line, scalars=True))


def _program_dependent(kernel, node: ast.expr) -> bool:
    """Whether an address uses tl.program_id (directly or through local names)."""
    names = depends_on(kernel, node)
    return any(isinstance(n, ast.Call) and call_name(n) in ("program_id", "num_programs")
               for name in names for st in kernel.assigns.get(name, [])
               for n in ast.walk(st)) or "program_id" in ast.unparse(node)


def _vanishing_terms_dropped(pointer: ast.expr | None) -> ast.expr | None:
    """The address with terms scaled by a literal 0 removed (`out + offs * 0` is `out`): a tile
    of one repeated address is a single counter, whatever shape the index tile gives it."""
    if pointer is None:
        return None

    def zero(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and node.value == 0 and type(node.value) is int

    class Drop(ast.NodeTransformer):
        def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
            self.generic_visit(node)
            if isinstance(node.op, ast.Mult) and (zero(node.left) or zero(node.right)):
                return ast.copy_location(ast.Constant(0), node)
            if isinstance(node.op, ast.Add) and zero(node.right):
                return node.left
            if isinstance(node.op, ast.Add) and zero(node.left):
                return node.right
            return node

    return Drop().visit(copy.deepcopy(pointer))


# Atomics that combine a value into memory: a sum, a running max or min (an absmax scale, an
# overflow flag), a bitmask. Exchange and compare-and-swap are synchronisation, not reductions.
REDUCING_ATOMICS = ("atomic_add", "atomic_max", "atomic_min", "atomic_or", "atomic_and", "atomic_xor")


def slot_counters(kernel: JitKernel) -> list[tuple[ast.Call, str]]:
    """(call, name) for each `name = tl.atomic_add(...)` made by every lane of a tile on one
    address no program position or lane index reaches, whose returned old value a later access
    uses in its address: each lane takes its own output slot from a shared counter."""
    shapes = ShapeInference(kernel)
    found = []
    for name, stmts in kernel.assigns.items():
        for stmt in stmts:
            call = getattr(stmt, "value", None)
            if not (isinstance(call, ast.Call) and call_name(call) == "atomic_add"):
                continue
            pointer = pointer_of(call)
            if pointer is None or _program_dependent(kernel, pointer):
                continue
            sources = [pointer] + [s for r in depends_on(kernel, pointer) for s in kernel.assigns.get(r, [])]
            if any(isinstance(n, ast.Call) and call_name(n) == "arange"
                   for s in sources for n in ast.walk(s)):
                continue  # lanes at addresses of their own: a histogram or a reduction
            mask = kwarg(call, "mask")
            if shapes.shape(pointer, call.lineno) == () and (mask is None or shapes.shape(mask, call.lineno) == ()):
                continue  # one atomic per program: the slots are already reserved in bulk
            if any(name in depends_on(kernel, p)
                   for op in memory_ops(kernel) if op.lineno > call.lineno
                   and (p := pointer_of(op)) is not None):
                found.append((call, name))
    return found


@detector("atomic-slot-counter")
def atomic_slot_counter(module: KernelModule, backend: str) -> list[Match]:
    """Every lane takes an output slot from one shared counter with its own atomic and writes
    at the old value it gets back: one serialised atomic per element where one per program
    (a count, a bulk reservation and a prefix sum) hands out the same slots."""
    return [_match(
        module, kernel, call, "atomic-slot-counter", 0.8,
        f"`{name} = tl.atomic_add(...)` in `{kernel.name}` takes one slot per lane from a shared "
        f"counter and writes at `{name}`: one serialised read-modify-write per element on one "
        "address. Reserve a program's slots with one atomic of its count (tl.sum of the flags) and "
        "give each lane its exclusive prefix (tl.cumsum).",
        ["profile: time grows with the active lanes while the bytes stay small",
         "IR: one atom per lane on one address, its result feeding the store addresses"],
        counter=name)
        for kernel in module.kernels.values() for call, name in slot_counters(kernel)]


def _reducing_atomics(module: KernelModule):
    """(kernel, call, pointer, facts) for each atomic that combines into addresses not built
    from loaded data (a scatter is the scatter-atomics idiom): one address, the same addresses
    from every program, a contiguous segment, or any address inside a loop. A slot counter (the
    old value is used as an index) combines nothing."""
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        slots = {id(call) for call, _ in slot_counters(kernel)}
        for call in kernel.calls(*REDUCING_ATOMICS):
            pointer = _vanishing_terms_dropped(pointer_of(call))
            if id(call) in slots or _data_addressed(kernel, pointer, call.lineno):
                continue
            facts = {"scalar_target": shapes.shape(pointer, call.lineno) == (),
                     "in_loop": _inside_loop(kernel, call),
                     # the same addresses for every program: a reduction across programs
                     "shared": not _program_dependent(kernel, pointer),
                     "segment": contiguous_segment(kernel, pointer, call.lineno) if pointer is not None else ""}
            if any(facts.values()):
                step = None if facts["segment"] else _loop_invariant_in_loop(kernel, call, pointer)
                yield kernel, call, facts, step


@detector("atomic-per-step")
def atomic_per_step(module: KernelModule, backend: str) -> list[Match]:
    """An atomic inside a loop whose steps all address the same place: the loop's partial can
    stay in registers and be combined once after it."""
    return [_match(
        module, kernel, call, "atomic-per-step", 0.75,
        f"`tl.{call_name(call)}` in `{kernel.name}` combines each step of the loop over `{step}` into "
        "the same address: one atomic per step per program, serialised on that address, where a "
        "value kept in registers across the loop needs one after it.",
        ["profile: time far above the bytes read, growing with steps x programs"],
        scalar_target=facts["scalar_target"], loop=step)
        for kernel, call, facts, step in _reducing_atomics(module) if step is not None]


@detector("atomic-reduction")
def atomic_reduction(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel, call, facts, step in _reducing_atomics(module):
        if step is not None:
            continue  # the per-step idiom: hoist the combine out of the loop
        scalar_target, in_loop, shared, segment = (facts["scalar_target"], facts["in_loop"],
                                                   facts["shared"], facts["segment"])
        confidence = 0.75 if segment else min(0.7, 0.5 + 0.1 * scalar_target + 0.1 * in_loop
                                               + 0.2 * shared)
        where = ("one address" if scalar_target else
                 "the same addresses from every program" if shared else
                 f"`{segment}`, one address per contiguous run of elements (a segmented "
                 "reduction one program per segment does in registers)" if segment else "the output")
        matches.append(_match(
            module, kernel, call, "atomic-reduction", confidence,
            f"`tl.{call_name(call)}` in `{kernel.name}` accumulates a reduction into {where}"
            f"{' inside a loop' if in_loop else ''}: every program serializes on it and "
            "the result order is not deterministic.",
            ["profile: time grows with the number of programs contending",
             "ncu: lts__t_sectors_op_red / atom throughput near its limit"
             if backend == "cuda" else
             "TTIR after triton-to-unstructure: scalarized atomic loop"],
            scalar_target=scalar_target, in_loop=in_loop, segment=segment))
    return matches


def _grouped_decode(kernel) -> bool:
    """Whether program ids are already super-grouped: a group named as such, `tl.swizzle2d`, or
    a scalar `min` of a program-dependent value (the last group's height, whatever its name)."""
    if any("group" in name.lower() for name in kernel.assigns) \
            or any("group" in p.name.lower() for p in kernel.params):
        return True
    return any(isinstance(n, ast.Call) and call_name(n) in ("swizzle2d", "min")
               and any(_program_dependent(kernel, a) for a in n.args)
               for n in ast.walk(kernel.node))


@detector("matmul-pid-order", ("cuda",))
def matmul_without_grouping(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        dots = kernel.calls("dot")
        if not dots or _grouped_decode(kernel):
            continue
        pids = kernel.calls("program_id")
        if not pids or not memory_ops(kernel):
            continue
        axes = {ast.unparse(p.args[0] if p.args else kwarg(p, "axis") or ast.Constant(0))
                for p in pids}
        two_d = len(axes) >= 2
        decode = any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.FloorDiv)
                     and _program_dependent(kernel, n.left) for n in ast.walk(kernel.node))
        if not (two_d or decode):
            continue
        matches.append(_match(
            module, kernel, pids[0], "matmul-pid-order", 0.35,
            f"`{kernel.name}` maps programs to output tiles in row-major order with no "
            "GROUP_M super-grouping, so consecutive programs reuse little of B in L2.",
            ["ncu: lts__t_sector_hit_rate (L2 hit rate) low at the large size",
             "profile: large-size throughput well under the roofline while small sizes are fine"],
            grid_2d=two_d))
    return matches


def tile_shape_of_loads(kernel) -> list[tuple]:
    """Shapes of every load/store pointer in `kernel` (unknown ones left out)."""
    shapes = ShapeInference(kernel)
    out = []
    for op in memory_ops(kernel):
        shape = shapes.shape(pointer_of(op), op.lineno)
        if is_tile(shape):
            out.append((op, shape))
    return out


def _written_value(call: ast.Call) -> ast.expr | None:
    """The value a tl.store or an atomic writes (None for a load)."""
    if call_name(call) == "load":
        return None
    return call.args[1] if len(call.args) > 1 else kwarg(call, "value") or kwarg(call, "val")


def stored_only(kernel: JitKernel, node: ast.expr) -> bool:
    """`node` only reaches memory: it is the value a store or an atomic writes, directly or
    through a local name bound to it once and read nowhere else (or never read). A widening to the output's
    dtype right before it is written is the output's format, not math at the wider rate."""
    written = [_written_value(c) for c in memory_ops(kernel)]
    if any(w is node for w in written):
        return True
    bound = [a for a in ast.walk(kernel.node) if isinstance(a, ast.Assign) and a.value is node
             and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)]
    if len(bound) != 1 or len(kernel.assigns.get(bound[0].targets[0].id, [])) != 1:
        return False
    name = bound[0].targets[0].id
    reads = [n for n in ast.walk(kernel.node) if isinstance(n, ast.Name) and n.id == name
             and isinstance(n.ctx, ast.Load)]
    return all(any(w is n for w in written) for n in reads)  # (a value never read is no math either)


def _computed_from(kernel: JitKernel, sites: list[ast.Call]) -> list[int]:
    """Lines of the statements that compute with the values `sites` make (through the names
    bound to them): where math on those values runs, and where the IR shows it."""
    lines = {c.lineno for c in sites}
    made = {name for name, stmts in kernel.assigns.items()
            if any(s.lineno in lines or any(n is c for c in sites for n in ast.walk(s)) for s in stmts)}
    found = set()
    for stmt in ast.walk(kernel.node):
        value = getattr(stmt, "value", None)
        if isinstance(stmt, ast.Assign | ast.AugAssign | ast.Return | ast.Expr) and value is not None \
                and made & depends_on(kernel, value):
            # an inlined helper's expression keeps the helper's lines, where the IR shows its math
            found |= {n.lineno for n in ast.walk(stmt) if isinstance(getattr(n, "lineno", None), int)}
    return sorted(found - lines)


# fp64 work with no fast path: transcendentals and square roots are long libdevice sequences of
# fp64 FMAs, and a division is a refinement sequence (fp32 has MUFU approximations for all of them),
# so these cost tens of fp32 operations each; fp64 add, multiply and compare run at half the fp32
# rate on an H100-class GPU (a memory-bound kernel does not notice)
FP64_COSTLY_CALLS = frozenset({
    "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sqrt_rn", "div_rn",
    "fdiv", "sin", "cos", "tan", "pow", "erf", "erfc", "tanh", "sinh", "cosh", "atan", "atan2",
    "asin", "acos", "sigmoid", "softmax", "cbrt", "lgamma", "fast_expf", "fast_logf"})
FP64_SUMS_CONFIDENCE = 0.35  # fp64 adds and multiplies only: a cost only where arithmetic binds


def _costly_fp64(kernel: JitKernel, lines: set[int]) -> bool:
    """Some statement at `lines` (those that make or compute with fp64 values) divides, raises
    to a power or calls a transcendental or a square root: fp64 work with no fast path. A
    conservative reading: the statement's whole expression counts, whatever part of it is fp64."""
    for stmt in ast.walk(kernel.node):
        if not isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Return | ast.Expr) \
                or stmt.lineno not in lines:
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.BinOp | ast.AugAssign) \
                    and isinstance(node.op, ast.Div | ast.FloorDiv | ast.Mod | ast.Pow):
                return True
            if isinstance(node, ast.Call) and call_name(node) in FP64_COSTLY_CALLS:
                return True
    return False


@detector("fp64-math", ("cuda",))
def fp64_math(module: KernelModule, backend: str) -> list[Match]:
    """Values converted to tl.float64 inside a kernel: fp64 runs at a fraction of the fp32
    rate and doubles the registers and bytes of everything it touches."""
    matches = []
    for kernel in module.kernels.values():
        # a conversion to fp64, or a tile created in fp64 (an fp64 accumulator)
        conversions = [c for c in kernel.calls("to", "cast") if converts_to(c, "float64")
                       and not stored_only(kernel, c)]
        created = [c for c in kernel.calls("zeros", "full", "zeros_like", "full_like")
                   if "float64" in ast.unparse(c)]
        sites = sorted(conversions + created, key=lambda c: c.lineno)
        if not sites:
            continue
        first = (conversions or created)[0]
        computed = _computed_from(kernel, sites)
        costly = _costly_fp64(kernel, {c.lineno for c in sites} | set(computed))
        match = _match(
            module, kernel, first, "fp64-math", 0.7 if costly else FP64_SUMS_CONFIDENCE,
            f"`{kernel.name}` computes in tl.float64 ({len(sites)} place(s), first "
            f"`{ast.unparse(first)[:60]}`): fp64 math runs at a fraction of the fp32 rate"
            + ("." if costly else "; here only adds, multiplies and compares (sums kept in double), "
               "which an H100-class GPU runs at half the fp32 rate: they cost time only in a "
               "kernel bound by its arithmetic."),
            ["PTX: f64 instructions in the hot path",
             "task: the tolerance is met with fp32 math"], casts=len(sites),
            value_lines=computed, fp64_costly=costly)
        # the idiom is the kernel's fp64 math as a whole: it spans every place that makes it
        match.line = sites[0].lineno
        match.end_line = max(getattr(c, "end_lineno", None) or c.lineno for c in sites)
        matches.append(match)
    return matches


PRECISE_CALLS = ("div_rn", "sqrt_rn")


def _ieee_rounded(call: ast.Call) -> bool:
    if call_name(call) in PRECISE_CALLS:
        return True
    rounding = kwarg(call, "ieee_rounding")
    return (call_name(call) == "fdiv" and isinstance(rounding, ast.Constant)
            and rounding.value is True)


@detector("ieee-rounded-math", ("cuda",))
def ieee_rounded_math(module: KernelModule, backend: str) -> list[Match]:
    """tl.div_rn / tl.sqrt_rn / tl.fdiv(ieee_rounding=True): IEEE round-to-nearest division and
    square root, a refinement sequence with special-case branches per element, where `/`,
    tl.sqrt and tl.math.rsqrt are one or two instructions. In a loop (a pair interaction, an
    iterative solver) that arithmetic is the kernel's time."""
    matches = []
    # helpers called from inside a loop of another @triton.jit function
    in_loops = {call_name(c) for fn in module.kernels.values() for loop in ast.walk(fn.node)
                if isinstance(loop, ast.For | ast.While)
                for c in ast.walk(loop) if isinstance(c, ast.Call)}
    for kernel in module.kernels.values():
        calls = sorted((c for c in ast.walk(kernel.node) if isinstance(c, ast.Call) and _ieee_rounded(c)),
                       key=lambda c: c.lineno)
        if not calls:
            continue
        looped = kernel.name in in_loops or any(_inside_loop(kernel, c) for c in calls)
        names = ", ".join(dict.fromkeys(f"tl.{call_name(c)}" for c in calls))
        matches.append(_match(
            module, kernel, calls[0], "ieee-rounded-math", 0.7 if looped else 0.45,
            f"`{kernel.name}` computes with {names}: IEEE round-to-nearest sequences (an estimate, "
            "Newton steps and special-case branches per element) where the approximate `/`, "
            "tl.sqrt or tl.math.rsqrt is one or two instructions"
            + (", inside a loop, so the arithmetic is the time." if looped else "."),
            ["TTGIR: tt.precise_divf / tt.precise_sqrt on tensors",
             "task: the tolerance is met with the approximate forms"],
            calls=len(calls), looped=looped))
    return matches


def _is_accumulator_of_dot(kernel, value: ast.expr) -> bool:
    """`acc` bound to tl.dot(..., acc) / acc += tl.dot(...) inside a loop."""
    names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    return any(isinstance(n, ast.Call) and call_name(n) == "dot"
               for name in names for s in kernel.assigns.get(name, [])
               for n in ast.walk(s))


@detector("split-k-atomics", ("cuda",))
def split_k_atomics(module: KernelModule, backend: str) -> list[Match]:
    """A GEMM whose programs split K and add their dot accumulators into C with atomics: fp32
    read-modify-writes of the whole output per split, an fp32 buffer and usually a cast pass."""
    matches = []
    for kernel in module.kernels.values():
        for call in kernel.calls("atomic_add"):
            value = call.args[1] if len(call.args) > 1 else kwarg(call, "val")
            if value is None or not _is_accumulator_of_dot(kernel, value):
                continue
            matches.append(_match(
                module, kernel, call, "split-k-atomics", 0.75,
                f"`{kernel.name}` splits K across programs and adds each dot accumulator into "
                "the output with `tl.atomic_add`: every split re-reads and re-writes the fp32 "
                "output tile, which also needs zeroing and a cast; with enough output tiles to "
                "fill the GPU, one program per tile looping over all of K is faster.",
                ["PTX: red.global.add.f32 of the accumulator tile",
                 "profile: output tiles at least the SM count without the split"]))
    return matches


def _summed(call: ast.Call) -> ast.expr | None:
    """What a tl.sum reduces, through any `.to(...)`."""
    return uncast(call.args[0]) if call.args else None


def _summed_terms(node: ast.expr) -> list[ast.expr]:
    """The terms of a sum or difference written inline (`p * a * a - q * a` -> both products)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        return _summed_terms(node.left) + _summed_terms(node.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _summed_terms(node.operand)
    return [node]


def _broadcast_product_sum(kernel, call: ast.Call) -> bool:
    """tl.sum(v[:, None] * W, axis=...) (or W * v[None, :]): a matrix-vector product written
    as broadcast-multiply-reduce; also a sum of such products of one program's vectors with the
    same tile (`(w * c * c)[None, :] * (a * a) + (-2 * c * w * x)[None, :] * a`, a weighted
    squared distance expanded)."""
    arg = _summed(call)
    if arg is None:
        return False
    for term in _summed_terms(arg):
        if not (isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult)):
            continue
        factors = _product_factors(term)
        expanded = [f for f in factors if isinstance(f, ast.Subscript) and "None" in ast.unparse(f.slice)]
        if expanded and len(expanded) < len(factors) and not all(
                _constant_factor(f) for f in factors if f not in expanded):
            return True  # the program's vector(s) broadcast against a tile that is not expanded
    return False


def _product_factors(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _product_factors(node.left) + _product_factors(node.right)
    return [node]


def _broadcast_matmul(call: ast.Call, shapes: ShapeInference) -> bool:
    """tl.sum(a[:, :, None] * b[None, :, :], axis=1): a matrix product written as a 3-D
    broadcast-multiply-reduce (both factors expanded with None); also one term of a summed sum
    of such products, through names bound to them (`quad = ...; cross = ...; tl.sum(quad + cross)`)."""
    arg = _summed(call)
    if arg is None:
        return False
    return any(isinstance(t, ast.BinOp) and isinstance(t.op, ast.Mult) and _expanded3(t.left)
               and _expanded3(t.right) for t in additive_terms(arg, shapes, call.lineno))


def _expanded3(node: ast.expr) -> bool:
    """`x[:, None, :]`-style: a tile expanded to rank 3 with None; also arithmetic of such tiles
    and scalars (`x[:, :, None] * x[:, :, None]`, `-0.5 * r[:, None, :]`: an expanded product
    `(x * x)[:, :, None]` as the model reads it)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Add | ast.Sub | ast.Div):
        sides = [side for side in (node.left, node.right) if not _constant_factor(side)]
        return bool(sides) and all(_expanded3(side) for side in sides)
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) == 3 and "None" in ast.unparse(node.slice))


def _constant_factor(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) or isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant)


def _broadcast_distance(kernel: JitKernel, call: ast.Call) -> bool:
    """tl.sum(d * d, axis=2) (or d ** 2) with d = a[:, None, :] - b[None, :, :]: squared distances
    over a 3-D broadcast difference, which expand to |a|^2 - 2 a.b + |b|^2, a matrix product."""
    if not call.args:
        return False
    arg = call.args[0]
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mult) and ast.unparse(arg.left) == ast.unparse(arg.right):
        base = arg.left
    elif isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Pow) and ast.unparse(arg.right) == "2":
        base = arg.left
    else:
        return False
    values = [base] if not isinstance(base, ast.Name) else [
        getattr(st, "value", None) for st in kernel.assigns.get(base.id, [])]
    return any(isinstance(v, ast.BinOp) and isinstance(v.op, ast.Sub) and _expanded3(bound_once(kernel, v.left))
               and _expanded3(bound_once(kernel, v.right)) for v in values)



@detector("broadcast-matmul")
def broadcast_matmul(module: KernelModule, backend: str) -> list[Match]:
    """A tile product written as tl.sum of a 3-D broadcast product: the compiler may turn it
    into a small fp32 dot, or it stays CUDA-core FMAs over a [M, K, N] temporary; tl.dot on
    2-D tiles of 64-128 rows runs on the tensor cores (on Ascend: the vector unit against the
    cube unit, which only tl.dot reaches)."""
    where = ("in the unified buffer and reduces it on the vector unit; `tl.dot` on 2-D tiles runs on "
             "the cube unit" if backend == "ascend" else
             "in registers and runs on CUDA cores (or as a tiny fp32 dot); `tl.dot` on 2-D tiles uses "
             "the tensor cores")
    needed = (["msprof: aic_cube_ratio zero while aiv_vec_ratio is high", "IR: rank-3 multiply and reduce, no linalg.matmul"]
              if backend == "ascend" else
              ["TTGIR: no warp_group_dot, or a dot of a few K columns in fp32", "SASS: FFMA instead of HMMA/WGMMA"])
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for call in kernel.calls("sum"):
            if _broadcast_matmul(call, shapes):
                matches.append(_match(
                    module, kernel, call, "broadcast-matmul", 0.7,
                    f"`{kernel.name}` multiplies tiles as `{ast.unparse(call)[:70]}`: a matrix "
                    f"product written as a 3-D broadcast multiply and a sum, which holds the 3-D temporary {where}.",
                    needed))
                break
            if _broadcast_distance(kernel, call):
                matches.append(_match(
                    module, kernel, call, "broadcast-matmul", 0.7,
                    f"`{kernel.name}` computes squared distances as `{ast.unparse(call)[:70]}` over a "
                    "3-D broadcast difference: |a|^2 - 2 a.b + |b|^2 is a matrix product plus two "
                    f"norms, and the 3-D temporary sits {where}.",
                    needed, distance=True))
                break
    return matches


@detector("rank3-dot", ("cuda",))
def rank3_dot(module: KernelModule, backend: str) -> list[Match]:
    """tl.dot on 3-D tiles (a batch of products in one dot): the Hopper warp-group MMA takes
    2-D operands only, so the batched dot falls back to mma.sync; put the batch on the grid
    (or loop over it) and multiply 2-D tiles."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for dot in kernel.calls("dot"):
            shape = shapes.shape(dot.args[0], dot.lineno) if dot.args else None
            if shape and len(shape) == 3:
                matches.append(_match(
                    module, kernel, dot, "rank3-dot", 0.6,
                    f"`tl.dot` in `{kernel.name}` multiplies 3-D tiles "
                    f"(`{ast.unparse(dot.args[0])}` is {'x'.join(map(str, shape))}): the sm_90 "
                    "warp-group MMA takes 2-D operands only, so a batched dot runs on the older "
                    "mma path; put the batch on the grid and multiply 2-D tiles.",
                    ["TTGIR: no ttng.warp_group_dot after tritongpu-accelerate-matmul (MMA v2)"]))
                break
    return matches


@detector("matvec-per-row")
def matvec_per_row(module: KernelModule, backend: str) -> list[Match]:
    """Each program multiplies one row (a token) by a weight tile with broadcast-multiply-sum:
    no tl.dot, so no tensor cores (on the NPU, no cube), and the weight is re-read by every
    row's program."""
    matches = []
    for kernel in module.kernels.values():
        if kernel.calls("dot"):
            continue
        shapes = None  # inferred only for a kernel that has a broadcast product sum
        for call in kernel.calls("sum"):
            if not _broadcast_product_sum(kernel, call):
                continue
            # both factors expanded to rank 3 (`(f - g)[:, None, :] * m[None, :, :]`): a tile of
            # rows already meets the matrix, which broadcast-matmul names (no row per program)
            shapes = shapes or ShapeInference(kernel)
            if _broadcast_matmul(call, shapes):
                continue
            unit, mma, check = (("vector cores", "the cube", "msprof: aiv_vec_ratio high, no aic_mac time")
                                if backend == "ascend" else
                                ("CUDA cores", "tensor cores", "SASS: FFMA reduction instead of HMMA/WGMMA"))
            matches.append(_match(
                module, kernel, call, "matvec-per-row", 0.7,
                f"`{kernel.name}` computes a matrix-vector product per program "
                f"(`{ast.unparse(call)[:60]}`): every row re-reads the weight tile and the "
                f"math runs on {unit}; a tile of rows times the weight with tl.dot reads it "
                f"once per tile and uses {mma}.",
                ["profile: weight bytes re-read once per row", check]))
            break
    return matches


@detector("scan-last-axis", ("ascend",))
def scan_last_axis(module: KernelModule, backend: str) -> list[Match]:
    """tl.cumsum / tl.associative_scan along a tile's last (contiguous) axis on the NPU: the
    scan is a serial chain along the vector lanes; scanning along the leading axis of a
    [rows, cols] tile runs the chain across rows with full vectors."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for call in kernel.calls("cumsum", "cumprod", "associative_scan"):
            shape = shapes.shape(call.args[0], call.lineno) if call.args else None
            axis_node = kwarg(call, "axis") or (call.args[1] if len(call.args) > 1 else None)
            if not shape or not isinstance(axis_node, ast.Constant | ast.UnaryOp):
                continue
            axis = ast.literal_eval(axis_node)
            if not isinstance(axis, int) or axis % len(shape) != len(shape) - 1:
                continue
            matches.append(_match(
                module, kernel, call, "scan-last-axis", 0.65,
                f"`tl.{call_name(call)}` in `{kernel.name}` scans along the tile's last axis: "
                "on the NPU that is a serial chain across the vector lanes; scan a "
                "[rows, cols] tile along its leading axis (load it transposed, or process "
                "several rows per program) so each step is one full vector.",
                ["msprof: vector unit busy with short instructions, low vec_ratio"]))
    return matches


def _walk_but(root: ast.AST, skip: ast.AST | None):
    """ast.walk without the subtree at `skip`."""
    todo = [root]
    while todo:
        node = todo.pop()
        if node is skip:
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _loop_invariance(loop: ast.For, skip: ast.AST | None = None):
    """A predicate: whether an expression inside `loop` has the same value on every iteration
    (it reads no loop target and no name the body reassigns from iteration-dependent values).
    What happens inside `skip` (a nested loop judged as a whole) is left out."""
    targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    assigned: dict[str, list[ast.AST]] = {}
    for node in _walk_but(loop, skip):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        assigned.setdefault(n.id, []).append(node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            targets.add(node.target.id)  # carried across iterations
        elif isinstance(node, ast.For) and node is not loop:
            targets |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    memo: dict[str, bool] = {}

    def name_ok(name: str) -> bool:
        if name in targets:
            return False
        if name not in assigned:
            return True
        if name not in memo:
            memo[name] = False  # a name that feeds itself is carried: variant
            memo[name] = all(invariant(v) for v in assigned[name])
        return memo[name]

    def invariant(node: ast.AST) -> bool:
        return all(name_ok(n.id) for n in ast.walk(node) if isinstance(n, ast.Name))

    return invariant


def _scaled_dot_factors(stmt: ast.stmt, dot: ast.Call) -> list[ast.expr]:
    """`acc += tl.dot(a, b) * s * t` (or `acc = acc + ...`): the factors multiplied into the dot.
    A scaled dot assigned without accumulating (`qk = tl.dot(q, k) * scale`, a new score tile
    each step) has no accumulator to scale once after the loop: no factors."""
    value = stmt.value if isinstance(stmt, ast.AugAssign | ast.Assign) else None
    if isinstance(stmt, ast.Assign):
        targets = {ast.unparse(t) for t in stmt.targets}
        if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)
                and {ast.unparse(value.left), ast.unparse(value.right)} & targets):
            return []
        value = value.right if any(n is dot for n in ast.walk(value.right)) else value.left
    factors: list[ast.expr] = []

    def walk(node: ast.expr) -> bool:
        if node is dot:
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div):
            left, right = walk(node.left), walk(node.right)
            if left or right:
                factors.append(node.right if left else node.left)
                return True
        return False

    return factors if value is not None and walk(value) else []


@detector("loop-invariant-work", ("cuda", "ascend"))
def loop_invariant_work(module: KernelModule, backend: str) -> list[Match]:
    """Work inside a loop that is the same on every iteration: a dot's result scaled by
    loop-invariant values before it is accumulated (a pass over the tile per step, and no
    in-place MMA accumulation), or a load of the same addresses each time round."""
    matches = []
    for kernel in module.kernels.values():
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            invariant = _loop_invariance(loop)
            scaled = [(stmt, f) for stmt in ast.walk(loop) if isinstance(stmt, ast.AugAssign | ast.Assign)
                      for dot in ast.walk(stmt.value) if isinstance(dot, ast.Call) and call_name(dot) == "dot"
                      for f in _scaled_dot_factors(stmt, dot) if invariant(f)]
            # an address the loop also stores to changes under the load: not invariant data
            stored = {ast.unparse(c.args[0]) for c in ast.walk(loop)
                      if isinstance(c, ast.Call) and call_name(c) in ("store", "atomic_add") and c.args}
            # the loop's own bounds (`range(0, tl.load(count + b))`) are read once, before it
            body = [n for stmt in loop.body for n in ast.walk(stmt)]
            loads = [c for c in body if isinstance(c, ast.Call) and call_name(c) == "load"
                     and c.args and invariant(c) and ast.unparse(c.args[0]) not in stored]
            inside = {id(n) for n in ast.walk(loop)}
            helpers = [c for c in body if isinstance(c, ast.Call)
                       and _memory_helper(module, kernel, call_name(c)) and invariant(c)]
            # a value helper's call read into the body: judged as the call it was
            helpers += [c for c, helper, first in kernel.inlined_calls
                        if id(first) in inside and _reads_memory(helper) and invariant(c)
                        and not _helper_loads(helper, c) & stored]
            if not helpers and not scaled and (inner := _invariant_inner_loop(loop)) is not None:
                reads = sum(isinstance(c, ast.Call) and call_name(c) == "load" for c in ast.walk(inner))
                matches.append(_match(
                    module, kernel, inner, "loop-invariant-work", 0.7,
                    f"`{kernel.name}` runs the loop over `{ast.unparse(inner.target)}` (line "
                    f"{inner.lineno}) inside the loop over `{ast.unparse(loop.target)}` although it "
                    "reads the same addresses and computes the same values on every outer iteration: "
                    f"its {reads} load(s) per step are repeated for each `{ast.unparse(loop.target)}`; "
                    "run it once before the outer loop and keep its result.",
                    ["IR: the inner loop's loads inside the outer loop body"],
                    invariant_loads=reads))
                continue
            if helpers and not scaled:
                helper = helpers[0]
                matches.append(_match(
                    module, kernel, helper, "loop-invariant-work", 0.65,
                    f"`{kernel.name}` calls `{call_name(helper)}` inside a loop with arguments that "
                    "do not change across iterations, and that helper reads memory (or loops "
                    "over it): the same work is redone every iteration; call it once before the loop.",
                    ["IR: the helper's loads (or its loop) inside the outer loop body"],
                    invariant_call=call_name(helper)))
                continue
            if scaled:
                stmt = scaled[0][0]
                names = ", ".join(dict.fromkeys(ast.unparse(f) for _, f in scaled))
                matches.append(_match(
                    module, kernel, stmt, "loop-invariant-work", 0.7,
                    f"`{kernel.name}` multiplies each iteration's `tl.dot` by {names}, which do not "
                    "change across the loop: every step pays a pass over the accumulator tile and "
                    "the dot cannot accumulate in place; scale once after the loop.",
                    ["IR: elementwise ops on the accumulator inside the K loop"],
                    invariant_loads=len(loads)))
            elif loads and (operand := _invariant_scaled_operand(kernel, loop, loads)) is not None:
                load, dot = operand
                matches.append(_match(
                    module, kernel, load, "loop-invariant-work", 0.7,
                    f"`{kernel.name}` loads `{ast.unparse(load.args[0])[:50]}` on every iteration "
                    f"although it does not change across the loop, and scales an operand of "
                    f"`tl.dot` (line {dot.lineno}) with it: a pass over the operand tile per step "
                    "for a factor of the output's rows or columns; multiply the accumulator by it "
                    "once after the loop.",
                    ["IR: elementwise ops on the dot operand inside the K loop"],
                    invariant_loads=len(loads)))
            elif loads and (math := _math_on_invariant_loads(loop, _tile_loads(kernel, loads), invariant)):
                # the compiler's loop-invariant code motion moves pure math, never a load: math
                # fed by a load that stays in the loop is recomputed on every iteration
                matches.append(_match(
                    module, kernel, loads[0], "loop-invariant-work", INVARIANT_MATH_CONFIDENCE,
                    f"`{kernel.name}` loads `{ast.unparse(loads[0].args[0])[:50]}` inside a loop "
                    "although its addresses and mask do not change across iterations, and computes "
                    f"`tl.{call_name(math[0])}` of it"
                    + (f" and {len(math) - 1} more such call(s)" if len(math) > 1 else "")
                    + ": the load keeps that math in the loop, redone on the same values every "
                    "iteration; load and compute it once before the loop.",
                    ["IR: transcendental math inside the loop on values loaded from fixed addresses"],
                    invariant_loads=len(loads), invariant_math=len(math)))
            elif loads:
                matches.append(_match(
                    module, kernel, loads[0], "loop-invariant-work", 0.5,
                    f"`{kernel.name}` loads `{ast.unparse(loads[0].args[0])[:50]}` inside a loop "
                    "although its addresses and mask do not change across iterations: load it "
                    "once before the loop.",
                    ["IR: the load stays inside the loop after loop-invariant code motion"],
                    invariant_loads=len(loads)))
    return matches


def _invariant_inner_loop(loop: ast.For) -> ast.For | None:
    """A loop nested in `loop` that loads memory and whose whole work is the same on every
    iteration of `loop`: its range and every value it reads come from outside `loop` or are
    invariant in it, it stores nothing, and what it accumulates starts afresh from an invariant
    value inside `loop` (`sum_sq = tl.zeros(...)` then `for k: sum_sq += x_k * x_k`): a reduction
    recomputed for each outer step."""
    for inner in (n for n in ast.walk(loop) if isinstance(n, ast.For) and n is not loop):
        nodes = list(ast.walk(inner))
        if any(isinstance(c, ast.Call) and call_name(c) in ("store", "atomic_add", "atomic_max", "atomic_min")
               for c in nodes) or not any(isinstance(c, ast.Call) and call_name(c) == "load" for c in nodes):
            continue
        inside = {id(n) for n in nodes}
        outer = _loop_invariance(loop, skip=inner)
        local = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        carried = {n.target.id for n in nodes if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}
        if not outer(inner.iter):
            continue
        reads = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - local - carried
        if not all(outer(ast.Name(r, ast.Load())) for r in reads):
            continue
        fresh = {t.id for n in ast.walk(loop) if isinstance(n, ast.Assign) and id(n) not in inside
                 and outer(n.value) for t in n.targets if isinstance(t, ast.Name)}
        if carried <= fresh:
            return inner
    return None


INVARIANT_MATH_CONFIDENCE = 0.7  # transcendental math redone each iteration: work no IR symptom shows
# math with a long instruction sequence per element (libdevice or MUFU plus range reduction)
INVARIANT_MATH_CALLS = FP64_COSTLY_CALLS - {"softmax"}


def _tile_loads(kernel: JitKernel, loads: list[ast.Call]) -> list[ast.Call]:
    """The loads of a tile (not of one scalar: a scalar's math per iteration costs next to nothing)."""
    shapes = ShapeInference(kernel)
    return [c for c in loads if (ptr := pointer_of(c)) is not None and is_tile(shapes.shape(ptr, c.lineno))]


def _math_on_invariant_loads(loop: ast.For, loads: list[ast.Call], invariant) -> list[ast.Call]:
    """Transcendental or root calls inside `loop` whose arguments derive from its loop-invariant
    loads (through names assigned in the loop from such values) and nothing iteration-dependent."""
    ids = {id(c) for c in loads}
    derived: set[str] = set()
    grown = True
    while grown:
        grown = False
        for node in ast.walk(loop):
            if not isinstance(node, ast.Assign) or not invariant(node.value):
                continue
            feeds = any(id(c) in ids for c in ast.walk(node.value)) or names_in(node.value) & derived
            for t in node.targets:
                for n in ast.walk(t):
                    if feeds and isinstance(n, ast.Name) and n.id not in derived:
                        derived.add(n.id)
                        grown = True
    found = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) in INVARIANT_MATH_CALLS
             and invariant(c) and (names_in(c) & derived or any(id(x) in ids for x in ast.walk(c)))]
    # the loop's own lines first (a helper's inlined body keeps the helper's line numbers)
    return sorted(found, key=lambda c: (not loop.lineno <= c.lineno <= (loop.end_lineno or c.lineno), c.lineno))


def _invariant_scaled_operand(kernel: JitKernel, loop: ast.For, loads: list[ast.Call]
                              ) -> tuple[ast.Call, ast.Call] | None:
    """(load, dot): a loop-invariant load whose value multiplies an operand of a tl.dot in the
    same loop (a per-channel scale applied to each K tile instead of to the accumulator)."""
    bound = {name: load for load in loads for name, stmts in kernel.assigns.items()
             if any(any(n is load for n in ast.walk(st)) for st in stmts)}
    for dot in (c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "dot"):
        for operand in dot.args[:2]:
            products = [n for n in ast.walk(operand) if isinstance(n, ast.BinOp)
                        and isinstance(n.op, ast.Mult)]
            names = names_in(operand)
            for name in names:
                for st in kernel.assigns.get(name, []):
                    value = getattr(st, "value", None)
                    if value is not None and any(v is st for v in ast.walk(loop)):
                        products += [n for n in ast.walk(value) if isinstance(n, ast.BinOp)
                                     and isinstance(n.op, ast.Mult)]
            for product in products:
                used = names_in(product) & set(bound)
                if used:
                    return bound[sorted(used)[0]], dot
    return None


def _helper_loads(helper: ast.FunctionDef, call: ast.Call) -> set[str]:
    """The addresses a helper's loads read, written in the caller's names (its parameters
    replaced by the call's arguments): what the caller's loop may also store to."""
    bound = {p.arg: arg for p, arg in zip(helper.args.args, call.args, strict=False)}

    class _Bind(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return bound.get(node.id, node)

    return {ast.unparse(_Bind().visit(copy.deepcopy(c.args[0]))) for c in ast.walk(helper)
            if isinstance(c, ast.Call) and call_name(c) == "load" and c.args}


def _memory_helper(module: KernelModule, kernel: JitKernel, name: str) -> bool:
    """`name` is another @triton.jit function of the file whose body loads or loops."""
    helper = module.kernels.get(name)
    return helper is not None and helper is not kernel and _reads_memory(helper.node)


def _reads_memory(fn: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.For | ast.While) or (isinstance(n, ast.Call) and call_name(n) == "load")
               for n in ast.walk(fn))


def _pointer_params(kernel: JitKernel, call: ast.Call) -> set[str]:
    """The kernel parameter a load's address starts from (`x_ptr` in `base + offs` after
    `base = x_ptr + row * stride`), following the leftmost term of each sum."""
    params = {p.name for p in kernel.params if not p.constexpr}
    node, seen = pointer_of(call), set()
    while node is not None:
        if isinstance(node, ast.BinOp):
            node = node.left
        elif isinstance(node, ast.Name) and node.id in params:
            return {node.id}
        elif isinstance(node, ast.Name) and node.id not in seen and kernel.assigns.get(node.id):
            seen.add(node.id)
            node = getattr(kernel.assigns[node.id][-1], "value", None)
        else:
            return set()
    return set()


def _loaded_length(kernel: JitKernel, expr: ast.AST) -> bool:
    """The expression reads memory, directly or through a name bound to a tl.load (a length
    per program, `n = tl.load(lengths + row)`), rather than being arithmetic of the program id."""
    names = names_in(expr) | depends_on(kernel, expr)
    values = [getattr(a, "value", None) for name in names for a in kernel.assigns.get(name, [])]
    return any(isinstance(c, ast.Call) and call_name(c) == "load"
               for node in [expr, *(v for v in values if v is not None)] for c in ast.walk(node))


WINDOW_MIN_TAPS = 9  # a constant window this short is a stencil, not a re-summed window


def _offset_scale(term: ast.expr, k: str, shapes: ShapeInference, line: int) -> str | None:
    """"" for a term that is the loop counter `k` itself, `s` for `k * s` with s a scalar (the
    counter stepping along an axis of stride s), None for any other term."""
    if isinstance(term, ast.Name) and term.id == k:
        return ""
    factors = _product_factors(term)
    counters = [f for f in factors if isinstance(f, ast.Name) and f.id == k]
    rest = [f for f in factors if f not in counters]
    if len(counters) == 1 and len(rest) == 1 and shapes.shape(rest[0], line) == () and k not in names_in(rest[0]):
        return ast.unparse(rest[0])
    return None


def _carried_by(loop: ast.For, loads: list[ast.Call]) -> set[str]:
    """Names the loop binds to a value of `loads`, directly or through names bound before
    (`a = tl.load(..)`, `r = tl.log(a / b)`: both carry the window's elements)."""
    assigns = [st for st in ast.walk(loop) if isinstance(st, ast.Assign)]
    bound: set[str] = set()
    grown = True
    while grown:
        grown = False
        for st in assigns:
            if not (any(c in loads for c in ast.walk(st.value)) or names_in(st.value) & bound):
                continue
            new = {t.id for t in st.targets if isinstance(t, ast.Name)} - bound
            bound |= new
            grown = grown or bool(new)
    return bound


@detector("window-resum")
def window_resum(module: KernelModule, backend: str) -> list[Match]:
    """A loop over a window's offsets that loads, for every output of the tile, the element at
    the output's position plus the offset (`x[j + k]`) and adds it (or a function of it alone)
    into a per-output sum: overlapping windows re-sum the same elements, W loads and adds per
    output. Without a second load indexed by the offset (a filter's taps) the sums are
    differences of one running prefix (or a sum carried from window to window): O(1) per output."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            if not (isinstance(loop.iter, ast.Call) and call_name(loop.iter) == "range"
                    and isinstance(loop.target, ast.Name) and 1 <= len(loop.iter.args) <= 2):
                continue  # one offset per step (a loop stepping by a tile walks tiles)
            stop = loop.iter.args[-1]
            if isinstance(stop, ast.Constant) and isinstance(stop.value, int) and stop.value < WINDOW_MIN_TAPS:
                continue
            k = loop.target.id
            loads = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"]
            if not loads or any(call_name(c) in ("dot", "store", "atomic_add") for c in ast.walk(loop)
                                if isinstance(c, ast.Call)):
                continue
            window = []
            for ld in loads:
                terms = additive_terms(pointer_of(ld), shapes, ld.lineno) if pointer_of(ld) is not None else []
                # the offset: `k`, or `k * s` along an axis of stride s that the outputs'
                # positions walk too (`bins * s`: windows down a column overlap as well)
                scale = [_offset_scale(t, k, shapes, ld.lineno) for t in terms]
                offset = [s for s in scale if s is not None]
                # the outputs' positions: an index tile, not starts read from memory (segments
                # that begin where an offsets table says do not overlap)
                tile = [t for t in terms if is_tile(shapes.shape(t, ld.lineno)) and k not in names_in(t)
                        and not _loaded_length(kernel, t)
                        and (not offset or offset[0] == "" or offset[0] in map(ast.unparse, _product_factors(t)))]
                if not offset or not tile:
                    break  # a load indexed by the offset alone (a tap) or not by it: no window
                window.append(ld)
            else:
                bound = _carried_by(loop, window)
                sums = [st for st in ast.walk(loop) if isinstance(st, ast.AugAssign)
                        and isinstance(st.op, ast.Add) and isinstance(st.target, ast.Name)
                        and is_tile(shapes.shape(st.target, st.lineno))
                        and (names_in(st.value) & bound or any(c in window for c in ast.walk(st.value)))]
                if not sums:
                    continue
                matches.append(_match(
                    module, kernel, loop, "window-resum", 0.65,
                    f"`{kernel.name}` re-sums a window of `{ast.unparse(stop)}` elements for every "
                    f"output: the loop over `{k}` loads the element at each output's position plus "
                    f"`{k}` and adds it into `{sums[0].target.id}`, so overlapping windows read and add "
                    "the same elements again, one pass per offset. The window sums are differences "
                    "of one running prefix sum (tl.cumsum over the row, carried from tile to tile).",
                    ["profile: time grows with the window length, not with the series' length",
                     "trace: loads per output equal to the window length"],
                    window=ast.unparse(stop)))
    return matches


@detector("prefix-rescan")
def prefix_rescan(module: KernelModule, backend: str) -> list[Match]:
    """A loop whose trip count grows with the program id and re-reads, from the same tensor,
    the tiles that earlier programs own, to rebuild a running value (a scan's offset) each
    program could have been handed: program p reads p tiles, C(C+1)/2 reads for C programs.
    The same inside one program: a loop bounded by an enclosing loop's position (`for p in
    range(0, t)` inside `for t in ...`) re-reads the blocks the earlier iterations read."""
    matches = []
    for kernel in module.kernels.values():
        pids = bound_to_call(kernel, "program_id")
        loops = [n for n in ast.walk(kernel.node) if isinstance(n, ast.For)
                 and isinstance(n.iter, ast.Call) and call_name(n.iter) == "range"]
        for loop in loops:
            bound = depends_on(kernel, loop.iter)
            direct = any(isinstance(c, ast.Call) and call_name(c) == "program_id"
                         for c in ast.walk(loop.iter))
            enclosing = {n.id for outer_loop in _loops_around(kernel, loop) if isinstance(outer_loop, ast.For)
                         for n in ast.walk(outer_loop.target) if isinstance(n, ast.Name)}
            triangular = sorted((bound | names_in(loop.iter)) & enclosing)
            if not direct and not bound & pids and not triangular:
                continue
            first = loop.iter.args[0] if len(loop.iter.args) > 1 else None  # type: ignore[attr-defined]
            starts = (depends_on(kernel, first) | names_in(first)) if first is not None else set()
            if not triangular and starts & pids or triangular and starts & set(triangular):
                # range(start, end) with a start of the program's own, or one that moves with the
                # enclosing position (a CSR row's or a cell's [start, end)): a segment, no prefix
                continue
            if not triangular and _only_subtracted(loop.iter, pids):
                continue  # range(cdiv(E - pid, nprog)): a grid-stride count, shrinking with the program
            inner = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"]
            if not direct and not triangular and _loaded_length(kernel, loop.iter) and inner and all(
                    depends_on(kernel, pointer_of(c)) & pids for c in inner):  # type: ignore[arg-type]
                continue  # a per-program length read from memory, over the program's own row
            inside = {id(c) for c in inner}
            outer = [c for c in kernel.calls("load") if id(c) not in inside]
            carried = [s for s in ast.walk(loop) if isinstance(s, ast.AugAssign)]
            if not inner or not carried:
                continue
            shared = set().union(*(_pointer_params(kernel, c) for c in inner)) & set().union(
                *(_pointer_params(kernel, c) for c in outer), set())
            own = bool(shared)
            args = loop.iter.args  # type: ignore[attr-defined]
            stop = args[1] if len(args) > 1 else (args[0] if args else None)
            grows = stop is not None and ("program_id" in ast.unparse(stop)
                                          or bool(depends_on(kernel, stop) & pids))
            if not shared and grows and not any(call_name(c) == "dot" for c in ast.walk(loop)
                                                     if isinstance(c, ast.Call)):
                # no own tile, but a sum over the tiles of every earlier position (a prefix of
                # chunk states): each program re-sums what the program before it summed; a
                # causal attention loop, bounded the same way, multiplies tiles with tl.dot
                steps = names_in(loop.target)
                shared = {name for c in inner if steps & depends_on(kernel, pointer_of(c))
                          for name in _pointer_params(kernel, c)}
            if not shared:
                continue
            who = (f"each iteration of the loop over `{triangular[0]}` re-sums what the "
                   "iterations before it read, so each row is read about C(C+1)/2 times for C "
                   "blocks. Carry the running value from block to block" if triangular and not (
                       direct or bound & pids) else
                   "each program re-sums what the programs before it read, so the tensor is read "
                   "about C(C+1)/2 times for C programs. Carry the running value in one program "
                   "that walks the tiles in order, or scan per-tile totals in a second pass")
            matches.append(_match(
                module, kernel, loop, "prefix-rescan", 0.7,
                f"`{kernel.name}` loops up to a bound set by "
                + (f"the enclosing loop's `{triangular[0]}`" if triangular and not (direct or bound & pids)
                   else "its program id")
                + f" and re-reads {', '.join(sorted(shared))}"
                + (", which it also loads as its own tile: " if own else
                   ", summing the tiles of every earlier position: ") + f"{who}.",
                ["profile: DRAM bytes read several times the tensor's size",
                 "profile: time grows quadratically with the scanned length"],
                reread=sorted(shared)))
    return matches


def _only_subtracted(expr: ast.AST, pids: set[str]) -> bool:
    """The program id (a call or a name bound to it) appears in `expr`, and only as what a
    subtraction takes away, and the rest is divided by a count of programs (`cdiv(E - pid,
    nprog)`): a grid-stride count, shrinking by one step as the program id grows. A bound that
    is only `E - pid` (the layers below the program's own) is a suffix each program re-reads."""
    divided = any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div | ast.FloorDiv)
                  or isinstance(n, ast.Call) and call_name(n) == "cdiv" for n in ast.walk(expr))
    def is_pid(node: ast.AST) -> bool:
        return (isinstance(node, ast.Call) and call_name(node) == "program_id"
                or isinstance(node, ast.Name) and node.id in pids)

    taken = {id(n) for sub in ast.walk(expr) if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Sub)
             for n in ast.walk(sub.right)}
    found = [n for n in ast.walk(expr) if is_pid(n)]
    return divided and bool(found) and all(id(n) in taken for n in found)


def _innermost_loops(fn: ast.AST) -> dict[int, ast.For]:
    """id(statement or call) -> the innermost for loop holding it."""
    out: dict[int, ast.For] = {}

    def visit(node: ast.AST, loop: ast.For | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, ast.For) else loop
            if loop is not None and not isinstance(child, ast.For):
                out[id(child)] = loop
            visit(child, inner)

    visit(fn, None)
    return out


def _carried_products(kernel: JitKernel, loop: ast.For, owner: dict[int, ast.For]) -> dict[str, ast.stmt]:
    """Names this loop's own body updates from a product with their value of the step before,
    `h = a * h + x` or `h *= a`, or by a scan's combine (`c = tl.where(hit, x, c)`,
    `c = tl.maximum(c, v)`: memory.scan_step): every assignment of the name in the loop reads the name, and
    the name is set before the loop (a first-order linear recurrence carried step to step)."""
    out: dict[str, ast.stmt] = {}
    inside = {id(n) for n in ast.walk(loop)}
    for stmt in ast.walk(loop):
        if owner.get(id(stmt)) is not loop:
            continue
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Mult) \
                and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
            if name in depends_on(kernel, stmt.value):
                continue  # the factor is a function of the value: not linear
        elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
              and isinstance(stmt.targets[0], ast.Name)):
            name = stmt.targets[0].id
            if not any(_linear_factor(kernel, n, name)
                       for n in ast.walk(_through_temporaries(kernel, stmt.value, inside))) \
                    and not scan_step(kernel, stmt.value, name):
                continue
        else:
            continue
        assigns = kernel.assigns.get(name, [])
        in_loop = [a for a in assigns if id(a) in inside]
        if any(id(a) not in inside for a in assigns) and all(
                isinstance(a, ast.AugAssign) or name in names_in(
                    _through_temporaries(kernel, getattr(a, "value", ast.Constant(0)), inside))
                for a in in_loop):
            out[name] = stmt
    return out


def _through_temporaries(kernel: JitKernel, value: ast.expr, inside: set[int]) -> ast.expr:
    """`value` with each name the loop binds once (`t = a * h`, then `h = t + x`) read as what it
    was bound to: the step written through a temporary is the same step."""
    class Inline(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            stmts = kernel.assigns.get(node.id, [])
            if (len(stmts) == 1 and isinstance(stmts[0], ast.Assign) and id(stmts[0]) in inside
                    and node.id not in names_in(stmts[0].value)):
                return copy.deepcopy(stmts[0].value)
            return node

    return Inline().visit(copy.deepcopy(value))


def _linear_factor(kernel: JitKernel, node: ast.AST, name: str) -> bool:
    """`a * h` (or `h * a`, `h.to(...) * a`): the carried value itself times a factor that does
    not depend on it. `f(h) * (h >> k)` (a coder's state) is no linear recurrence: no scan."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return False

    def itself(side: ast.AST) -> bool:
        if isinstance(side, ast.Call) and call_name(side) == "to" and isinstance(side.func, ast.Attribute):
            side = side.func.value
        return isinstance(side, ast.Name) and side.id == name

    for value, factor in ((node.left, node.right), (node.right, node.left)):
        if itself(value) and name not in depends_on(kernel, factor) | names_in(factor):
            return True
    return False


@detector("serial-recurrence")
def serial_recurrence(module: KernelModule, backend: str) -> list[Match]:
    """A loop that loads at every step, updates a value from its own product (h = a * h + x) and
    stores it at every step: a linear recurrence walked one step at a time, where an associative
    scan over a block of steps does the same in log steps. A loop with a tl.dot (an online
    softmax rescaling its accumulator) stores after the loop and is left out by the store test."""
    matches = []
    for kernel in module.kernels.values():
        before = len(matches)
        owner = _innermost_loops(kernel.node)
        shapes = ShapeInference(kernel)
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
            if not any(call_name(c) == "load" for c in calls) or any(
                    call_name(c) in ("dot", "associative_scan", "cumsum") for c in calls):
                continue
            carried = {name: stmt for name, stmt in _carried_products(kernel, loop, owner).items()
                       if len(shapes.shape(ast.Name(name), stmt.lineno) or ()) <= 1}  # a matrix
            # state (h = g * h + k v^T) is a chunked-form problem, not a first-order scan
            stores = [c for c in calls if call_name(c) == "store" and len(c.args) >= 2
                      and owner.get(id(c)) is loop]
            hit = next(((c, name) for c in stores for name in carried
                        if name in depends_on(kernel, c.args[1]) | names_in(c.args[1])), None)
            if hit is None:
                consumed = prefix_consumed(kernel, loop, shapes)
                if consumed is not None:
                    state, use = consumed
                    matches.append(_match(
                        module, kernel, loop, "serial-recurrence", 0.75,
                        f"`{kernel.name}` walks its loop one element per step, carries `{state}` "
                        f"from step to step and adds a function of it to "
                        f"`{ast.unparse(use.target)}` at every step (line {use.lineno}): every prefix "
                        "state is used, so the walk is a scan; a tile of steps with an associative "
                        "scan (tl.cumsum, tl.associative_scan) computes all of them in log steps.",
                        ["trace: per program, one-element loads executed once per step for many steps",
                         "profile: achieved bandwidth a few percent of peak"],
                        carried=state, consumer_line=use.lineno))
                    break
                continue
            store, name = hit
            combine = scan_step(kernel, getattr(carried[name], "value", None), name)
            how = ("combines `{0}` with each step's value by an associative operation (a running "
                   "select, minimum or maximum)" if combine else
                   "carries `{0}` through its loop as a product with its own previous value").format(name)
            matches.append(_match(
                module, kernel, carried[name], "serial-recurrence", 0.7,
                f"`{kernel.name}` {how} (line {carried[name].lineno}) and stores it at every step "
                f"(line {store.lineno}): a first-order recurrence walked one dependent step at a "
                "time, each step's loads waiting on the last.",
                ["trace: per program, loads and stores executed once per step for thousands of steps",
                 "profile: achieved bandwidth a few percent of peak"],
                carried=name, store_line=store.lineno))
            break
        matches += _prefix_searches(module, kernel)
        matches += _serial_compactions(module, kernel)
        if len(matches) == before:  # the kernel's loops read as no other serial form
            matches += _serial_running_sums(module, kernel)
    return matches


def _serial_running_sums(module: KernelModule, kernel: JitKernel) -> list[Match]:
    """A loop that loads one element per step, adds it to a scalar set before the loop (`running
    += c`) and stores the running value at every step: a prefix sum walked one dependent step at
    a time. tl.cumsum over a tile of steps, with the tile's total carried to the next, gives
    every prefix at once. (A tile carried and stored per step, a column-wise running sum, is
    parallel across its lanes and is left out; so is a sum stored only after the loop.)"""
    owner, shapes = _innermost_loops(kernel.node), ShapeInference(kernel)
    for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
        calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
        loads = [c for c in calls if call_name(c) == "load"]
        if not loads or any(call_name(c) in ("dot", "associative_scan", "cumsum") for c in calls) \
                or any(is_tile(shapes.shape(c, c.lineno)) for c in loads):
            continue
        inside = {id(n) for n in ast.walk(loop)}
        sums = {st.target.id: st for st in ast.walk(loop) if owner.get(id(st)) is loop
                and isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add)
                and isinstance(st.target, ast.Name)
                and any(id(a) not in inside for a in kernel.assigns.get(st.target.id, []))
                and shapes.shape(ast.Name(st.target.id), st.lineno) == ()}
        store = next(((c, name) for c in calls if call_name(c) == "store" and len(c.args) >= 2
                      and owner.get(id(c)) is loop for name in sums if name in names_in(c.args[1])), None)
        if store is None:
            continue
        call, name = store
        return [_match(
            module, kernel, sums[name], "serial-recurrence", 0.75,
            f"`{kernel.name}` adds one loaded element a step to `{name}` (line {sums[name].lineno}) "
            f"and stores the running value at every step (line {call.lineno}): a prefix sum walked "
            "one dependent step at a time. tl.cumsum over a tile of steps, with the tile's total "
            "carried to the next, gives every prefix at once.",
            ["trace: per program, one-element loads executed once per step for thousands of steps",
             "profile: achieved bandwidth a few percent of peak"],
            carried=name, store_line=call.lineno)]
    return []


def _serial_compactions(module: KernelModule, kernel: JitKernel) -> list[Match]:
    """A loop that loads one element per step, keeps it or not by a test of the data, and stores
    the kept ones at a position a counter carries (`if keep: tl.store(out + count, x); count +=
    1`): a stream compaction walked one dependent step at a time. The positions are the
    exclusive prefix sum of the keep flags: over a tile of steps, tl.cumsum of the flags gives
    every position at once and one masked store writes them."""
    found = []
    for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
        calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
        if not any(call_name(c) == "load" for c in calls) or any(
                call_name(c) in ("dot", "associative_scan", "cumsum") for c in calls):
            continue
        # counters the loop advances only under a test (inside an `if` of the loop)
        tested = [n for n in ast.walk(loop) if isinstance(n, ast.If)]
        counters = {st.target.id for branch in tested for st in ast.walk(branch)
                    if isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add)
                    and isinstance(st.target, ast.Name)}
        store = next((c for branch in tested for c in ast.walk(branch)
                      if isinstance(c, ast.Call) and call_name(c) == "store"
                      and (ptr := pointer_of(c)) is not None and names_in(ptr) & counters), None)
        if store is None:
            continue
        count = sorted(names_in(pointer_of(store)) & counters)[0]  # type: ignore[arg-type]
        found.append(_match(
            module, kernel, loop, "serial-recurrence", 0.7,
            f"`{kernel.name}` compacts a stream one element per step: the loop at line {loop.lineno} "
            f"stores the elements a test keeps at position `{count}` (line {store.lineno}) and "
            f"advances `{count}` only for them, so each step waits on the last. The positions are "
            "the exclusive prefix sum of the keep flags: tl.cumsum over a tile of flags gives all of "
            "them at once, and one masked store writes the kept elements.",
            ["trace: per program, one-element loads executed once per step for thousands of steps",
             "profile: achieved bandwidth a few percent of peak"],
            carried=count, store_line=store.lineno))
    return found


def _prefix_searches(module: KernelModule, kernel: JitKernel) -> list[Match]:
    """A while loop that adds one loaded element per step to a running sum until the sum passes
    a bound its condition tests (`while running < target: running += f(load(p + i)); i += 1`):
    a search along a prefix sum walked one dependent scalar step at a time, where a cumulative
    sum over a tile (an associative scan) and one compare find the same position."""
    found = []
    for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.While)):
        tested = names_in(loop.test)
        sums = [stmt for stmt in ast.walk(loop) if isinstance(stmt, ast.AugAssign)
                and isinstance(stmt.op, ast.Add) and isinstance(stmt.target, ast.Name)
                and stmt.target.id in tested
                and any(isinstance(c, ast.Call) and call_name(c) == "load" for c in ast.walk(stmt.value))]
        steps = {stmt.target.id for stmt in ast.walk(loop) if isinstance(stmt, ast.AugAssign)
                 and isinstance(stmt.target, ast.Name) and stmt.target.id in tested}
        if not sums or len(steps) < 2:  # the sum and the position it walks
            continue
        running = sums[0].target.id
        found.append(_match(
            module, kernel, loop, "serial-recurrence", 0.7,
            f"`{kernel.name}` walks a prefix sum one element per step: the while loop at line "
            f"{loop.lineno} adds one loaded value to `{running}` (line {sums[0].lineno}) until its "
            "condition stops it, each step's load waiting on the last compare; a cumulative sum over "
            "a tile (tl.cumsum, an associative scan) and one compare find the same position.",
            ["trace: per program, one-element loads executed once per step for thousands of steps",
             "profile: achieved bandwidth a few percent of peak"],
            carried=running, loop_line=loop.lineno))
    return found
