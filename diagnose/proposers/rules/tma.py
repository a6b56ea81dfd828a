"""tma-descriptors (card cuda-no-tma-descriptors): a GEMM kernel's K-loop tile loads and its tile
store become tensor-descriptor loads and stores (`tl.make_tensor_descriptor`, TMA on sm_90) in a
copy of the kernel, optionally with grouped tile order or a persistent grid. The launcher
dispatches at run time: descriptors need 16-byte-aligned bases and row strides and unit column
strides, so any other operand (a ragged K or N in fp16, a transposed view) runs the input's own
kernel. The input's decorators (its autotune configs) are kept on the copy."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from diagnose.proposers import Candidate

from .gemm import GROUP_M
from .grouping import REMAP
from .launchargs import bound_args
from .launchloop import _fresh
from .source import (
    Edit,
    Launch,
    Source,
    apply,
    calls_named,
    dotted,
    int_value,
    jit_kernels,
    launches,
)
from .tiles import KernelScope, TileAccess, gemm_tiles

READY_HELPER = '''

def _tma_ready(*operands) -> bool:
    """Tensor descriptors need a 16-byte-aligned base, 16-byte-aligned row strides and unit
    column strides: the TMA kernel runs only when every operand has them."""
    return all(t.data_ptr() % 16 == 0 and rows * t.element_size() % 16 == 0 and cols == 1
               for t, rows, cols in operands)


def _tma_scratch(size: int, alignment: int, stream):
    """Global memory where the kernel writes the descriptors it builds (triton.set_allocator)."""
    return torch.empty(size, dtype=torch.int8, device="cuda")
'''

PERSISTENT_HELPER = '''

def _persistent_grid(grid, operand):
    """At most one program per SM, each looping over the tiles the original grid launched."""
    def programs(meta):
        tiles = 1
        for extent in (grid(meta) if callable(grid) else grid):
            tiles *= extent
        return (min(tiles, _program_slots(operand)),)
    return programs


def _program_slots(operand) -> int:
    if operand.device.type != "cuda":
        return 4  # the CPU interpreter: a few programs, so each one loops over several tiles
    return torch.cuda.get_device_properties(operand.device).multi_processor_count
'''

TILE_LOOP = """{i}{num_m} = tl.cdiv({m}, {block_m})
{i}{num_n} = tl.cdiv({n}, {block_n})
{i}for {tile} in tl.range(tl.program_id(0), {num_m} * {num_n}, tl.num_programs(0), flatten=True):
{i}    {width} = {group} * {num_n}
{i}    {first} = ({tile} // {width}) * {group}
{i}    {rows} = min({num_m} - {first}, {group})
{i}    {pid_m} = {first} + ({tile} % {width}) % {rows}
{i}    {pid_n} = ({tile} % {width}) // {rows}
"""


@dataclass
class TmaPlan:
    """What the rewrite needs: the kernel, its launch statement, the tiles and their descriptors."""

    src: Source
    fn: ast.FunctionDef
    launch: Launch
    stmt: ast.stmt
    loads: list[TileAccess]
    stores: list[TileAccess]
    descs: dict[tuple, str]              # descriptor key -> local name in the kernel
    operands: list[tuple[str, str, str]]  # host (tensor, row stride, column stride) per descriptor
    axes: dict[str, int] | None          # "M"/"N" -> program_id axis, for a plain 2-D grid

    def desc(self, access: TileAccess) -> str:
        return self.descs[access.descriptor_key()]


def tma_descriptor_loads(text: str) -> list[Candidate]:
    """The GEMM's tiles through tensor descriptors, launched when the operands are aligned; with
    a plain 2-D grid also in grouped tile order (GROUP_M rows of tiles share B in L2) and on a
    persistent grid, so one round measures the three (the dispatch cannot be rewritten twice)."""
    plan = _plan(text)
    if plan is None:
        return []
    out = [_candidate(plan, "tma", grouped=False)]
    if plan.axes is not None:
        out.append(_candidate(plan, "tma", grouped=True))
        if _loopable(plan):
            out.append(_candidate(plan, "tma_persistent", grouped=True))
    return out


def tma_persistent(text: str) -> list[Candidate]:
    """The descriptor kernel on a persistent grid: at most one program per SM, each walking tiles
    in grouped order, its descriptors built once."""
    plan = _plan(text)
    if plan is None or plan.axes is None or not _loopable(plan):
        return []
    return [_candidate(plan, "tma_persistent", grouped=True)]


def _loopable(plan: TmaPlan) -> bool:
    """The body can run once per tile: it stores one tile and never returns early (a `return`
    inside the tile loop would end the program's remaining tiles)."""
    return bool(plan.stores) and not any(isinstance(n, ast.Return) for n in ast.walk(plan.fn))


# ------------------------------------------------------------ reading the kernel and its launch

def _plan(text: str) -> TmaPlan | None:
    src = Source(text)
    imported = {a.asname or a.name for n in src.tree.body if isinstance(n, ast.Import) for a in n.names}
    if not {"torch", "triton"} <= imported or "_tma_ready" in {f.name for f in src.tree.body
                                                              if isinstance(f, ast.FunctionDef)}:
        return None
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        if fn is None or any(calls_named(fn, "tl.make_tensor_descriptor")):
            continue
        plan = _plan_launch(src, fn, launch)
        if plan is not None:
            return plan
    return None


def _plan_launch(src: Source, fn: ast.FunctionDef, launch: Launch) -> TmaPlan | None:
    tiles = gemm_tiles(src, fn)
    args = bound_args(launch, fn)
    stmt = _statement(launch)
    if tiles is None or args is None or stmt is None:
        return None
    loads, stores = tiles
    descs: dict[tuple, str] = {}
    operands = []
    for access in loads + stores:
        key = access.descriptor_key()
        if key in descs:
            continue
        needed = [access.base, access.rows.stride] + ([access.cols.stride] if access.cols.stride else [])
        if any(p not in args for p in needed):
            return None
        used = set(descs.values())
        name = _fresh(fn, f"{access.base.removesuffix('_ptr')}_desc")
        while name in used:
            name += "_"
        descs[key] = name
        host = [src.segment(args[p]) for p in needed]
        operands.append((host[0], host[1], host[2] if len(host) > 2 else "1"))
    return TmaPlan(src, fn, launch, stmt, loads, stores, descs, operands, _axes(src, fn, stores))


def _statement(launch: Launch) -> ast.stmt | None:
    """The simple statement (expression, assignment, return) that holds the launch."""
    for node in ast.walk(launch.function):
        if isinstance(node, ast.Expr | ast.Assign | ast.Return) and any(n is launch.call for n in ast.walk(node)):
            return node
    return None


def _axes(src: Source, fn: ast.FunctionDef, stores: list[TileAccess]) -> dict[str, int] | None:
    """{"M": a, "N": b} when the stored tile starts at tl.program_id(a) * BLOCK and
    tl.program_id(b) * BLOCK and the kernel reads no other program index."""
    if len(stores) != 1:
        return None
    scope = KernelScope(src, fn)
    ids = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and dotted(n.func) in ("tl.program_id",
                                                                                     "tl.num_programs")]
    if any(dotted(c.func) == "tl.num_programs" or int_value(c.args[0] if c.args else None) not in (0, 1)
           for c in ids):
        return None
    out = {}
    for which, dim in (("M", stores[0].rows), ("N", stores[0].cols)):
        axis = _program_axis(scope, ast.parse(dim.start, mode="eval").body)
        if axis is None:
            return None
        out[which] = axis
    return out if sorted(out.values()) == [0, 1] else None


def _program_axis(scope: KernelScope, node: ast.expr) -> int | None:
    """The one tl.program_id axis an index start reads, directly or through a local."""
    axes = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and dotted(n.func) == "tl.program_id":
            axes.add(int_value(n.args[0]))
        elif isinstance(n, ast.Name) and n.id in scope.bound:
            inner = _program_axis(scope, scope.bound[n.id])
            if inner is not None:
                axes.add(inner)
    return axes.pop() if len(axes) == 1 else None


# ------------------------------------------------------------ writing the new kernel and launcher

def _candidate(plan: TmaPlan, suffix: str, grouped: bool) -> Candidate:
    src, fn = plan.src, plan.fn
    persistent = suffix == "tma_persistent"
    name = f"{fn.name}_{suffix}"
    kernel = _kernel_copy(plan, name, grouped, persistent)
    end = src._line_starts[fn.end_lineno]
    helpers = READY_HELPER + (PERSISTENT_HELPER if persistent else "")
    edits = [Edit(end, end, "\n\n" + kernel + helpers), _dispatch(plan, name, persistent)]
    kind = ("persistent grid, grouped tiles" if persistent else "grouped tiles" if grouped else "2-D grid")
    desc = (f"{fn.name}: tiles through tensor descriptors (TMA), {kind}; {name} runs when the "
            f"operands are 16-byte aligned, {fn.name} otherwise")
    return Candidate(apply(src.text, edits), desc,
                     {"kernel": fn.name, "tma_kernel": name, "descriptors": len(plan.descs),
                      "grouped": grouped, "persistent": persistent, "loads": len(plan.loads),
                      "stores": len(plan.stores)})


def _kernel_copy(plan: TmaPlan, name: str, grouped: bool, persistent: bool) -> str:
    """The kernel's text under a new name with descriptor loads and stores, then its prologue
    (descriptors; the grouped remap or the persistent tile loop) before the original body."""
    src, fn = plan.src, plan.fn
    start = src._line_starts[min([d.lineno for d in fn.decorator_list] + [fn.lineno]) - 1]
    end = src._line_starts[fn.end_lineno]
    names = {k: _fresh(fn, k) for k in ("pid_m", "pid_n", "num_pid_m", "num_pid_n", "pid", "tile_id",
                                         "group_width", "first_pid_m", "group_rows")}
    at = src._line_starts[fn.lineno - 1] + src.text[src._line_starts[fn.lineno - 1]:].index(f"def {fn.name}") + 4
    edits = [Edit(at, at + len(fn.name), name)]
    pids = {plan.axes[w]: names[f"pid_{w.lower()}"] for w in "MN"} if grouped else {}
    for a in plan.loads:
        edits.append(src.replace(a.call, f"{plan.desc(a)}.load({_offsets(a, pids)})"))
    for a in plan.stores:
        value = a.call.args[1]
        value_text = src.segment(value) if isinstance(value, ast.Name) else f"({src.segment(value)})"
        edits.append(src.replace(a.call, f"{plan.desc(a)}.store({_offsets(a, pids)}, "
                                          f"{value_text}.to({a.base}.dtype.element_ty))"))
    if grouped:
        for call in calls_named(fn, "tl.program_id"):
            which = "M" if int_value(call.args[0]) == plan.axes["M"] else "N"
            edits.append(src.replace(call, names[f"pid_{which.lower()}"]))
    text = apply(src.text[start:end], [Edit(e.start - start, e.end - start, e.text) for e in edits])
    return _with_prologue(text, plan, names, grouped, persistent)


def _offsets(a: TileAccess, pids: dict[int, str]) -> str:
    """`[row start, column start]`, program ids read through the grouped remap's names."""
    class Remap(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            if dotted(node.func) == "tl.program_id" and int_value(node.args[0]) in pids:
                return ast.Name(pids[int_value(node.args[0])])
            return self.generic_visit(node)

    starts = [a.rows.start, a.cols.start]
    if pids:
        starts = [ast.unparse(Remap().visit(ast.parse(s, mode="eval"))) for s in starts]
    return f"[{starts[0]}, {starts[1]}]"


def _with_prologue(text: str, plan: TmaPlan, names: dict[str, str], grouped: bool, persistent: bool) -> str:
    copy = Source(text)
    fn = next(f for f in copy.tree.body if isinstance(f, ast.FunctionDef))
    body = fn.body
    first = 1 if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1 else 0
    indent = " " * body[first].col_offset
    at = copy._line_starts[body[first].lineno - 1]
    head, rest = text[:at], text[at:]
    prologue = "".join(f"{indent}{n} = {_descriptor(a)}\n" for a, n in _first_accesses(plan))
    if persistent:
        store = plan.stores[0]
        prologue += TILE_LOOP.format(i=indent, m=store.rows.extent, n=store.cols.extent, block_m=store.rows.block,
                                     block_n=store.cols.block, num_m=names["num_pid_m"], num_n=names["num_pid_n"],
                                     tile=names["tile_id"], width=names["group_width"], group=GROUP_M,
                                     first=names["first_pid_m"], rows=names["group_rows"],
                                     pid_m=names["pid_m"], pid_n=names["pid_n"])
        rest = "".join("    " + line if line.strip() else line for line in rest.splitlines(keepends=True))
    elif grouped:
        prologue += REMAP.format(i=indent, am=plan.axes["M"], an=plan.axes["N"], group=GROUP_M,
                                 m_count=names["num_pid_m"], n_count=names["num_pid_n"], pid=names["pid"],
                                 width=names["group_width"], first=names["first_pid_m"],
                                 rows=names["group_rows"], pid_m=names["pid_m"], pid_n=names["pid_n"])
    return head + prologue + rest


def _first_accesses(plan: TmaPlan) -> list[tuple[TileAccess, str]]:
    seen, out = set(), []
    for a in plan.loads + plan.stores:
        key = a.descriptor_key()
        if key not in seen:
            seen.add(key)
            out.append((a, plan.descs[key]))
    return out


def _descriptor(a: TileAccess) -> str:
    return (f"tl.make_tensor_descriptor({a.base}, shape=[{a.rows.extent}, {a.cols.extent}], "
            f"strides=[{a.rows.stride}, 1], block_shape=[{a.rows.block}, {a.cols.block}])")


def _dispatch(plan: TmaPlan, name: str, persistent: bool) -> Edit:
    """The launch statement becomes: aligned operands -> the descriptor kernel, else the input's."""
    src, stmt = plan.src, plan.stmt
    line = src._line_starts[stmt.lineno - 1]
    end = src._line_starts[stmt.end_lineno]
    original = src.text[line:end]
    kernel_at = src.span(plan.launch.call.func.value)
    grid_at = src.span(plan.launch.grid)
    grid = src.segment(plan.launch.grid)
    new_grid = f"_persistent_grid({grid}, {plan.operands[0][0]})" if persistent else grid
    edits = sorted([(kernel_at, name), (grid_at, new_grid)], reverse=True)
    tma = original
    for (a, b), repl in edits:
        tma = tma[:a - line] + repl + tma[b - line:]
    indent = " " * stmt.col_offset
    ready = ", ".join(f"({t}, {r}, {c})" for t, r, c in plan.operands)
    text = (f"{indent}if _tma_ready({ready}):\n{indent}    triton.set_allocator(_tma_scratch)\n"
            f"{_indented(tma)}{indent}else:\n{_indented(original)}")
    return Edit(line, end, text)


def _indented(text: str) -> str:
    return "".join("    " + line if line.strip() else line for line in text.splitlines(keepends=True))
