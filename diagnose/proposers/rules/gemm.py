"""GEMM tile configurations: a launch of a kernel with tl.dot in a loop and literal BLOCK_M/N/K gets
Hopper-class tiles (128x128..256x128, BLOCK_K 64, 4-8 warps, 3-4 stages, GROUP_M 8 where the
kernel groups its programs) as one measured set, or as an autotune config set. The grid's literals
follow their own block size, so BLOCK_M and BLOCK_N may differ."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from diagnose.proposers import Candidate

from .launchargs import bound_args, is_constexpr, literal_of
from .source import (
    Edit,
    Launch,
    Source,
    apply,
    calls_named,
    dotted,
    grid_nodes,
    int_value,
    jit_kernels,
    launches,
)

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages): fp16/bf16 tiles that fit an H100/H200's
# 228 KB of shared memory with their stages; the first are Triton's own Hopper choices.
HOPPER_TILES: tuple[tuple[int, int, int, int, int], ...] = (
    (128, 256, 64, 8, 3),
    (128, 128, 64, 8, 4),
    (256, 128, 64, 8, 3),
    (128, 128, 64, 4, 4),
    (128, 128, 64, 8, 3),
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (128, 128, 32, 4, 4),
)
GROUP_M = 8


@dataclass
class GemmLaunch:
    launch: Launch
    blocks: dict[str, ast.keyword]  # "M", "N", "K" -> the launch keyword
    sites: dict[str, tuple[int, ast.expr]]  # "M", "N", "K", num_warps... -> (value, literal to edit)
    group: ast.keyword | None  # GROUP_M-like literal, when the kernel groups its programs
    grid_literals: list[tuple[ast.expr, str]]  # (literal in the grid, "M" or "N")
    grid_names: list[tuple[ast.Name, str]]  # (a block's local name read by the grid, "M" or "N")

    def current(self) -> tuple[int, int, int, int, int]:
        warps, stages = self.sites.get("num_warps"), self.sites.get("num_stages")
        return (*(self.sites[a][0] for a in "MNK"), warps[0] if warps else 4, stages[0] if stages else 3)


def _has_dot_loop(fn: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.For | ast.While) and any(calls_named(n, "tl.dot")) for n in ast.walk(fn))


def _block_keywords(launch: Launch) -> dict[str, ast.keyword] | None:
    """BLOCK_M/N/K-like keywords whose value is a literal or a local bound to one."""
    out = {}
    for kw in launch.call.keywords:
        name = (kw.arg or "").upper()
        if name.startswith("BLOCK") and name[-1:] in "MNK" and literal_of(launch, kw.value) is not None:
            out.setdefault(name[-1], kw)
    return out if len(out) == 3 else None


def _axis_blocks(fn: ast.FunctionDef, blocks: dict[str, ast.keyword]) -> dict[int, str]:
    """Grid axis -> "M"/"N" from `tl.program_id(axis) * BLOCK_X` (or a name bound to the id)."""
    by_param = {kw.arg: axis for axis, kw in blocks.items()}
    ids = {s.targets[0].id: int_value(s.value.args[0]) for s in ast.walk(fn) if isinstance(s, ast.Assign)
           and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Call)
           and dotted(s.value.func) == "tl.program_id" and s.value.args}
    out = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
            for a, b in ((n.left, n.right), (n.right, n.left)):
                axis = (int_value(a.args[0]) if isinstance(a, ast.Call) and dotted(a.func) == "tl.program_id"
                        and a.args else ids.get(a.id) if isinstance(a, ast.Name) else None)
                if axis is not None and isinstance(b, ast.Name) and b.id in by_param:
                    out.setdefault(axis, by_param[b.id])
    return out


def _cdiv_blocks(fn: ast.FunctionDef, blocks: dict[str, ast.keyword], args: dict[str, ast.expr],
                 src: Source) -> dict[str, str]:
    """Host text of a size -> "M"/"N": from the kernel's `tl.cdiv(SIZE, BLOCK_X)` (grouped
    ordering) or from a mask `offs < SIZE` where `offs = ... + tl.arange(0, BLOCK_X)`."""
    by_param = {kw.arg: axis for axis, kw in blocks.items()}
    pairs = [(c.args[0], c.args[1]) for c in calls_named(fn, "tl.cdiv") if len(c.args) == 2]
    ranges = _range_vars(fn, by_param)
    for cmp in ast.walk(fn):
        if isinstance(cmp, ast.Compare) and len(cmp.ops) == 1 and isinstance(cmp.ops[0], ast.Lt):
            hit = {ranges[n.id] for n in ast.walk(cmp.left) if isinstance(n, ast.Name) and n.id in ranges}
            if len(hit) == 1:
                pairs.append((cmp.comparators[0], ast.Name(hit.pop())))
    out: dict[str, str] = {}
    for size, block in pairs:
        if (isinstance(size, ast.Name) and size.id in args and isinstance(block, ast.Name)
                and block.id in by_param):
            out.setdefault(src.segment(args[size.id]), by_param[block.id])
    return out


def _range_vars(fn: ast.FunctionDef, by_param: dict[str, str]) -> dict[str, str]:
    """`rm = ... + tl.arange(0, BLOCK_M)` -> {"rm": "BLOCK_M"} (M and N blocks only)."""
    out = {}
    for a in ast.walk(fn):
        if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name):
            aranges = [c for c in calls_named(a.value, "tl.arange") if len(c.args) == 2
                       and isinstance(c.args[1], ast.Name) and by_param.get(c.args[1].id) in ("M", "N")]
            if len(aranges) == 1 and isinstance(a.value, ast.BinOp):
                out[a.targets[0].id] = aranges[0].args[1].id
    return out


def _grid_literals(src: Source, g: GemmLaunch, fn: ast.FunctionDef) -> list[tuple[ast.expr, str]] | None:
    """Every block-valued literal of the grid with the block it stands for; None if one is unknown."""
    values = {g.sites[a][0] for a in "MN" if int_value(g.blocks[a].value) is not None}
    axes = _axis_blocks(fn, g.blocks)
    sizes = _cdiv_blocks(fn, g.blocks, bound_args(g.launch, fn) or {}, src)
    out = []
    for node in grid_nodes(g.launch):
        elts = node.elts if isinstance(node, ast.Tuple) else [node]
        for axis, elt in enumerate(elts):
            for c in ast.walk(elt):
                if not (isinstance(c, ast.Call) and dotted(c.func).endswith("cdiv") and len(c.args) == 2
                        and int_value(c.args[1]) in values):
                    continue
                which = sizes.get(src.segment(c.args[0])) or (axes.get(axis) if len(elts) > 1 else None)
                if which is None:
                    return None
                out.append((c.args[1], which))
    return out


def gemm_launch(src: Source) -> GemmLaunch | None:
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        blocks = _block_keywords(launch) if fn and _has_dot_loop(fn) else None
        options = {kw.arg: kw for kw in launch.call.keywords if kw.arg in ("num_warps", "num_stages")}
        if blocks is None or any(literal_of(launch, kw.value) is None for kw in options.values()):
            continue
        sites = {a: literal_of(launch, kw.value) for a, kw in {**blocks, **options}.items()}
        if len({id(node) for _, node in sites.values()}) < len(sites):
            continue  # two launch values share one local: they cannot be set apart
        group = next((kw for kw in launch.call.keywords if (kw.arg or "").upper().startswith("GROUP")
                      and int_value(kw.value) is not None
                      and any(a.arg == kw.arg and is_constexpr(a) for a in fn.args.args)), None)
        g = GemmLaunch(launch, blocks, sites, group, [], _grid_names(launch, blocks))
        literals = _grid_literals(src, g, fn)
        meta_grid = isinstance(grid_nodes(launch)[-1], ast.Lambda)
        # the grid must follow BLOCK_M and BLOCK_N (or read them from meta): a grid computed some
        # other way would cover the wrong number of tiles once the blocks change
        followed = {w for _, w in literals or []} | {w for _, w in g.grid_names}
        if literals is not None and (meta_grid or followed == {"M", "N"}):
            g.grid_literals = literals
            return g
    return None


def _grid_names(launch: Launch, blocks: dict[str, ast.keyword]) -> list[tuple[ast.Name, str]]:
    """Names in the grid that are the M or N block's own local (`cdiv(M, block_m)`)."""
    local = {kw.value.id: a for a, kw in blocks.items() if a in "MN" and isinstance(kw.value, ast.Name)}
    return [(n, local[n.id]) for g in grid_nodes(launch) for n in ast.walk(g)
            if isinstance(n, ast.Name) and n.id in local]


def _option_edit(src: Source, g: GemmLaunch, name: str, value: int) -> Edit:
    if name in g.sites:
        return src.replace(g.sites[name][1], str(value))
    end = src.span(g.launch.call)[1] - 1
    return Edit(end, end, f", {name}={value}")


def gemm_tile_configs(text: str) -> list[Candidate]:
    """The GEMM launch at each Hopper-class tile (the grid's literals with it), GROUP_M 8."""
    src = Source(text)
    g = gemm_launch(src)
    if g is None:
        return []
    out = []
    for tile in HOPPER_TILES:
        if tile == g.current():
            continue
        bm, bn, bk, warps, stages = tile
        size = {"M": bm, "N": bn, "K": bk}
        edits = [src.replace(g.sites[a][1], str(size[a])) for a in g.blocks]
        edits += [src.replace(node, str(size[which])) for node, which in g.grid_literals]
        edits += [_option_edit(src, g, "num_warps", warps), _option_edit(src, g, "num_stages", stages)]
        if g.group is not None:
            edits.append(src.replace(g.group.value, str(GROUP_M)))
        out.append(Candidate(apply(text, edits), f"{g.launch.kernel}: {bm}x{bn}x{bk} tiles, "
                             f"{warps} warps, {stages} stages",
                             {"kernel": g.launch.kernel, "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                              "num_warps": warps, "num_stages": stages}))
    return out


def gemm_autotune_configs(text: str) -> list[Candidate]:
    """The GEMM launch's literals -> @triton.autotune over its own config and the Hopper tiles,
    keyed on the kernel's sizes; the grid reads each block from meta."""
    src = Source(text)
    g = gemm_launch(src)
    if g is None or g.launch.kernel not in {k.name for k in jit_kernels(src.tree)}:
        return []
    fn = next(k for k in jit_kernels(src.tree) if k.name == g.launch.kernel)
    if any("autotune" in dotted(getattr(d, "func", d)) for d in fn.decorator_list):
        return []
    keys = [a.arg for a in fn.args.args if not is_constexpr(a) and not a.arg.endswith("_ptr")
            and not a.arg.startswith("stride")]
    tiles = [g.current(), *(t for t in HOPPER_TILES if t != g.current())]
    names = {a: kw.arg for a, kw in g.blocks.items()}
    group = {g.group.arg: GROUP_M} if g.group is not None else {}
    configs = ",\n".join(f"        triton.Config({{{names['M']!r}: {m}, {names['N']!r}: {n}, {names['K']!r}: {k}"
                         + "".join(f", {gk!r}: {gv}" for gk, gv in group.items())
                         + f"}}, num_warps={w}, num_stages={s})" for m, n, k, w, s in tiles)
    decorator = f"@triton.autotune(\n    configs=[\n{configs},\n    ],\n    key={keys!r},\n)\n"
    first = fn.decorator_list[0]
    at = src.text.rfind("\n", 0, src.span(first)[0]) + 1
    edits = [Edit(at, at, decorator)]
    tuned = [*g.blocks.values(), *([g.group] if g.group else []),
             *(kw for kw in g.launch.call.keywords if kw.arg in ("num_warps", "num_stages"))]
    edits += [_drop_keyword(src, kw) for kw in tuned]
    grid = grid_nodes(g.launch)[-1]
    meta = grid.args.args[0].arg if isinstance(grid, ast.Lambda) and grid.args.args else "meta"
    edits += [src.replace(node, f'{meta}["{names[which]}"]') for node, which in g.grid_literals + g.grid_names]
    edits += _meta_grid(src, g)
    return [Candidate(apply(text, edits), f"{g.launch.kernel}: @triton.autotune over {len(tiles)} GEMM "
                      f"configs keyed on {', '.join(keys)}",
                      {"kernel": g.launch.kernel, "configs": len(tiles), "key": keys})]


def _meta_grid(src: Source, g: GemmLaunch) -> list[Edit]:
    """The grid expression (or the value bound to its name) becomes `lambda meta: ...`."""
    node = grid_nodes(g.launch)[-1]
    if isinstance(node, ast.Lambda):
        return []
    a, _ = src.span(node)
    return [Edit(a, a, "lambda meta: ")]


def _drop_keyword(src: Source, kw: ast.keyword) -> Edit:
    start, end = src.span(kw)
    return Edit(src.text.rfind(",", 0, start), end, "")
