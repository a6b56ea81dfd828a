"""Detectors over how kernels are launched: block sizes, autotuning, pipelining stages,
warps per tile, and chains of launches that pass an intermediate buffer along."""

from __future__ import annotations

import ast

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.memory import (
    MEMORY_OPS,
    _match,
    bound_to_call,
    depends_on,
    holding,
    memory_ops,
    pointer_of,
    pointer_params,
    scan_step,
    strided_fast_axis,
)
from diagnose.triage.detectors.model import (
    POW2_UNKNOWN,
    REDUCE_OPS,
    JitKernel,
    KernelModule,
    Launch,
    ShapeInference,
    call_name,
    dotted,
    evaluate,
    execution_order,
    grid_elements,
    is_tile,
    kwarg,
    launch_value,
    launcher_env,
    names_in,
    plain_functions,
    value_places,
)

_ALLOCATORS = {"empty", "empty_like", "zeros", "zeros_like", "empty_strided", "full",
               "full_like", "ones", "ones_like", "new_empty", "new_zeros"}


def arange_params(kernel: JitKernel) -> set[str]:
    """Constexpr parameters that set the extent of some tl.arange (the tile sizes)."""
    names: set[str] = set()
    for call in kernel.calls("arange"):
        if len(call.args) == 2:
            names |= {n for n in names_in(call.args[1])
                      if (p := kernel.param(n)) is not None and p.constexpr}
    return names


def _is_pow2(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def _launch_match(module: KernelModule, launch: Launch, detector_id: str, confidence: float,
                  message: str, needed: list[str], **facts: object) -> Match:
    function = launch.launcher.name if launch.launcher else "<module>"
    return Match(detector_id, function, launch.line, module.snippet(launch.call),
                 round(confidence, 2), message, needed, {"kernel": launch.kernel, **facts})


def _block_values(module: KernelModule, launch: Launch) -> dict[str, int | str]:
    env = launcher_env(module, launch)
    kernel = module.kernels[launch.kernel]
    values: dict[str, int | str] = {}
    for param in kernel.params:
        if not param.constexpr:
            continue
        value = launch_value(module, launch, param.name, env)
        if value is not None:
            values[param.name] = value
    return values


WGMMA_ROWS = 64  # rows of a warp-group MMA tile on sm_90


def _dot_rows_below_wgmma(kernel: JitKernel, values: dict[str, int | str]) -> int | None:
    """Rows (M) of a tl.dot's first operand when they resolve below WGMMA_ROWS."""
    shapes = ShapeInference(kernel)
    for dot in kernel.calls("dot"):
        shape = shapes.shape(dot.args[0], dot.lineno) if dot.args else None
        if not shape or len(shape) != 2:
            continue
        rows = shape[0] if isinstance(shape[0], int) else values.get(str(shape[0]))
        if isinstance(rows, int) and rows < WGMMA_ROWS:
            return rows
    return None


THIN_K = 16  # a K tile this wide is one MMA k-step for 16-bit inputs (8 for fp32)


def _thin_k_dots(kernel: JitKernel, values: dict[str, int | str]) -> list[tuple[ast.Call, int]]:
    """tl.dot calls inside a loop whose first operand's K (columns) resolves to <= THIN_K."""
    shapes = ShapeInference(kernel)
    found = []
    for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For | ast.While)):
        for dot in (n for n in ast.walk(loop) if isinstance(n, ast.Call)
                    and call_name(n) == "dot" and n.args):
            shape = shapes.shape(dot.args[0], dot.lineno)
            if not shape or len(shape) != 2:
                continue
            k = shape[1] if isinstance(shape[1], int) else values.get(str(shape[1]))
            if isinstance(k, int) and k <= THIN_K and all(d is not dot for d, _ in found):
                found.append((dot, k))
    return found


@detector("thin-k-dot", ("cuda",))
def thin_k_dot(module: KernelModule, backend: str) -> list[Match]:
    """A K loop of tl.dot stepping by one MMA k-step: per-iteration costs dominate."""
    matches = []
    for launch in module.launches:
        kernel = module.kernels[launch.kernel]
        for dot, k in _thin_k_dots(kernel, _block_values(module, launch)):
            matches.append(_launch_match(
                module, launch, "thin-k-dot", 0.6,
                f"`{launch.kernel}`'s loop multiplies K tiles {k} wide in `tl.dot` (line "
                f"{dot.lineno}): for 16-bit inputs that is a single MMA k-step per iteration, "
                "behind the same fixed per-iteration cost (tile copies, barriers, the MMA "
                "fence and wait, the K mask), so the loop is bound by issue and latency.",
                ["TTGIR: the loop's dot operands are <M>x16 and 16x<N> (a 32-byte K step)",
                 "profile: a GEMM far below the tensor-core rate"], k_tile=k, dot_line=dot.lineno))
    return matches


@detector("block-size")
def block_size(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for launch in module.launches:
        kernel = module.kernels[launch.kernel]
        extents = arange_params(kernel)
        values = _block_values(module, launch)
        for name, value in values.items():
            if isinstance(value, int) and not _is_pow2(value) and (
                    name in extents or "BLOCK" in name.upper()):
                in_arange = name in extents
                matches.append(_launch_match(
                    module, launch, "block-size", 0.9 if in_arange else 0.35,
                    f"{name}={value} is not a power of two"
                    + (": tl.arange rejects it, so the kernel cannot compile."
                       if in_arange else "; tiles that are not powers of two waste lanes."),
                    ["compile: the kernel builds at this block size"] if in_arange else
                    ["profile: timing at a power-of-two block size"], param=name, value=value))
        small_dot = _dot_rows_below_wgmma(kernel, values) if backend == "cuda" else None
        if small_dot is not None:
            matches.append(_launch_match(
                module, launch, "block-size", 0.6,
                f"`{launch.kernel}` multiplies tiles of {small_dot} rows in `tl.dot`: a Hopper "
                f"warp-group MMA (wgmma) needs at least {WGMMA_ROWS} rows per program, so the dot "
                "falls back to the older mma path with more, smaller programs.",
                ["TTGIR: no ttng.warp_group_dot after tritongpu-accelerate-matmul"],
                dot_rows=small_dot))
        small = _small_tile(module, launch, extents, values, backend)
        if small is not None and not (reduces_one_tile(kernel, module.constants)
                                      or walks_own_items(module, launch, extents)
                                      or strided_items(module, launch, extents)
                                      or strided_tile(module, kernel)):
            elements, threads = small
            walks = _walks_tiles(kernel)
            matches.append(_launch_match(
                module, launch, "block-size", 0.75 if walks else 0.7 if elements < 32 else 0.6,
                f"`{launch.kernel}` is launched with a {elements}-element tile "
                f"({', '.join(f'{n}={values[n]}' for n in sorted(extents))}) for "
                f"{threads} threads: at most one element per thread, too small to keep the "
                "lanes busy or to vectorise a single access."
                + (" Each program walks its share of tiles one after another (the loop at line "
                   f"{walks.lineno}), so the tile's width divides the steps every program takes "
                   "in sequence." if walks else ""),
                ["profile: achieved bandwidth far below peak at the large size",
                 "profile: programs launched far exceed the SM/core count"],
                tile_elements=elements))
    return matches


def _walks_tiles(kernel: JitKernel) -> ast.For | None:
    """A loop that starts at the program's id and steps by more than one (`for tile in
    range(pid, n_tiles, nprog)`) whose variable places a tl.arange tile: each program takes
    several tiles in turn, so a small tile multiplies the steps every program walks."""
    programs = bound_to_call(kernel, "program_id")
    for loop in ast.walk(kernel.node):
        if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call)
                and call_name(loop.iter) == "range" and len(loop.iter.args) == 3):
            continue
        start, step = loop.iter.args[0], loop.iter.args[2]
        if not ("program_id" in ast.unparse(start) or names_in(start) & programs) \
                or (isinstance(step, ast.Constant) and step.value == 1):
            continue
        targets = names_in(loop.target)
        if any(isinstance(stmt, ast.Assign) and "arange" in ast.unparse(stmt.value)
               and (names_in(stmt.value) | depends_on(kernel, stmt.value)) & targets
               for stmt in ast.walk(loop)):
            return loop
    return None


def _small_tile(module: KernelModule, launch: Launch, extents: set[str],
                values: dict[str, int | str], backend: str = "cuda") -> tuple[int, int] | None:
    """(elements, threads) when the launch's tile resolves to under 128 elements or, on a GPU,
    to no more elements than threads (one element per thread at most; an NPU vector core has
    no threads to starve, so there only the size counts)."""
    tile = [values.get(n) for n in extents]
    if not tile or not all(isinstance(v, int) for v in tile):
        return None
    elements = 1
    for v in tile:
        elements *= v  # type: ignore[operator]
    warps = launch_value(module, launch, "num_warps")
    threads = 32 * (warps if isinstance(warps, int) else 4)
    return (elements, threads) if elements < 128 or (backend == "cuda" and elements <= threads) else None


def _reduces_sized(kernel: JitKernel) -> bool:
    """Some reduction of the kernel reduces a tile whose shape is not all literal: one sized by
    a constexpr (or not known), the program's own tile."""
    shapes = ShapeInference(kernel)
    for call in kernel.calls(*REDUCE_OPS):
        shape = shapes.shape(call.args[0], call.lineno) if call.args else None
        if shape is None or not all(isinstance(d, int) for d in shape):
            return True
    return False


def _literal_width(kernel: JitKernel) -> int | None:
    """The widest tl.arange when every arange of the kernel has literal bounds (the program's
    row is written as `tl.arange(0, 32)`, not sized by a constexpr), else None."""
    widths = [a.args[1].value - a.args[0].value for a in kernel.calls("arange")
              if len(a.args) == 2 and all(isinstance(x, ast.Constant) and isinstance(x.value, int)
                                          for x in a.args)]
    return max(widths) if widths and len(widths) == len(kernel.calls("arange")) else None


def _loops(kernel: JitKernel) -> list[ast.For | ast.While]:
    return [n for n in ast.walk(kernel.node) if isinstance(n, ast.For | ast.While)]


def _runtime_pow2_tile(module: KernelModule, launch: Launch, extents: set[str]) -> bool:
    """Every extent of the launch's tile is `next_power_of_2` of a size known only at run time."""
    env = launcher_env(module, launch)
    return bool(extents) and all(evaluate(launch.args.get(name), env) == POW2_UNKNOWN  # type: ignore[arg-type]
                                 for name in extents)


def walks_own_items(module: KernelModule, launch: Launch, extents: set[str]) -> bool:
    """Every extent of the launch's tile is `next_power_of_2` of a size known only at run time
    (the tile spans a whole axis of one item: a point's variables, a row), and the program loops
    over a range it reads from memory (the item's neighbours, its segment of a CSR list): each
    program is one item's work, and more items per program, not a bigger tile, is the fix."""
    if not _runtime_pow2_tile(module, launch, extents):
        return False
    kernel = module.kernels[launch.kernel]
    loaded = bound_to_call(kernel, "load")
    return any(isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call)
               and any("load" in ast.unparse(a) or (names_in(a) | depends_on(kernel, a)) & loaded
                       for a in loop.iter.args)
               for loop in _loops(kernel))


def _stride_params(launch: Launch) -> set[str]:
    """Parameters the launch passes a tensor's stride for (`row_stride=book.stride(0)`)."""
    return {name for name, arg in launch.args.items()
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "stride"}


def strided_items(module: KernelModule, launch: Launch, extents: set[str]) -> bool:
    """Every extent of the launch's tile is `next_power_of_2` of a size known only at run time,
    no loop of the kernel touches memory, and the program finds its item at the program's id
    times a stride the launch passes (`book + t * row_stride`): the tile spans one item (a row of
    a strided matrix) and the program does it once. Items a stride apart are not one flat range a
    bigger block could cover; more items per program is the fix. (Items laid back to back, at
    the id times the tile's own size, are one range: there the block's size is the knob.)"""
    if not _runtime_pow2_tile(module, launch, extents):
        return False
    kernel = module.kernels[launch.kernel]
    strides = _stride_params(launch)
    if not strides or any(_touches_memory(loop) for loop in _loops(kernel)) or _one_program(module, launch):
        return False
    programs = bound_to_call(kernel, "program_id")
    for op in kernel.calls(*MEMORY_OPS):
        pointer = pointer_of(op)
        names = names_in(pointer) | depends_on(kernel, pointer) if pointer is not None else set()
        if names & strides and (names & programs or "program_id" in ast.unparse(pointer)):
            return True
    return False


def strided_tile(module: KernelModule, kernel: JitKernel) -> bool:
    """Every memory access of the kernel's tile walks the tile's axis with a stride (`c * HW`:
    a port's per-pixel channel lanes): no block size makes such an access vectorise or
    coalesce, so a small tile is not what its narrow accesses come from; the strided-access
    reading names the cause. (An access that does not touch the tile, a per-program scalar,
    does not count.)"""
    aranges = bound_to_call(kernel, "arange")
    tiled = []
    for op in memory_ops(kernel):
        pointer = pointer_of(op)
        if "arange" in ast.unparse(pointer) or (names_in(pointer) | depends_on(kernel, pointer)) & aranges:
            tiled.append(op)
    if not tiled:
        return False
    for op in tiled:
        found = strided_fast_axis(module, kernel, op)
        if found is None or found[2]:
            return False
    return True


def reduces_one_tile(kernel: JitKernel, constants: dict[str, int] | None = None) -> bool:
    """The kernel reduces its tile (a tl.sum / max / min / reduce) and no loop in it touches
    memory: each program's tile is one reduction unit (a row, a group, a head), so it cannot
    simply grow. A loop over values already in registers (a bisection for a row's scale, a
    fixed number of refinement steps) is still work on that one tile, and so is a fixed chain of
    steps that reads only where the data points (a hash chain's table rows)."""
    return not any(_touches_memory(loop) and not _gather_chain(kernel, loop, constants or {})
                   for loop in _loops(kernel)) and any(
        dotted(c.func).startswith(("tl.", "triton.language.")) for c in kernel.calls(*REDUCE_OPS))


def _gather_chain(kernel: JitKernel, loop: ast.For | ast.While, constants: dict[str, int]) -> bool:
    """A loop of a fixed number of steps whose every memory access is at an address computed from
    loaded data (`dag + page * 32 + w`, `page` from the mix the last step read): a chain of
    dependent reads for the program's one item, not a walk along a row a bigger tile could cover."""
    if not _fixed_trip_count(kernel, loop, constants):
        return False
    loaded = bound_to_call(kernel, "load")
    ops = [n for n in ast.walk(loop) if isinstance(n, ast.Call) and call_name(n) in MEMORY_OPS]
    return all((p := pointer_of(op)) is not None and (names_in(p) | depends_on(kernel, p)) & loaded
               for op in ops)


def _touches_memory(loop: ast.For | ast.While) -> bool:
    return any(isinstance(n, ast.Call) and call_name(n) in MEMORY_OPS for n in ast.walk(loop))


@detector("row-per-program", ("cuda", "ascend"))
def row_per_program(module: KernelModule, backend: str) -> list[Match]:
    """A kernel whose program reduces a tile of at most one element per thread without walking
    its row again in a loop (a loop over values held in registers does not): one short row
    (head, group, token) per program, where more rows per program is the fix, not a bigger block."""
    matches = []
    for launch in module.launches:
        kernel = module.kernels[launch.kernel]
        extents = arange_params(kernel)
        strided = strided_items(module, launch, extents)
        # (a reduction over a small literal record, `tl.sum(tl.where(c4 == 0, salt, 0))`, reads
        # one item's constant, not the program's tile: the tile may well be a block of items)
        one_tile = reduces_one_tile(kernel, module.constants) and (not extents or _reduces_sized(kernel))
        if not (one_tile or walks_own_items(module, launch, extents) or strided):
            continue
        if _one_program(module, launch):
            continue  # one program in all (a finalize over a few partials): no rows to group
        values = _block_values(module, launch)
        if not extents and (widest := _literal_width(kernel)):
            extents, values = {"literal arange"}, {"literal arange": widest}  # `tl.arange(0, 32)`
        small = _small_tile(module, launch, extents, values, backend)
        if small is None:
            continue
        elements, threads = small
        sizes = ", ".join(f"{n}={values[n]}" for n in sorted(extents))
        lanes = f"with {threads} threads" if backend == "cuda" else "on a vector core"
        shape = (f"reduces one {elements}-element tile per program ({sizes}) {lanes} and no loop "
                 "walking its row" if one_tile else
                 f"gives each program one item a stride apart: a {elements}-element tile ({sizes}, "
                 f"next_power_of_2 of a size known at run time) {lanes} and no loop over memory"
                 if strided else
                 f"gives each program one item: a {elements}-element tile ({sizes}, next_power_of_2 "
                 f"of a size known at run time) {lanes} and loops over ranges it "
                 "reads from memory (the item's neighbours or segment)")
        cost = ("at most one element per thread, so its accesses stay narrow" if backend == "cuda" else
                "a transfer too short to keep the DMA busy")
        matches.append(_launch_match(
            module, launch, "row-per-program", 0.7 if elements < 32 else 0.65,
            f"`{launch.kernel}` {shape}: each program is one short row, {cost}, and the grid is one "
            "program per row; the tile is bound to the row, so more rows per program, not a bigger "
            "block, is the fix.",
            ["TTGIR: sizePerThread 1 on the row's loads (narrow global accesses)"
             if backend == "cuda" else "profile: many short programs per core, each moving one row",
             "profile: programs launched far exceed the SM count with short CTAs"
             if backend == "cuda" else "profile: vector-core time dominated by program start-up"],
            tile_elements=elements))
    matches += [m for launch in module.launches if (m := _scalar_program(module, launch)) is not None]
    return matches


SCALAR_PROGRAM_ACCESSES = 4  # scalar loads and stores a program makes before it is a ported loop body


def _fixed_trip_count(kernel: JitKernel, loop: ast.For | ast.While,
                      constants: dict[str, int] | None = None) -> bool:
    """A `for` over a range whose bounds are literals, module constants or constexpr parameters
    (a fixed chain of steps, a joint per step): the program's work cannot grow along it."""
    if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) \
            or call_name(loop.iter) not in ("range", "static_range"):
        return False
    names = {n.id for a in loop.iter.args for n in ast.walk(a) if isinstance(n, ast.Name)}
    return all(n in (constants or {}) or (p := kernel.param(n)) is not None and p.constexpr
               for n in names)


def _one_program(module: KernelModule, launch: Launch) -> bool:
    """The launch's grid resolves to a single program (no axis above one)."""
    env = launcher_env(module, launch)
    return all(isinstance(v, int) and v <= 1 for v in (evaluate(axis, env) for axis in grid_elements(launch)))


# A tl.arange this short with a literal extent lays out one item's own small record (a 2-vector
# of residuals, a 2x6 Jacobian's 12 entries), not a block of items: fewer lanes than a warp.
RECORD_TILE = 32


def _record_tiles_only(kernel: JitKernel) -> bool:
    """No tl.arange at all, or only aranges of literal extents up to RECORD_TILE (one item's
    record assembled with tl.where), with at least as many scalar accesses as record ones."""
    aranges = kernel.calls("arange")
    if not aranges:
        return True
    if not all(len(a.args) == 2 and all(isinstance(x, ast.Constant) and isinstance(x.value, int)
                                        for x in a.args) and a.args[1].value - a.args[0].value <= RECORD_TILE
               for a in aranges):
        return False
    shapes = ShapeInference(kernel)
    ops = kernel.calls(*MEMORY_OPS)
    scalar = [op for op in ops if (p := pointer_of(op)) is not None and shapes.shape(p, op.lineno) == ()]
    return 2 * len(scalar) >= len(ops)


def _scalar_program(module: KernelModule, launch: Launch) -> Match | None:
    """A kernel with no tile anywhere (no tl.arange, after its helpers are inlined) that makes
    several scalar accesses, loops only a fixed number of times and is launched over a grid sized
    by the data: one item per program, a GPU thread's loop body ported as a whole program."""
    kernel = module.kernels[launch.kernel]
    accesses = len(kernel.calls(*MEMORY_OPS))
    if not _record_tiles_only(kernel) or accesses < SCALAR_PROGRAM_ACCESSES:
        return None
    if not all(_fixed_trip_count(kernel, loop, module.constants) for loop in _loops(kernel)):
        return None  # a loop over data-sized work: a walk to tile or a recurrence to scan
    if _one_program(module, launch):
        return None
    warps = launch_value(module, launch, "num_warps")
    threads = 32 * (warps if isinstance(warps, int) else 4)
    return _launch_match(
        module, launch, "row-per-program", 0.8,
        f"`{launch.kernel}` has no tile of items (at most one item's own small record): each "
        "program handles one item in scalar code "
        f"({accesses} scalar loads and stores), so its {threads} threads all compute the same values "
        "and the grid is one program per item. Give each program a block of items, one per lane "
        "(`item = pid * BLOCK + tl.arange(0, BLOCK)`, masked accesses).",
        ["TTGIR: every global access is a scalar pointer",
         "profile: issue-bound at a small share of bandwidth, programs far exceed the SM count"],
        tile_elements=1)


def _positions(kernel: JitKernel) -> tuple[set[str], set[str]]:
    """(item, group) names of the program's position: `i = tl.program_id(0)` (and names computed
    from it) is the item a program owns; `mol = i // n` is the group the item belongs to, which
    neighbouring programs share."""
    item = bound_to_call(kernel, "program_id")
    group: set[str] = set()
    for name, stmts in kernel.assigns.items():
        values = [getattr(s, "value", None) for s in stmts]
        if name not in item and values and all(
                isinstance(v, ast.BinOp) and isinstance(v.op, ast.FloorDiv)
                and (depends_on(kernel, v.left) | names_in(v.left)) & item for v in values):
            group.add(name)
    changed = True
    while changed:  # `row = pid * R + c` is the item too; stop at the group names
        changed = False
        for name, stmts in kernel.assigns.items():
            if name in item or name in group:
                continue
            if any(names_in(getattr(s, "value", s)) & item for s in stmts):
                item.add(name)
                changed = True
    return item, group


def _reaches_item(kernel: JitKernel, node: ast.AST, item: set[str], group: set[str]) -> bool:
    """Whether `node` depends on the program's own item (not only on its group)."""
    return "program_id" in ast.unparse(node) or bool(depends_on(kernel, node, stop=group | item) & item)


def _item_against_shared(module: KernelModule, launch: Launch) -> Match | None:
    """One item per program (its fields loaded as scalars at the program's position) reduced
    against a tile of partners whose addresses do not depend on the item (the whole other set,
    or the item's group, which neighbouring programs share), one scalar result per item stored:
    every program loads the same partners again for one item's worth of arithmetic."""
    kernel = module.kernels[launch.kernel]
    if kernel.calls("dot"):
        return None  # a tiled product already reuses its operands
    shapes = ShapeInference(kernel)
    item, group = _positions(kernel)
    loads, stores = kernel.calls("load"), kernel.calls("store")
    if not item or not stores or any(is_tile(shapes.shape(st.args[1], st.lineno))
                                     for st in stores if len(st.args) > 1):
        return None  # a tile of results per program: not one item's
    own = [ld for ld in loads if shapes.shape(ld, ld.lineno) == ()
           and pointer_of(ld) is not None and _reaches_item(kernel, pointer_of(ld), item, group)]
    shared = [ld for ld in loads if is_tile(shapes.shape(ld, ld.lineno))
              and pointer_of(ld) is not None and not _reaches_item(kernel, pointer_of(ld), item, group)]
    if not own or not shared:
        return None
    if _one_program(module, launch):
        return None
    own_names = {n for ld in own for n in holding(kernel, ld)}
    shared_names = {n for ld in shared for n in holding(kernel, ld)}

    def involves(side: ast.AST, calls: list[ast.Call], names: set[str]) -> bool:
        return any(n is c for n in ast.walk(side) for c in calls) or bool(
            (names_in(side) | depends_on(kernel, side)) & names)

    paired = any(isinstance(n, ast.BinOp) and (
        involves(n.left, own, own_names) and involves(n.right, shared, shared_names)
        or involves(n.left, shared, shared_names) and involves(n.right, own, own_names))
        for n in ast.walk(kernel.node))
    if not paired:
        return None
    return _launch_match(
        module, launch, "item-against-shared-tile", 0.7,
        f"`{launch.kernel}` gives each program one item (its fields loaded as scalars at line "
        f"{own[0].lineno}) and pairs it with a tile of partners loaded at line {shared[0].lineno} "
        "whose addresses do not depend on the item: every program loads the same partners again "
        "for one item's arithmetic, and one result per program is stored. Give each program a "
        "block of items (`items = pid * ITEMS + tl.arange(0, ITEMS)`) and pair the [ITEMS, 1] "
        "fields with the [1, BLOCK] partners, so each partner tile loaded serves ITEMS items.",
        ["profile: L2/L1 traffic a multiple of the partner set per item (bytes read far above the "
         "inputs' size)", "TTGIR: scalar loads of the item's fields, the partner tile reloaded by "
         "every program"],
        item_line=own[0].lineno, partner_line=shared[0].lineno,
        partner_lines=sorted({ld.lineno for ld in shared}))


# Operators under which a carried value stops being affine (`x = a * x + b` is a scan, `x = x ^ m`
# is not): bit operations, shifts, integer division and powers; calls and compares do the same.
NONLINEAR_OPS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.Mod, ast.FloorDiv, ast.Pow)


def _step_values(loop: ast.For) -> dict[str, ast.expr]:
    """The value each name gets in the loop body, for names the body assigns once with `=`."""
    bound: dict[str, list[ast.expr]] = {}
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            bound.setdefault(node.target.id, []).append(node)  # type: ignore[arg-type]
    return {name: values[0] for name, values in bound.items() if len(values) == 1
            and not isinstance(values[0], ast.AugAssign)}


def _nonlinear_in(node: ast.expr, carried: set[str], steps: dict[str, ast.expr], depth: int = 0) -> bool:
    """Whether `node` (through the step's own names) applies a non-affine operation to a carried value."""
    if depth > 6:
        return False

    def reads(n: ast.expr) -> bool:
        return _reads_carried(n, carried, steps, depth)

    for n in ast.walk(node):
        if isinstance(n, ast.BinOp) and isinstance(n.op, NONLINEAR_OPS) and reads(n):
            return True
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) and reads(n.left) and reads(n.right):
            return True
        if isinstance(n, ast.Compare) and reads(n):
            return True
        if isinstance(n, ast.Call) and call_name(n) not in ("to", "cast") and any(reads(a) for a in n.args):
            return True
        if isinstance(n, ast.Name) and n.id in steps and n.id not in carried \
                and _nonlinear_in(steps[n.id], carried, steps, depth + 1):
            return True
    return False


def _reads_carried(node: ast.expr, carried: set[str], steps: dict[str, ast.expr], depth: int) -> bool:
    """Whether `node` reads a carried value, directly or through the step's own names."""
    if depth > 6:
        return False
    names = names_in(node)
    return bool(names & carried) or any(_reads_carried(steps[m], carried, steps, depth + 1)
                                        for m in names if m in steps and m not in carried)


def carried_names(loop: ast.For) -> set[str]:
    """Names the loop carries from one step to the next: read in the body before (or in the
    statement where) the body first assigns them. Statements are taken in the order they run, not
    by line: an inlined helper's statements keep the helper's lines, which come before the caller's."""
    order = execution_order(loop)
    first_read: dict[str, int] = {}
    first_write: dict[str, int] = {}
    for n in ast.walk(loop):
        at = order.get(id(n))
        if at is None or not isinstance(n, ast.Name):
            continue  # the loop's own header runs before the body
        first = first_read if isinstance(n.ctx, ast.Load) else first_write
        first[n.id] = min(first.get(n.id, at), at)
    counters = names_in(loop.target)
    return {name for name, at in first_write.items() if name not in counters and first_read.get(name, at + 1) <= at}


def _item_recurrence(module: KernelModule, launch: Launch) -> Match | None:
    """One item per program (one scalar result stored at its position) whose loop carries a
    non-affine recurrence in scalars (`vp = hn | ((d0 | hp) ^ ONES)` from last step's vp) and
    loads one scalar per step: the steps are a dependent chain no scan splits, and the program's
    lanes hold one item's chain. Items on the lanes (a block of items per program) is the fix."""
    kernel = module.kernels[launch.kernel]
    if kernel.calls("dot") or _one_program(module, launch):
        return None
    shapes = ShapeInference(kernel)
    item, _group = _positions(kernel)
    stores = kernel.calls("store")
    if not item or not stores or any(len(st.args) < 2 or is_tile(shapes.shape(st.args[1], st.lineno))
                                     for st in stores):
        return None  # a tile of results per program: not one item's
    for loop in (n for n in _loops(kernel) if isinstance(n, ast.For)):
        loads = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"]
        if not loads or any(shapes.shape(c, c.lineno) != () for c in loads):
            continue  # a step that loads a tile keeps the lanes busy
        steps = _step_values(loop)
        carried = {n: shapes.shape(ast.Name(n, ast.Load(), lineno=loop.lineno), loop.lineno)
                   for n in carried_names(loop)}
        if any(is_tile(shape) for shape in carried.values()):
            continue  # a tile carried across steps (running distances over a cloud) keeps the lanes busy
        scalars = {n for n, shape in carried.items() if shape == ()}
        # a state each step combines with a value that does not read it (the last position a
        # test picked, a running minimum) is a scan's combine: a scan splits it (serial-recurrence)
        state = sorted(n for n in scalars if n in steps and _nonlinear_in(steps[n], scalars, steps)
                       and not scan_step(kernel, steps[n], n))
        if not state:
            continue
        return _match(
            module, kernel, loop, "item-recurrence", 0.7,
            f"`{kernel.name}` gives each program one item and carries its state from step to step in "
            f"scalars ({', '.join(state[:4])}, updated through non-affine operations) while each step "
            "loads scalars: a dependent chain no scan can split, run by a whole program for one item "
            "whose lanes hold copies of the same scalars. Make the items the lanes: "
            "`items = pid * ITEMS + tl.arange(0, ITEMS)`, the state as [ITEMS] vectors, one step of "
            "every item's chain per iteration.",
            ["profile: issue-bound far below bandwidth, one active lane per warp",
             "TTGIR: the loop's loads are scalar pointers, its carried values scalars"],
            state=state[:4])
    return None


@detector("item-recurrence")
def item_recurrence(module: KernelModule, backend: str) -> list[Match]:
    return [m for launch in module.launches if (m := _item_recurrence(module, launch)) is not None]


@detector("item-against-shared-tile")
def item_against_shared_tile(module: KernelModule, backend: str) -> list[Match]:
    return [m for launch in module.launches if (m := _item_against_shared(module, launch)) is not None]


@detector("no-autotune")
def no_autotune(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    launched = {launch.kernel for launch in module.launches}
    for name in sorted(launched):
        kernel = module.kernels[name]
        if kernel.autotuned and len({tuple(sorted(c.items())) for c in kernel.configs}) != 1:
            continue  # a search (or configs we cannot read); one literal config is no search
        launches = [launch for launch in module.launches if launch.kernel == name]
        values = [v for launch in launches for v in _block_values(module, launch).values()]
        fixed = bool(values) and all(isinstance(v, int) for v in values)
        derived = any(v == POW2_UNKNOWN for v in values)
        # heuristics that compute a value from the sizes are a choice per shape; constant ones are not
        confidence = 0.25 if kernel.heuristics and not fixed else (0.45 if fixed else 0.3 if derived else 0.35)
        matches.append(Match(
            "no-autotune", kernel.name, kernel.node.lineno, f"def {kernel.name}(...)",
            confidence,
            f"`{kernel.name}` has no @triton.autotune: block sizes, num_warps and num_stages "
            f"are {'fixed constants' if fixed else 'chosen by hand'} for every shape.",
            ["profile: timings of 3-6 (BLOCK, num_warps, num_stages) configs at the large "
             "and ragged sizes differ by more than noise"],
            # holds for nearly every hand-written launch: the ranking's fallback, not evidence
            {"fixed_blocks": fixed, "fallback": True}))
    return matches


def _has_loop_with(kernel: JitKernel, *ops: str) -> bool:
    for loop in ast.walk(kernel.node):
        if isinstance(loop, ast.For) and any(
                isinstance(n, ast.Call) and call_name(n) in ops for n in ast.walk(loop)):
            return True
    return False


@detector("num-stages-one", ("cuda",))
def num_stages_one(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for launch in module.launches:
        kernel = module.kernels[launch.kernel]
        stages = launch_value(module, launch, "num_stages")
        config_stages = [c.get("num_stages") for c in kernel.configs]
        from_configs = bool(config_stages) and all(
            isinstance(s, int) and s <= 1 for s in config_stages)
        if not ((isinstance(stages, int) and stages <= 1) or from_configs):
            continue
        has_dot = _has_loop_with(kernel, "dot")
        if not (has_dot or _has_loop_with(kernel, "load")):
            continue
        matches.append(_launch_match(
            module, launch, "num-stages-one", 0.7 if has_dot else 0.45,
            f"`{launch.kernel}` runs its {'K-loop' if has_dot else 'load loop'} with "
            "num_stages<=1, which turns off software pipelining: each iteration waits for "
            "its own loads.",
            ["TTGIR: no ttg.async_copy_global_to_local / multi-buffered smem in the loop",
             "ncu: stall_long_scoreboard dominates warp stalls"], num_stages=stages))
    launched = {m.function for m in matches}
    return matches + [m for m in _loop_stages_one(module) if m.function not in launched]


def _loop_stages_one(module: KernelModule) -> list[Match]:
    """`for k in tl.range(..., num_stages=1)`: the same switch set on the loop itself."""
    matches = []
    for kernel in module.kernels.values():
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            option = kwarg(loop.iter, "num_stages") if isinstance(loop.iter, ast.Call) else None
            stages = evaluate(option, dict(module.constants)) if option is not None else None
            if not (isinstance(stages, int) and stages <= 1):
                continue
            ops = {call_name(n) for n in ast.walk(loop) if isinstance(n, ast.Call)}
            if not ops & {"dot", "load"}:
                continue
            has_dot = "dot" in ops
            matches.append(_match(
                module, kernel, loop, "num-stages-one", 0.7 if has_dot else 0.45,
                f"`{kernel.name}` runs its {'K-loop' if has_dot else 'load loop'} "
                f"`{ast.unparse(loop.iter)[:60]}` with num_stages<=1, which turns off software "
                "pipelining: each iteration waits for its own loads.",
                ["TTGIR: no ttg.async_copy_global_to_local / multi-buffered smem in the loop",
                 "ncu: stall_long_scoreboard dominates warp stalls"], num_stages=stages))
    return matches


@detector("num-warps", ("cuda",))
def num_warps_exceed_tile(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for launch in module.launches:
        warps = launch_value(module, launch, "num_warps")
        if not isinstance(warps, int):
            continue
        kernel = module.kernels[launch.kernel]
        values = _block_values(module, launch)
        tile = [values.get(n) for n in arange_params(kernel)]
        if not tile or not all(isinstance(v, int) for v in tile):
            continue
        elements = 1
        for v in tile:
            elements *= v  # type: ignore[operator]
        if warps * 32 > elements:
            heavy = arithmetic_loop(kernel)
            matches.append(_launch_match(
                module, launch, "num-warps", 0.8 if heavy is not None else 0.5,
                f"num_warps={warps} gives {warps * 32} threads for a {elements}-element "
                "tile, so threads hold duplicated elements and do redundant work"
                + (f": the loop at line {heavy.lineno} is arithmetic only (no memory access), so "
                   f"the kernel's time is that loop, and {warps * 32 // max(elements, 1)}x of it "
                   "is the duplicates'." if heavy is not None else "."),
                ["TTGIR: blocked layout with replicated warpsPerCTA on the tile",
                 "profile: timing with num_warps lowered to fit the tile"],
                num_warps=warps, tile_elements=elements))
    return matches


ARITHMETIC_STEP = 64  # arithmetic operations in one step of a loop that touches no memory


def arithmetic_loop(kernel: JitKernel) -> ast.For | None:
    """A loop over a range known only at run time whose body touches no memory and does at
    least ARITHMETIC_STEP operations per step (an iterated hash, a fixed-point solve held in
    registers): the kernel's time is that arithmetic, whatever it moves around it."""
    for loop in _loops(kernel):
        if not isinstance(loop, ast.For) or _touches_memory(loop) or _fixed_trip_count(kernel, loop):
            continue
        ops = sum(isinstance(n, ast.BinOp | ast.UnaryOp) for n in ast.walk(loop))
        if ops >= ARITHMETIC_STEP:
            return loop
    return None


FEW_WARPS = 2             # num_warps at or below this is "one or two warps"
VALUES_PER_THREAD = 32    # a thread holding more tile elements than this pressures registers
DEFAULT_WARPS = 4         # Triton's num_warps when the launch names none
RESIDENT_TILES = 2        # whole-row tiles held across a loop before four warps are "few"
RESIDENT_VALUES = 128     # values per thread of those tiles past which 255 registers spill


def _product(values: list) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def resident_tiles(kernel: JitKernel) -> set[str]:
    """Tiles a program loads before its loops and keeps reading inside them (`x = tl.load(row)`
    then `for step ...: d = x - c`): data, not an accumulator or a pointer tile, that stays in
    registers for the kernel's whole life."""
    loops = _loops(kernel)
    inside = {id(n) for loop in loops for n in ast.walk(loop)}
    shapes = ShapeInference(kernel)
    held = {t.id for stmt in ast.walk(kernel.node) if isinstance(stmt, ast.Assign)
            and id(stmt) not in inside and any(isinstance(c, ast.Call) and call_name(c) == "load"
                                               for c in ast.walk(stmt.value))
            for t in stmt.targets if isinstance(t, ast.Name)
            and is_tile(shapes.shape(stmt.value, stmt.lineno))}
    return {n.id for loop in loops for n in ast.walk(loop)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in held}


def serial_recurrence(kernel: JitKernel) -> bool:
    """A loop whose step reads memory at an address the previous step's reduction chose
    (`last = tl.argmax(dist)` ... `tl.load(base + last * 3)`): each step waits on a reduction
    over the whole tile, so the steps cannot be shared out among programs."""
    for loop in _loops(kernel):
        reduced = {t.id for stmt in ast.walk(loop) if isinstance(stmt, ast.Assign)
                   for t in stmt.targets if isinstance(t, ast.Name)
                   and any(isinstance(c, ast.Call) and call_name(c) in REDUCE_OPS
                           for c in ast.walk(stmt.value))}
        for call in (c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"):
            pointer = pointer_of(call)
            if pointer is not None and names_in(pointer) & reduced:
                return True
    return False


@detector("few-warps", ("cuda",))
def too_few_warps(module: KernelModule, backend: str) -> list[Match]:
    """num_warps of 1-2 on a tile sized from a runtime dimension or with many elements per
    thread: the per-thread share of the tile grows with the row."""
    matches = []
    for launch in module.launches:
        warps = launch_value(module, launch, "num_warps")
        kernel = module.kernels[launch.kernel]
        values = _block_values(module, launch)
        tile = [values.get(n) for n in arange_params(kernel)]
        if not tile or any(v is None for v in tile):
            continue
        default = warps is None or warps == DEFAULT_WARPS
        held = resident_tiles(kernel) if default else set()  # a shape pass: only where it counts
        known = all(isinstance(v, int) and v != POW2_UNKNOWN for v in tile)
        per_thread = (_product(tile) * len(held)) // (32 * (warps or DEFAULT_WARPS)) if known else 0
        if default and len(held) >= RESIDENT_TILES \
                and (not known or per_thread > RESIDENT_VALUES):
            # four warps, a whole runtime row, and several copies of it held across a loop: the
            # per-thread share is row / 128 times the copies, and spills grow with the row
            warps = warps or DEFAULT_WARPS
            confidence, share = 0.45, (
                (f"{per_thread} values" if known else "a runtime-sized share")
                + f" of the {len(held)} whole tiles it keeps across its loop "
                f"({', '.join(sorted(held))})")
        elif not isinstance(warps, int) or warps > FEW_WARPS:
            continue
        elif any(v == POW2_UNKNOWN for v in tile):
            confidence, share = 0.55, "a runtime-sized share (next_power_of_2 of a size) of the tile"
        else:
            elements = _product(tile)
            if elements / (32 * warps) <= VALUES_PER_THREAD:
                continue
            confidence, share = 0.6, f"{elements // (32 * warps)} values of the tile"
        matches.append(_launch_match(
            module, launch, "few-warps", confidence,
            f"`{launch.kernel}` runs with num_warps={warps}, so each of its {32 * warps} threads "
            f"holds {share}: long rows spill registers and too few loads are in "
            "flight.",
            ["ptxas -v: spills in the kernel compiled with this num_warps",
             "ncu: registers at the cap, local loads/stores, low occupancy"],
            num_warps=warps))
    return matches


def _intermediates(launcher: ast.FunctionDef) -> set[str]:
    """Names bound in the launcher to a freshly allocated tensor (torch.empty and friends)."""
    names = set()
    for node in ast.walk(launcher):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and call_name(node.value) in _ALLOCATORS):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            names |= {dotted(t) for t in node.targets if dotted(t).startswith("self.")}  # kept on the object
    return names


REDUCING = {"sum", "max", "min", "reduce", "argmax", "argmin", "xor_sum", "prod", "cumsum"}


def _partials_tables(module: KernelModule, launch: Launch) -> set[str]:
    """Host names of buffers the launch fills one row per program: allocated in the launcher with
    a leading dimension spelled as the launch's one-dimensional grid (`part = torch.empty((P, N))`,
    `kernel[(P,)]`). Such a table is the first stage of a two-stage reduction, sized by the grid,
    not a copy of the data: handing it to a finishing kernel is the algorithm, not a missed fusion.
    Its kernel reduces (a loop accumulating slices, or a tl.sum/max/...); a kernel that does
    neither writes one row of the data per program: a full intermediate, whatever its shape."""
    grid = grid_elements(launch)
    kernel = module.kernels.get(launch.kernel)
    if launch.launcher is None or len(grid) != 1 or kernel is None:
        return set()
    if not any(isinstance(n, ast.For | ast.While) or (isinstance(n, ast.Call) and call_name(n) in REDUCING)
               for n in ast.walk(kernel.node)):
        return set()
    programs = ast.unparse(grid[0])
    out = set()
    for node in ast.walk(launch.launcher):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and call_name(node.value) in _ALLOCATORS and node.value.args):
            continue
        shape = node.value.args[0]
        lead = shape.elts[0] if isinstance(shape, ast.Tuple) and shape.elts else shape
        if ast.unparse(lead) == programs:
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return out & _bound_names(module, launch, written=True)


def _positional_names(kernel: JitKernel) -> set[str]:
    """Names that differ from program to program: bound to a value built on `tl.program_id`,
    and the variables of loops whose range is (`for start in range(pid * BLOCK, n, ...)`)."""
    names = bound_to_call(kernel, "program_id")
    loops = [n for n in ast.walk(kernel.node) if isinstance(n, ast.For)]
    changed = True
    while changed:
        changed = False
        for loop in loops:
            targets = names_in(loop.target) - names
            if targets and ("program_id" in ast.unparse(loop.iter)
                            or depends_on(kernel, loop.iter) & names):
                names |= targets
                changed = True
        for name, stmts in kernel.assigns.items():  # `row = start // W` inside such a loop
            if name not in names and any(depends_on(kernel, getattr(s, "value", s)) & names
                                         for s in stmts if getattr(s, "value", None) is not None):
                names.add(name)
                changed = True
    return names


def reads_whole(module: KernelModule, launch: Launch, names: set[str]) -> bool:
    """Whether the launch's kernel loads the buffers bound to host `names` only at addresses no
    program position reaches (`tl.load(total)`, `tl.load(part + tl.arange(0, P))`): every
    program needs all of what is there, a statistic over the whole of the data."""
    kernel = module.kernels[launch.kernel]
    params = {p for p, a in launch.args.items() if names_in(a) & names}
    loads = [pointer for c in kernel.calls("load")
             if (pointer := pointer_of(c)) is not None and pointer_params(kernel, pointer) & params]
    positional = _positional_names(kernel)
    return bool(loads) and not any("program_id" in ast.unparse(pointer)
                                   or depends_on(kernel, pointer) & positional for pointer in loads)


def statistic_steps(module: KernelModule) -> frozenset[tuple[str, str]]:
    """(earlier, later) kernels of one launcher where the later launch reads whole a buffer the
    earlier one writes (a norm, a total, an absmax): no program of the second pass can start
    before every program of the first has finished, so the two launches (and the input both
    read) are the algorithm's two passes over the data, not a fusion left undone."""
    out = set()
    for i, later in enumerate(module.launches):
        for earlier in module.launches[:i]:
            if earlier.launcher is None or earlier.launcher is not later.launcher \
                    or earlier.kernel == later.kernel:
                continue
            if _statistic_pair(module, earlier, later):
                out.add((earlier.kernel, later.kernel))
    return frozenset(out)


def stencil_steps(module: KernelModule) -> frozenset[tuple[str, str]]:
    """(earlier, later) kernels of one launcher where the later launch reads what the earlier
    writes at shifted positions (`_stencil_pair`, a convolution over the first pass's output):
    the second pass needs its neighbours' values, so the hand-over is the algorithm's."""
    return frozenset((earlier.kernel, later.kernel) for i, later in enumerate(module.launches)
                     for earlier in module.launches[:i]
                     if earlier.launcher is not None and earlier.launcher is later.launcher
                     and _stencil_pair(module, earlier, later))


def looped_steps(module: KernelModule) -> frozenset[tuple[str, str]]:
    """(earlier, later) kernels of one launcher where the later, launched in a host loop the
    earlier is not in, reads what the earlier writes (an init kernel, then the rounds of an
    iteration): the hand-over is paid once against every round, not a fusion left undone."""
    return frozenset((earlier.kernel, later.kernel) for i, later in enumerate(module.launches)
                     for earlier in module.launches[:i]
                     if earlier.launcher is not None and earlier.launcher is later.launcher
                     and earlier.kernel != later.kernel and _looped_reader(earlier, later)
                     and _bound_names(module, earlier, written=True) & _bound_names(module, later, written=False))


def _statistic_pair(module: KernelModule, earlier: Launch, later: Launch) -> bool:
    """The later launch reads whole some buffer the earlier one writes (`reads_whole`)."""
    handed = _bound_names(module, earlier, written=True) & _bound_names(module, later, written=False)
    return bool(handed) and reads_whole(module, later, handed)


def partials_params(module: KernelModule) -> frozenset[tuple[str, str]]:
    """(kernel, pointer parameter) of every per-program partials table a launch writes."""
    out = set()
    for launch in module.launches:
        tables = _partials_tables(module, launch)
        out |= {(launch.kernel, param) for param, arg in launch.args.items() if names_in(arg) & tables}
    return frozenset(out)


def _bound_names(module: KernelModule, launch: Launch, written: bool) -> set[str]:
    """Host names passed to pointer parameters the kernel stores to (or loads from)."""
    kernel = module.kernels[launch.kernel]
    ops = ("store", "atomic_add") if written else ("load",)
    params: set[str] = set()
    for call in kernel.calls(*ops):
        pointer = pointer_of(call)
        if pointer is not None:
            params |= pointer_params(kernel, pointer)
    params -= {p.name for p in kernel.params if p.constexpr}  # a tile size, never a buffer
    return {n for p, a in launch.args.items() if p in params
            for n in names_in(a) | ({dotted(a)} if isinstance(a, ast.Attribute) and dotted(a) else set())}


def _returned(launcher: ast.FunctionDef) -> set[str]:
    """Names the launcher hands back to its caller."""
    return {n for node in ast.walk(launcher) if isinstance(node, ast.Return) and node.value
            for n in names_in(node.value)}


@detector("multi-launch")
def unfused_launches(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    by_launcher: dict[int, list[Launch]] = {}
    for launch in module.launches:
        if launch.launcher is not None:
            by_launcher.setdefault(id(launch.launcher), []).append(launch)
    for launches in by_launcher.values():
        if len(launches) < 2:
            continue
        launches.sort(key=lambda item: item.line)
        buffers = _intermediates(launches[0].launcher)  # type: ignore[arg-type]
        for i, later in enumerate(launches[1:], start=1):
            later_names = _bound_names(module, later, written=False)
            for earlier in launches[:i]:
                shared = buffers & later_names & _bound_names(module, earlier, written=True)
                if shared and shared <= _partials_tables(module, earlier):
                    continue  # a per-program partials table and its finishing reduction
                if shared and _cast_step(module, earlier, later):
                    continue  # a cast kernel's round trip: the host-casts finding names it
                if shared and reads_whole(module, later, shared):
                    continue  # a statistic every program of the second pass needs whole
                if shared and _looped_reader(earlier, later):
                    continue  # one round trip against a loop of launches: the loop is the cost
                if shared and arithmetic_loop(module.kernels[later.kernel]) is not None:
                    continue  # the reader's time is a loop of arithmetic: the bytes are a sliver
                if shared and _reads_neighbours(module, later, shared):
                    continue  # a stencil over the intermediate: fusing needs other programs' values
                if shared and _reduced_between(module, launches, earlier, later, shared):
                    continue  # a reduction over the whole intermediate stands between the two
                if shared:
                    # A temporary the launcher does not return exists only for the round trip:
                    # its bytes are certain waste, not a maybe.
                    scratch = shared - _returned(launches[0].launcher)  # type: ignore[arg-type]
                    # Both launches also read the same input: the second pass re-reads it.
                    inputs = {a.arg for a in launches[0].launcher.args.args}  # type: ignore[union-attr]
                    reread = (_bound_names(module, earlier, written=False) & later_names
                              & inputs) - shared
                    matches.append(_launch_match(
                        module, later, "multi-launch", 0.75 if scratch or reread else 0.55,
                        f"`{earlier.kernel}` (line {earlier.line}) writes "
                        f"{', '.join(sorted(shared))} to global memory only for "
                        f"`{later.kernel}` to read it back"
                        + (f", and both read {', '.join(sorted(reread))} from memory"
                           if reread else "")
                        + ": one fused kernel would skip the round trip and a launch.",
                        ["profile: the intermediate's bytes are a large share of total bytes",
                         "profile: per-launch overhead at the small size"],
                        buffers=sorted(shared), first_launch=earlier.line))
                    break
        if not any(m.line in {launch.line for launch in launches} for m in matches):
            matches += _rereads(module, launches)
    matches += _handed_between_helpers(module, by_launcher)
    return matches + _handed_across_functions(module, {m.line for m in matches})


def _stencil_pair(module: KernelModule, earlier: Launch, later: Launch) -> bool:
    """The later launch reads some buffer the earlier one writes at shifted positions
    (`_reads_neighbours`): a second pass that needs the whole of the first's output around it."""
    handed = _bound_names(module, earlier, written=True) & _bound_names(module, later, written=False)
    return bool(handed) and _reads_neighbours(module, later, handed)


def _reads_neighbours(module: KernelModule, launch: Launch, names: set[str]) -> bool:
    """Whether the launch's kernel reads the buffers bound to host `names` at its own position
    shifted by a tap: the load's address adds to a position the variable of a fixed-length loop,
    unscaled (`rows + (a - R)`, `cols + c - R`), a stencil or a convolution over the
    intermediate. Each output then needs values other programs of the writer produce, so one
    fused kernel would have to recompute or exchange a halo: the round trip is the algorithm's,
    not a fusion left undone. The window has to reach back or be centred (`t - k`, `a - R`): a
    tap only added, or scaled by a stride (`part + s * M * N + offs`, `req * K + j`), steps
    through a split's slabs or a record's fields at the same position, not to a neighbour."""
    kernel = module.kernels[launch.kernel]
    params = {p for p, a in launch.args.items() if names_in(a) & names}
    positional = _positional_names(kernel) | bound_to_call(kernel, "arange")
    taps = set()
    for loop in _loops(kernel):
        if _fixed_trip_count(kernel, loop, module.constants):
            taps |= names_in(loop.target)  # type: ignore[union-attr]
    taps -= positional
    if not taps:
        return False

    def shift(pos: ast.AST, tap: ast.AST) -> bool:  # a position and an unscaled tap added to it
        tap_names = depends_on(kernel, tap) | names_in(tap)
        return bool(tap_names & taps) and not tap_names & positional \
            and not any(isinstance(m, ast.BinOp) and isinstance(m.op, ast.Mult) for m in ast.walk(tap)) \
            and bool((depends_on(kernel, pos) | names_in(pos)) & positional)

    def centre(node: ast.AST) -> bool:  # a constant offset: neither a tap nor a position
        return not (depends_on(kernel, node) | names_in(node)) & (taps | positional)

    def shifts(node: ast.AST) -> bool:  # position +- an unscaled tap that reaches back
        for n in ast.walk(node):
            if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add | ast.Sub)):
                continue
            # a window centred on the position (`pos + (a - R)`), one reaching back (`t - k`),
            # or centred after the sum (`pos + c - R`); a tap only added (`pos + split`,
            # `req * K + j`) steps through a split's slabs or a record's fields
            for pos, tap in ((n.left, n.right), (n.right, n.left)):
                if shift(pos, tap) and (isinstance(n.op, ast.Sub) and tap is n.right or any(
                        isinstance(m, ast.BinOp) and isinstance(m.op, ast.Sub) for m in ast.walk(tap))):
                    return True
            left = n.left
            if isinstance(n.op, ast.Sub) and centre(n.right) and isinstance(left, ast.BinOp) \
                    and isinstance(left.op, ast.Add) and (shift(left.left, left.right) or shift(left.right, left.left)):
                return True
        return False

    for call in kernel.calls("load"):
        pointer = pointer_of(call)
        if pointer is None or not pointer_params(kernel, pointer) & params:
            continue
        used = depends_on(kernel, pointer) | names_in(pointer)
        if shifts(pointer) or any(shifts(getattr(stmt, "value", stmt)) for name in used
                                  for stmt in kernel.assigns.get(name, [])):
            return True
    return False


def _looped_reader(earlier: Launch, later: Launch) -> bool:
    """`later` runs inside a host loop that `earlier` is not in (`init[grid](lab)` once, then
    `for rnd in range(n): relax[grid](lab, ...)`): the hand-over is paid once against every
    iteration's launch, so fusing the two removes a sliver of the work."""
    from diagnose.triage.detectors.host import _enclosing_loop  # host.py reads this module

    loop = _enclosing_loop(later.launcher, later.call) if later.launcher is not None else None
    return loop is not None and not any(c is earlier.call for c in ast.walk(loop))


def _across_barrier_loop(module: KernelModule, first: Launch, second: Launch) -> bool:
    """One launch runs inside a host loop the other is not in, and that loop's iterations wait
    on a grid-wide reduction (`barrier_per_iteration`): the loop stays a loop of launches, so the
    launch outside it cannot be fused with one inside."""
    for inner, outer in ((first, second), (second, first)):
        loop = _host_loop(inner)
        if loop is not None and not any(c is outer.call for c in ast.walk(loop)) \
                and barrier_per_iteration(module, loop):
            return True
    return False


def _cast_step(module: KernelModule, *launches: Launch) -> bool:
    """Whether one of the launches only converts a dtype (the host-casts detector's idiom)."""
    from diagnose.triage.detectors.host import _cast_only  # host.py reads this module

    return any(_cast_only(module.kernels[launch.kernel]) for launch in launches)


def _handed_across_functions(module: KernelModule, seen: set[int]) -> list[Match]:
    """A launch reading a buffer that a launch in another host function (or under another name)
    allocated, wrote and handed over — returned by a helper or method, unpacked from a tuple,
    passed down as an argument (`g = self.gate(x, z)`, then `norm_kernel[grid](g, ...)`): the
    round trip of two launches in one function, followed across the host call graph."""
    matches = []
    for later in module.launches:
        if later.launcher is None or later.line in seen or _cast_step(module, later):
            continue  # a cast kernel's round trip is the host-casts finding's, a more specific cause
        read = _read_params(module, later)
        for param, arg in later.args.items():
            if param not in read or not (isinstance(arg, ast.Name) or dotted(arg).startswith("self.")):
                continue
            found = _writer_elsewhere(module, later, arg)
            if found is None:
                continue
            writer, name = found
            if _cast_step(module, writer):
                continue
            host = dotted(arg)
            scratch = host not in _returned(later.launcher)
            matches.append(_launch_match(
                module, later, "multi-launch", 0.75 if scratch else 0.55,
                f"`{writer.kernel}` (in `{writer.launcher.name}`, line {writer.line}) writes `{name}` "  # type: ignore[union-attr]
                f"to global memory only for `{later.kernel}` (in `{later.launcher.name}`) to read "
                f"it back as `{host}`: one fused kernel would skip the round trip and a launch.",
                ["profile: the intermediate's bytes are a large share of total bytes",
                 "profile: per-launch overhead at the small size"],
                buffers=[host], first_launch=writer.line))
            seen.add(later.line)
            break
    return matches


def _read_params(module: KernelModule, launch: Launch) -> set[str]:
    kernel = module.kernels[launch.kernel]
    return {p for call in kernel.calls("load") if (pointer := pointer_of(call)) is not None
            for p in pointer_params(kernel, pointer)}


def _writer_elsewhere(module: KernelModule, later: Launch, arg: ast.expr) -> tuple[Launch, str] | None:
    """(writer, its host name) of the freshly allocated buffer `arg` is, when a launch other than
    `later`, in another function or under another name, wrote it before."""
    for fn, name, line in value_places(module, later.launcher, arg, later.line)[1:]:  # type: ignore[arg-type]
        if name not in _intermediates(fn):
            continue
        writers = [w for w in module.launches if w.launcher is fn and w is not later and w.line < line
                   and name in _bound_names(module, w, written=True)]
        if writers and not (fn is later.launcher and name == dotted(arg)):
            writer = max(writers, key=lambda w: w.line)
            if name not in _partials_tables(module, writer):
                return writer, name
    return None


def _handed_between_helpers(module: KernelModule, by_launcher: dict[int, list[Launch]]) -> list[Match]:
    """A host function calling two launcher helpers, the second on what the first allocated,
    wrote with its kernel and returned (`y = _bias_add(x, b)`, then `_residual_add(r, y)`): the
    same global-memory round trip as two launches in one function, split across helpers."""
    helpers = {launches[0].launcher.name: launches for launches in by_launcher.values()  # type: ignore[union-attr]
               if launches[0].launcher is not None}
    matches = []
    for fn in (n for n in plain_functions(module) if n.name not in helpers):
        made: dict[str, Launch] = {}  # host name -> the launch that wrote it inside a helper
        for node in sorted((n for n in ast.walk(fn) if isinstance(n, ast.Assign | ast.Expr | ast.Return)),
                           key=lambda n: n.lineno):
            call = node.value if isinstance(node.value, ast.Call) else None
            if call is None:  # a bare `return` or a value that calls nothing
                continue
            if call_name(call) not in helpers:  # `return _second(r, _first(x, b))`: calls inside
                call = next((c for c in ast.walk(node.value) if isinstance(c, ast.Call)
                             and call_name(c) in helpers and c is not node.value), None)
                if call is None:
                    continue
            launches = helpers[call_name(call)]
            reader = _reading_launch(module, launches, call, made, helpers)
            if reader is not None:
                name, writer, later = reader
                scratch = name not in _returned(fn)
                what = f"`{name}`" if name.isidentifier() else f"the output `{name}` returns"
                matches.append(_launch_match(
                    module, later, "multi-launch", 0.75 if scratch else 0.55,
                    f"`{writer.kernel}` (in `{writer.launcher.name}`) writes {what} to global "  # type: ignore[union-attr]
                    f"memory only for `{later.kernel}` (in `{later.launcher.name}`) to read it back: "  # type: ignore[union-attr]
                    "one fused kernel would skip the round trip and a launch.",
                    ["profile: the intermediate's bytes are a large share of total bytes",
                     "profile: per-launch overhead at the small size"],
                    buffers=[name], first_launch=writer.line))
            written = _written_and_returned(module, launches)
            if written is not None and isinstance(node, ast.Assign):
                made.update({t.id: written for t in node.targets if isinstance(t, ast.Name)})
    return matches


def _written_and_returned(module: KernelModule, launches: list[Launch]) -> Launch | None:
    """The helper's launch that writes a buffer the helper allocated and returns, if any."""
    helper = launches[0].launcher
    fresh = _intermediates(helper) & _returned(helper)  # type: ignore[arg-type]
    return next((launch for launch in launches if _bound_names(module, launch, written=True) & fresh), None)


def _reading_launch(module: KernelModule, launches: list[Launch], call: ast.Call,
                    made: dict[str, Launch], helpers: dict[str, list[Launch]]
                    ) -> tuple[str, Launch, Launch] | None:
    """(host name, writer, reader) when `call` passes a helper-made buffer (a name bound to
    one, or the helper's call itself) to a parameter that one of the helper's launches reads."""
    params = [a.arg for a in launches[0].launcher.args.args]  # type: ignore[union-attr]
    passed = {params[i]: a for i, a in enumerate(call.args) if i < len(params)}
    passed.update({kw.arg: kw.value for kw in call.keywords if kw.arg})
    for param, arg in passed.items():
        writer = made.get(arg.id) if isinstance(arg, ast.Name) else (
            _written_and_returned(module, helpers[call_name(arg)])
            if isinstance(arg, ast.Call) and call_name(arg) in helpers else None)
        if writer is None:
            continue
        reader = next((launch for launch in launches
                       if param in _bound_names(module, launch, written=False)), None)
        if reader is not None:
            return (arg.id if isinstance(arg, ast.Name) else ast.unparse(arg)[:40]), writer, reader
    return None


def _rereads(module: KernelModule, launches: list[Launch]) -> list[Match]:
    """Separate launches (not a loop) that read the same input of the launcher: each reads
    it from memory again, where one fused kernel reads it once."""
    launcher = launches[0].launcher
    if launcher is None or _in_host_loop(launches[0]):
        return []
    inputs = {a.arg for a in launcher.args.args}
    for i, later in enumerate(launches[1:], start=1):
        for earlier in launches[:i]:
            both = (_bound_names(module, earlier, written=False)
                    & _bound_names(module, later, written=False) & inputs)
            same_call = [ast.unparse(a) for a in earlier.call.args] == \
                [ast.unparse(a) for a in later.call.args]
            if _statistic_pair(module, earlier, later):
                continue  # the second pass needs the first's statistic: it must read the input again
            if _stencil_pair(module, earlier, later):
                continue  # the second pass reads neighbours of the first's output: it must run after it
            if _across_barrier_loop(module, earlier, later):
                continue  # one of them repeats in a loop no launch can take over: they stay apart
            if both and not same_call:  # the same call twice repeats work, it re-reads nothing new
                return [_launch_match(
                    module, later, "multi-launch", 0.6,
                    f"`{earlier.kernel}` (line {earlier.line}) and `{later.kernel}` both read "
                    f"{', '.join(sorted(both))} from global memory: separate launches over the "
                    "same input, where one fused kernel reads it once and skips a launch.",
                    ["profile: bytes moved well above the task's useful bytes"],
                    buffers=sorted(both), first_launch=earlier.line)]
    return []


HOPPER_SMS = 132          # SMs of an H100/H200, the sm_90 parts the IR is captured for
# The A2 part profiled in triton-ascend docs/en/debug_guide/profiling.md has 48 vector cores.
VECTOR_CORES = 48
AI_CORES = 24  # its cube (AIC) cores, which run the kernels with a tl.dot
# The smallest Atlas A2 parts (910B3, 910B4) have 20 AI cores and 40 vector cores, and triton-ascend
# authors size a grid to the part they run on (`num_vectorcore` of the device's properties): a grid
# of at least that many programs fills a real part and is not read as an underfilled one.
VECTOR_CORES_LEAST = 40
AI_CORES_LEAST = 20


def fills_a_part(programs: int, cube: bool) -> bool:
    """An Ascend grid of at least the smallest A2 part's core count (of the kind that runs it)."""
    return programs >= (AI_CORES_LEAST if cube else VECTOR_CORES_LEAST)
UNDERFILL_FRACTION = 0.5  # programs below this share of the SMs: at least half the GPU idles


def _programs(module: KernelModule, launch: Launch) -> int | None:
    """Programs a launch starts: the grid evaluated in the host code, else the captured one."""
    grid = grid_elements(launch)
    env = launcher_env(module, launch)
    values = [evaluate(e, env) for e in grid]  # type: ignore[arg-type]
    if values and all(isinstance(v, int) for v in values):
        total = 1
        for v in values:
            total *= v  # type: ignore[operator]
        return total
    return module.resolved.get(launch.kernel, {}).get("programs")


HOST_READ_METHODS = {"item", "tolist", "cpu", "numpy"}


def host_read_calls(fn: ast.FunctionDef) -> list[ast.Call]:
    """Calls that make the host wait for the device: `t.item()`, `.tolist()`, `.cpu()`,
    `.numpy()`, `torch.cuda.synchronize()`, in source order."""
    return sorted((n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                   and ((n.func.attr in HOST_READ_METHODS and not n.args) or n.func.attr == "synchronize")),
                  key=lambda n: n.lineno)


def host_read_names(fn: ast.FunctionDef) -> set[str]:
    """Names of the tensors `fn` reads back to the host (`count.item()` -> {"count"})."""
    return {c.func.value.id for c in host_read_calls(fn)
            if isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name)}


def _in_host_loop(launch: Launch) -> bool:
    return launch.launcher is not None and any(
        isinstance(n, ast.For | ast.While) and any(c is launch.call for c in ast.walk(n))
        for n in ast.walk(launch.launcher))


def _host_loop(launch: Launch) -> ast.For | ast.While | None:
    """The innermost loop of the launcher around the launch, or None."""
    loops = [n for n in ast.walk(launch.launcher) if isinstance(n, ast.For | ast.While)
             and any(c is launch.call for c in ast.walk(n))] if launch.launcher is not None else []
    return loops[-1] if loops else None


def _reduced_scalar_params(kernel: JitKernel) -> set[str]:
    """Pointer parameters the kernel stores a reduction's result to at an address no index tile
    reaches (`tl.store(out + slot, tl.sum(acc))`): one value per program, of all it read."""
    reduced = {t.id for stmt in ast.walk(kernel.node) if isinstance(stmt, ast.Assign)
               for t in stmt.targets if isinstance(t, ast.Name)
               and any(isinstance(c, ast.Call) and call_name(c) in REDUCING for c in ast.walk(stmt.value))}
    out: set[str] = set()
    for call in kernel.calls("store", "atomic_add"):
        pointer, value = pointer_of(call), (call.args[1] if len(call.args) > 1 else kwarg(call, "val")
                                            or kwarg(call, "value"))
        if pointer is None or value is None or "arange" in ast.unparse(pointer):
            continue
        if depends_on(kernel, pointer) & bound_to_call(kernel, "arange"):
            continue
        if any(isinstance(c, ast.Call) and call_name(c) in REDUCING for c in ast.walk(value)) \
                or names_in(value) & reduced:
            out |= pointer_params(kernel, pointer)
    return out


def _broadcast_reads(kernel: JitKernel) -> set[str]:
    """Pointer parameters the kernel loads one element of at an address neither the program id
    nor an index tile reaches: the same value for every program."""
    out: set[str] = set()
    for call in kernel.calls("load"):
        pointer = pointer_of(call)
        if pointer is None or "arange" in ast.unparse(pointer) or "program_id" in ast.unparse(pointer):
            continue
        if depends_on(kernel, pointer) & (bound_to_call(kernel, "arange") | bound_to_call(kernel, "program_id")):
            continue
        out |= pointer_params(kernel, pointer)
    return out


def _reduced_between(module: KernelModule, launches: list[Launch], earlier: Launch, later: Launch,
                     shared: set[str]) -> bool:
    """A launch between the two reads the handed buffer and reduces it to a value that every
    program of the later launch reads (`q = A p`, then `pq = dot(p, q)`, then `x += rz / pq * p`,
    `r -= rz / pq * q`): the later pass needs a total over all of the earlier one's output, a
    grid-wide dependency no fused kernel keeps."""
    for middle in launches:
        if not earlier.line < middle.line < later.line or middle.kernel not in module.kernels:
            continue
        if not _bound_names(module, middle, written=False) & shared:
            continue
        if any(_reads_total(module, later, name) for name in _totals(module, middle)):
            return True
    return False


def _totals(module: KernelModule, launch: Launch) -> set[str]:
    """Host names of the buffers the launch stores reductions' results to (`_reduced_scalar_params`)."""
    return {a.id for p in _reduced_scalar_params(module.kernels[launch.kernel])
            if isinstance(a := launch.args.get(p), ast.Name)}


def _reads_total(module: KernelModule, launch: Launch, name: str) -> bool:
    """Whether every program of the launch reads the host buffer `name` as one value."""
    reads = _broadcast_reads(module.kernels[launch.kernel])
    return any(p in reads and isinstance(a, ast.Name) and a.id == name for p, a in launch.args.items())


def barrier_per_iteration(module: KernelModule, loop: ast.For | ast.While) -> str:
    """The host name of a buffer one launch inside `loop` reduces its whole input to and a
    launch of the same iteration reads as one value in every program (`_dot[(1,)](p, q, pq, it)`,
    then `alpha = tl.load(rz + it) / tl.load(pq + it)`), in a loop whose launches carry their
    state across iterations in whole buffers (x, r, p written and read again): every iteration
    waits on a reduction over the whole grid, so the loop cannot become one launch. "" if none."""
    inside = [ln for ln in module.launches if ln.launcher is not None
              and any(c is ln.call for c in ast.walk(loop)) and ln.kernel in module.kernels]
    loop_vars = names_in(loop.target) if isinstance(loop, ast.For) else set()
    written = {n for ln in inside for n in _bound_names(module, ln, written=True)}
    read = {n for ln in inside for n in _bound_names(module, ln, written=False)}
    totals = {n for ln in inside for n in _totals(module, ln)}  # a slot per iteration, not state
    carried = {a.id for ln in inside for a in ln.args.values() if isinstance(a, ast.Name)
               and a.id in written & read and a.id not in loop_vars | totals}
    if not carried:
        return ""
    for producer in inside:
        for name in sorted(_totals(module, producer)):
            if any(_reads_total(module, consumer, name) for consumer in inside if consumer is not producer):
                return name
    return ""


PARTIAL_GRID = 0.6  # a grid between half and all of the units, at half of them idle


def _partial_grid(programs: int, units: int, backend: str) -> float:
    """How sure a grid of at least half the units is the cost. An NPU runs one program per core
    whatever the grid, so a grid of P cores gains at most units / P: the confidence falls with
    the idle share (40 of 48 vector cores: 1.2x at most). A GPU program's few warps hide latency
    badly on their own, so more programs than SMs win beyond the idle share: it stays flat."""
    if backend != "ascend":
        return PARTIAL_GRID
    idle = 1 - programs / units
    return round(PARTIAL_GRID * min(1.0, idle / (1 - UNDERFILL_FRACTION)), 2)


def _finishes_partials(module: KernelModule, launch: Launch) -> set[str]:
    """Host names of per-program partials tables an earlier launch of the same launcher wrote
    and this launch reads: it is the finishing step of a two-stage reduction."""
    earlier = [e for e in module.launches if e.launcher is not None
               and e.launcher is launch.launcher and e.line < launch.line]
    tables = {n for e in earlier for n in _partials_tables(module, e)}
    return tables & _bound_names(module, launch, written=False) if tables else set()


@detector("small-grid")
def small_grid(module: KernelModule, backend: str) -> list[Match]:
    """A launch of fewer programs than the GPU has SMs (an NPU: vector cores), each looping over
    its share: the grid, not the code inside, leaves most of the machine idle."""
    matches = []
    for launch in module.launches:
        programs = _programs(module, launch)
        kernel = module.kernels[launch.kernel]
        units, unit = (HOPPER_SMS, "SMs of an H100/H200") if backend != "ascend" else (
            (AI_CORES, "AI (cube) cores of an Atlas A2") if kernel.calls("dot")
            else (VECTOR_CORES, "vector cores of an Atlas A2"))
        if programs is None or programs >= units:
            continue
        if backend == "ascend" and fills_a_part(programs, kernel.calls("dot")):
            continue
        if not _loops(kernel):
            continue  # one tile per program: a small problem, not a small grid
        loop = _host_loop(launch)
        if loop is not None and not barrier_per_iteration(module, loop):
            continue  # a small grid per iteration of a host loop: the loop is the idiom
        few = programs < UNDERFILL_FRACTION * units
        serial = serial_recurrence(kernel)
        # a step whose result the host reads back (`top.item()`) makes a value, not a pass over
        # the data: the read-back, not its grid, is what the call waits on
        read_back = launch.launcher is not None and bool(
            {n for a in launch.args.values() for n in names_in(a)} & host_read_names(launch.launcher))
        finishing = _finishes_partials(module, launch)
        matches.append(_launch_match(
            module, launch, "small-grid",
            0.35 if serial else 0.4 if read_back or finishing else 0.75 if few
            else _partial_grid(programs, units, backend),
            f"`{launch.kernel}` is launched with {programs} programs for the {units} {unit}, and each "
            f"program loops over its share: {units - programs} of them idle while the busy ones "
            + ("stream the whole tensor through their own unified buffer." if backend == "ascend"
               else "have one program's warps to hide memory latency.")
            + (" Its loop is a serial recurrence, though: each step loads at an address the last "
               "step's reduction over the whole tile chose, so programs could share the steps "
               "only through a grid-wide barrier per step." if serial else "")
            + (f" It sums the per-program partials ({', '.join(sorted(finishing))}) an earlier launch "
               "wrote, though: the finishing step of a two-stage reduction, whose table is as long "
               "as the first stage's grid." if finishing else ""),
            ["profile: programs launched below the core count at the measured size",
             "msprof: one or few cores busy, aiv_mte2 bandwidth of one core" if backend == "ascend"
             else "ncu: achieved occupancy and DRAM throughput low"], programs=programs,
            read_back=read_back, finishing=sorted(finishing),
            **({"refuted": "its loop is a serial recurrence over the whole "
                                               "tile"} if serial else {})))
    return matches
