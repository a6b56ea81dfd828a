"""2-D tile accesses of a GEMM kernel read from its AST: a `tl.load`/`tl.store` whose pointer is
`base + ROWS[:, None] * s0 + COLS[None, :] * s1`, with each index vector traced back to
`start + tl.arange(0, BLOCK)` and its mask to `vector < extent` bounds. What a tensor
descriptor needs (base, shape, strides, block shape, tile offsets) is then plain source text."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .launchargs import is_constexpr
from .source import Source, calls_named, dotted, int_value

HINT_WRAPPERS = ("tl.max_contiguous", "tl.multiple_of")


@dataclass
class TileDim:
    """One axis of a tile: its first index, block, stride parameter (None: unit) and extent."""

    start: str
    block: str
    stride: str | None
    extent: str
    vector: str  # source text of the index vector, to match masks against


@dataclass
class TileAccess:
    call: ast.Call
    base: str
    rows: TileDim
    cols: TileDim

    def descriptor_key(self) -> tuple:
        return (self.base, self.rows.extent, self.cols.extent, self.rows.stride,
                self.rows.block, self.cols.block)


class KernelScope:
    """A kernel's parameters and its single-assignment locals, to trace index vectors."""

    def __init__(self, src: Source, fn: ast.FunctionDef) -> None:
        self.src, self.fn = src, fn
        self.params = {a.arg: a for a in fn.args.args}
        counts: dict[str, list[ast.expr]] = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                for t in targets:
                    for name in (t.elts if isinstance(t, ast.Tuple) else [t]):
                        if isinstance(name, ast.Name):
                            counts.setdefault(name.id, []).append(
                                n.value if isinstance(n, ast.Assign) and len(targets) == 1
                                and isinstance(t, ast.Name) else None)
        self.bound = {k: v[0] for k, v in counts.items() if len(v) == 1 and v[0] is not None}
        self.assigned = set(counts)
        self.loops = {n.target.id: n for n in ast.walk(fn) if isinstance(n, ast.For)
                      and isinstance(n.target, ast.Name)}

    def is_runtime_param(self, text: str) -> bool:
        """A runtime parameter the kernel never reassigns (`a_ptr += batch * stride`): what a
        descriptor built at the kernel's top may read."""
        return text in self.params and not is_constexpr(self.params[text]) and text not in self.assigned

    def is_block(self, text: str) -> bool:
        return (text in self.params and is_constexpr(self.params[text])) or text.isdigit()

    def vector(self, node: ast.expr) -> tuple[str, str, str | None] | None:
        """(first index, block, wrap extent) of an index vector `start + tl.arange(0, BLOCK)`,
        perhaps wrapped `(...) % M` (rows past M re-read valid ones a store never keeps: M is
        the extent); None for a scalar."""
        if isinstance(node, ast.Call) and dotted(node.func) == "tl.arange" and len(node.args) == 2:
            return ("0", self.src.segment(node.args[1]), None) if int_value(node.args[0]) == 0 else None
        if isinstance(node, ast.Call) and dotted(node.func) in HINT_WRAPPERS and node.args:
            return self.vector(node.args[0])
        if isinstance(node, ast.Name) and node.id in self.bound:
            return self.vector(self.bound[node.id])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            inner = self.vector(node.left)
            wrap = node.right.id if isinstance(node.right, ast.Name) and self.is_runtime_param(node.right.id) else None
            return (inner[0], inner[1], wrap) if inner and wrap else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.vector(node.left), self.vector(node.right)
            if (left is None) == (right is None):
                return None
            vec, scalar = (left, node.right) if left else (right, node.left)
            if not self.is_scalar(scalar) or vec[2]:
                return None
            text = self.src.segment(scalar)
            return (text if vec[0] == "0" else f"{text} + {vec[0]}"), vec[1], None
        return None

    def is_scalar(self, node: ast.expr) -> bool:
        if any(isinstance(n, ast.Call) and dotted(n.func) in ("tl.arange", "tl.load") for n in ast.walk(node)):
            return False
        return not any(isinstance(n, ast.Name) and n.id in self.bound and not self.is_scalar(self.bound[n.id])
                       for n in ast.walk(node))


def _terms(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _terms(node.left) + _terms(node.right)
    return [node]


def _axis(node: ast.expr) -> tuple[int, ast.expr] | None:
    """`v[:, None]` -> (0, v); `v[None, :]` -> (1, v)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2):
        return None
    a, b = node.slice.elts
    full = [isinstance(e, ast.Slice) and e.lower is e.upper is e.step is None for e in (a, b)]
    none = [isinstance(e, ast.Constant) and e.value is None for e in (a, b)]
    if full[0] and none[1]:
        return 0, node.value
    if none[0] and full[1]:
        return 1, node.value
    return None


def _pointer(scope: KernelScope, ptr: ast.expr) -> tuple[str, dict[int, tuple[ast.expr, str | None]]] | None:
    """base parameter and {axis: (index vector, stride parameter or None)} of a 2-D tile pointer."""
    base, axes = None, {}
    for term in _terms(ptr):
        if isinstance(term, ast.Name) and scope.is_runtime_param(term.id):
            if base is not None:
                return None
            base = term.id
            continue
        stride, indexed = None, term
        if isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult):
            for v, s in ((term.left, term.right), (term.right, term.left)):
                if _axis(v) and isinstance(s, ast.Name) and scope.is_runtime_param(s.id):
                    indexed, stride = v, s.id
                    break
        hit = _axis(indexed)
        if hit is None or hit[0] in axes:
            return None
        axes[hit[0]] = (hit[1], stride)
    return (base, axes) if base is not None and len(axes) == 2 else None


@dataclass
class PointerWalk:
    """`p = base + ...` before the K loop, `p += BLOCK * stride` at the end of its body: at the
    load, the tile has moved `offset` along the axis of `stride`."""

    init: ast.expr
    stride: str
    block: str
    offset: str        # the load's shift along that axis, in the loop variable
    shifts: set[str]   # how a mask writes that shift (`k * BLOCK`), normalised by ast.unparse


def _walk(scope: KernelScope, name: str, loop: ast.For, call: ast.Call) -> PointerWalk | None:
    sets = [n for n in ast.walk(scope.fn) if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)
            and any(isinstance(t, ast.Name) and t.id == name
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    init = [n for n in sets if isinstance(n, ast.Assign) and len(n.targets) == 1 and n.lineno < loop.lineno]
    step = [n for n in sets if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and n in loop.body]
    if len(sets) != 2 or len(init) != 1 or len(step) != 1 or step[0].lineno < call.lineno \
            or not isinstance(loop.target, ast.Name):
        return None
    value = step[0].value
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult)):
        return None
    for b, st in ((value.left, value.right), (value.right, value.left)):
        block, stride = scope.src.segment(b), scope.src.segment(st)
        if scope.is_block(block) and scope.is_runtime_param(stride):
            break
    else:
        return None
    var, args = loop.target.id, loop.iter.args if isinstance(loop.iter, ast.Call) else []
    if not (isinstance(loop.iter, ast.Call) and dotted(loop.iter.func) == "range") or \
            (len(args) >= 2 and int_value(args[0]) != 0):
        return None
    if len(args) == 3:  # range(0, K, BLOCK): the variable is the shift itself
        return PointerWalk(init[0].value, stride, block, var, {var}) \
            if scope.src.segment(args[2]) == block else None
    return PointerWalk(init[0].value, stride, block, f"{var} * {block}",
                       {f"{var} * {block}", f"{block} * {var}"})


def _bounds(scope: KernelScope, mask: ast.expr | None, walk: PointerWalk | None = None
            ) -> dict[str, tuple[str, bool]] | None:
    """{vector text: (extent, shifted)} of a mask made only of `v[..] < extent` terms joined by &
    (`v < K - k * BLOCK` is shifted: the walked axis); None when the mask says anything else (a
    select the descriptor's bounds would drop)."""
    if isinstance(mask, ast.Name) and mask.id in scope.bound:
        mask = scope.bound[mask.id]
    if mask is None:
        return {}
    if isinstance(mask, ast.BinOp) and isinstance(mask.op, ast.BitAnd):
        left, right = _bounds(scope, mask.left, walk), _bounds(scope, mask.right, walk)
        return None if left is None or right is None else {**left, **right}
    if isinstance(mask, ast.Compare) and len(mask.ops) == 1 and isinstance(mask.ops[0], ast.Lt):
        hit = _axis(mask.left)
        extent = mask.comparators[0]
        if hit is None:
            return None
        if isinstance(extent, ast.Name) and scope.is_runtime_param(extent.id):
            return {scope.src.segment(hit[1]): (extent.id, False)}
        if (walk and isinstance(extent, ast.BinOp) and isinstance(extent.op, ast.Sub)
                and isinstance(extent.left, ast.Name) and scope.is_runtime_param(extent.left.id)
                and ast.unparse(extent.right) in walk.shifts):
            return {scope.src.segment(hit[1]): (extent.left.id, True)}
    return None


def _loop_extent(scope: KernelScope, var: str) -> str | None:
    """The K extent a loop walks: `for k in range(0, K, BLOCK_K)` or `range(tl.cdiv(K, BLOCK_K))`."""
    loop = scope.loops.get(var)
    args = loop.iter.args if loop and isinstance(loop.iter, ast.Call) else []
    stop = args[1] if len(args) >= 2 else args[0] if args else None
    if isinstance(stop, ast.Call) and dotted(stop.func) == "tl.cdiv" and stop.args and len(args) < 3:
        stop = stop.args[0]
    return stop.id if isinstance(stop, ast.Name) and scope.is_runtime_param(stop.id) else None


def tile_access(scope: KernelScope, call: ast.Call, known: dict[str, str],
                loop: ast.For | None = None) -> TileAccess | None:
    """The tile a load (pointer, mask, zero `other`) or store (pointer, value, mask) reads or
    writes; in the K loop the pointer may be a local the loop walks (`a_ptrs += BLOCK_K * s`)."""
    kw = {k.arg: k.value for k in call.keywords}
    is_load = dotted(call.func) == "tl.load"
    allowed = {"mask", "other"} if is_load else {"mask"}
    if set(kw) - allowed or not call.args or len(call.args) != (1 if is_load else 2):
        return None
    if is_load and "other" in kw and not (isinstance(kw["other"], ast.Constant) and kw["other"].value in (0, 0.0)):
        return None
    ptr, walk = call.args[0], None
    if isinstance(ptr, ast.Name) and ptr.id in scope.bound:
        ptr = scope.bound[ptr.id]
    elif isinstance(ptr, ast.Name) and loop is not None:
        walk = _walk(scope, ptr.id, loop, call)
        ptr = walk.init if walk else ptr
    parsed = _pointer(scope, ptr)
    bounds = _bounds(scope, kw.get("mask"), walk)
    if parsed is None or bounds is None:
        return None
    dims = [_dim(scope, *parsed[1][axis], bounds, known, walk) for axis in (0, 1)]
    if None in dims or dims[0].stride is None:
        return None  # unit stride on the rows: a column-major tile, not a descriptor's layout
    if walk and not any(d.stride == walk.stride and d.block == walk.block for d in dims):
        return None
    return TileAccess(call, parsed[0], dims[0], dims[1])


def _dim(scope: KernelScope, vec_node: ast.expr, stride: str | None, bounds: dict[str, tuple[str, bool]],
         known: dict[str, str], walk: PointerWalk | None) -> TileDim | None:
    vec = scope.vector(vec_node)
    if vec is None or not scope.is_block(vec[1]):
        return None
    start, block, wrap = vec
    text = scope.src.segment(vec_node)
    bound = bounds.get(text)
    if walk and stride == walk.stride:  # the axis the pointer walks: only a shifted bound holds
        start = walk.offset if start == "0" else f"{start} + {walk.offset}"
        extent = bound[0] if bound and bound[1] else None if bound else \
            _loop_extent(scope, walk.offset.split(" ")[0])
    else:
        extent = bound[0] if bound and not bound[1] else None if bound else \
            wrap or known.get(text) or _loop_extent(scope, start.split(" + ")[0])
    return TileDim(start, block, stride, extent, text) if extent else None


def known_extents(scope: KernelScope) -> dict[str, str]:
    """Every `vector < extent` the kernel states anywhere (a store's mask bounds the rows a load
    leaves unmasked)."""
    out: dict[str, str] = {}
    for n in ast.walk(scope.fn):
        if isinstance(n, ast.Compare):
            for text, (extent, _) in (_bounds(scope, n) or {}).items():
                out.setdefault(text, extent)
    return out


def dot_loop(fn: ast.FunctionDef) -> ast.For | None:
    return next((n for n in ast.walk(fn) if isinstance(n, ast.For) and any(calls_named(n, "tl.dot"))), None)


def gemm_tiles(src: Source, fn: ast.FunctionDef) -> tuple[list[TileAccess], list[TileAccess]] | None:
    """(loads in the K loop, stores) that a descriptor can serve; None when no K-loop load can."""
    loop = dot_loop(fn)
    if loop is None:
        return None
    scope = KernelScope(src, fn)
    known = known_extents(scope)
    loads = [t for c in calls_named(loop, "tl.load") if (t := tile_access(scope, c, known, loop))]
    in_loop = {id(c) for c in calls_named(loop, "tl.store")}
    stores = [t for c in calls_named(fn, "tl.store") if id(c) not in in_loop
              and (t := tile_access(scope, c, known))]
    return (loads, stores) if loads else None
