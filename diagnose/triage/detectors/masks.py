"""Detectors of accesses whose mask or address comes from loaded data, or whose mask the
Ascend mask analysis cannot read: data-dependent masks, scatter atomics, reversed bounds,
transposed tile reads."""

from __future__ import annotations

import ast
import copy

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.launch import item_against_shared_tile
from diagnose.triage.detectors.memory import (
    MEMORY_OPS,
    _as_int,
    _is_range_loop,
    _kernel_env,
    _loops_around,
    _match,
    bound_to_call,
    constant_split,
    depends_on,
    fields_walked_by_loop,
    memory_ops,
    orientation_bound,
    pointer_of,
    record_field_groups,
    strided_fast_axis,
    two_dimensional,
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
    name_node,
    names_in,
)

ATOMICS = tuple(op for op in MEMORY_OPS if op.startswith("atomic"))


def loaded_names(kernel: JitKernel) -> set[str]:
    """Local names bound to a value that contains a tl.load (`x = tl.load(p).to(f32)` too)."""
    return bound_to_call(kernel, "load")


def _program_positions(kernel: JitKernel) -> set[str]:
    """Local names whose assignment reads the program id (the program's position)."""
    return {name for name, stmts in kernel.assigns.items()
            if any("program_id" in ast.unparse(s) for s in stmts)}


def _data_terms(kernel: JitKernel, node: ast.expr, line: int,
                scalars: bool = False) -> list[str]:
    """Loaded tiles (with `scalars`, also loaded scalars) a mask or address reads, directly or
    through local names."""
    shapes = ShapeInference(kernel)
    deps = depends_on(kernel, node) & loaded_names(kernel)
    return sorted(d for d in deps if scalars or is_tile(
        shapes.shape(ast.Name(d, ast.Load(), lineno=line), line)))


@detector("data-mask")
def data_dependent_mask(module: KernelModule, backend: str) -> list[Match]:
    """A load or store masked by a condition on loaded values. Ascend: the mask analysis only
    reads index bounds, so the access becomes a full transfer plus a select (a store: a read
    of the destination, a select and a full write). CUDA: a mask from data has constancy 1 in
    the axis analysis, so the access cannot be vectorised."""
    matches = []
    for kernel in module.kernels.values():
        for op in memory_ops(kernel):
            mask = kwarg(op, "mask") or (op.args[2] if call_name(op) == "store" and len(op.args) > 2
                                         else op.args[1] if call_name(op) == "load"
                                         and len(op.args) > 1 else None)
            if mask is None or call_name(op) in ATOMICS:
                continue
            data = _data_terms(kernel, mask, op.lineno)
            if not data:
                continue
            store = call_name(op) == "store"
            head = (f"`tl.{call_name(op)}` in `{kernel.name}` is masked by `{ast.unparse(mask)}`, "
                    f"which depends on the loaded values {', '.join(data)}: ")
            if backend == "ascend":
                message = (head + "the mask analysis only understands index bounds, so the "
                           "access becomes a full transfer plus a select"
                           + (" (a read of the destination, a select and a full write)."
                              if store else "."))
                needed = ["TTIR after discrete-mask-access-conversion: arith.select added at "
                          "this access", "msprof: MTE2 reads of the destination before each "
                          "MTE3 write"]
                confidence = 0.75 if store else 0.65
            else:
                message = (head + "a mask built from data has constancy 1 in the axis "
                           "analysis, so the access cannot be vectorised and becomes one "
                           "predicated element access per value"
                           + (" (each masked store writes the output in a partial pass)."
                              if store else "."))
                needed = ["PTX: 16/32-bit ld.global/st.global at this line",
                          "TTGIR: the access's mask derives from a tt.load"]
                confidence = 0.55 if store else 0.5
            matches.append(_match(module, kernel, op, "data-mask", confidence, message, needed,
                                  mask=ast.unparse(mask), data=data, store=store))
    return matches


@detector("scatter-atomics")
def scatter_atomics(module: KernelModule, backend: str) -> list[Match]:
    """Atomics whose address is a loaded index tile: one read-modify-write per element at
    data-chosen addresses (a histogram, an index_add), serialised wherever indices collide."""
    matches = []
    for kernel in module.kernels.values():
        for call in kernel.calls(*ATOMICS):
            pointer = pointer_of(call)
            if pointer is None:
                continue
            # a loaded index, per element or per row (`bag = tl.load(...)`; out + bag * D)
            data = _data_terms(kernel, pointer, call.lineno, scalars=True)
            runs = [] if data else _colliding_index(kernel, pointer, call.lineno)
            if not data and (not runs or contiguous_segment(kernel, pointer, call.lineno)):
                continue  # a row / segment per address: a reduction, the atomic-reduction idiom
            chosen = (f"the loaded index {', '.join(data)}" if data else
                      f"`{runs[0]}`, equal for runs of neighbouring lanes")
            matches.append(_match(
                module, kernel, call, "scatter-atomics", 0.75 if data else 0.7,
                f"`tl.{call_name(call)}` in `{kernel.name}` scatters one atomic per element to "
                f"addresses chosen by {chosen}: colliding indices "
                "serialise, and "
                + ("the Ascend front end scalarises the data-addressed atomic into an "
                   "element loop." if backend == "ascend" else
                   "each element is a global read-modify-write.")
                + " Aggregating first (an on-chip histogram, or sorting by index and summing "
                "runs) leaves one atomic or store per distinct index.",
                ["TTIR after triton-to-unstructure: scf.for of scalar atomics"
                 if backend == "ascend" else "PTX: red/atom.global per element",
                 "profile: time grows with index collisions"], index_tiles=data or runs))
    return matches


def _colliding_index(kernel: JitKernel, pointer: ast.expr, line: int) -> list[str]:
    """`offs // HW` in an atomic's address tile: a computed index that neighbouring lanes
    share, so one program's atomics already collide in runs (a per-channel or per-row sum)."""
    expanded = _expanded(kernel, pointer, line, keep=_positions(kernel))
    tiles = _index_tiles(kernel)
    return [ast.unparse(n) for n in ast.walk(expanded)
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.FloorDiv)
            and {m.id for m in ast.walk(n.left) if isinstance(m, ast.Name)} & tiles
            and not (isinstance(n.right, ast.Constant) and n.right.value == 1)]


def contiguous_segment(kernel: JitKernel, pointer: ast.expr, line: int) -> str:
    """`flat // L` as an atomic's address, flat the program's global element index
    (`pid * BLOCK + tl.arange`), with no `%` wrapping it and no other program-dependent term:
    each address receives one contiguous range of elements (a row, a segment), so the atomics
    are a segmented reduction one program per segment can do in registers. "" otherwise."""
    expanded = _expanded(kernel, pointer, line, depth=4)
    if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for n in ast.walk(expanded)):
        return ""
    pids = [n for n in ast.walk(expanded) if isinstance(n, ast.Call) and call_name(n) == "program_id"]
    for node in ast.walk(expanded):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv)):
            continue
        inside = [n for n in ast.walk(node.left) if isinstance(n, ast.Call)]
        if (any(call_name(n) == "arange" for n in inside)
                and sum(call_name(n) == "program_id" for n in inside) == len(pids) > 0
                and not any(isinstance(n, ast.Call) and call_name(n) == "arange" for n in ast.walk(node.right))
                and not (isinstance(node.right, ast.Constant) and node.right.value == 1)):
            return ast.unparse(node)
    return ""


CLAMPS = ("minimum", "maximum", "clamp")


CLAMP_COST = {
    "cuda": ("which the axis analysis cannot prove contiguous, so the access is issued one "
             "element at a time",
             ["PTX: 16/32-bit ld.global at this line where the unclamped index gives v4",
              "TTGIR: the access's contiguity 1 along the clamped axis"]),
    "ascend": ("a min or max of the range is no affine offset, so triton-to-unstructure cannot "
               "give the access a base and a stride and moves it element by element",
               ["TTIR after triton-to-unstructure: an scf.for of scalar accesses (DiscreteMemAccess)",
                "linalg: integer cmpi / select pairs on the index tile before the access"]),
}


@detector("clamped-index", ("cuda", "ascend"))
def clamped_index(module: KernelModule, backend: str) -> list[Match]:
    """An access whose contiguous index is clamped (`tl.minimum(cols, N - 1)`) to stay in bounds
    instead of being masked: on CUDA the axis analysis cannot prove a clamped range contiguous,
    so the load or store is split into one element per access; on Ascend the offset is not
    affine, so the access is scalarised into an element loop."""
    cost, evidence = CLAMP_COST.get(backend, CLAMP_COST["cuda"])
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for op in memory_ops(kernel):
            pointer = pointer_of(op)
            if pointer is None:
                continue
            clamp = next((c for t in additive_terms(pointer, shapes, op.lineno)
                          if (c := _clamp_of(t, shapes, op.lineno))
                          and _clamps_index_tile(kernel, shapes, c, op.lineno)), None)
            if clamp is None:
                continue
            matches.append(_match(
                module, kernel, op, "clamped-index", 0.55,
                f"`tl.{call_name(op)}` in `{kernel.name}` addresses memory at `{ast.unparse(clamp)[:60]}`: "
                f"an index tile clamped to stay in bounds instead of masked, {cost}; mask the "
                "lanes outside (`mask=cols < N`) and keep the index contiguous.",
                evidence, clamp=ast.unparse(clamp)))
    return matches


def _clamp_of(term: ast.expr, shapes: ShapeInference, line: int) -> ast.Call | None:
    """The clamp call a contiguous additive term is (`tl.minimum(cols, N - 1)`, also through
    `[None, :]` and a name bound to it); None for a term that is scaled (a row index times its
    stride)."""
    for _ in range(4):
        if isinstance(term, ast.Subscript):
            term = term.value
        elif isinstance(term, ast.Name) and (value := shapes.definition(term.id, line)) is not None:
            term = value
        else:
            break
    return term if isinstance(term, ast.Call) and call_name(term) in CLAMPS else None


def _clamps_index_tile(kernel: JitKernel, shapes: ShapeInference, call: ast.Call, line: int) -> bool:
    """One argument is an arange-derived tile and another a scalar bound."""
    tiles = _index_tiles(kernel) | {"arange"}
    args = list(call.args)
    indexed = [a for a in args if ({n.id for n in ast.walk(a) if isinstance(n, ast.Name)} & tiles
                                   or any(isinstance(n, ast.Call) and call_name(n) == "arange"
                                          for n in ast.walk(a))) and is_tile(shapes.shape(a, line))]
    scalars = [a for a in args if shapes.shape(a, line) == ()]
    return bool(indexed) and bool(scalars)


def _bound_first(cmp: ast.Compare, kernel: JitKernel, line: int) -> bool:
    """`N > offs`, `N - 1 >= offs`: the scalar bound on the left of an index tile."""
    shapes = ShapeInference(kernel)
    if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], ast.Gt | ast.GtE | ast.Lt | ast.LtE):
        return False
    left, right = shapes.shape(cmp.left, line), shapes.shape(cmp.comparators[0], line)
    return left == () and is_tile(right) and not _loaded(kernel, cmp)


def _loaded(kernel: JitKernel, node: ast.expr) -> bool:
    """`node` reads memory: through a name bound to a load, or a load of a tile (an address over
    an index tile) inlined into it; a scalar load inlined (a row's own bound) stays a position."""
    tiles = _index_tiles(kernel)
    return bool(depends_on(kernel, node) & loaded_names(kernel)) or any(
        isinstance(n, ast.Call) and call_name(n) == "load" and n.args
        and (names_in(n.args[0]) | depends_on(kernel, n.args[0])) & tiles for n in ast.walk(node))


def _expanded(kernel: JitKernel, node: ast.expr, line: ast.AST | int, depth: int = 3,
              keep: frozenset[str] = frozenset()) -> ast.expr:
    """`node` with local names bound once (before `line`) replaced by their values, except
    the names in `keep`."""
    if depth == 0:
        return node

    class Inline(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.expr:
            if name.id in keep:
                return name
            stmts = bindings_before(kernel, name.id, line)
            value = getattr(stmts[0], "value", None) if len(stmts) == 1 else None
            return _expanded(kernel, value, line, depth - 1, keep) if value is not None else name

    return Inline().visit(copy.deepcopy(node))


def _compares(mask: ast.expr) -> list[ast.Compare]:
    return [n for n in ast.walk(mask) if isinstance(n, ast.Compare)]


@detector("reversed-mask", ("ascend",))
def reversed_mask(module: KernelModule, backend: str) -> list[Match]:
    """A bounds mask written bound-first (`N > offs`) or through an operator the mask analysis
    does not parse (`!=`, `==`): MaskState::parse reads `index < bound` forms, so the access
    falls back to a full transfer plus a select."""
    matches = []
    for kernel in module.kernels.values():
        for op in memory_ops(kernel):
            mask = kwarg(op, "mask")
            if mask is None or call_name(op) in ATOMICS or _loaded(kernel, mask):
                continue
            full = _expanded(kernel, mask, op)
            reversed_ = [c for c in _compares(full) if _bound_first(c, kernel, op.lineno)]
            odd = [c for c in _compares(full) if isinstance(c.ops[0], ast.NotEq | ast.Eq)]
            negated = [n for n in ast.walk(full) if isinstance(n, ast.UnaryOp)
                       and isinstance(n.op, ast.Invert | ast.Not)]
            if not (reversed_ or odd or negated):
                continue
            how = (f"negates `{ast.unparse(negated[0].operand)}` (an xori the mask analysis "
                   "does not parse)" if negated else
                   f"compares as `{ast.unparse((reversed_ or odd)[0])}`"
                   + (", bound first" if reversed_ else ", an equality the mask analysis does "
                      "not read as a range"))
            matches.append(_match(
                module, kernel, op, "reversed-mask", 0.7,
                f"the mask `{ast.unparse(mask)}` of `tl.{call_name(op)}` in `{kernel.name}` "
                f"{how}: written as `index < bound` the access stays one masked transfer.",
                ["TTIR after discrete-mask-access-conversion: arith.select added at this access"],
                mask=ast.unparse(mask)))
    return matches


# A transposed tile that is only reduced or stored in its own order: the transpose stays a
# reading below the weakest hypothesis an IR symptom may confirm (the ladder's WEAK_CONFIRMED),
# so the strided-memref symptom confirms walking the contiguous axis instead.
SECOND_READING = 0.45


@detector("transposed-tile", ("ascend",))
def transposed_tile(module: KernelModule, backend: str) -> list[Match]:
    """A 2-D tile read with its last axis strided while another axis is unit-stride: on the
    NPU each row of the transfer is one element; loading the contiguous orientation and
    transposing on chip (tl.trans) keeps every transfer contiguous."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for op in memory_ops(kernel):
            if call_name(op) != "load":
                continue
            found = strided_fast_axis(module, kernel, op)
            if found is None:
                continue
            bound = orientation_bound(module, kernel, op)
            if not found[2] and not (bound and two_dimensional(kernel, op, shapes)):
                continue  # no axis is unit-stride and the tile keeps its order: walk another axis
            # a tile that is only reduced or stored back in its own order is better walked the
            # other way round (strided-access says so); the transpose stays a second reading
            how = ("while a slower axis is the contiguous one" if found[2] else
                   "and no unit-stride axis, and its values are used in another order (a store "
                   "or tile whose last axis is the unit-stride one)")
            matches.append(_match(
                module, kernel, op, "transposed-tile", 0.7 if bound else SECOND_READING,
                f"`tl.load` in `{kernel.name}` reads a tile whose last axis walks memory with "
                f"stride `{found[1]}` {how}: load the contiguous orientation and transpose on chip.",
                ["TTIR after triton-to-structured: non-unit stride on the innermost dimension",
                 "linalg: memref.reinterpret_cast with a non-unit last stride"],
                multiplier=found[1]))
    return matches


# Fields packed side by side in memory (pairs, xyxy boxes, rgb pixels) are few: a stride past
# this is a column of a matrix, not a record's fields.
MAX_FIELDS = 16


@detector("interleaved-fields", ("ascend", "cuda"))
def interleaved_fields(module: KernelModule, backend: str) -> list[Match]:
    """Two or more loads that read the fields of packed records one field at a time: the same
    address with the index scaled by a small constant stride S and constant offsets below S
    (`p + 2 * i`, `p + 2 * i + 1`; `p + 4 * i + 0..3`). Each is a strided transfer the NPU
    scalarises or pads to 32-byte fragments, while together they cover one contiguous run:
    one load of the run as a [BLOCK, S] tile and a split on chip (tl.reshape + tl.split, or a
    column slice) moves the same bytes as full bursts. On CUDA, where L1 serves a few-word
    record's fields from the lines the first field brought in, only records of
    GPU_RECORD_WORDS or more, loaded or stored field by field (record_field_groups)."""
    if backend == "cuda":
        return [_record_fields_match(module, kernel, group) for kernel in module.kernels.values()
                for group in record_field_groups(module, kernel, ShapeInference(kernel))]
    matches = []
    partner_lines: dict[str, set[int]] = {}
    for m in item_against_shared_tile(module, backend):
        partner_lines.setdefault(str(m.facts["kernel"]), set()).update(m.facts.get("partner_lines", []))  # type: ignore[arg-type]
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        env = _kernel_env(module, kernel)  # a record width named by a constexpr or a constant
        groups: dict[tuple[str, ...], list[tuple[int, int, ast.Call]]] = {}
        for op in memory_ops(kernel):
            if call_name(op) != "load":
                continue
            found = strided_fast_axis(module, kernel, op)
            stride = _as_int(found[1], env) if found is not None and not found[2] else None
            if stride is None or not 2 <= stride <= MAX_FIELDS:
                continue
            terms = additive_terms(pointer_of(op), shapes, op.lineno)  # type: ignore[arg-type]
            rest, offset = constant_split(terms)
            if 0 <= offset < stride:
                groups.setdefault((*rest, str(stride)), []).append((offset, stride, op))
        for op in memory_ops(kernel):
            found = strided_fast_axis(module, kernel, op) if call_name(op) == "load" else None
            if found is None or found[2]:
                continue
            width = found[1]
            loop = fields_walked_by_loop(kernel, op, width, shapes)
            if loop is not None:
                matches.append(_match(
                    module, kernel, op, "interleaved-fields", 0.7,
                    f"`{kernel.name}` reads the fields of packed `{width}`-wide records one per step "
                    f"of the loop at line {loop.lineno}, each a load with stride `{width}`: every "
                    "step is a strided transfer, while together they cover one contiguous run; load "
                    f"whole records as a [BLOCK, {width}] tile once and take the fields from it on chip.",
                    ["linalg: memref.reinterpret_cast with a non-unit last stride at the field load",
                     "TTIR after triton-to-unstructure: scalar loads in place of tensor loads"],
                    stride=width, fields=width))
        for loads in groups.values():
            fields = sorted({offset for offset, _, _ in loads})
            if len(fields) < 2:
                continue
            stride, op = loads[0][1], min((o for _, _, o in loads), key=lambda c: c.lineno)
            # fields of partners every program loads again for its one item: the re-reading
            # multiplies the strided loads' cost, so giving programs blocks of items comes first
            reread = {o.lineno for _, _, o in loads} & partner_lines.get(kernel.name, set())
            matches.append(_match(
                module, kernel, op, "interleaved-fields", 0.65 if reread else 0.7,
                f"`{kernel.name}` reads {len(fields)} fields of packed {stride}-wide records with "
                f"one stride-{stride} load each (offsets {', '.join(map(str, fields))}): every "
                "load is a strided transfer, while together they cover one contiguous run; load "
                f"the run as a [BLOCK, {stride}] tile and split the fields on chip.",
                ["linalg: memref.reinterpret_cast with a non-unit last stride at each field load",
                 "TTIR after triton-to-unstructure: scalar loads in place of tensor loads"],
                stride=stride, fields=len(fields)))
    return matches


def _record_fields_match(module: KernelModule, kernel: JitKernel,
                         group: tuple[str, int, int, list[ast.Call]]) -> Match:
    kind, width, fields, ops = group
    op = min(ops, key=lambda o: o.lineno)
    verb, tile = ("reads", "load whole records as one") if kind == "load" else ("writes", "assemble whole records on chip (tl.join + tl.reshape) and store them as one")
    how = (f"one stride-{width} {kind} per field" if len(ops) > 1 else
           f"a loop of stride-{width} {kind}s, one field per step")
    return _match(
        module, kernel, op, "interleaved-fields", 0.7,
        f"`{kernel.name}` {verb} {fields} fields of packed {width}-word records with {how}: "
        "neighbouring lanes are a record apart, so every warp request touches a sector per lane "
        f"while together the accesses cover one contiguous run; {tile} [BLOCK, {width}] tile"
        + (" and take the fields apart on chip (tl.reshape, tl.split or a column reduction)." if kind == "load" else "."),
        [f"PTX: one narrow {'ld' if kind == 'load' else 'st'}.global per field at the source lines",
         f"ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_{'ld' if kind == 'load' else 'st'} per request near 32"],
        stride=width, fields=fields)


def _index_tiles(kernel: JitKernel) -> set[str]:
    """Local names that hold tl.arange-derived index tiles."""
    return {name for name, stmts in kernel.assigns.items()
            if any(isinstance(n, ast.Call) and call_name(n) == "arange"
                   for s in stmts if getattr(s, "value", None) is not None
                   for n in ast.walk(s.value))}  # type: ignore[attr-defined]


def _positions(kernel: JitKernel) -> frozenset[str]:
    """Names not to inline when reading a condition: index tiles and program positions."""
    return frozenset(_index_tiles(kernel) | _program_positions(kernel))


def _index_vs_index(kernel: JitKernel, cond: ast.expr) -> list[ast.Compare]:
    """Comparisons of one index tile against another or against a program-dependent position
    (`cols <= rows`, `cols <= query`): a triangular or causal condition, not a bounds check."""
    tiles, out = _index_tiles(kernel), []
    params = {p.name for p in kernel.params}
    for cmp in _compares(cond):
        sides = [cmp.left, *cmp.comparators]
        names = [{n.id for n in ast.walk(side) if isinstance(n, ast.Name)} for side in sides]
        # a side built from an index tile through names (`cols = start + offs_n`, `q_chunk =
        # rows // block_len`) is a position too
        indexed = [bool((ns | depends_on(kernel, side)) & tiles) and not _reduced(side)
                   for ns, side in zip(names, sides, strict=True)]
        if len(sides) != 2 or not indexed[0] and not indexed[1]:
            continue
        other = names[1] if indexed[0] else names[0]
        # positions on both sides: the compare reads the same whichever side is written first
        data = [_loaded(kernel, side) for side in sides] if all(indexed) else [
            _loaded(kernel, sides[1 if indexed[0] else 0])]
        if other and not other <= params and not any(data):
            out.append(cmp)
        elif any(_tile_difference(side, tiles) and not indexed[1 - i] for i, side in enumerate(sides)) \
                and not _loaded(kernel, cmp):
            out.append(cmp)  # `rows - cols >= 0`, `(q - k).to(f32) >= 0`: the same triangle
    return out


def _reduced(node: ast.expr) -> bool:
    """A value reduced over an axis or made by a product (`tl.min(dist, axis=1)`, `tl.dot(q, k)`):
    what the data gives, not a position, however it was indexed."""
    return any(isinstance(n, ast.Call) and call_name(n) in (*REDUCE_OPS, "dot") for n in ast.walk(node))


def _reduced_compares(cond: ast.expr) -> set[int]:
    """The compares inside a reduced or multiplied value of `cond` (`tl.sum(ahead.to(f32),
    axis=1)`): they count or sum lanes and mark none of the condition's own (a rank computed
    from a triangle is no triangle)."""
    return {id(n) for call in ast.walk(cond) if isinstance(call, ast.Call)
            and call_name(call) in (*REDUCE_OPS, "dot") for n in ast.walk(call) if isinstance(n, ast.Compare)}


def _tile_difference(node: ast.expr, tiles: set[str]) -> bool:
    """`a - b` (through casts) where each side reads a different index tile: a distance between
    positions, so comparing it with a constant or a size draws a triangle or a band."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to":
        node = node.func.value
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)):
        return False
    left = {n.id for n in ast.walk(node.left) if isinstance(n, ast.Name)} & tiles
    right = {n.id for n in ast.walk(node.right) if isinstance(n, ast.Name)} & tiles
    return bool(left and right and left != right)


def _loaded_under(kernel: JitKernel, name: str, cond: ast.expr) -> bool:
    """`name` is loaded with `cond` already in its mask (`x = tl.load(p, mask=keep)` before
    `tl.where(keep, x, -inf)`): the select fills what the load skipped, nothing was read for it.
    A mask bound once may be written out at the load and named at the select."""
    spelled = bound_once(kernel, cond)
    for stmt in kernel.assigns.get(name, []):
        for call in ast.walk(stmt):
            mask = kwarg(call, "mask") if isinstance(call, ast.Call) and call_name(call) == "load" else None
            if mask is not None and (ast.dump(mask) in (ast.dump(cond), ast.dump(spelled))
                                     or isinstance(cond, ast.Name) and cond.id in names_in(mask)):
                return True
    return False


def _in_load_masks(kernel: JitKernel, compare: ast.Compare, names: set[str]) -> bool:
    """Every load of `names` has `compare` in its mask, written out or through names bound once
    (`exists = (j >= 1) & (partner < n)` masks the load, and the select's `ok = exists & ...`
    adds only a test of the loaded data): the load read nothing the compare drops."""
    wanted = ast.dump(compare)
    loads = [c for name in names for st in kernel.assigns.get(name, []) for c in ast.walk(st)
             if isinstance(c, ast.Call) and call_name(c) == "load"]
    keep = _positions(kernel)
    return bool(loads) and all(
        (mask := kwarg(c, "mask")) is not None
        and wanted in {ast.dump(m) for m in _compares(_expanded(kernel, mask, c, keep=keep))}
        for c in loads)


@detector("mask-after-load")
def mask_after_load(module: KernelModule, backend: str) -> list[Match]:
    """A tile loaded in full and then cut with tl.where(<position condition>, x, const): the
    elements the condition drops were read from memory for nothing; the condition belongs in
    the load's mask."""
    matches = []
    for kernel in module.kernels.values():
        loaded = loaded_names(kernel)
        for where in kernel.calls("where"):
            if len(where.args) < 3 or not _constant_like(where.args[2]):
                continue
            if _inside_loop_with_dot(kernel, where):
                continue  # the skip-masked-tiles idiom: a score tile, not a load
            cond = _expanded(kernel, where.args[0], where, keep=_positions(kernel))
            # (in a loop that already stops at the program's diagonal, a triangle is its edge)
            causal = [] if _inside_positional_loop(kernel, where) else _index_vs_index(kernel, cond)
            shapes = ShapeInference(kernel)
            value_loads = {n for n in depends_on(kernel, where.args[1]) & loaded
                           if is_tile(shapes.shape(ast.Name(n, ast.Load(), lineno=where.lineno),
                                                   where.lineno))
                           and not _loaded_under(kernel, n, where.args[0])}
            causal = causal or _narrower_bound(kernel, cond, value_loads)
            # a compare the loads' own masks already hold skipped those elements at the load
            causal = [c for c in causal if not _in_load_masks(kernel, c, value_loads)]
            if causal and _lane_pick(kernel, where, causal):
                # reading one lane of a tile the kernel uses whole: nothing was read for it alone
                value_loads = {n for n in value_loads if not _used_beyond(kernel, n, where)}
            if not causal or not value_loads:
                continue
            matches.append(_match(
                module, kernel, where, "mask-after-load", 0.65,
                f"`tl.where({ast.unparse(where.args[0])}, ...)` in `{kernel.name}` drops "
                f"elements of {', '.join(sorted(value_loads))} by position "
                f"(`{ast.unparse(causal[0])}`) after loading them all: the dropped part is read "
                "from memory for nothing; put the condition into the load's mask.",
                ["profile: bytes read above the bytes the result depends on"],
                condition=ast.unparse(causal[0])))
        matches += _span_products(module, kernel, loaded)
        matches += _loads_past_the_answer(module, kernel)
    return matches


def _lane_pick(kernel: JitKernel, where: ast.Call, causal: list[ast.Compare]) -> bool:
    """`tl.sum(tl.where(lanes == i, x, 0), axis=0)`: every dropping compare is an equality and the
    select is reduced at once: it reads lane `i` of `x`, a register pick, not a bound."""
    equal = all(len(c.ops) == 1 and isinstance(c.ops[0], ast.Eq) for c in causal)
    return equal and any(isinstance(n, ast.Call) and call_name(n) in REDUCE_OPS and n.args
                         and n.args[0] is where for n in ast.walk(kernel.node))


def _used_beyond(kernel: JitKernel, name: str, where: ast.Call) -> bool:
    """`name` is read somewhere other than inside `where` (`mix = mix * p ^ item` after the
    pick): the kernel needs the whole tile, so its load reads nothing for the pick alone."""
    inside = {id(n) for n in ast.walk(where)}
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               and id(n) not in inside for n in ast.walk(kernel.node))


def _loads_past_the_answer(module: KernelModule, kernel: JitKernel) -> list[Match]:
    """A loop that narrows a per-lane predicate set before it by what each step loads (`maybe =
    maybe & (bit != 0)` with `bit` loaded in the step: a Bloom probe, an all-of test, a search),
    where no load of the step is masked by the predicate: a lane whose answer is already known
    keeps loading until the loop ends. Those loads are the dropped part; the predicate belongs in
    their mask. (A loop that masks its work by the predicate, and only runs too long, is
    `retired-lanes-loop`'s.)"""
    shapes, found = ShapeInference(kernel), []
    for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For | ast.While)):
        # per-lane gathers: a tile loaded at addresses computed from data (a hash, a position
        # the step moved to), where each lane pays its own request
        loads = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"
                 and c.args and _loaded(kernel, c.args[0]) and is_tile(shapes.shape(c.args[0], c.lineno))]
        by_load = {t.id for n in ast.walk(loop) if isinstance(n, ast.Assign)
                   and any(c in loads for c in ast.walk(n.value))
                   for t in n.targets if isinstance(t, ast.Name)}
        # what gates the step's work: a load's or a store's mask, a select's condition
        conditions = [x for c in ast.walk(loop) if isinstance(c, ast.Call) and (
            x := (c.args[0] if c.args else None) if call_name(c) == "where"
            else kwarg(c, "mask") if call_name(c) in ("load", "store") else None) is not None]
        predicates = _narrowed_predicates(kernel, loop, shapes)
        for stmt in ast.walk(loop):
            if (name := _narrowed(stmt)) not in predicates:
                continue
            value = stmt.value  # type: ignore[attr-defined]
            fed = (names_in(value) | depends_on(kernel, value)) & by_load
            gated = [x for x in conditions if name in names_in(x) | depends_on(kernel, x)]
            if not fed or gated:
                continue
            found.append(_match(
                module, kernel, stmt, "mask-after-load", 0.65,
                f"`{kernel.name}` narrows the per-lane predicate `{name}` by what each step of the "
                f"loop over `{ast.unparse(loop.target) if isinstance(loop, ast.For) else ast.unparse(loop.test)}` "
                f"loads (`{ast.unparse(stmt)[:70]}`), but no load of the step is masked by it: a "
                "lane whose answer is already known keeps loading to the end. Mask the step's loads "
                f"with `{name}`.",
                ["profile: bytes read above the bytes the result depends on"],
                condition=name))
            break
    return found


def _span_products(module: KernelModule, kernel: JitKernel, loaded: set[str]) -> list[Match]:
    """A loaded tile multiplied by a condition cast to a number (`x * keep.to(tl.float32)`) whose
    compares bound an index tile by a span the program read from memory (`t >= start`, `t < end`
    with `start = tl.load(prompt_len + row)`), where the tile's load reads the whole row: the
    elements outside the span are read to be multiplied by zero; the span belongs in the mask."""
    tiles, shapes, found = _index_tiles(kernel), ShapeInference(kernel), []

    def condition(node: ast.expr) -> ast.expr | None:
        if isinstance(node, ast.Call) and call_name(node) == "to" and isinstance(node.func, ast.Attribute):
            node = node.func.value
        if isinstance(node, ast.Name):
            stmts = kernel.assigns.get(node.id, [])
            node = getattr(stmts[0], "value", None) if len(stmts) == 1 else None
        return node if node is not None and _compares(node) else None

    for product in (n for n in ast.walk(kernel.node) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)):
        for value, factor in ((product.left, product.right), (product.right, product.left)):
            cond = condition(factor)
            if cond is None:
                continue
            spans = [c for c in _compares(cond) if _loaded_bound(kernel, c, tiles, shapes)]
            values = {n for n in names_in(value) & loaded
                      if is_tile(shapes.shape(ast.Name(n, ast.Load(), lineno=product.lineno), product.lineno))
                      and not _loaded_under(kernel, n, factor.func.value if isinstance(factor, ast.Call) else factor)}
            if spans and values:
                found.append(_match(
                    module, kernel, product, "mask-after-load", 0.65,
                    f"`{ast.unparse(product)[:70]}` in `{kernel.name}` zeroes the elements of "
                    f"{', '.join(sorted(values))} outside a span it read from memory "
                    f"(`{ast.unparse(spans[0])}`) after loading the whole tile: the part outside "
                    "the span is read for nothing; put the span into the load's mask.",
                    ["profile: bytes read above the bytes the result depends on"],
                    condition=ast.unparse(spans[0])))
                return found
    return found


def _loaded_bound(kernel: JitKernel, cmp: ast.Compare, tiles: set[str], shapes: ShapeInference) -> bool:
    """`cmp` bounds an index tile by a scalar the kernel loaded (an item's own start or end)."""
    if len(cmp.ops) != 1:
        return False
    sides = [cmp.left, cmp.comparators[0]]
    indexed = [bool((names_in(s) | depends_on(kernel, s)) & tiles) for s in sides]
    if indexed.count(True) != 1:
        return False
    bound = sides[indexed.index(False)]
    scalars = {n for n in depends_on(kernel, bound) & loaded_names(kernel)
               if shapes.shape(ast.Name(n, ast.Load(), lineno=cmp.lineno), cmp.lineno) == ()}
    return bool(scalars)


def _bounded_tile(cmp: ast.Compare, tiles: set[str], data: set[str]) -> tuple[str, ast.expr] | None:
    """(index tile, bound) of `tile < bound` (or `bound > tile`, through casts and new axes):
    a position (one of `tiles`) compared with a value that is no position and no data."""
    if len(cmp.ops) != 1:
        return None
    sides = [cmp.left, cmp.comparators[0]]
    if isinstance(cmp.ops[0], ast.Gt | ast.GtE):
        sides.reverse()
    elif not isinstance(cmp.ops[0], ast.Lt | ast.LtE):
        return None
    tile, bound = sides
    while isinstance(tile, ast.Subscript) or (isinstance(tile, ast.Call) and call_name(tile) == "to"
                                              and isinstance(tile.func, ast.Attribute)):
        tile = tile.value if isinstance(tile, ast.Subscript) else tile.func.value
    if not (isinstance(tile, ast.Name) and tile.id in tiles) or names_in(bound) & (tiles | data):
        return None
    return tile.id, bound


def _narrower_bound(kernel: JitKernel, cond: ast.expr, value_loads: set[str]) -> list[ast.Compare]:
    """Compares of the select that bound an index tile the value's load bounds by something
    else (`tl.where(cols < dim, x, 0)` after `x = tl.load(p + cols, mask=cols < H)`): the load
    reads up to one bound and the select keeps only up to the other (a truncated prefix), so
    the part between them is read for nothing (were the select's bound the larger one, the
    select would change nothing)."""
    tiles, data = _index_tiles(kernel), loaded_names(kernel)
    found = []
    for cmp in _compares(cond):
        mine = _bounded_tile(cmp, tiles, data)
        if mine is None:
            continue
        for name in value_loads:
            loads = [c for st in kernel.assigns.get(name, []) for c in ast.walk(st)
                     if isinstance(c, ast.Call) and call_name(c) == "load"]
            masks = [m for c in loads if (m := kwarg(c, "mask")) is not None]
            bounds = [b for m in masks for c in _compares(m) if (b := _bounded_tile(c, tiles, data))]
            # (bounds of one size up to a constant, `W - 1` against `W`, cut a border, not a part)
            if any(tile == mine[0] and not names_in(bound) & names_in(mine[1]) for tile, bound in bounds):
                found.append(cmp)
                break
    return found


def _inside_positional_loop(kernel: JitKernel, node: ast.AST) -> bool:
    """Inside a for loop whose bound reads the program's position (a causal loop's end)."""
    positions = _program_positions(kernel)
    return any(isinstance(loop, ast.For) and any(n is node for n in ast.walk(loop))
               and (depends_on(kernel, loop.iter) & positions
                    or "program_id" in ast.unparse(loop.iter))
               for loop in ast.walk(kernel.node))


def _constant_like(node: ast.expr) -> bool:
    """A literal fill value however it is spelled: 0.0, -1e30, float("-inf"), -float("inf")."""
    if isinstance(node, ast.UnaryOp):
        return _constant_like(node.operand)
    if isinstance(node, ast.Call) and call_name(node) == "float" and len(node.args) == 1:
        return isinstance(node.args[0], ast.Constant)
    return isinstance(node, ast.Constant)


def _inside_loop_with_dot(kernel: JitKernel, node: ast.AST) -> bool:
    return any(isinstance(loop, ast.For) and any(n is node for n in ast.walk(loop))
               and any(isinstance(n, ast.Call) and call_name(n) == "dot" for n in ast.walk(loop))
               for loop in ast.walk(kernel.node))


@detector("full-kv-scan")
def full_kv_scan(module: KernelModule, backend: str) -> list[Match]:
    """A loop of tl.dot tiles that masks a triangle (`cols <= rows`) on every tile while its
    bound ignores the program's position: tiles entirely above the diagonal are loaded and
    multiplied only to be masked to -inf."""
    matches = []
    for kernel in module.kernels.values():
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            body = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
            loaded_here = {t.id for c in body if call_name(c) == "load"
                           for a in ast.walk(loop) if isinstance(a, ast.Assign)
                           and any(n is c for n in ast.walk(a.value))
                           for t in a.targets if isinstance(t, ast.Name)}
            # a score tile of a dot, or values this loop loaded, cut by position
            streamed = [w for w in body if call_name(w) == "where" and len(w.args) == 3
                        and depends_on(kernel, w.args[1]) & loaded_here]
            has_dot = any(call_name(c) == "dot" for c in body)
            if not has_dot and not streamed:
                continue
            wheres = [w for w in body if call_name(w) == "where"] if has_dot else [
                w for w in streamed if _constant_like(w.args[2])]
            # a select that fills what its value's load skipped under the same mask cuts no tile
            wheres = [w for w in wheres if not (len(w.args) == 3 and isinstance(w.args[1], ast.Name)
                                                and _loaded_under(kernel, w.args[1].id, w.args[0]))]
            # an ordering draws a triangle; `j != i` or `j == pos` cut a diagonal or a point,
            # which leaves no tile wholly outside for the loop to skip
            conditions = [(cond, _reduced_compares(cond)) for cond in
                          (_expanded(kernel, w.args[0], w, keep=_positions(kernel)) for w in wheres if w.args)]
            causal = [c for cond, reduced in conditions for c in _index_vs_index(kernel, cond)
                      if id(c) not in reduced
                      if all(isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for op in c.ops)]
            bound = depends_on(kernel, loop.iter)
            if bound & _program_positions(kernel) or "program_id" in ast.unparse(loop.iter):
                causal = []  # the loop already stops at the program's diagonal
            if causal:
                matches.append(_match(
                    module, kernel, loop, "full-kv-scan", 0.7,
                    f"`{kernel.name}` loops over every key tile (`{ast.unparse(loop.iter)}`) and "
                    f"masks a triangle (`{ast.unparse(causal[0])}`) on each: tiles wholly outside "
                    "the triangle are loaded and multiplied for nothing; end the loop at the "
                    "program's diagonal (and mask only the diagonal tile).",
                    ["profile: time grows with the full sequence, not the causal half"],
                    condition=ast.unparse(causal[0])))
                continue
            band = [c for w in wheres if len(w.args) == 3 and _constant_like(w.args[2])
                    for c in _conjuncts(w.args[0]) if _cuts_loop_range(kernel, loop, c)]
            if band:
                matches.append(_match(
                    module, kernel, loop, "full-kv-scan", 0.7,
                    f"`{kernel.name}` loops over `{ast.unparse(loop.iter)}` but keeps only the "
                    f"positions where `{ast.unparse(band[0])}`, a bound the loop's range does not "
                    "use: tiles wholly outside it are loaded and computed, then masked away; "
                    "start (or end) the loop at that bound and mask only its edge tile.",
                    ["profile: time grows with the whole range the loop walks, not the kept part"],
                    condition=ast.unparse(band[0])))
    return matches


def _conjuncts(cond: ast.expr) -> list[ast.Compare]:
    """The comparisons a condition requires all of (`a & (b >= c)[None, :]`); none under `|`
    or `~`, whose dropped region is not one side of a bound."""
    if isinstance(cond, ast.BinOp) and isinstance(cond.op, ast.BitAnd):
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    if isinstance(cond, ast.Subscript):
        return _conjuncts(cond.value)
    return [cond] if isinstance(cond, ast.Compare) and len(cond.ops) == 1 else []


def _range_bounds(loop: ast.For) -> tuple[ast.expr, ast.expr] | None:
    """(start, stop) of `for x in range(...)` / `tl.range(...)` / `tl.static_range(...)`."""
    if not _is_range_loop(loop) or not loop.iter.args:  # type: ignore[attr-defined]
        return None
    it: ast.Call = loop.iter  # type: ignore[assignment]
    if len(it.args) == 1:
        return ast.Constant(0), it.args[0]
    return it.args[0], it.args[1]


def _cuts_loop_range(kernel: JitKernel, loop: ast.For, cmp: ast.Compare) -> bool:
    """`pos >= lo` / `pos < hi` where `pos` moves with the loop and the scalar bound brings in
    names the loop's own start (for >=) or stop (for <) does not read: the iterations on the
    far side of the bound keep nothing (a sliding window's start inside a loop from 0, a
    sequence's own length inside a loop to the batch's longest). A tail check against the
    loop's own stop (`pos < n` in `range(0, n, B)` or `range(cdiv(n, B))`) does not cut, nor does
    a bound on a program's chunk of the range (a split of the keys), nor a comparison of data."""
    bounds = _range_bounds(loop)
    if bounds is None or not isinstance(loop.target, ast.Name):
        return False
    tiles = _index_tiles(kernel)
    left, right = cmp.left, cmp.comparators[0]
    op = cmp.ops[0]
    moving = [loop.target.id in depends_on(kernel, side) and bool(depends_on(kernel, side) & tiles)
              and not _loaded(kernel, side) for side in (left, right)]  # a position, not data
    if moving[0] == moving[1]:
        return False
    pos, bound = (left, right) if moving[0] else (right, left)
    if isinstance(op, ast.Gt | ast.GtE):
        keeps_above = moving[0]
    elif isinstance(op, ast.Lt | ast.LtE):
        keeps_above = not moving[0]
    else:
        return False
    bound_names = depends_on(kernel, bound) - {"tl", "triton"}
    if not bound_names or bound_names & tiles or loop.target.id in bound_names:
        return False
    edge = bounds[0] if keeps_above else bounds[1]
    if depends_on(kernel, edge) & _program_positions(kernel) or "program_id" in ast.unparse(edge):
        return False  # a program's chunk of the range: past the bound is only the last chunk's tail
    return bool(bound_names - depends_on(kernel, edge))


@detector("gated-iteration")
def gated_iteration(module: KernelModule, backend: str) -> list[Match]:
    """A loop that loads (and multiplies) a tile on every iteration, then discards the whole
    iteration's result with `tl.where(flag, x, ...)` on a scalar flag that varies with the loop
    (a block selected or not, an expert routed to or not): every skipped iteration's loads and
    dots are paid for nothing, where an `if flag:` or a loop over the kept indices skips them."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            targets = names_in(loop.target)
            body = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
            loads = [c for c in body if call_name(c) == "load"]
            stores = [c for c in body if call_name(c) == "store"]
            has_dot = any(call_name(c) == "dot" for c in body)
            if not loads or not (has_dot or len(loads) + len(stores) >= 2):
                continue  # (a load and a store per step: a step's traffic both ways)
            tested = set().union(*(names_in(n.test) for n in ast.walk(loop) if isinstance(n, ast.If | ast.While)))
            gates = [w for w in body if call_name(w) == "where" and len(w.args) == 3
                     and shapes.shape(w.args[0], w.lineno) == ()
                     and (depends_on(kernel, w.args[0]) | names_in(w.args[0])) & targets
                     and not names_in(w.args[0]) & tested
                     and _keeps_loaded(kernel, w) and not _boundary_step(kernel, loop, w, targets)]
            if not gates:
                continue
            gate = gates[0]
            matches.append(_match(
                module, kernel, gate, "gated-iteration", 0.7,
                f"`{kernel.name}` loads {len(loads)} tile(s) on every iteration of the loop over "
                f"`{ast.unparse(loop.target)}` and then keeps or discards the whole result by the "
                f"scalar flag `{ast.unparse(gate.args[0])[:60]}`: the discarded iterations' loads"
                + (" and dots" if has_dot else "")
                + " are paid for nothing; skip them (`if` on the flag, or loop over the kept indices).",
                ["profile: time grows with the loop's full range, not with the kept iterations"],
                flag=ast.unparse(gate.args[0]), discarded_steps=[loop.lineno, loop.end_lineno]))
    return matches


def _boundary_step(kernel: JitKernel, loop: ast.For, where: ast.Call, targets: set[str]) -> bool:
    """`tl.where(k == 0, edge, interior)`: the flag singles out one value of the loop's index
    (the first level, the last step) and the loaded values sit only in the arm the other
    iterations take: one iteration's work is replaced by a boundary value, none is thrown away
    on the rest. (`tl.where(e == chosen, tile, acc)` keeps a loaded tile on one iteration only
    and drops it on all the others: a gate.)"""
    cond = where.args[0]
    if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1
            and isinstance(cond.ops[0], ast.Eq | ast.NotEq)):
        return False
    sides = [depends_on(kernel, side) | names_in(side) for side in (cond.left, cond.comparators[0])]
    every_load = loaded_names(kernel)
    # the index itself against one value (a flag loaded per step is data: `keep != 0` gates)
    if sum(bool(side & targets) for side in sides) != 1 or any(side & every_load for side in sides):
        return False
    inside = {id(n) for n in ast.walk(loop)}
    # what the iterations load (a value loaded once before the loop costs no step anything)
    loaded = {name for name in every_load if any(id(a) in inside for a in kernel.assigns.get(name, []))}

    def loads_in(arm: ast.expr) -> bool:
        return bool((depends_on(kernel, arm) | names_in(arm)) & loaded) or any(
            isinstance(n, ast.Call) and call_name(n) == "load" for n in ast.walk(arm))

    single = where.args[1] if isinstance(cond.ops[0], ast.Eq) else where.args[2]
    rest = where.args[2] if isinstance(cond.ops[0], ast.Eq) else where.args[1]
    return loads_in(rest) and not loads_in(single)


def _keeps_loaded(kernel: JitKernel, where: ast.Call) -> bool:
    """The select keeps or drops a value computed from memory the step loaded beyond what its
    flag reads (`tl.where(hit, x, last)` keeps a position: the flag's own load is the step's
    work, nothing loaded is thrown away)."""
    loaded = loaded_names(kernel)
    flag = (depends_on(kernel, where.args[0]) | names_in(where.args[0])) & loaded
    kept = set().union(*((depends_on(kernel, a) | names_in(a)) & loaded for a in where.args[1:]))
    inline = any(isinstance(n, ast.Call) and call_name(n) == "load"
                 for a in where.args[1:] for n in ast.walk(a))
    return inline or bool(kept - flag)


def _narrowed(stmt: ast.AST) -> str | None:
    """The name a statement narrows by itself (`alive = alive & ~done`, `live &= x > 0`)."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.BitAnd) and isinstance(stmt.target, ast.Name):
        return stmt.target.id
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
            and isinstance(stmt.value, ast.BinOp) and isinstance(stmt.value.op, ast.BitAnd):
        name = stmt.targets[0].id
        # `live = live & a & b` nests: any operand of the chain of `&` may be the mask itself
        if any(isinstance(side, ast.Name) and side.id == name for side in _and_operands(stmt.value)):
            return name
    return None


def _narrowed_predicates(kernel: JitKernel, loop: ast.For | ast.While, shapes: ShapeInference) -> set[str]:
    """Per-lane predicates `loop` only narrows (`_narrowed`): tiles set before the loop."""
    inside = {id(n) for n in ast.walk(loop)}
    return {name for stmt in ast.walk(loop) if (name := _narrowed(stmt)) is not None
            and any(id(a) not in inside for a in kernel.assigns.get(name, []))
            and is_tile(shapes.shape(name_node(name), stmt.lineno))}


def _and_operands(node: ast.expr) -> list[ast.expr]:
    """The operands of a chain of `&` (`a & b & c` is `(a & b) & c`), in order."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        return _and_operands(node.left) + _and_operands(node.right)
    return [node]


# A record written once per lane is a certain retirement (no later step can change it), surer
# than a liveness mask the loop narrows by data: only how much of the range is left is unknown.
FIRST_HIT_CONFIDENCE = 0.65


def _first_hit(stmt: ast.AST, targets: set[str]) -> str | None:
    """The name a statement records each lane's first hit in, with the loop's index: `first =
    tl.where(hit & (k < first), k, first)` or `(first == NONE)` (the write tests the record
    itself, so it happens once per lane), or `first = tl.minimum(first, tl.where(hit, k, BIG))`
    (an ascending index: the first hit is the least)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)):
        return None
    name, value = stmt.targets[0].id, stmt.value
    if call_name(value) == "where" and len(value.args) == 3:
        cond, hit, kept = value.args
        if isinstance(kept, ast.Name) and kept.id == name and names_in(hit) & targets \
                and name in names_in(cond):
            return name
    if call_name(value) == "minimum" and len(value.args) == 2:
        own = [a for a in value.args if isinstance(a, ast.Name) and a.id == name]
        other = [a for a in value.args if not (isinstance(a, ast.Name) and a.id == name)]
        if own and other and call_name(other[0]) == "where" and len(other[0].args) == 3 \
                and names_in(other[0].args[1]) & targets and name not in names_in(other[0].args[0]):
            return name
    return None


def _first_hit_loops(kernel: JitKernel, shapes: ShapeInference) -> list[tuple[ast.For, str, int]]:
    """Loops over a range that record each lane's first hit in a tile set before the loop, load
    on every iteration, and never look at the record to stop: (loop, record, loads)."""
    found = []
    for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
        inside = {id(n) for n in ast.walk(loop)}
        targets = names_in(loop.target)
        records = {name for stmt in ast.walk(loop) if (name := _first_hit(stmt, targets)) is not None
                   and any(id(a) not in inside for a in kernel.assigns.get(name, []))
                   and is_tile(shapes.shape(name_node(name), stmt.lineno))}
        loads = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"]
        tested = set().union(*(depends_on(kernel, n.test)
                               for n in ast.walk(loop) if isinstance(n, ast.If | ast.While)))
        breaks = any(isinstance(n, ast.Break) for n in ast.walk(loop))
        if records and loads and not records & tested and not breaks:
            found.append((loop, sorted(records)[0], len(loads)))
    return found


@detector("retired-lanes-loop")
def retired_lanes_loop(module: KernelModule, backend: str) -> list[Match]:
    """A loop that carries a per-lane liveness mask (a tile of booleans set before the loop and
    only ever narrowed inside it: `alive = alive & ~done`) and masks its work with it, but whose
    trip count never looks at it: once every lane has retired, the remaining iterations still
    load and compute for nothing (front-to-back compositing past full opacity, a search whose
    lanes all found their answer). A while loop that also stops when no lane is live skips them."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            narrowed = _narrowed_predicates(kernel, loop, shapes)
            if not narrowed:
                continue
            calls = [c for c in ast.walk(loop) if isinstance(c, ast.Call)]
            loads = [c for c in calls if call_name(c) == "load"]
            # the mask (or a name computed from it) gates the iteration's work
            gate_names = narrowed | {t.id for n in ast.walk(loop) if isinstance(n, ast.Assign)
                                     and names_in(n.value) & narrowed
                                     for t in n.targets if isinstance(t, ast.Name)}
            used = [c for c in calls if call_name(c) in ("where", "load", "store")
                    and names_in(c.args[0] if call_name(c) == "where" and c.args else
                                 kwarg(c, "mask") or ast.Constant(0)) & gate_names]
            tested = set().union(*(names_in(n.test) for n in ast.walk(loop) if isinstance(n, ast.If | ast.While)))
            if len(loads) < 2 or not used or narrowed & tested:
                continue
            name = sorted(narrowed)[0]
            matches.append(_match(
                module, kernel, loop, "retired-lanes-loop", 0.6,
                f"`{kernel.name}` narrows the per-lane mask `{name}` on every iteration of the loop "
                f"over `{ast.unparse(loop.target)}` and masks the work with it, but the loop runs its "
                "whole range whatever the mask holds: after every lane has retired, each remaining "
                f"iteration still issues its {len(loads)} loads and its arithmetic for nothing. Stop "
                "the loop when no lane is live (a while loop on the count of live lanes).",
                ["profile: time grows with the loop's full range, not with the lanes' live steps"],
                mask=name))
        for loop, record, loads in _first_hit_loops(kernel, shapes):
            if any(m.line == loop.lineno for m in matches):
                continue
            matches.append(_match(
                module, kernel, loop, "retired-lanes-loop", FIRST_HIT_CONFIDENCE,
                f"`{kernel.name}` records each lane's first hit in `{record}` on the loop over "
                f"`{ast.unparse(loop.target)}`, but the loop runs its whole range whatever `{record}` "
                "holds: once every lane has found its hit, each remaining iteration still issues its "
                f"{loads} load(s) and its arithmetic for nothing. Stop the loop when no lane is still "
                "searching (a while loop on the count of pending lanes).",
                ["profile: time grows with the loop's full range, not with the lanes' live steps"],
                mask=record))
    return matches


@detector("gated-program")
def gated_program(module: KernelModule, backend: str) -> list[Match]:
    """A kernel whose every store is masked by a scalar read from memory (`slot >= 0` for a slot
    loaded from a block map), while its tile loads (and dots) run unconditionally before: the
    programs whose flag is off do the kept programs' work and write nothing. An `if` on the flag
    (an early exit) or loads masked by it are the fix's forms, not the defect."""
    matches = []
    for kernel in module.kernels.values():
        stores, loads = kernel.calls("store"), kernel.calls("load")
        if not stores or not loads or any(_loops_around(kernel, st) for st in stores):
            continue
        shapes = ShapeInference(kernel)
        loaded = loaded_names(kernel)
        gates: list[ast.Compare] = []
        for st in stores:
            mask = kwarg(st, "mask") or (st.args[2] if len(st.args) > 2 else None)
            cond = _expanded(kernel, mask, st, keep=frozenset(loaded)) if mask is not None else None
            flag = [c for c in _compares(cond) if shapes.shape(c, st.lineno) == ()
                    and (depends_on(kernel, c) & loaded)] if cond is not None else []
            if not flag:
                break
            gates.append(flag[0])
        else:
            gate_names = set().union(*(names_in(g) for g in gates))
            tested = set().union(*(names_in(n.test) for n in ast.walk(kernel.node)
                                   if isinstance(n, ast.If | ast.While | ast.IfExp)))
            tiles = [ld for ld in loads if is_tile(shapes.shape(ld, ld.lineno))
                     and not names_in(kwarg(ld, "mask") or ast.Constant(0)) & gate_names]
            has_dot = bool(kernel.calls("dot"))
            if gate_names & tested or not tiles or not (has_dot or len(tiles) >= 2):
                continue
            gate = gates[0]
            matches.append(_match(
                module, kernel, stores[0], "gated-program", 0.7 if has_dot else 0.55,
                f"`{kernel.name}` loads {len(tiles)} tile(s)" + (" and multiplies them" if has_dot else "")
                + f" in every program, then stores only where `{ast.unparse(gate)}`, a flag read "
                "from memory: the programs whose flag is off do the same work and write nothing; "
                "launch programs only for the kept work, or leave before the loads when the flag is off.",
                ["profile: time grows with the launched grid, not with the programs that store"],
                flag=ast.unparse(gate)))
    return matches


def _tile_over_constant(node: ast.AST | None, tiles: set[str]) -> bool:
    """`i // k`: an index tile (a name in `tiles`) floor-divided by an integer constant k >= 2."""
    return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv)
            and isinstance(node.right, ast.Constant) and isinstance(node.right.value, int)
            and node.right.value >= 2 and bool(names_in(node.left) & tiles))


@detector("repeated-address-load", ("ascend",))
def repeated_address_load(module: KernelModule, backend: str) -> list[Match]:
    """A load whose offset is an index tile floor-divided by a constant (`cols // 32` into a
    bitmask, `k // 8` into packed int4 words): neighbouring lanes read the same address k times,
    an offset the NPU's analysis cannot make affine, so the load becomes a discrete gather, one
    scalar access per lane. Loading the distinct words once (a tile of BLOCK // k) and expanding
    them on chip (broadcast and shift, or reshape) is one contiguous transfer."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        tiles = _index_tiles(kernel)
        divided = {name: stmt.value for name, stmts in kernel.assigns.items() for stmt in stmts
                   if _tile_over_constant(getattr(stmt, "value", None), tiles | {name})}
        for op in memory_ops(kernel):
            if call_name(op) != "load":
                continue
            pointer = pointer_of(op)
            inline = [n for n in ast.walk(pointer) if _tile_over_constant(n, tiles)]  # type: ignore[arg-type]
            used = sorted(names_in(pointer) & set(divided))  # type: ignore[arg-type]
            found = inline[0] if inline else (divided[used[0]] if used else None)
            if found is None or not is_tile(shapes.shape(op, op.lineno)):
                continue
            k = found.right.value  # type: ignore[attr-defined]
            matches.append(_match(
                module, kernel, op, "repeated-address-load", 0.65,
                f"`tl.load` in `{kernel.name}` addresses memory with `{ast.unparse(found)}`: each "
                f"address is read by {k} neighbouring lanes, an offset the NPU cannot make affine, "
                f"so the load is a discrete gather; load the distinct words once ([BLOCK // {k}]) and "
                "expand them on chip.",
                ["TTIR after triton-to-unstructure: scalar loads in place of one tensor load"],
                repeat=k))
    return matches


@detector("rand-per-element")
def rand_per_element(module: KernelModule, backend: str) -> list[Match]:
    """tl.rand/randn/randint once per element: a full Philox evaluation per value, where
    tl.rand4x/randint4x give four values per evaluation."""
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for call in kernel.calls("rand", "randn", "randint"):
            if len(call.args) < 2 or not is_tile(shapes.shape(call.args[1], call.lineno)):
                continue
            matches.append(_match(
                module, kernel, call, "rand-per-element", 0.7,
                f"`tl.{call_name(call)}` in `{kernel.name}` runs one Philox evaluation per "
                f"element of `{ast.unparse(call.args[1])}`: integer-multiply bound; "
                f"`tl.{call_name(call)}4x` draws four values per evaluation.",
                ["profile: compute-bound on integer pipes at low DRAM throughput"]))
    return matches
