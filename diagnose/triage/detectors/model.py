"""A static model of a Triton source file: its @triton.jit kernels, their launches, constants
and a small shape inference over tile expressions. Built from the AST only; nothing is run."""

from __future__ import annotations

import ast
import copy
import itertools
from collections import Counter
from dataclasses import dataclass, field

# tl reductions over a tile's axis (the calls that make a tile one reduction unit), and for
# shape inference the same with prod
REDUCE_OPS = ("sum", "max", "min", "argmax", "argmin", "reduce", "xor_sum")
_REDUCTIONS = {*REDUCE_OPS, "prod"}
_SCALAR_CALLS = {"program_id", "num_programs", "cdiv", "load_scalar", "float", "int"}
EXEC_OPTIONS = {"num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion",
                "multibuffer", "grid", "warmup", "stream"}

Dim = int | str
Shape = tuple[Dim, ...]


def uncast(node: ast.AST) -> ast.AST:
    """`tl.load(p).to(tl.float32)` -> `tl.load(p)`: the value under any `.to(...)` conversions."""
    while isinstance(node, ast.Call) and call_name(node) == "to" and isinstance(node.func, ast.Attribute):
        node = node.func.value
    return node


def call_name(node: ast.AST) -> str:
    """`tl.load` -> "load", `triton.language.dot` -> "dot", `foo` -> "foo"; "" otherwise."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def dotted(node: ast.AST) -> str:
    """`triton.language.dot` -> "triton.language.dot"; "" when not a plain dotted name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def kwarg(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


@dataclass
class Param:
    name: str
    constexpr: bool
    default: ast.expr | None
    line: int


@dataclass
class JitKernel:
    """One @triton.jit function with the decorators stacked on it."""

    name: str
    node: ast.FunctionDef
    params: list[Param]
    autotuned: bool = False
    heuristics: bool = False
    configs: list[dict[str, object]] = field(default_factory=list)
    assigns: dict[str, list[ast.stmt]] = field(default_factory=dict)
    loop_vars: set[str] = field(default_factory=set)
    # @triton.heuristics({"BLOCK": lambda args: <expr>}): the parameter's value as an expression
    # of the other arguments (`args["n"]`), bound to each launch's arguments in _bind_launch
    derived: dict[str, ast.expr] = field(default_factory=dict)
    inlined: set[str] = field(default_factory=set)  # @triton.jit helpers read into this body
    # each value-returning helper call read into this body: (the call as written, the helper, the
    # first statement standing for it), for detectors that judge the call itself (loop-invariant work)
    inlined_calls: list[tuple[ast.Call, ast.FunctionDef, ast.stmt]] = field(default_factory=list)
    _order: dict[int, int] | None = field(default=None, repr=False, compare=False)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def position(self, node: ast.AST) -> int | None:
        """Where `node` runs in the body, in statement order (None for a node not in it). Lines do
        not order an inlined helper's code, which keeps the helper's lines (before the caller's)."""
        if self._order is None:
            self._order = execution_order(self.node)
        return self._order.get(id(node))

    def calls(self, *names: str) -> list[ast.Call]:
        return [n for n in ast.walk(self.node)
                if isinstance(n, ast.Call) and call_name(n) in names]


@dataclass
class Launch:
    """`kernel[grid](args...)` in host code, with arguments bound to parameter names."""

    kernel: str
    call: ast.Call
    grid: ast.expr
    args: dict[str, ast.expr]
    options: dict[str, ast.expr]
    launcher: ast.FunctionDef | None
    line: int


@dataclass
class KernelModule:
    path: str
    source: str
    tree: ast.Module
    kernels: dict[str, JitKernel]
    launches: list[Launch]
    constants: dict[str, int]
    # What a launch really used, per kernel (constexprs, num_warps, num_stages, programs), when
    # tier 3 captured it: fills in values the host code computes from runtime sizes.
    resolved: dict[str, dict[str, int]] = field(default_factory=dict)
    # function_env's answers, by (function node, line, depth): every detector asks for the same
    # launches' constants, and each answer walks the whole host code (and its callers') again.
    envs: dict[tuple[int, int, int], dict[str, int | str]] = field(
        default_factory=dict, repr=False, compare=False)

    def snippet(self, node: ast.AST) -> str:
        line = getattr(node, "lineno", 0)
        lines = self.source.splitlines()
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _is_constexpr(annotation: ast.expr | None) -> bool:
    return annotation is not None and "constexpr" in ast.unparse(annotation)


def _decorator_kind(dec: ast.expr) -> str:
    name = call_name(dec) if isinstance(dec, ast.Call) else call_name(dec)
    return name if name in {"jit", "autotune", "heuristics"} else ""


def _literal_configs(node: ast.expr | None, module: ast.Module) -> list[dict[str, object]]:
    """triton.Config(...) literals of an autotune `configs=` list; [] when not literal."""
    if isinstance(node, ast.Name):
        node = module_value(module, node.id)
    if not isinstance(node, ast.List | ast.Tuple):
        return []
    configs = []
    for item in node.elts:
        if not (isinstance(item, ast.Call) and call_name(item) == "Config"):
            continue
        entry: dict[str, object] = {}
        if item.args and isinstance(item.args[0], ast.Dict):
            for k, v in zip(item.args[0].keys, item.args[0].values, strict=False):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant):
                    entry[str(k.value)] = v.value
        for kw in item.keywords:
            if kw.arg and isinstance(kw.value, ast.Constant):
                entry[kw.arg] = kw.value.value
        configs.append(entry)
    return configs


def module_value(module: ast.Module, name: str) -> ast.expr | None:
    for stmt in module.body:
        if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            return stmt.value
    return None


def _collect_assigns(fn: ast.FunctionDef) -> tuple[dict[str, list[ast.stmt]], set[str]]:
    assigns: dict[str, list[ast.stmt]] = {}
    loop_vars: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                # `a, b = tl.split(x)` binds both names to the one value they are taken from
                for name in (target.elts if isinstance(target, ast.Tuple) else [target]):
                    if isinstance(name, ast.Name):
                        assigns.setdefault(name.id, []).append(node)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            assigns.setdefault(node.target.id, []).append(node)
        elif isinstance(node, ast.For):
            loop_vars.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
    for stmts in assigns.values():
        stmts.sort(key=lambda s: s.lineno)
    return assigns, loop_vars


def _kernel_from(fn: ast.FunctionDef, module: ast.Module,
                 helpers: dict[str, ast.FunctionDef]) -> JitKernel | None:
    kinds = [_decorator_kind(d) for d in fn.decorator_list]
    if "jit" not in kinds:
        return None
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    params = [Param(a.arg, _is_constexpr(a.annotation), d, a.lineno)
              for a, d in zip(args, defaults, strict=True)]
    kernel = JitKernel(fn.name, fn, params, autotuned="autotune" in kinds,
                       heuristics="heuristics" in kinds)
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and call_name(dec) == "autotune":
            kernel.configs = _literal_configs(kwarg(dec, "configs") or
                                              (dec.args[0] if dec.args else None), module)
        if isinstance(dec, ast.Call) and call_name(dec) == "heuristics":
            kernel.derived = _heuristic_exprs(dec.args[0] if dec.args else kwarg(dec, "values"), module)
    kernel.inlined = _inline_void_helpers(fn, helpers)
    for _ in range(INLINE_DEPTH):  # a value helper's body may call further helpers
        names, calls = _inline_value_helpers(fn, helpers)
        if not calls:
            break
        kernel.inlined |= names | _inline_void_helpers(fn, helpers)
        kernel.inlined_calls += calls
    _canonical_spellings(fn)
    kernel.assigns, kernel.loop_vars = _collect_assigns(fn)
    return kernel


# tl builtins whose arguments authors pass by position or by keyword: the keyword names of the
# positions from the first one that may be named
_AXIS = (1, ("axis",))
KEYWORD_POSITIONS = {"load": (1, ("mask", "other")), "store": (2, ("mask",)), "sum": _AXIS, "max": _AXIS,
                     "min": _AXIS, "argmax": _AXIS, "argmin": _AXIS, "cumsum": _AXIS, "cumprod": _AXIS,
                     "xor_sum": _AXIS, "reduce": _AXIS, "associative_scan": _AXIS}
MEMORY_OPS = ("load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg",
              "atomic_cas", "atomic_and", "atomic_or", "atomic_xor")


def _canonical_spellings(fn: ast.FunctionDef) -> None:
    """Read equivalent spellings of a kernel body as one: `acc = acc + x` as `acc += x`; a counted
    while loop (`k = a; while k < b: ...; k += s`) as `for k in range(a, b, s)`; a pointer
    parameter moved once at the top (`x_ptr += row * stride`) as the parameter plus that offset
    wherever it is read after; a tensor method as the tl builtin (`x.sum(axis=1)` as
    `tl.sum(x, axis=1)`); `tl.cast(x, T)` as `x.to(T)`; `tl.expand_dims(x, 1)` as `x[:, None]`; an
    expanded sum or product as the sum or product of expanded tiles (`(rows * s)[:, None]` as
    `rows[:, None] * s`); a chain of `+` in one order (pointer, scalars, tiles, constants:
    `cols + (row * s + x_ptr)` as `x_ptr + row * s + cols`); a tl builtin's mask, other or axis
    passed by position as the keyword; a loop over tile or task indices as the strided loop; a
    pointer a loop advances (`ptrs += BLOCK * s`) as the address indexed by the loop's variable;
    and an address bound once to a local (`ptrs = base + offs`; `tl.load(ptrs, ...)`) as the
    expression at the access. The detectors then match the idiom whichever way its author wrote
    it; lines are kept."""
    for node in ast.walk(fn):
        for field_name in ("body", "orelse"):
            block = getattr(node, field_name, None)
            if isinstance(block, list):
                block[:] = [_as_augmented(one) for stmt in block for one in _as_single_assigns(stmt)]
    _counted_whiles_as_for(fn)
    _rebased_parameters(fn)
    _MethodsAsBuiltins(fn).visit(fn)
    _CastAsMethod().visit(fn)
    _ExpandDimsAsIndex().visit(fn)
    scalars = _scalar_locals(fn)  # neither pass below binds names: one reading serves both
    _ExpansionInward(scalars).visit(fn)
    _OrderedSums(fn, scalars).visit(fn)
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            _name_positional(node)
        if isinstance(node, ast.For):
            _as_strided_loop(node)
    for node in list(ast.walk(fn)):
        if isinstance(node, ast.For):
            _as_indexed_walks(fn, node)
    _inline_addresses(fn)
    ast.fix_missing_locations(fn)  # nodes made above take their statement's line


# Triton tensor methods that are tl builtins taking the tensor first (`x.sum(1)` is `tl.sum(x, 1)`)
_TENSOR_METHODS = frozenset({
    "abs", "argmax", "argmin", "associative_scan", "broadcast_to", "cast", "ceil", "cos", "cumprod",
    "cumsum", "erf", "exp", "exp2", "expand_dims", "flip", "floor", "gather", "histogram", "log",
    "log2", "max", "min", "permute", "ravel", "reduce", "reshape", "rsqrt", "sigmoid", "sin",
    "softmax", "sort", "split", "sqrt", "sqrt_rn", "sum", "trans", "view", "xor_sum"})


class _MethodsAsBuiltins(ast.NodeTransformer):
    """`x.sum(axis=1)` as `tl.sum(x, axis=1)` for the tensor methods above, where `x` is a value
    of the kernel (a parameter, a local or an expression), not a module (`tl.sum`, `math.exp`)."""

    def __init__(self, fn: ast.FunctionDef) -> None:
        self.values = {a.arg for a in fn.args.args + fn.args.kwonlyargs} | {
            n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in _TENSOR_METHODS):
            return node
        if isinstance(func.value, ast.Name) and func.value.id not in self.values:
            return node
        builtin = ast.copy_location(ast.Attribute(ast.Name("tl", ast.Load()), func.attr, ast.Load()), func)
        return ast.copy_location(ast.Call(builtin, [func.value, *node.args], node.keywords), node)


def _is_expansion(index: ast.expr) -> bool:
    """`[:, None]`, `[None, :]`, `[:, :, None]`: full slices and new axes, at least one of each."""
    items = index.elts if isinstance(index, ast.Tuple) else [index]
    full = [isinstance(i, ast.Slice) and i.lower is None and i.upper is None and i.step is None for i in items]
    new = [isinstance(i, ast.Constant) and i.value is None for i in items]
    return all(f or n for f, n in zip(full, new, strict=True)) and any(full) and any(new)


def _scalar_locals(fn: ast.FunctionDef) -> set[str]:
    """Parameters and the locals made only from them, program ids and constants (a row's start):
    values with no tile shape, which an expansion leaves as they are."""
    scalars = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
    allowed = {"program_id", "num_programs", "cdiv", "to", "minimum", "maximum", "min", "max", "int", "float"}
    assigns: dict[str, list[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigns.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and isinstance(node.target, ast.Name):
            assigns.setdefault(node.target.id, []).append(node.value or ast.Constant(None))
        elif isinstance(node, ast.For):
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name):
                    assigns.setdefault(target.id, []).append(node.iter if call_name(node.iter) in (
                        "range", "static_range") else ast.Call(ast.Name("tile", ast.Load()), [], []))
    changed = True
    while changed:
        changed = False
        for name, values in assigns.items():
            if name in scalars:
                continue
            if all(not (names_in(v) - scalars - {"tl", "triton"})
                   and all(call_name(c) in allowed | {"range", "static_range"}
                           for c in ast.walk(v) if isinstance(c, ast.Call)) for v in values):
                scalars.add(name)
                changed = True
    return scalars


def _scalar_term(node: ast.expr, scalars: set[str]) -> bool:
    """Arithmetic of scalars only (`_scalar_locals`), casts and program ids: no tile shape."""
    return not (names_in(node) - scalars) and all(
        call_name(c) in ("to", "program_id", "num_programs") for c in ast.walk(node) if isinstance(c, ast.Call))


class _ExpansionInward(ast.NodeTransformer):
    """`(rows * stride + base)[:, None]` as `rows[:, None] * stride + base`: the new axis moved onto
    the tiles of an arithmetic expression, scalars (parameters, constants, locals made of them) left
    as they are, so an address reads as the index tiles times their strides however it was written."""

    _OPS = (ast.Add, ast.Sub, ast.Mult)  # a division or remainder is an index decode: kept whole

    def __init__(self, scalars: set[str]) -> None:
        self.scalars = scalars

    def _scalar(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) or _scalar_term(node, self.scalars)

    def _inward(self, node: ast.expr, index: ast.expr, like: ast.AST) -> ast.expr:
        if isinstance(node, ast.BinOp) and isinstance(node.op, self._OPS):
            left, right = (side if self._scalar(side) else self._inward(side, index, like)
                           for side in (node.left, node.right))
            return ast.copy_location(ast.BinOp(left, node.op, right), node)
        return ast.copy_location(ast.Subscript(node, copy.deepcopy(index), ast.Load()), like)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if (isinstance(node.value, ast.BinOp) and isinstance(node.value.op, self._OPS)
                and _is_expansion(node.slice) and not self._scalar(node.value)):
            return self._inward(node.value, node.slice, node)
        return node


class _OrderedSums(ast.NodeTransformer):
    """A chain of `+` flattened and written in the order most kernels write it: the pointer
    parameter an access starts from, then scalars (parameters and locals made of them), then tiles
    and other values, then constants; terms of one kind keep their order. `offs + start` reads as
    `start + offs` and `1 + (p * 3 + src)` as `src + p * 3 + 1`."""

    def __init__(self, fn: ast.FunctionDef, scalars: set[str]) -> None:
        self.scalars = scalars
        self.bases = _pointer_names(fn)

    def _kind(self, term: ast.expr) -> int:
        if isinstance(term, ast.Constant) or isinstance(term, ast.UnaryOp) and isinstance(term.operand, ast.Constant):
            return 3
        if isinstance(term, ast.Name) and term.id in self.bases:
            return 0
        return 1 if _scalar_term(term, self.scalars) else 2

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Add):
            return node
        terms = _sum_terms(node)
        ordered = sorted(terms, key=self._kind)  # stable: a kind keeps its order
        left_nested = not (isinstance(node.right, ast.BinOp) and isinstance(node.right.op, ast.Add))
        if left_nested and [id(t) for t in ordered] == [id(t) for t in terms]:
            return node  # already in order (children were ordered first)
        out = ordered[0]
        for term in ordered[1:]:
            out = ast.copy_location(ast.BinOp(out, ast.Add(), term), node)
        return out


def _pointer_names(fn: ast.FunctionDef) -> set[str]:
    """Parameters used as pointers (a term of some sum, never multiplied, divided, compared or
    subtracted from), and the locals made by adding to them (`row = flags_ptr + e * T`)."""
    params = {a.arg for a in fn.args.args if not _is_constexpr(a.annotation)}
    as_term = {t.id for node in ast.walk(fn) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
               for t in (node.left, node.right) if isinstance(t, ast.Name)}
    as_number = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.Add):
            as_number |= {t.id for t in (node.left, node.right) if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Compare):
            as_number |= {t.id for t in (node.left, *node.comparators) if isinstance(t, ast.Name)}
    pointers = params & as_term - as_number
    values: dict[str, list[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
    grown = True
    while grown:
        grown = False
        for name, made in values.items():
            if name not in pointers and all(any(isinstance(t, ast.Name) and t.id in pointers
                                                for t in _sum_terms(v)) for v in made):
                pointers.add(name)
                grown = True
    return pointers


def _sum_terms(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _sum_terms(node.left) + _sum_terms(node.right)
    return [node]


class _ExpandDimsAsIndex(ast.NodeTransformer):
    """`tl.expand_dims(x, 0)` as `x[None, :]`, `tl.expand_dims(x, 1)` as `x[:, None]` (and axis 2)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not (isinstance(node.func, ast.Attribute) and node.func.attr == "expand_dims"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "tl" and node.args):
            return node
        axis = node.args[1] if len(node.args) > 1 else kwarg(node, "axis")
        if not (isinstance(axis, ast.Constant) and axis.value in (0, 1, 2)) or len(node.args) > 2:
            return node
        items: list[ast.expr] = [ast.Slice() for _ in range(axis.value)] + [ast.Constant(None)]
        if axis.value == 0:
            items.append(ast.Slice())
        index = ast.Subscript(node.args[0], ast.Tuple(items, ast.Load()), ast.Load())
        return ast.copy_location(index, node)


def _as_indexed_walks(fn: ast.FunctionDef, loop: ast.For) -> None:
    """A pointer the loop advances, `p = base` before it and `p += d` as the body's last use of p
    (d and base not changed by the loop, p not read after it), read at each access as
    `base + k * d` for the loop's variable k (`(k - start) * d`, or `(k - start) // step * d`
    when the loop steps by more than one and d is not a multiple of the step written out)."""
    if not (isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Call)
            and call_name(loop.iter) in ("range", "static_range") and not loop.iter.keywords
            and 1 <= len(loop.iter.args) <= 3 and not loop.orelse):
        return
    var = loop.target.id
    args = loop.iter.args
    start = args[0] if len(args) > 1 else ast.Constant(0)
    step = args[2] if len(args) == 3 else ast.Constant(1)
    written = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    stores = Counter(n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    inside = {id(n) for n in ast.walk(loop)}
    body = list(loop.body)
    for at, stmt in enumerate(body):
        if not (isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add)
                and isinstance(stmt.target, ast.Name) and stores[stmt.target.id] == 2):
            continue
        name, delta = stmt.target.id, stmt.value
        init = next((n for n in ast.walk(fn) if isinstance(n, ast.Assign) and id(n) not in inside
                     and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                     and n.targets[0].id == name and n.lineno <= loop.lineno), None)
        if init is None or (names_in(init.value) | names_in(delta)) & (written | {name}):
            continue
        later = [s for s in body[at + 1:] if name in names_in(s)]
        outside = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name
                   and isinstance(n.ctx, ast.Load) and id(n) not in inside]
        if later or outside:
            continue
        _replace_reads(loop, name, ast.BinOp(init.value, ast.Add(), _walk_offset(var, start, step, delta)))
        loop.body.remove(stmt)
        if not loop.body:
            loop.body.append(ast.Pass())


def _replace_reads(root: ast.AST, name: str, value: ast.expr) -> None:
    """Every read of `name` under `root` replaced by a copy of `value`, placed where the read was."""
    def replaced(node: object) -> object:
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            return _located(copy.deepcopy(value), node)
        return node

    for node in ast.walk(root):
        for field_name, child in ast.iter_fields(node):
            if isinstance(child, list):
                child[:] = [replaced(c) for c in child]
            else:
                setattr(node, field_name, replaced(child))


def _walk_offset(var: str, start: ast.expr, step: ast.expr, delta: ast.expr) -> ast.expr:
    """How far a pointer advanced by `delta` each step has moved when the loop variable is `var`."""
    zero = isinstance(start, ast.Constant) and start.value == 0
    moved: ast.expr = ast.Name(var, ast.Load()) if zero else ast.BinOp(ast.Name(var, ast.Load()), ast.Sub(), start)
    if isinstance(step, ast.Constant) and step.value == 1:
        return moved if isinstance(delta, ast.Constant) and delta.value == 1 else ast.BinOp(moved, ast.Mult(), delta)
    if isinstance(delta, ast.BinOp) and isinstance(delta.op, ast.Mult):
        for mine, other in ((delta.left, delta.right), (delta.right, delta.left)):
            if ast.dump(mine) == ast.dump(step):
                return ast.BinOp(moved, ast.Mult(), other)
    if ast.dump(delta) == ast.dump(step):
        return moved
    return ast.BinOp(ast.BinOp(moved, ast.FloorDiv(), step), ast.Mult(), delta)


def _located(node: ast.expr, like: ast.AST) -> ast.expr:
    """`node` with every part at `like`'s place (an address read in place at its access)."""
    for part in ast.walk(node):
        for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(like, attr):
                setattr(part, attr, getattr(like, attr))
    return node


class _CastAsMethod(ast.NodeTransformer):
    """`tl.cast(x, T, ...)` as `x.to(T, ...)`."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (isinstance(node.func, ast.Attribute) and node.func.attr == "cast"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "tl" and len(node.args) == 2):
            method = ast.copy_location(ast.Attribute(node.args[0], "to", ast.Load()), node.func)
            return ast.copy_location(ast.Call(method, [node.args[1]], node.keywords), node)
        return node


def _as_strided_loop(loop: ast.For) -> None:
    """`for t in range(tl.cdiv(end - start, step)): v = start + t * step` (a loop over tile or task
    indices whose first statement makes the position, `t` used nowhere else) as
    `for v in range(start, end, step)`: a grid-stride loop or a walk over tiles either way."""
    if not (isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Call)
            and call_name(loop.iter) == "range" and not loop.iter.keywords and loop.body):
        return
    args = loop.iter.args
    if not (len(args) == 1 or len(args) == 2 and isinstance(args[0], ast.Constant) and args[0].value == 0):
        return
    first = loop.body[0]
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)):
        return
    index = loop.target.id
    start, step = _position(first.value, index)
    if step is None or sum(isinstance(n, ast.Name) and n.id == index for n in ast.walk(loop)) != 2:
        return
    count = args[-1]
    end = None
    if isinstance(count, ast.Call) and call_name(count) == "cdiv" and len(count.args) == 2 \
            and ast.dump(count.args[1]) == ast.dump(step):
        span = count.args[0]
        if start is None:
            end = span
        elif isinstance(span, ast.BinOp) and isinstance(span.op, ast.Sub) and ast.dump(span.right) == ast.dump(start):
            end = span.left
    if end is None:
        return
    loop.target = ast.Name(first.targets[0].id, ast.Store())
    loop.iter.args = [start if start is not None else ast.Constant(0), end, step]
    loop.body = loop.body[1:] or [ast.Pass()]


def _position(value: ast.expr, index: str) -> tuple[ast.expr | None, ast.expr | None]:
    """(start, step) of `start + index * step` (or `index * step`, start None); step None else."""
    def scaled(node: ast.expr) -> ast.expr | None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for a, b in ((node.left, node.right), (node.right, node.left)):
                if isinstance(a, ast.Name) and a.id == index and index not in names_in(b):
                    return b
        return None

    step = scaled(value)
    if step is not None:
        return None, step
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        for a, b in ((value.left, value.right), (value.right, value.left)):
            step = scaled(b)
            if step is not None and index not in names_in(a):
                return a, step
    return None, None


def _as_single_assigns(stmt: ast.stmt) -> list[ast.stmt]:
    """`a, b = x, y` (also what an inlined helper's tuple return leaves) as `a = x` and `b = y`
    on the same line, when no name it binds is read on its right (a swap stays as written)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Tuple) and isinstance(stmt.value, ast.Tuple)):
        return [stmt]
    targets, values = stmt.targets[0].elts, stmt.value.elts
    if len(targets) != len(values) or not all(isinstance(t, ast.Name) for t in targets) \
            or {t.id for t in targets} & names_in(stmt.value):  # type: ignore[attr-defined]
        return [stmt]
    return [ast.copy_location(ast.Assign(targets=[ast.copy_location(ast.Name(t.id, ast.Store()), t)],  # type: ignore[attr-defined]
                                         value=v), stmt)
            for t, v in zip(targets, values, strict=True)]


def _as_augmented(stmt: ast.stmt) -> ast.stmt:
    """`x = x <op> y` as `x <op>= y` (a Name target only)."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.BinOp) and isinstance(stmt.value.left, ast.Name)
            and stmt.value.left.id == stmt.targets[0].id):
        name = stmt.targets[0].id
        return ast.copy_location(ast.AugAssign(ast.Name(name, ast.Store()), stmt.value.op, stmt.value.right),
                                 stmt)
    return stmt


def _name_positional(call: ast.Call) -> None:
    spec = KEYWORD_POSITIONS.get(call.func.attr) if isinstance(call.func, ast.Attribute) else None
    if spec is None:
        return
    first, names = spec
    extra = call.args[first:first + len(names)]
    if not extra or len(call.args) > first + len(names):
        return
    named = {kw.arg for kw in call.keywords}
    if any(name in named for name in names[:len(extra)]):
        return
    call.keywords = [ast.keyword(name, value) for name, value in zip(names, extra, strict=False)] + call.keywords
    del call.args[first:]


def _counted_whiles_as_for(fn: ast.FunctionDef) -> None:
    """`k = a` then `while k < b:` whose body ends with `k += s` (k stored nowhere else in the
    loop, s and b not changed by it, k not read after the loop before it is bound again) as
    `for k in range(a, b, s)`: the same walk, in the form the detectors read."""
    for node in list(ast.walk(fn)):
        for field_name in ("body", "orelse"):
            block = getattr(node, field_name, None)
            if not isinstance(block, list):
                continue
            for at in range(1, len(block)):
                loop, init = block[at], block[at - 1]
                if not (isinstance(loop, ast.While) and not loop.orelse and loop.body
                        and isinstance(loop.test, ast.Compare) and len(loop.test.ops) == 1
                        and isinstance(loop.test.ops[0], ast.Lt) and isinstance(loop.test.left, ast.Name)):
                    continue
                var, step = loop.test.left.id, loop.body[-1]
                if not (isinstance(init, ast.Assign) and len(init.targets) == 1
                        and isinstance(init.targets[0], ast.Name) and init.targets[0].id == var
                        and isinstance(step, ast.AugAssign) and isinstance(step.op, ast.Add)
                        and isinstance(step.target, ast.Name) and step.target.id == var):
                    continue
                written = [n.id for s in loop.body for n in ast.walk(s) if isinstance(n, ast.Name)
                           and isinstance(n.ctx, ast.Store)]
                bound = loop.test.comparators[0]
                if (names_in(step.value) | names_in(bound)) & set(written) or written.count(var) != 1 \
                        or _read_before_bound(block[at + 1:], var):
                    continue
                args = [init.value, bound] + ([] if isinstance(step.value, ast.Constant) and step.value.value == 1
                                               else [step.value])
                walk = ast.For(target=ast.Name(var, ast.Store()),
                               iter=ast.Call(ast.Name("range", ast.Load()), args, []),
                               body=loop.body[:-1] or [ast.Pass()], orelse=[], type_comment=None)
                block[at] = ast.copy_location(walk, loop)
                block[at - 1] = ast.copy_location(ast.Pass(), init)


def _read_before_bound(stmts: list[ast.stmt], name: str) -> bool:
    """`name` is read by these statements (in order) before one of them binds it again."""
    for stmt in stmts:
        value = getattr(stmt, "value", None) if isinstance(stmt, ast.Assign) else stmt
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               for n in ast.walk(value if value is not None else stmt)):
            return True
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            return False
    return False


def _rebased_parameters(fn: ast.FunctionDef) -> None:
    """A parameter moved once by a statement of the body's top level (`x_ptr += row * stride`,
    Liger-style), stored nowhere else and its offset's names not rebound after: the statement
    goes, and every later read of the parameter reads `x_ptr + row * stride` in place."""
    params = {a.arg for a in fn.args.args}
    stores = Counter(n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    at = 0
    while at < len(fn.body):
        stmt = fn.body[at]
        if not (isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add)
                and isinstance(stmt.target, ast.Name) and stmt.target.id in params
                and stores[stmt.target.id] == 1 and stmt.target.id not in names_in(stmt.value)):
            at += 1
            continue
        later = fn.body[at + 1:]
        rebound = {n.id for s in later for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if names_in(stmt.value) & rebound:
            at += 1
            continue
        name = stmt.target.id
        moved = ast.BinOp(ast.Name(name, ast.Load()), ast.Add(), stmt.value)
        holder = ast.Module(body=later, type_ignores=[])
        _replace_reads(holder, name, moved)
        del fn.body[at]


def _inline_addresses(fn: ast.FunctionDef) -> None:
    """An access whose address is a local assigned once, from pointer arithmetic, reads that
    arithmetic in place (the assignment stays)."""
    params = {a.arg for a in fn.args.args}
    stores = Counter(n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
    once = {}
    for node in ast.walk(fn):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.BinOp) and node.targets[0].id not in params
                and stores[node.targets[0].id] == 1):
            once[node.targets[0].id] = node
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and call_name(node) in MEMORY_OPS and node.args
                and isinstance(node.args[0], ast.Name) and node.args[0].id in once):
            continue
        definition = once[node.args[0].id]
        if definition.lineno < node.lineno:
            node.args[0] = copy.deepcopy(definition.value)


def _heuristic_exprs(node: ast.expr | None, module: ast.Module) -> dict[str, ast.expr]:
    """{param: lambda body} of a literal heuristics dict whose values are one-argument lambdas."""
    if isinstance(node, ast.Name):
        node = module_value(module, node.id)
    if not isinstance(node, ast.Dict):
        return {}
    out = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if (isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(value, ast.Lambda)
                and len(value.args.args) == 1):
            out[key.value] = _rename_subscripts(value.body, value.args.args[0].arg)
    return out


def _rename_subscripts(body: ast.expr, arg: str) -> ast.expr:
    """Mark `args["n"]` in a heuristic body as the argument named n (an ast.Name `n` the launch binds)."""
    body = copy.deepcopy(body)

    class Bind(ast.NodeTransformer):
        def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
            self.generic_visit(node)
            if (isinstance(node.value, ast.Name) and node.value.id == arg
                    and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
                return ast.copy_location(ast.Name(node.slice.value, ast.Load()), node)
            return node

    return Bind().visit(body)


def _jit_functions(module: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.walk(module) if isinstance(n, ast.FunctionDef)
            and "jit" in [_decorator_kind(d) for d in n.decorator_list]}


INLINE_DEPTH = 3


def _inline_void_helpers(fn: ast.FunctionDef, helpers: dict[str, ast.FunctionDef], depth: int = 0) -> set[str]:
    """A statement that only calls a @triton.jit helper returning nothing (`_body(x_ptr, n, BLOCK)`)
    is replaced, in this model's tree, by the helper's statements with its parameters bound to the
    call's arguments: authors who move a kernel's body into a shared helper write the same kernel,
    and the detectors read it as one. The helper's lines keep their own line numbers. Returns
    the names of the helpers inlined."""
    inlined: set[str] = set()
    if depth >= INLINE_DEPTH:
        return inlined
    for node in ast.walk(fn):
        for field_name in ("body", "orelse"):
            block = getattr(node, field_name, None)
            if not isinstance(block, list):
                continue
            out: list[ast.stmt] = []
            for stmt in block:
                helper = _void_helper_call(stmt, helpers, fn.name)
                if helper is None:
                    out.append(stmt)
                    continue
                call, target = helper
                body = _bound_body(target, call)
                if body is None:
                    out.append(stmt)
                    continue
                wrapper = ast.FunctionDef(name=fn.name, args=fn.args, body=body, decorator_list=[],
                                          returns=None, type_params=[])
                inlined |= {target.name, *_inline_void_helpers(wrapper, helpers, depth + 1)}
                out.extend(wrapper.body)
            block[:] = out
    return inlined


def _void_helper_call(stmt: ast.stmt, helpers: dict[str, ast.FunctionDef],
                      caller: str) -> tuple[ast.Call, ast.FunctionDef] | None:
    if not isinstance(stmt, ast.Expr):
        return None
    target = _inlinable(helpers, stmt.value, caller)
    if target is None or any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(target)):
        return None
    return stmt.value, target


def _inlinable(helpers: dict[str, ast.FunctionDef], call: ast.AST, caller: str) -> ast.FunctionDef | None:
    """The @triton.jit helper a plain-name call reaches, when its parameters can be bound to the call."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return None
    target = helpers.get(call.func.id)
    if target is None or target.name == caller or target.args.vararg or target.args.kwarg:
        return None
    return target


def _value_helper(helpers: dict[str, ast.FunctionDef], call: ast.AST, caller: str) -> ast.FunctionDef | None:
    """The @triton.jit helper `call` calls when it returns a value from one `return` at its end."""
    target = _inlinable(helpers, call, caller)
    if target is None:
        return None
    returns = [n for n in ast.walk(target) if isinstance(n, ast.Return)]
    last = target.body[-1] if target.body else None
    if len(returns) != 1 or returns[0] is not last or last.value is None:
        return None
    return target


def _inline_value_helpers(fn: ast.FunctionDef, helpers: dict[str, ast.FunctionDef]
                          ) -> tuple[set[str], list[tuple[ast.Call, ast.FunctionDef, ast.stmt]]]:
    """A statement that calls a @triton.jit helper for its value (`r = _rstd(x_row, N, BLOCK)`,
    `acc += _tile(a, b) * s`) gets the helper's statements before it, parameters bound to the
    call's arguments and the helper's own names renamed where they clash with the caller's, and
    the call is replaced by the helper's returned expression: what the kernel computes, read as
    one body. One pass; the caller repeats it for helpers the inlined statements call."""
    taken = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {a.arg for a in fn.args.args}
    inlined: set[str] = set()
    calls: list[tuple[ast.Call, ast.FunctionDef, ast.stmt]] = []
    for node in list(ast.walk(fn)):
        for field_name in ("body", "orelse"):
            block = getattr(node, field_name, None)
            if not isinstance(block, list) or isinstance(node, ast.FunctionDef) and node is not fn:
                continue
            out: list[ast.stmt] = []
            for stmt in block:
                if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Expr | ast.Return):
                    out.extend(_hoist_value_calls(stmt, fn.name, helpers, taken, inlined, calls))
                out.append(stmt)
            block[:] = out
    return inlined, calls


def _hoist_value_calls(stmt: ast.stmt, caller: str, helpers: dict[str, ast.FunctionDef], taken: set[str],
                       inlined: set[str], calls: list) -> list[ast.stmt]:
    """The statements to put before `stmt` for each value-helper call in it (replaced in place)."""
    before: list[ast.stmt] = []
    for call in [n for n in ast.walk(stmt) if _value_helper(helpers, n, caller) is not None]:
        if not any(n is call for n in ast.walk(stmt)):  # an argument of a call inlined before it:
            continue                                     # its copies are read in the next pass
        target = _value_helper(helpers, call, caller)
        rename = _fresh_names(target, taken)
        bound = _bound_body(target, call, rename)
        if bound is None or not bound or not isinstance(bound[-1], ast.Return):
            continue
        value = bound.pop().value
        _replace_node(stmt, call, value)
        calls.append((copy.deepcopy(call), target, bound[0] if bound else stmt))
        before.extend(bound)
        inlined.add(target.name)
    return before


def _fresh_names(helper: ast.FunctionDef, taken: set[str]) -> dict[str, str]:
    """A new name for each name the helper assigns that the caller already uses."""
    stored = {n.id for n in ast.walk(helper) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    params = {a.arg for a in helper.args.args}
    rename = {}
    for name in sorted(stored):
        if name in taken or name in params:
            fresh, k = f"{name}_{helper.name.strip('_')}", 1
            while fresh in taken:
                k += 1
                fresh = f"{name}_{helper.name.strip('_')}{k}"
            rename[name] = fresh
    taken |= stored | set(rename.values())
    return rename


def _replace_node(root: ast.AST, old: ast.AST, new: ast.expr) -> None:
    for parent in ast.walk(root):
        for field_name, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field_name, ast.copy_location(new, old))
                return
            if isinstance(value, list) and any(v is old for v in value):
                value[:] = [ast.copy_location(new, old) if v is old else v for v in value]
                return


def _bound_body(helper: ast.FunctionDef, call: ast.Call, rename: dict[str, str] | None = None
                ) -> list[ast.stmt] | None:
    """The helper's statements with each parameter replaced by the call's argument expression
    (a parameter the helper assigns is bound by an assignment first) and its names in `rename`
    renamed; None when an argument is missing."""
    rename = rename or {}
    params = [a.arg for a in helper.args.args]
    defaults = dict(zip(params[len(params) - len(helper.args.defaults):], helper.args.defaults, strict=True))
    bound: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
    for kw in call.keywords:
        if kw.arg is None or kw.arg not in params:
            return None
        bound[kw.arg] = kw.value
    for name in params:
        if name not in bound and name in defaults:
            bound[name] = defaults[name]
    if set(params) - set(bound):
        return None
    # a parameter the helper reassigns (`a_ptr += off`) is bound by an assignment first; the others
    # are replaced by their argument expressions
    stored = {n.id for n in ast.walk(helper) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    prelude = [ast.copy_location(ast.Assign(targets=[ast.Name(rename.get(name, name), ast.Store())],
                                            value=copy.deepcopy(bound[name])), call)
               for name in params if name in stored
               and not (isinstance(bound[name], ast.Name) and bound[name].id == rename.get(name, name))]
    substitute = {name: value for name, value in bound.items() if name not in stored}

    class Bind(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in substitute and isinstance(node.ctx, ast.Load):
                return ast.copy_location(copy.deepcopy(substitute[node.id]), node)
            if node.id in rename:
                return ast.copy_location(ast.Name(rename[node.id], node.ctx), node)
            return node

    return prelude + [Bind().visit(copy.deepcopy(stmt)) for stmt in helper.body
                      if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))]


def _launches(module: ast.Module, kernels: dict[str, JitKernel]) -> list[Launch]:
    found: list[Launch] = []
    reach = _Reach(module, kernels)

    called = {n.func.id for n in ast.walk(module) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}

    def visit(node: ast.AST, launcher: ast.FunctionDef | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef):
                if child.name in kernels:
                    continue
                visit(child, child)
                continue
            if (isinstance(child, ast.Assign) and isinstance(child.value, ast.Lambda)
                    and any(isinstance(t, ast.Name) and t.id in called for t in child.targets)):
                continue  # a launching lambda is read where it is called, its arguments bound
            if isinstance(child, ast.Call):
                direct = reach.direct(child, launcher, child.lineno)
                if direct is not None:
                    name, grid, effective = direct
                    found.append(_bind_launch(child, kernels[name], launcher, grid, effective))
            visit(child, launcher)

    visit(module, None)
    return found


REACH_DEPTH = 4  # how many aliases, partials, lambdas and launcher wrappers a launch is followed through


class _Reach:
    """How host code reaches a kernel: `kernel[grid](...)` as written, or through what stands for
    it — a local alias of the kernel or of `kernel[grid]`, a kernel kept in a dict, list or
    attribute (`self.fwd = kernel`, `KERNELS["fwd"]`), `kernel.run(..., grid=g)`,
    `functools.partial(kernel[grid], ...)` or `partial(launch_helper, kernel, ...)`, a lambda, a
    host function or method that launches the kernel it is given (`def _launch(k, grid, *a, **kw):
    k[grid](*a, **kw)`). Each is rewritten into the direct call it stands for, so every detector
    sees the launch at the call site with its arguments and constants."""

    def __init__(self, module: ast.Module, kernels: dict[str, JitKernel]) -> None:
        self.module, self.kernels = module, kernels
        self.functions = {n.name: n for n in ast.walk(module) if isinstance(n, ast.FunctionDef)
                          and n.name not in kernels}
        self.attributes: dict[str, list[ast.expr]] = {}  # `obj.attr = value` / class attributes
        for node in ast.walk(module):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute):
                        self.attributes.setdefault(target.attr, []).append(node.value)
            if isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    if isinstance(stmt, ast.Assign):
                        for target in stmt.targets:
                            if isinstance(target, ast.Name):
                                self.attributes.setdefault(target.id, []).append(stmt.value)

    def direct(self, call: ast.Call, scope: ast.FunctionDef | None, line: int,
               depth: int = REACH_DEPTH) -> tuple[str, ast.expr, ast.Call] | None:
        """(kernel, grid, the call as a direct `kernel[grid](...)`) when `call` launches a kernel."""
        func = call.func
        if isinstance(func, ast.Subscript):
            name = self.kernel_of(func.value, scope, line, depth)
            if name is not None:
                return name, func.slice, call
        if isinstance(func, ast.Attribute) and func.attr == "run":
            name = self.kernel_of(func.value, scope, line, depth)
            grid = kwarg(call, "grid")
            if name is not None and grid is not None:
                keywords = [k for k in call.keywords if k.arg not in ("grid", "warmup")]
                return name, grid, ast.Call(func, call.args, keywords)
        if depth <= 0:
            return None
        rewritten = self._unfold(call, scope, line, depth)
        return self.direct(rewritten, scope, line, depth - 1) if rewritten is not None else None

    def _unfold(self, call: ast.Call, scope: ast.FunctionDef | None, line: int,
                depth: int) -> ast.Call | None:
        """The call one step closer to a direct launch: an alias, partial or lambda read through,
        a launcher wrapper inlined; None when the callee is none of these."""
        func = call.func
        bound = self.binding(func, scope, line) if isinstance(func, ast.Name | ast.Attribute) else None
        if isinstance(bound, ast.Subscript | ast.Attribute | ast.Name):
            return ast.Call(bound, call.args, call.keywords)
        if isinstance(bound, ast.Call) and call_name(bound) == "partial" and bound.args:
            return ast.Call(bound.args[0], bound.args[1:] + call.args, bound.keywords + call.keywords)
        if isinstance(bound, ast.Lambda) and isinstance(bound.body, ast.Call):
            return _inline_into(bound.args, bound.body, call)
        wrapper = self._wrapper(func)
        if wrapper is not None:
            fn, inner = wrapper
            args = fn.args
            if isinstance(func, ast.Attribute) and args.args and args.args[0].arg in ("self", "cls"):
                args = ast.arguments(posonlyargs=[], args=args.args[1:], vararg=args.vararg,
                                     kwonlyargs=args.kwonlyargs, kw_defaults=args.kw_defaults,
                                     kwarg=args.kwarg, defaults=args.defaults)
            return _inline_into(args, inner, call)
        return None

    def _wrapper(self, func: ast.expr, depth: int = 3) -> tuple[ast.FunctionDef, ast.Call] | None:
        """A host function (or method, called on self) whose body launches a kernel it is given
        as a parameter, itself or by handing that parameter to another such wrapper in the
        kernel's place: (the function, that launching or handing call)."""
        found = self._kernel_parameter(func, depth)
        return (found[0], found[1]) if found is not None else None

    def _kernel_parameter(self, func: ast.expr, depth: int) -> tuple[ast.FunctionDef, ast.Call, str] | None:
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls") else None)
        fn = self.functions.get(name or "")
        if fn is None:
            return None
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):  # `go = kernel[grid]; go(*args)` inside the wrapper
                func = _last_binding(fn, func.id, node.lineno) or func
            target = func.value if isinstance(func, ast.Subscript) else (
                func.value if isinstance(func, ast.Attribute) and func.attr == "run" else None)
            if isinstance(target, ast.Name) and target.id in params:
                return fn, ast.copy_location(ast.Call(func, node.args, node.keywords), node), target.id
            inner = (self._kernel_parameter(node.func, depth - 1)
                     if depth > 0 and call_name(node) != fn.name else None)
            handed = _argument_for(inner[0], inner[2], node) if inner is not None else None
            if isinstance(handed, ast.Name) and handed.id in params:
                return fn, node, handed.id
        return None

    def binding(self, node: ast.expr, scope: ast.FunctionDef | None, line: int) -> ast.expr | None:
        """What a name or attribute stands for before `line`: its last local binding, its module
        binding, or the one value every `obj.attr = ...` in the file gives the attribute."""
        if isinstance(node, ast.Name):
            value = _last_binding(scope, node.id, line) if scope is not None else None
            return value if value is not None else module_value(self.module, node.id)
        if isinstance(node, ast.Attribute):
            values = self.attributes.get(node.attr, [])
            unique = {ast.dump(v) for v in values}
            return values[0] if len(unique) == 1 else None
        return None

    def kernel_of(self, node: ast.expr, scope: ast.FunctionDef | None, line: int,
                  depth: int = REACH_DEPTH) -> str | None:
        """The @triton.jit kernel an expression names: itself, an alias, an attribute holding
        it, or a constant key into a dict / list literal of kernels."""
        if isinstance(node, ast.Name) and node.id in self.kernels:
            return node.id
        if depth <= 0:
            return None
        if isinstance(node, ast.Name | ast.Attribute):
            bound = self.binding(node, scope, line)
            return self.kernel_of(bound, scope, line, depth - 1) if bound is not None else None
        if isinstance(node, ast.Subscript):
            table = node.value
            if isinstance(table, ast.Name | ast.Attribute):
                table = self.binding(table, scope, line) or table
            item = _constant_item(table, node.slice)
            if item is not None:
                return self.kernel_of(item, scope, line, depth - 1)
            # an unknown key into a table of one kernel only
            names = {self.kernel_of(v, scope, line, depth - 1) for v in _table_values(table)}
            return names.pop() if len(names) == 1 and None not in names else None
        if isinstance(node, ast.IfExp):
            body = self.kernel_of(node.body, scope, line, depth - 1)
            return body if body == self.kernel_of(node.orelse, scope, line, depth - 1) else None
        return None


def _argument_for(fn: ast.FunctionDef, param: str, call: ast.Call) -> ast.expr | None:
    """The argument `call` passes to `fn`'s parameter `param` (a method called on self skips
    its first parameter)."""
    names = [a.arg for a in fn.args.args]
    if isinstance(call.func, ast.Attribute) and names[:1] in (["self"], ["cls"]):
        names = names[1:]
    value = kwarg(call, param)
    if value is None and param in names and names.index(param) < len(call.args):
        value = call.args[names.index(param)]
    return None if isinstance(value, ast.Starred) else value


def _constant_item(table: ast.expr, key: ast.expr) -> ast.expr | None:
    """`{"a": k1}["a"]` -> k1, `[k1, k2][1]` -> k2; None when either is not a literal."""
    if not isinstance(key, ast.Constant):
        return None
    if isinstance(table, ast.Dict):
        return next((v for k, v in zip(table.keys, table.values, strict=True)
                     if isinstance(k, ast.Constant) and k.value == key.value), None)
    if isinstance(table, ast.List | ast.Tuple) and isinstance(key.value, int) \
            and -len(table.elts) <= key.value < len(table.elts):
        return table.elts[key.value]
    return None


def _table_values(table: ast.expr) -> list[ast.expr]:
    if isinstance(table, ast.Dict):
        return list(table.values)
    return list(table.elts) if isinstance(table, ast.List | ast.Tuple) else []


def _inline_into(params: ast.arguments, inner: ast.Call, call: ast.Call) -> ast.Call | None:
    """`inner` (a call in a lambda's or a wrapper's body) with the parameters bound to `call`'s
    arguments: a parameter becomes its argument, `*args` the extra positional arguments, `**kw`
    the extra keywords (a starred argument among them passes through). None when the arguments
    cannot be bound (a starred argument where a named parameter stands)."""
    names = [a.arg for a in params.posonlyargs + params.args]
    if any(isinstance(a, ast.Starred) for a in call.args[:len(names)]):
        return None
    bound: dict[str, ast.expr] = dict(zip(names, call.args, strict=False))
    extra_args = call.args[len(names):]
    kwonly = {a.arg for a in params.kwonlyargs}
    extra_kw: list[ast.keyword] = []
    for kw in call.keywords:
        if kw.arg is not None and (kw.arg in names or kw.arg in kwonly):
            bound[kw.arg] = kw.value
        else:
            extra_kw.append(kw)
    defaults = params.defaults
    for name, default in zip(names[len(names) - len(defaults):], defaults, strict=True):
        bound.setdefault(name, default)
    for a, default in zip(params.kwonlyargs, params.kw_defaults, strict=True):
        if default is not None:
            bound.setdefault(a.arg, default)
    vararg = params.vararg.arg if params.vararg else None
    varkw = params.kwarg.arg if params.kwarg else None
    if (extra_args and vararg is None) or (extra_kw and varkw is None):
        return None

    def expr(node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Name) and node.id in bound:
            return bound[node.id]
        return _Substitute(bound).visit(copy.deepcopy(node))

    args: list[ast.expr] = []
    for a in inner.args:
        if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == vararg:
            args += extra_args
        else:
            args.append(expr(a))
    keywords: list[ast.keyword] = []
    for kw in inner.keywords:
        if kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id == varkw:
            keywords += extra_kw
        else:
            keywords.append(ast.keyword(kw.arg, expr(kw.value)))
    return ast.copy_location(ast.Call(expr(inner.func), args, keywords), call)


class _Substitute(ast.NodeTransformer):
    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return copy.deepcopy(self.bound[node.id]) if node.id in self.bound else node


def _bind_launch(call: ast.Call, kernel: JitKernel, launcher: ast.FunctionDef | None,
                 grid: ast.expr, effective: ast.Call | None = None) -> Launch:
    """The launch at `call`, its arguments read from `effective` (the direct `kernel[grid](...)`
    the call stands for; the call itself when written so)."""
    written = effective if effective is not None else call
    args: dict[str, ast.expr] = {}
    for param, value in zip(kernel.params, _positional(written, launcher, call.lineno), strict=False):
        args[param.name] = value
    options: dict[str, ast.expr] = {}
    for kw in _keywords(written, launcher, call.lineno):
        if kw.arg is None:
            continue
        if kernel.param(kw.arg) is not None:
            args[kw.arg] = kw.value
        else:
            options[kw.arg] = kw.value
    for name, expr in kernel.derived.items():  # heuristics: the value in terms of this launch's arguments
        if name not in args and kernel.param(name) is not None:
            args[name] = _substitute(expr, args)
    for name in ("num_warps", "num_stages"):  # a one-config autotune (or configs that agree) fixes them
        value = _agreed_config_value(kernel, name)
        if name not in options and value is not None:
            options[name] = ast.copy_location(ast.Constant(value), call)
    return Launch(kernel.name, call, grid, args, options, launcher, call.lineno)


def _positional(call: ast.Call, launcher: ast.FunctionDef | None, line: int) -> list[ast.expr]:
    """The call's positional arguments with `*args` expanded when args is a tuple or list literal
    bound in the launcher before the launch; binding stops at a starred argument it cannot read
    (the parameters after it are unknown, not shifted)."""
    out: list[ast.expr] = []
    for arg in call.args:
        if not isinstance(arg, ast.Starred):
            out.append(arg)
            continue
        bound = (_last_binding(launcher, arg.value.id, line)
                 if launcher is not None and isinstance(arg.value, ast.Name) else arg.value)
        if not isinstance(bound, ast.Tuple | ast.List) or any(isinstance(e, ast.Starred) for e in bound.elts):
            break
        out.extend(bound.elts)
    return out


def _substitute(expr: ast.expr, args: dict[str, ast.expr]) -> ast.expr:
    class Bind(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return copy.deepcopy(args[node.id]) if node.id in args else node

    return Bind().visit(copy.deepcopy(expr))


def _keywords(call: ast.Call, launcher: ast.FunctionDef | None, line: int) -> list[ast.keyword]:
    """The call's keywords with `**cfg` expanded when cfg is a dict literal or dict(...) call
    bound in the launcher (`cfg = dict(num_warps=8)`; `kernel[grid](..., **cfg)`)."""
    out: list[ast.keyword] = []
    for kw in call.keywords:
        value = kw.value
        if kw.arg is None and isinstance(value, ast.Name) and launcher is not None:
            value = _last_binding(launcher, value.id, line) or value
        if kw.arg is None and isinstance(value, ast.Dict):
            out += [ast.keyword(k.value, v) for k, v in zip(value.keys, value.values, strict=True)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif kw.arg is None and isinstance(value, ast.Call) and call_name(value) == "dict":
            out += [k for k in value.keywords if k.arg]
        else:
            out.append(kw)
    return out


def _last_binding(fn: ast.FunctionDef, name: str, line: int) -> ast.expr | None:
    binds = [n for n in ast.walk(fn) if isinstance(n, ast.Assign) and n.lineno < line
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    return max(binds, key=lambda n: n.lineno).value if binds else None


def _int_constants(module: ast.Module) -> dict[str, int]:
    constants: dict[str, int] = {}
    for stmt in module.body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            spelled = stmt.value
            if isinstance(spelled, ast.Call) and call_name(spelled) == "constexpr" and len(spelled.args) == 1:
                spelled = spelled.args[0]  # `ACCESSES = tl.constexpr(64)` is the kernel's 64
            value = evaluate(spelled, constants)
            if isinstance(value, int):
                constants[stmt.targets[0].id] = value
    return constants


def build_model(source: str, path: str, tree: ast.Module) -> KernelModule:
    kernels: dict[str, JitKernel] = {}
    # pristine copies: each kernel inlines its helpers as written, not as another kernel's
    # inlining left them (a value helper's call is then recorded where it is read)
    applied = _jit_applied(tree)
    helpers = {name: copy.deepcopy(fn) for name, fn in (_jit_functions(tree) | applied).items()}
    for node in [*ast.walk(tree), *applied.values()]:
        if isinstance(node, ast.FunctionDef):
            kernel = _kernel_from(node, tree, helpers)
            if kernel is not None:
                kernels[kernel.name] = kernel
    launches = _launches(tree, kernels)
    # a void helper inlined into its callers is read there, with their launches: on its own it has
    # none, and its findings would be a second, launch-blind copy of the same code
    launched = {launch.kernel for launch in launches}
    for name in {n for k in kernels.values() for n in k.inlined} - launched:
        kernels.pop(name, None)
    return KernelModule(path, source, tree, kernels, launches, _int_constants(tree))


def _jit_applied(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Kernels made by calling the decorators (`add_kernel = triton.jit(_add)`,
    `k = triton.autotune(configs=..., key=[...])(triton.jit(_body))`): a copy of the plain def
    under the bound name, with the decorators the calls apply, read like a decorated kernel."""
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out: dict[str, ast.FunctionDef] = {}
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)):
            continue
        decorators: list[ast.expr] = []
        value: ast.expr = stmt.value
        while isinstance(value, ast.Call) and len(value.args) == 1:
            kind = _decorator_kind(value.func if isinstance(value.func, ast.Call) else value)
            if not kind:
                break
            # `triton.jit(fn)` is the decorator `triton.jit` (`triton.jit(fn, do_not_specialize=..)`
            # is `triton.jit(do_not_specialize=..)`); `triton.autotune(...)(fn)` is `triton.autotune(...)`
            decorators.append(value.func if isinstance(value.func, ast.Call) or not value.keywords
                              else ast.Call(value.func, [], value.keywords))
            value = value.args[0]
        fn = defs.get(value.id) if isinstance(value, ast.Name) else None
        if fn is None or "jit" not in [_decorator_kind(d) for d in decorators] or fn.decorator_list:
            continue
        kernel = copy.deepcopy(fn)
        kernel.name, kernel.decorator_list = stmt.targets[0].id, decorators
        out[kernel.name] = kernel
    return out


def plain_functions(module: KernelModule) -> list[ast.FunctionDef]:
    """Every plain (not @triton.jit) function of the file: launchers, their helpers, callers."""
    jitted = {id(k.node) for k in module.kernels.values()}
    return [n for n in ast.walk(module.tree) if isinstance(n, ast.FunctionDef) and id(n) not in jitted]


def grid_elements(launch: Launch) -> list[ast.expr]:
    """The launch grid's axes; a grid bound to a name before the launch is read through that
    name (the last assignment before the launch wins), a `lambda meta:` grid through its body."""
    grid = launch.grid
    if isinstance(grid, ast.Name) and launch.launcher is not None:
        name = grid.id
        for node in ast.walk(launch.launcher):
            if (isinstance(node, ast.Assign) and node.lineno < launch.line
                    and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)):
                grid = node.value
    if isinstance(grid, ast.Lambda):
        grid = grid.body
    return list(grid.elts) if isinstance(grid, ast.Tuple | ast.List) else [grid]


# ---- values -----------------------------------------------------------------------------

POW2_UNKNOWN = "pow2"  # triton.next_power_of_2(<runtime size>): a power of two, value unknown


def evaluate(node: ast.expr | None, env: dict[str, int]) -> int | str | None:
    """Integer value of a host or constexpr expression, POW2_UNKNOWN, or None when unknown."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, int) \
            and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.Attribute):  # `self.BLOCK`: a value function_env read from the class
        name = dotted(node)
        return env.get(name) if name else None
    if isinstance(node, ast.IfExp):
        body, orelse = evaluate(node.body, env), evaluate(node.orelse, env)
        test = _truth(node.test, env)
        if test is not None:
            return body if test else orelse
        return body if body == orelse else None
    if isinstance(node, ast.BinOp):
        left, right = evaluate(node.left, env), evaluate(node.right, env)
        if isinstance(left, int) and isinstance(right, int):
            return _binop(node.op, left, right)
        if _power_of_two_spelled(node, left):
            return POW2_UNKNOWN
        return None
    if isinstance(node, ast.Call):
        name = call_name(node)
        values = [evaluate(a, env) for a in node.args]
        if name == "next_power_of_2":
            if values and isinstance(values[0], int) and values[0] > 0:
                return 1 << (values[0] - 1).bit_length()
            return POW2_UNKNOWN
        if name in {"min", "max"} and values and all(isinstance(v, int) for v in values):
            return (min if name == "min" else max)(values)  # type: ignore[type-var]
        if name in {"min", "max"} and POW2_UNKNOWN in values:
            return POW2_UNKNOWN
    return None


def _power_of_two_spelled(node: ast.BinOp, left: int | str | None) -> bool:
    """`1 << k` or `2 ** k` of an unknown exponent: next_power_of_2 written by hand (the exponent is
    usually `(n - 1).bit_length()` or `math.ceil(math.log2(n))`)."""
    return ((isinstance(node.op, ast.LShift) and left == 1)
            or (isinstance(node.op, ast.Pow) and left == 2))


def _truth(node: ast.expr, env: dict[str, int]) -> bool | None:
    """The value of a comparison of known integers (`n >= 4096`), else None."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    left, right = evaluate(node.left, env), evaluate(node.comparators[0], env)
    if not (isinstance(left, int) and isinstance(right, int)):
        return None
    ops = {ast.Lt: int.__lt__, ast.LtE: int.__le__, ast.Gt: int.__gt__, ast.GtE: int.__ge__,
           ast.Eq: int.__eq__, ast.NotEq: int.__ne__}
    compare = ops.get(type(node.ops[0]))
    return compare(left, right) if compare else None


def _binop(op: ast.operator, a: int, b: int) -> int | None:
    try:
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.FloorDiv):
            return a // b
        if isinstance(op, ast.LShift) and b < 64:
            return a << b
        if isinstance(op, ast.Pow) and b < 64:
            return a ** b
    except ZeroDivisionError:
        return None
    return None


def launcher_env(module: KernelModule, launch: Launch) -> dict[str, int | str]:
    """Constants visible at a launch: a small constant propagation over the host code.

    Module constants, then the launcher's parameters (their defaults, or the constant every
    call site in the file passes, evaluated in its caller), then its assignments before the
    launch in source order (tuple unpacking and `x: int = ...` included); a name assigned
    twice keeps the later value, as the launch sees it."""
    if launch.launcher is None:
        return dict(module.constants)
    return function_env(module, launch.launcher, launch.line)


CALLER_DEPTH = 3  # how many host-function calls a launch value is followed through


def function_env(module: KernelModule, fn: ast.FunctionDef, line: int,
                 depth: int = CALLER_DEPTH) -> dict[str, int | str]:
    """Integer (or POW2_UNKNOWN) values of names in `fn` just before `line`."""
    key = (id(fn), line, depth)  # fn lives as long as module.tree, so its id stays its own
    if key not in module.envs:
        module.envs[key] = _function_env(module, fn, line, depth)
    return dict(module.envs[key])


def _function_env(module: KernelModule, fn: ast.FunctionDef, line: int,
                  depth: int) -> dict[str, int | str]:
    env: dict[str, int | str] = dict(module.constants)
    env.update(_attribute_values(module, fn, depth))
    env.update(_parameter_values(module, fn, depth))
    for target, value in _assignments_before(fn, line):
        result = evaluate(value, env) if value is not None else None  # type: ignore[arg-type]
        if result is not None:
            env[target] = result
        else:
            env.pop(target, None)  # reassigned to something unknown: the old value is stale
    return env


def _attribute_values(module: KernelModule, fn: ast.FunctionDef, depth: int) -> dict[str, int | str]:
    """`self.X` / `Cls.X` values a method reads: a class-level constant, or an attribute the
    class assigns once, in `__init__`, evaluated there (its parameters from the `Cls(...)` calls
    of the file): a launcher class keeping its block size or warps on the object."""
    owner = class_of(module.tree, fn) if depth > 0 else None
    if owner is None:
        return {}
    values: dict[str, int | str] = {}
    for stmt in owner.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = evaluate(stmt.value, module.constants)  # type: ignore[arg-type]
            if value is not None:
                values[f"self.{stmt.targets[0].id}"] = values[f"{owner.name}.{stmt.targets[0].id}"] = value
    writes: dict[str, list[tuple[ast.FunctionDef, ast.Assign]]] = {}
    for method in (n for n in owner.body if isinstance(n, ast.FunctionDef)):
        for node in ast.walk(method):
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if dotted(target).startswith("self."):
                        writes.setdefault(dotted(target), []).append((method, node))  # type: ignore[arg-type]
    for name, sites in writes.items():
        method, node = sites[0]
        if len(sites) > 1 or method.name != "__init__" or not isinstance(node, ast.Assign):
            values.pop(name, None)  # written again elsewhere: not one value
            continue
        value = evaluate(node.value, function_env(module, method, node.lineno, depth - 1))
        if value is not None:
            values[name] = value
    return values


def _assignments_before(fn: ast.FunctionDef, line: int) -> list[tuple[str, ast.expr | None]]:
    """(name, value) of the assignments in `fn` before `line`, in source order."""
    found: list[tuple[int, int, str, ast.expr | None]] = []
    for node in ast.walk(fn):
        if getattr(node, "lineno", line) >= line:
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                found += [(node.lineno, node.col_offset, n, v) for n, v in _unpack(target, node.value)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.append((node.lineno, node.col_offset, node.target.id, node.value))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            found.append((node.lineno, node.col_offset, node.target.id,
                          ast.BinOp(ast.Name(node.target.id), node.op, node.value)))
    return [(name, value) for _, _, name, value in sorted(found, key=lambda f: (f[0], f[1]))]


def _unpack(target: ast.expr, value: ast.expr) -> list[tuple[str, ast.expr | None]]:
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, ast.Tuple | ast.List):
        names = target.elts
        values = value.elts if isinstance(value, ast.Tuple | ast.List) else []
        if len(values) == len(names):
            return [pair for t, v in zip(names, values, strict=True) for pair in _unpack(t, v)]
        return [(n.id, None) for t in names for n in ast.walk(t) if isinstance(n, ast.Name)]
    return []


def _parameter_values(module: KernelModule, fn: ast.FunctionDef,
                      depth: int) -> dict[str, int | str]:
    """Parameters of a host function with a known value: the one every call in the file
    passes (evaluated in the calling function), else the default."""
    args = fn.args.args + fn.args.kwonlyargs
    positional = [a.arg for a in fn.args.args]
    defaults = dict(zip(positional[len(positional) - len(fn.args.defaults):], fn.args.defaults,
                        strict=True))
    defaults |= {a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True)
                 if d is not None}
    passed: dict[str, set[int | str | None]] = {}
    for call, caller, shift in _calls_of(module.tree, fn) if depth > 0 else []:
        env = (function_env(module, caller, call.lineno, depth - 1) if caller is not None
               else dict(module.constants))
        for i, arg in enumerate(call.args):
            if i + shift < len(positional) and not isinstance(arg, ast.Starred):
                passed.setdefault(positional[i + shift], set()).add(evaluate(arg, env))  # type: ignore[arg-type]
        for kw in call.keywords:
            if kw.arg:
                passed.setdefault(kw.arg, set()).add(evaluate(kw.value, env))  # type: ignore[arg-type]
    values: dict[str, int | str] = {}
    for a in args:
        seen = passed.get(a.arg, set())
        if len(seen) == 1 and None not in seen:
            values[a.arg] = next(iter(seen))  # type: ignore[assignment]
        elif not seen and a.arg in defaults:
            value = evaluate(defaults[a.arg], module.constants)  # type: ignore[arg-type]
            if value is not None:
                values[a.arg] = value
    return values


def _calls_of(tree: ast.Module, fn: ast.FunctionDef) -> list[tuple[ast.Call, ast.FunctionDef | None, int]]:
    """Calls of the host function `fn` with the function each call sits in (None: module) and
    how many of `fn`'s leading parameters the call does not pass: `fn(...)`; for a method,
    `self.fn(...)` / `cls.fn(...)` (the object is the first parameter), `Cls(...)` for
    `__init__`, `Cls(...)(...)` for `__call__` / `forward`, and `Cls.apply(...)` for the
    `forward(ctx, ...)` of a torch.autograd.Function."""
    owner = class_of(tree, fn)
    name = fn.name
    bound_first = 1 if [a.arg for a in fn.args.args][:1] in (["self"], ["cls"], ["ctx"]) else 0
    found: list[tuple[ast.Call, ast.FunctionDef | None, int]] = []

    def shift_of(call: ast.Call) -> int | None:
        func = call.func
        if isinstance(func, ast.Name) and func.id == name and owner is None:
            return 0
        if owner is None:
            return None
        if (isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name)
                and func.value.id in ("self", "cls")):
            return bound_first
        if name == "__init__" and isinstance(func, ast.Name) and func.id == owner.name:
            return 1
        if (name in ("__call__", "forward") and isinstance(func, ast.Call)
                and isinstance(func.func, ast.Name) and func.func.id == owner.name):
            return 1
        if (name == "forward" and isinstance(func, ast.Attribute) and func.attr == "apply"
                and isinstance(func.value, ast.Name) and func.value.id == owner.name):
            return 1
        return None

    def visit(node: ast.AST, inside: ast.FunctionDef | None) -> None:
        for child in ast.iter_child_nodes(node):
            here = child if isinstance(child, ast.FunctionDef) else inside
            if isinstance(child, ast.Call) and inside is not fn:
                shift = shift_of(child)
                if shift is not None:
                    found.append((child, inside, shift))
            visit(child, here)

    visit(tree, None)
    return found


def class_of(tree: ast.Module, fn: ast.FunctionDef) -> ast.ClassDef | None:
    """The class whose body defines `fn`, if any."""
    return next((n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
                 and any(stmt is fn for stmt in n.body)), None)


HANDOVER_DEPTH = 3  # host calls a buffer is followed through (returns, arguments, unpacking)


def value_places(module: KernelModule, fn: ast.FunctionDef, expr: ast.expr, line: int,
                 depth: int = HANDOVER_DEPTH) -> list[tuple[ast.FunctionDef, str, int]]:
    """Where else the host value `expr` (seen in `fn` at `line`) lives, as (function, name, line up
    to which that name holds it): the name itself, what it was assigned from (an alias, a tuple
    unpacked from a call, a host function's or method's returned value, traced into the function
    that returned it), and for a parameter the argument each caller passes. A buffer one host
    function allocates, fills with a launch and returns is then seen by the launch another
    function makes on it."""
    if depth < 0:
        return []
    if isinstance(expr, ast.Call):
        return _returned_places(module, expr, None, line, depth)
    if isinstance(expr, ast.Attribute) and dotted(expr).startswith("self."):
        return [(fn, dotted(expr), line), *_attribute_places(module, fn, dotted(expr), line, depth)]
    if not isinstance(expr, ast.Name):
        return []
    places = [(fn, expr.id, line)]
    bound = _binding_before(fn, expr.id, line)
    if bound is not None:
        value, index, at = bound
        if index is None and isinstance(value, ast.Name):
            places += value_places(module, fn, value, at, depth - 1)
        elif isinstance(value, ast.Call):
            places += _returned_places(module, value, index, at, depth)
    elif expr.id in [a.arg for a in fn.args.args]:
        places += _argument_places(module, fn, expr.id, depth)
    return places


def _attribute_places(module: KernelModule, fn: ast.FunctionDef, name: str, line: int,
                      depth: int) -> list[tuple[ast.FunctionDef, str, int]]:
    """A buffer kept on the object (`self.tmp`) by a method called before `line`, in `fn` or in
    the method that calls `fn` before that call (`self.fill(x)`, which allocates and fills
    `self.tmp`, then `self.read(x)`): that method's places of it. A method the call sequence does
    not run first (a cache another call fills) is not followed."""
    owner = class_of(module.tree, fn)
    if owner is None or depth <= 0:
        return []
    methods = {n.name: n for n in owner.body if isinstance(n, ast.FunctionDef)}
    places: list[tuple[ast.FunctionDef, str, int]] = []
    for call in ast.walk(fn):
        if not (isinstance(call, ast.Call) and call.lineno < line and isinstance(call.func, ast.Attribute)
                and dotted(call.func.value) == "self" and call.func.attr in methods):
            continue
        method = methods[call.func.attr]
        end = (method.end_lineno or method.lineno) + 1
        for node in ast.walk(method):
            if isinstance(node, ast.Assign) and any(dotted(t) == name for t in node.targets):
                places.append((method, name, end))
                if isinstance(node.value, ast.Name | ast.Call):
                    places += value_places(module, method, node.value, end, depth - 1)
    for call, caller, _ in _calls_of(module.tree, fn):  # `self.fill(x)` then `self.read(x)` in a caller
        if caller is not None and class_of(module.tree, caller) is owner:
            places += _attribute_places(module, caller, name, call.lineno, depth - 1)
    return places


def _binding_before(fn: ast.FunctionDef, name: str, line: int) -> tuple[ast.expr, int | None, int] | None:
    """(value, tuple index or None, line) of the last assignment to `name` before `line`."""
    best: tuple[ast.expr, int | None, int] | None = None
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and node.lineno < line):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                found: tuple[ast.expr, int | None, int] = (node.value, None, node.lineno)
            elif isinstance(target, ast.Tuple | ast.List) and any(
                    isinstance(e, ast.Name) and e.id == name for e in target.elts):
                index = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name)
                found = (node.value, index, node.lineno)
            else:
                continue
            if best is None or found[2] >= best[2]:
                best = found
    return best


def _host_callee(module: KernelModule, call: ast.Call) -> ast.FunctionDef | None:
    """The plain function (or method, called on self) of the file a call runs."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        and func.value.id in ("self", "cls") else None)
    if name is None or name in module.kernels:
        return None
    return next((n for n in ast.walk(module.tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _returned_places(module: KernelModule, call: ast.Call, index: int | None, line: int,
                     depth: int) -> list[tuple[ast.FunctionDef, str, int]]:
    callee = _host_callee(module, call)
    if callee is None or depth <= 0:
        return []
    places = []
    for node in ast.walk(callee):
        if not (isinstance(node, ast.Return) and node.value is not None):
            continue
        value = node.value
        if index is not None:
            if not (isinstance(value, ast.Tuple | ast.List) and index < len(value.elts)):
                continue
            value = value.elts[index]
        places += value_places(module, callee, value, node.lineno, depth - 1)
    return places


def _argument_places(module: KernelModule, fn: ast.FunctionDef, param: str,
                     depth: int) -> list[tuple[ast.FunctionDef, str, int]]:
    positional = [a.arg for a in fn.args.args]
    places = []
    for call, caller, shift in _calls_of(module.tree, fn) if depth > 0 else []:
        if caller is None:
            continue
        i = positional.index(param) - shift
        arg = kwarg(call, param) or (call.args[i] if 0 <= i < len(call.args) else None)
        if arg is not None and not isinstance(arg, ast.Starred):
            places += value_places(module, caller, arg, call.lineno, depth - 1)
    return places


def launch_value(module: KernelModule, launch: Launch, name: str,
                 env: dict[str, int | str] | None = None) -> int | str | None:
    """The value of a kernel parameter or launch option (num_warps, num_stages) at `launch`:
    from the host code when it is a constant there, else what the capture recorded."""
    kernel = module.kernels[launch.kernel]
    param = kernel.param(name)
    expr = launch.args.get(name, param.default if param else None) if param else \
        launch.options.get(name)
    value = evaluate(expr, env if env is not None else launcher_env(module, launch))  # type: ignore[arg-type]
    if value is None and expr is None:
        value = _agreed_config_value(kernel, name)
    if value is None or value == POW2_UNKNOWN:
        value = module.resolved.get(launch.kernel, {}).get(name, value)
    return value


def _agreed_config_value(kernel: JitKernel, name: str) -> int | None:
    """The value every literal autotune config gives `name`, when they all give the same one
    (a one-config autotune is a constant): what the launch runs whichever config wins."""
    values = {c.get(name) for c in kernel.configs}
    value = values.pop() if len(values) == 1 else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def constexpr_values(module: KernelModule, kernel: JitKernel,
                     resolved: bool = True) -> dict[str, list[int | str]]:
    """Every value each constexpr parameter may take: launches (with `resolved`, filled in from
    the capture where the host code computes them), autotune configs, defaults."""
    values: dict[str, list[int | str]] = {}
    for param in kernel.params:
        if not param.constexpr:
            continue
        seen: list[int | str] = []
        for launch in module.launches:
            if launch.kernel == kernel.name and param.name in launch.args:
                value = (launch_value(module, launch, param.name) if resolved else
                         evaluate(launch.args[param.name], launcher_env(module, launch)))  # type: ignore[arg-type]
                if value is not None:
                    seen.append(value)
        seen += [c[param.name] for c in kernel.configs
                 if isinstance(c.get(param.name), int)]  # type: ignore[misc]
        default = evaluate(param.default, module.constants)
        if not seen and default is not None:
            seen.append(default)
        values[param.name] = seen
    return values


# ---- shapes -----------------------------------------------------------------------------


class ShapeInference:
    """Symbolic tile shapes of kernel expressions: () for scalars, None when unknown."""

    def __init__(self, kernel: JitKernel) -> None:
        self.kernel = kernel
        self._busy: set[int] = set()
        self._names: set[str] | None = None
        # shapes already worked out, by (name, line): a chain of reassignments (`a = f(a, b)`,
        # `b = g(a, b)`, a hash's rounds) reaches each earlier value along many paths
        self._known: dict[tuple[str, int], Shape | None] = {}
        self._cycles = 0  # busy nodes met: a result reached through a cycle is not kept

    def _stored(self) -> set[str]:
        """Every name the kernel's body binds (by any statement)."""
        if self._names is None:
            self._names = {n.id for n in ast.walk(self.kernel.node)
                           if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
            self._names |= {a.arg for a in self.kernel.node.args.args}
        return self._names

    def definition(self, name: str, line: int) -> ast.expr | None:
        """The value last assigned to `name` before `line` (first assignment as fallback)."""
        chosen = self._assignment(name, line)
        return chosen.value if chosen is not None else None  # type: ignore[union-attr]

    def _assignment(self, name: str, line: int) -> ast.stmt | None:
        stmts = self.kernel.assigns.get(name, [])
        plain = [s for s in stmts if isinstance(s, ast.Assign | ast.AnnAssign)]
        before = [s for s in plain if s.lineno < line]
        return before[-1] if before else (plain[0] if plain else None)

    def shape(self, node: ast.expr | None, line: int | None = None) -> Shape | None:
        if node is None:
            return None
        if id(node) in self._busy:
            self._cycles += 1
            return None
        line = line if line is not None else getattr(node, "lineno", 10**9)
        # by name, not node: callers build throwaway Name nodes whose ids come back reused
        key = (node.id, line) if isinstance(node, ast.Name) else None
        if key is not None and key in self._known:
            return self._known[key]
        self._busy.add(id(node))
        cycles = self._cycles
        try:
            found = self._shape(node, line)
        finally:
            self._busy.discard(id(node))
        if key is not None and self._cycles == cycles:
            self._known[key] = found
        return found

    def _shape(self, node: ast.expr, line: int) -> Shape | None:
        if isinstance(node, ast.Constant):
            return ()
        if isinstance(node, ast.Name):
            if node.id in self.kernel.loop_vars and node.id not in self.kernel.assigns:
                return ()
            if self.kernel.param(node.id) is not None and node.id not in self.kernel.assigns:
                return ()
            if node.id not in self._stored():  # a module constant (`HDR = tl.constexpr(54)`): a scalar
                return ()
            chosen = self._assignment(node.id, line)
            if chosen is None:
                return None
            # the value is read where it was assigned: `s = f(s)` reads the s before it
            return self.shape(chosen.value, min(chosen.lineno, line))  # type: ignore[union-attr]
        if isinstance(node, ast.BinOp):
            return broadcast(self.shape(node.left, line), self.shape(node.right, line))
        if isinstance(node, ast.UnaryOp):
            return self.shape(node.operand, line)
        if isinstance(node, ast.Compare):
            return broadcast(*(self.shape(n, line) for n in [node.left, *node.comparators]))
        if isinstance(node, ast.BoolOp):
            return broadcast(*(self.shape(n, line) for n in node.values))
        if isinstance(node, ast.IfExp):
            return broadcast(self.shape(node.body, line), self.shape(node.orelse, line))
        if isinstance(node, ast.Subscript):
            return self._subscript(node, line)
        if isinstance(node, ast.Call):
            return self._call(node, line)
        if isinstance(node, ast.Attribute):
            return self.shape(node.value, line) if node.attr == "T" else None
        return None

    def _subscript(self, node: ast.Subscript, line: int) -> Shape | None:
        base = self.shape(node.value, line)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base is None:
            return None
        dims = list(base)
        out: list[Dim] = []
        for item in items:
            if isinstance(item, ast.Constant) and item.value is None:
                out.append(1)
            elif isinstance(item, ast.Slice) and dims:
                out.append(dims.pop(0))
            else:
                return None
        return tuple(out + dims)

    def _call(self, node: ast.Call, line: int) -> Shape | None:
        name = call_name(node)
        args = node.args
        if name == "arange" and len(args) == 2:
            start = args[0]
            if isinstance(start, ast.Constant) and start.value == 0:
                return (_dim(args[1]),)
            return (f"{ast.unparse(args[1])}-{ast.unparse(start)}",)
        if name in {"zeros", "full", "empty"} and args:
            shape = args[0]
            if isinstance(shape, ast.Tuple | ast.List):
                return tuple(_dim(e) for e in shape.elts)
            return None
        if name in _SCALAR_CALLS:
            return ()
        if name in _REDUCTIONS:
            return self._reduce(node, line)
        if name == "dot" and len(args) >= 2:
            a, b = self.shape(args[0], line), self.shape(args[1], line)
            return (a[0], b[-1]) if a and b and len(a) == 2 and len(b) == 2 else None
        if name in {"trans", "permute"} and args:
            inner = self.shape(args[0], line)
            return tuple(reversed(inner)) if inner is not None else None
        if name == "to" and isinstance(node.func, ast.Attribute):
            return self.shape(node.func.value, line)
        if name in {"multiple_of", "max_contiguous", "max_constancy"} and args:
            return self.shape(args[0], line)
        if name == "load" and args:
            return self.shape(args[0], line)
        if isinstance(node.func, ast.Attribute) and dotted(node.func).startswith(("tl.", "triton.")):
            return broadcast(*(self.shape(a, line) for a in args)) if args else None
        return None

    def _reduce(self, node: ast.Call, line: int) -> Shape | None:
        inner = self.shape(node.args[0], line) if node.args else None
        axis_node = kwarg(node, "axis") or (node.args[1] if len(node.args) > 1 else None)
        if inner is None:
            return None
        if axis_node is None or (isinstance(axis_node, ast.Constant) and axis_node.value is None):
            return ()
        if isinstance(axis_node, ast.Constant) and isinstance(axis_node.value, int):
            axis = axis_node.value % max(len(inner), 1)
            return inner[:axis] + inner[axis + 1:]
        return None


def _dim(node: ast.expr) -> Dim:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    return ast.unparse(node)


def broadcast(*shapes: Shape | None) -> Shape | None:
    """Numpy-style broadcast of symbolic shapes; an unknown operand is left out when some are
    known (a fill value, a scalar the inference cannot name), unknown when none is."""
    if any(s is None for s in shapes):
        known = [s for s in shapes if s is not None]
        if not any(known):
            return None
        return broadcast(*known)
    rank = max((len(s) for s in shapes), default=0)  # type: ignore[arg-type]
    out: list[Dim] = []
    for axis in range(rank):
        dims = [s[len(s) - rank + axis] for s in shapes  # type: ignore[union-attr,arg-type]
                if len(s) - rank + axis >= 0]  # type: ignore[arg-type]
        non_one = [d for d in dims if d != 1]
        out.append(non_one[0] if non_one else 1)
    return tuple(out)


def is_tile(shape: Shape | None) -> bool:
    """True for a tensor of more than one element along some axis."""
    return bool(shape) and any(d != 1 for d in shape)  # type: ignore[union-attr]


def additive_terms(node: ast.expr, shapes: ShapeInference, line: int, depth: int = 0
                   ) -> list[ast.expr]:
    """Flatten `a + b + (c + d)` into its terms, looking through names bound to sums."""
    if depth > 8:
        return [node]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        return (additive_terms(node.left, shapes, line, depth + 1)
                + additive_terms(node.right, shapes, line, depth + 1))
    if isinstance(node, ast.Name) and node.id in shapes.kernel.assigns:
        value = shapes.definition(node.id, line)
        if value is not None and isinstance(value, ast.BinOp | ast.Name):
            return additive_terms(value, shapes, line, depth + 1)
    return [node]


def name_node(name: str) -> ast.Name:
    """A read of `name`, to ask the shape or the dependences of a local name by itself."""
    return ast.Name(id=name, ctx=ast.Load())


def bindings_before(kernel: JitKernel, name: str, at: ast.AST | int) -> list[ast.stmt]:
    """The statements assigning `name` that run before `at` (a node of the kernel, ordered as the
    body runs; or a line); a name the kernel assigns once has that one value wherever it is read."""
    stmts = kernel.assigns.get(name, [])
    where = kernel.position(at) if isinstance(at, ast.AST) else None
    if where is not None:
        before = [s for s in stmts if _or_first(kernel.position(s)) < where]
    else:
        line = at if isinstance(at, int) else getattr(at, "lineno", 10**9)
        before = [s for s in stmts if s.lineno < line]
    return before if before or len(stmts) != 1 else list(stmts)


def reaching_binding(kernel: JitKernel, name: str, at: ast.AST) -> ast.stmt | None:
    """The statement assigning `name` that last ran before `at` (see bindings_before)."""
    return max(bindings_before(kernel, name, at), key=lambda s: _or_first(kernel.position(s)), default=None)


def bound_once(kernel: JitKernel, node: ast.expr) -> ast.expr:
    """A name the kernel binds once by a plain assignment, read as its value; anything else as it is."""
    stmts = kernel.assigns.get(node.id, []) if isinstance(node, ast.Name) else []
    return stmts[0].value if len(stmts) == 1 and isinstance(stmts[0], ast.Assign) else node


def _or_first(position: int | None) -> int:
    return -1 if position is None else position


def execution_order(block: ast.FunctionDef | ast.For) -> dict[int, int]:
    """{id(node): index of the statement holding it} for the nodes of `block`'s body, statements
    numbered in the order they run (a compound statement's header before its body)."""
    order: dict[int, int] = {}
    count = itertools.count()

    def visit(stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            index = next(count)
            nested = [getattr(stmt, f, None) for f in ("body", "orelse", "finalbody")]
            inner = {id(s) for block in nested if isinstance(block, list) for s in block}
            todo: list[ast.AST] = [stmt]
            while todo:
                node = todo.pop()
                order[id(node)] = index
                todo += [c for c in ast.iter_child_nodes(node) if id(c) not in inner]
            for block in nested:
                if isinstance(block, list):
                    visit(block)

    visit(block.body)
    return order


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
