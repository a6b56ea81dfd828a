"""Whole-row log-sum-exp: a kernel that holds a row in one tile (a constexpr block with no loop
over it), loads it once under a mask and reduces it by max then sum(exp(x - max)). An online
log-sum-exp over fixed chunks replaces the tile; `find_row_reduction` is shared with that rewrite
(diagnose/proposers/rules/online.py), so the detector names the family only where it applies."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.memory import depends_on
from diagnose.triage.detectors.model import (
    POW2_UNKNOWN,
    KernelModule,
    dotted,
    launch_value,
)

# tl functions that map a row element by element (the row stays a row, lane for lane)
ELEMENTWISE = {"exp", "exp2", "log", "log2", "log1p", "sqrt", "sqrt_rn", "rsqrt", "abs", "sigmoid",
               "where", "maximum", "minimum", "clamp", "fma", "cos", "sin", "erf", "floor", "ceil",
               "fdiv", "div_rn", "cast", "load", "store", "multiple_of",
               "max_contiguous", "math.exp", "math.exp2", "math.log", "math.log2", "math.tanh",
               "math.erf", "math.rsqrt", "math.sqrt", "math.abs"}
EXPONENTIALS = ("tl.exp", "tl.exp2", "tl.math.exp", "tl.math.exp2")
MEMORY = ("tl.load", "tl.store")
LARGE_TILE = 8192      # fp32 elements per program from which a whole-row tile is worth chunking
SPILL_SHARE = 64       # values per thread above which the row and its exp do not fit registers
SM_REGISTERS = 65536   # 32-bit registers per SM (sm_80/sm_90): the row and its exp each take one a value


@dataclass
class RowReduction:
    """The parts of a whole-row log-sum-exp kernel, as the online rewrite rearranges them."""

    kernel: ast.FunctionDef
    block: str                  # the constexpr extent of the row's tl.arange
    bound: ast.expr             # N of the load mask's `cols < N`: where the row ends
    prefix: list[ast.stmt]      # row-free statements before the reductions (run once, first)
    row: list[ast.stmt]         # the row's statements before the reductions (once per chunk)
    after: list[ast.stmt]       # row-free statements from the reductions on (after the sweep)
    outputs: list[ast.stmt]     # row statements after the reductions (a second sweep)
    max_call: ast.Call          # tl.max(R, axis=0)
    sum_call: ast.Call          # tl.sum(g((R - max) [* c]), axis=0)
    exp: str                    # g: tl.exp or tl.exp2
    scale: ast.expr | None      # c, a row-free factor of the exponent


def tl_name(node: ast.AST) -> str:
    """`tl.exp`, `triton.language.exp` -> "tl.exp"; a method such as `x.to` -> ".to"."""
    name = dotted(node)
    if name.startswith("triton.language."):
        return "tl." + name[len("triton.language."):]
    if name.startswith("tl.") or not isinstance(node, ast.Attribute):
        return name
    return "." + node.attr


class _Walk:
    """Which expressions are rows (outside the max/sum reductions over them), which reductions
    there are, and whether anything but elementwise work touches a row."""

    def __init__(self, block: str) -> None:
        self.block = block
        self.rows: set[str] = set()
        self.reductions: list[ast.Call] = []
        self.foreign = False  # a row reaches something not elementwise: not ours

    def is_arange(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Call) and tl_name(node.func) == "tl.arange"
                and len(node.args) == 2 and isinstance(node.args[1], ast.Name)
                and node.args[1].id == self.block)

    def row(self, node: ast.AST) -> bool:
        if self.is_arange(node):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.rows
        if isinstance(node, ast.Call):
            return self._call(node)
        parts = [self.row(c) for c in ast.iter_child_nodes(node)]
        if isinstance(node, ast.Subscript) and any(parts):
            self.foreign = True  # reshaping a row ([:, None]) is not elementwise
        return any(parts)

    def _call(self, node: ast.Call) -> bool:
        name = tl_name(node.func)
        values = list(node.args) + [k.value for k in node.keywords]
        inner = [self.row(v) for v in values]
        method = name.startswith(".")
        if method:
            inner.append(self.row(node.func.value))  # type: ignore[attr-defined]
        if not any(inner):
            return False
        if name in ("tl.max", "tl.sum") and inner[0] and self._whole_axis(node):
            self.reductions.append(node)
            return False
        if not (name == ".to" or (name.startswith("tl.") and name[3:] in ELEMENTWISE)):
            self.foreign = True
        return True

    @staticmethod
    def _whole_axis(node: ast.Call) -> bool:
        axis = node.args[1] if len(node.args) > 1 else None
        for kw in node.keywords:
            if kw.arg != "axis":
                return False  # keep_dims, return_indices: not the plain reduction
            axis = kw.value
        return len(node.args) <= 2 and (axis is None or (isinstance(axis, ast.Constant)
                                                         and axis.value in (0, -1, None)))


def _row_block(fn: ast.FunctionDef) -> str | None:
    """The one constexpr that every tl.arange of the kernel spans, each from 0, and that the
    kernel uses nowhere else (a block that also scales an offset is not only a row's width)."""
    constexprs = {a.arg for a in fn.args.args if a.annotation is not None
                  and "constexpr" in ast.unparse(a.annotation)}
    aranges = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and tl_name(n.func) == "tl.arange"]
    if not aranges or not all(len(a.args) == 2 and not a.keywords and isinstance(a.args[1], ast.Name)
                              and isinstance(a.args[0], ast.Constant) and a.args[0].value == 0
                              for a in aranges):
        return None
    extents = {a.args[1].id for a in aranges}  # type: ignore[attr-defined]
    if len(extents) != 1 or not extents <= constexprs:
        return None
    block = extents.pop()
    inside = {id(n) for a in aranges for n in ast.walk(a)}
    used = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == block and id(n) not in inside]
    return None if used else block


def _statements(fn: ast.FunctionDef) -> list[ast.stmt] | None:
    """The body when it is straight-line code of single-name assignments and calls."""
    for s in fn.body:
        plain = (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)) \
            or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call | ast.Constant))
        if not plain:
            return None
    return fn.body


def find_row_reduction(fn: ast.FunctionDef, movable: bool = True) -> RowReduction | None:
    """The kernel's whole-row log-sum-exp, or None when it is anything else (a loop, another
    reduction over the row, a row used other than element by element). `movable` (for the
    rewrite) also asks that the row-free statements can move before the sweep; telling the
    idiom apart does not need that."""
    block = _row_block(fn)
    body = _statements(fn) if block else None
    if body is None:
        return None
    walk, kinds = _Walk(block), []
    for s in body:
        is_row = walk.row(s.value)  # type: ignore[attr-defined]
        if isinstance(s, ast.Assign):
            name = s.targets[0].id  # type: ignore[attr-defined]
            if name in walk.rows and not is_row:
                return None  # a row name rebound to a scalar
            if is_row:
                walk.rows.add(name)
        kinds.append(is_row)
    maxes = [c for c in walk.reductions if tl_name(c.func) == "tl.max"]
    sums = [c for c in walk.reductions if tl_name(c.func) == "tl.sum"]
    if walk.foreign or len(maxes) != 1 or len(sums) != 1:
        return None
    return _arrange(fn, block, body, kinds, maxes[0], sums[0], walk, movable)


def _holder(body: list[ast.stmt], call: ast.Call) -> int:
    return next(i for i, s in enumerate(body) if any(n is call for n in ast.walk(s)))


def _arrange(fn, block: str, body: list[ast.stmt], kinds: list[bool], max_call: ast.Call,
             sum_call: ast.Call, walk: _Walk, movable: bool = True) -> RowReduction | None:
    first = _holder(body, max_call)
    if _holder(body, sum_call) < first:
        return None
    row = [s for s, r in zip(body[:first], kinds[:first], strict=True) if r]
    prefix = [s for s, r in zip(body[:first], kinds[:first], strict=True) if not r]
    if any(_calls(s, "tl.store") for s in row):
        return None  # a store inside the sweep would run again in the second one
    tail = kinds[first:]
    if movable and any(r and not later for i, r in enumerate(tail) for later in tail[i + 1:]):
        return None  # a row-free statement after a row one would change places
    after = [s for s, r in zip(body[first:], tail, strict=True) if not r]
    outputs = [s for s, r in zip(body[first:], tail, strict=True) if r]
    exponent = _exponent(body, prefix, max_call, sum_call, walk)
    bound = _bound(body, prefix, walk)
    if exponent is None or bound is None:
        return None
    return RowReduction(fn, block, bound, prefix, row, after, outputs, max_call, sum_call, *exponent)


def _calls(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and tl_name(n.func) == name for n in ast.walk(node))


class _Expand(ast.NodeTransformer):
    """A kernel expression with its local names replaced by what they were bound to (names of
    the row-free prefix and parameters stay: they are in scope everywhere)."""

    def __init__(self, env: dict[str, ast.expr]) -> None:
        self.env = env

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.env.get(node.id, node)


def _expansions(body: list[ast.stmt], keep: set[str], wanted: list[ast.AST]) -> dict[int, ast.expr]:
    """Each wanted node expanded in the scope of the statement that holds it."""
    env: dict[str, ast.expr] = {}
    out: dict[int, ast.expr] = {}
    for s in body:
        for node in wanted:
            if any(n is node for n in ast.walk(s)):
                out[id(node)] = _Expand(env).visit(ast.parse(ast.unparse(node), mode="eval").body)
        if isinstance(s, ast.Assign):
            name = s.targets[0].id  # type: ignore[attr-defined]
            if name not in keep:
                env[name] = _Expand(env).visit(ast.parse(ast.unparse(s.value), mode="eval").body)
    return out


def _upcast_stripped(node: ast.expr) -> str:
    while (isinstance(node, ast.Call) and tl_name(node.func) == ".to" and len(node.args) == 1
           and "float32" in ast.unparse(node.args[0])):
        node = node.func.value  # type: ignore[attr-defined]
    return ast.dump(node)


def _exponent(body, prefix, max_call, sum_call, walk: _Walk) -> tuple[str, ast.expr | None] | None:
    """(g, c) when the sum's argument is g((R - max(R)) [* c]) for g = exp or exp2."""
    keep = {s.targets[0].id for s in prefix if isinstance(s, ast.Assign)}  # type: ignore[attr-defined]
    exp = _expansions(body, keep, [max_call, sum_call.args[0], max_call.args[0]])
    term, maximum, row = exp[id(sum_call.args[0])], exp[id(max_call)], exp[id(max_call.args[0])]
    g = tl_name(term.func) if isinstance(term, ast.Call) else ""
    if g not in EXPONENTIALS or len(term.args) != 1 or term.keywords:  # type: ignore[attr-defined]
        return None
    diff, scale = term.args[0], None  # type: ignore[attr-defined]
    if isinstance(diff, ast.BinOp) and isinstance(diff.op, ast.Mult):
        subs = [side for side in (diff.left, diff.right) if _is_sub(side)]
        if len(subs) != 1:
            return None
        diff, scale = subs[0], diff.right if subs[0] is diff.left else diff.left
        if walk.row(scale) or any(isinstance(n, ast.Call) for n in ast.walk(scale)):
            return None
    if not _is_sub(diff):
        return None
    same_row = _upcast_stripped(diff.left) == _upcast_stripped(row)
    same_max = _upcast_stripped(diff.right) == _upcast_stripped(maximum)
    return (g.replace("tl.math.", "tl."), scale) if same_row and same_max else None


def _is_sub(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)


def _bound(body: list[ast.stmt], prefix: list[ast.stmt], walk: _Walk) -> ast.expr | None:
    """N of `cols < N` in the mask of every load of the row (all the same N), else None."""
    loads = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Call)
             and tl_name(n.func) == "tl.load" and walk.row(n)]
    masks = [next((k.value for k in c.keywords if k.arg == "mask"), c.args[1] if len(c.args) > 1 else None)
             for c in loads]
    if not loads or any(m is None for m in masks):
        return None
    keep = {s.targets[0].id for s in prefix if isinstance(s, ast.Assign)}  # type: ignore[attr-defined]
    exp = _expansions(body, keep, masks)
    bounds = {ast.dump(b): b for m in masks for b in _bounds_in(exp[id(m)], walk)}
    per_mask = [{ast.dump(b) for b in _bounds_in(exp[id(m)], walk)} for m in masks]
    common = set.intersection(*per_mask) if per_mask else set()
    return bounds[sorted(common)[0]] if len(common) == 1 else None


def _bounds_in(mask: ast.expr, walk: _Walk) -> list[ast.expr]:
    """N for each conjunct `arange < N` (or `N > arange`) of a mask with a row-free N."""
    if isinstance(mask, ast.BinOp) and isinstance(mask.op, ast.BitAnd):
        return _bounds_in(mask.left, walk) + _bounds_in(mask.right, walk)
    if isinstance(mask, ast.BoolOp) and isinstance(mask.op, ast.And):
        return [b for v in mask.values for b in _bounds_in(v, walk)]
    if not (isinstance(mask, ast.Compare) and len(mask.ops) == 1):
        return []
    left, op, right = mask.left, mask.ops[0], mask.comparators[0]
    if isinstance(op, ast.Gt):
        left, right, op = right, left, ast.Lt()
    if isinstance(op, ast.Lt) and walk.is_arange(left) and not walk.row(right) \
            and not any(isinstance(n, ast.Call) and tl_name(n.func) in ("tl.max", "tl.sum")
                        for n in ast.walk(right)):
        return [right]
    return []


# ---------------------------------------------------------------- the detector

@detector("whole-row-lse", ("cuda",))
def whole_row_log_sum_exp(module: KernelModule, backend: str) -> list[Match]:
    """A row held whole in one tile and reduced by max then sum(exp(x - max)) at a size where
    the tile is large: the program's share spills registers and few programs fit per SM."""
    matches = []
    for launch in module.launches:
        kernel = module.kernels[launch.kernel]
        shape = find_row_reduction(kernel.node, movable=False)
        if shape is None:
            continue
        # a tile the launcher sizes in a way no reading of the source resolves (an attribute
        # set elsewhere, a tuple from a helper): with no loop over the row, it covers the row
        value = launch_value(module, launch, shape.block)
        if value is None:
            value = POW2_UNKNOWN
        if not (value == POW2_UNKNOWN or (isinstance(value, int) and value >= LARGE_TILE)):
            continue
        warps = launch_value(module, launch, "num_warps")
        threads = 32 * (warps if isinstance(warps, int) else 4)
        matches.append(_row_match(module, launch, shape, value, threads))
    return matches


def _row_match(module: KernelModule, launch, shape: RowReduction, value: int | str,
               threads: int) -> Match:
    if isinstance(value, int):
        share, resident = value // threads, max(SM_REGISTERS // (2 * value), 1)
        confidence = 0.65 if share > SPILL_SHARE or resident == 1 else 0.45
        size = (f"one {value}-element tile ({share} values per thread of {threads}; the register "
                f"file holds {resident} such program{'s' if resident > 1 else ''} per SM)")
    else:  # sized at run time (next_power_of_2 of the length, or unresolved): large at long rows
        confidence, size = 0.4, "one tile sized to the row at run time"
    passes = "two sweeps (the second writes the outputs)" if shape.outputs else "one sweep"
    message = (f"`{launch.kernel}` holds the whole row in {size}, with no loop over "
               f"{shape.block}, and reduces it by max then sum({shape.exp}(x - max)): the row "
               "and its exponentials crowd the registers (spills, few programs per SM). A loop over "
               "fixed chunks with a running max and a running sum rescaled by exp(m_old - m_new) "
               f"holds one chunk at a time, in {passes}.")
    return Match("whole-row-lse", launch.kernel, shape.max_call.lineno, module.snippet(shape.max_call),
                 round(confidence, 2), message,
                 ["ptxas: registers at the cap or spills for this kernel at the size that matters",
                  "profile: bandwidth well under the copy ceiling at the large size"],
                 {"kernel": launch.kernel, "block": shape.block,
                  "tile_elements": value if isinstance(value, int) else None,
                  "second_sweep": bool(shape.outputs)},
                 end_line=shape.sum_call.end_lineno)


def _tl(call: ast.Call) -> str:
    """`tl.maximum(...)` -> "maximum", `tl.math.exp(...)` -> "math.exp"; "" for anything else."""
    name = tl_name(call.func)
    return name[3:] if name.startswith("tl.") else ""


def _loops_in_order(fn: ast.FunctionDef) -> list[ast.For]:
    return sorted((n for n in ast.walk(fn) if isinstance(n, ast.For)), key=lambda n: n.lineno)


def _max_names(loop: ast.For) -> set[str]:
    """Names the loop assigns from a max (tl.max / tl.maximum): a running maximum."""
    out = set()
    for stmt in ast.walk(loop):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and any(isinstance(n, ast.Call) and _tl(n) in ("max", "maximum")
                        for n in ast.walk(stmt.value)):
            out.add(stmt.targets[0].id)
    return out


def _exp_of(kernel, loop: ast.For, names: set[str]) -> ast.Call | None:
    """An exp / exp2 in the loop whose argument reads one of `names`, directly or through the
    assignments it depends on (`m = tl.max(row_max)` after the loop)."""
    for n in ast.walk(loop):
        if isinstance(n, ast.Call) and _tl(n) in ("exp", "exp2", "math.exp", "math.exp2") and n.args \
                and depends_on(kernel, n.args[0]) & names:
            return n
    return None


@detector("two-pass-max-sum")
def two_pass_max_sum(module: KernelModule, backend: str) -> list[Match]:
    """A loop that finds a running max, then a later loop (not nested in it) that loads again and
    sums exp(x - max): a log-sum-exp read twice where an online one reads once."""
    matches = []
    for kernel in module.kernels.values():
        loops = _loops_in_order(kernel.node)
        for i, first in enumerate(loops):
            maxes = _max_names(first)
            # a first loop that already rescales a sum by its running max is the online form
            if not maxes or not _calls(first, "tl.load") or _exp_of(kernel, first, maxes) is not None:
                continue
            inside = {id(n) for n in ast.walk(first)}
            # the second loop uses the first's max and finds none of its own (an attention's
            # second key loop rescales by its own running max: one pass each, not a re-read),
            # and sums (a loop that only writes exp(x - lse) per element is the output pass)
            later = ((lp, _exp_of(kernel, lp, maxes)) for lp in loops[i + 1:]
                     if id(lp) not in inside and _calls(lp, "tl.load") and not _max_names(lp) and _sums(lp))
            second, call = next(((lp, e) for lp, e in later if e is not None), (None, None))
            if second is None:
                continue
            matches.append(Match(
                "two-pass-max-sum", kernel.name, first.lineno, module.snippet(first).splitlines()[0],
                0.7,
                f"`{kernel.name}` walks its row twice: the loop at line {first.lineno} finds the "
                f"running max, the loop at line {second.lineno} loads the row again for exp(x - max) "
                f"(line {call.lineno}); an online max and rescaled sum read it once.",
                ["trace: two load lines of one program read the same span",
                 "profile: DRAM bytes about twice the row's"],
                {"first_loop": first.lineno, "second_loop": second.lineno}))
            break
    return matches


def _sums(loop: ast.For) -> bool:
    """The loop accumulates: a tl.sum or an augmented assignment in its body."""
    return any(isinstance(n, ast.AugAssign) or (isinstance(n, ast.Call) and _tl(n) == "sum")
               for n in ast.walk(loop))
