"""An autotune config set: the launch's literal block sizes and warps become @triton.autotune
configs (the literal and its neighbours), keyed on the kernel's size arguments, and the grid reads
the chosen block from `meta`."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .source import (
    Edit,
    Source,
    apply,
    dotted,
    grid_nodes,
    int_value,
    jit_kernels,
    keyword,
    launches,
)
from .tuning import _block_groups

WARPS = (4, 8)
MIN_BLOCK, MAX_BLOCK = 16, 16384


def _key_args(fn: ast.FunctionDef) -> list[str]:
    """Runtime integer-looking arguments (not pointers, strides or constexprs): what a good config
    depends on."""
    out = []
    for a in fn.args.args:
        constexpr = a.annotation is not None and "constexpr" in dotted(a.annotation)
        if not constexpr and not a.arg.endswith("_ptr") and not a.arg.startswith("stride"):
            out.append(a.arg)
    return out


def add_autotune_configs(text: str) -> list[Candidate]:
    """One launch of a plain @triton.jit kernel with literal BLOCK sizes -> autotuned."""
    src = Source(text)
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        groups = _block_groups(launch)
        if fn is None or not groups or len(groups) > 2:
            continue
        keys = _key_args(fn)
        if not keys or keyword(launch.call, "num_warps") and int_value(keyword(launch.call, "num_warps").value) is None:
            continue
        if any("autotune" in dotted(getattr(d, "func", d)) for d in fn.decorator_list):
            continue
        configs = _configs(groups)
        if not configs:  # every literal block is outside [MIN_BLOCK, MAX_BLOCK]: nothing to tune
            continue
        edits = [Edit(_line_start(src, fn.decorator_list[0]), _line_start(src, fn.decorator_list[0]),
                      _decorator(configs, keys) + "\n")]
        edits += _launch_edits(src, launch, groups)
        return [Candidate(apply(text, edits), f"{launch.kernel}: @triton.autotune over {len(configs)} configs "
                          f"keyed on {', '.join(keys)}", {"kernel": launch.kernel, "configs": len(configs), "key": keys})]
    return []


def _line_start(src: Source, node: ast.AST) -> int:
    start = src.span(node)[0]
    return src.text.rfind("\n", 0, start) + 1


def _configs(groups: dict[int, list[ast.keyword]]) -> list[tuple[dict[str, int], int]]:
    """Each group at /2, x1, x2 (x4 for a single group), with 4 and 8 warps."""
    factors = (0.5, 1, 2, 4) if len(groups) == 1 else (0.5, 1, 2)
    per_group = []
    for value, kws in groups.items():
        sizes = [int(value * f) for f in factors if MIN_BLOCK <= value * f <= MAX_BLOCK]
        per_group.append([{k.arg: s for k in kws} for s in sizes])
    combos: list[dict[str, int]] = [{}]
    for options in per_group:
        combos = [{**c, **o} for c in combos for o in options]
    return [(c, w) for c in combos for w in WARPS]


def _decorator(configs: list[tuple[dict[str, int], int]], keys: list[str]) -> str:
    lines = ",\n".join(f"        triton.Config({c!r}, num_warps={w})" for c, w in configs)
    return f"@triton.autotune(\n    configs=[\n{lines},\n    ],\n    key={keys!r},\n)"


def _launch_edits(src: Source, launch, groups: dict[int, list[ast.keyword]]) -> list[Edit]:
    """Drop the tuned keywords; the grid's block literals read meta[...] inside a lambda (a group's
    members are equal in every config, so its first keyword stands for all)."""
    edits = []
    tuned = [k for kws in groups.values() for k in kws]
    warps = keyword(launch.call, "num_warps")
    for kw in tuned + ([warps] if warps else []):
        edits.append(_drop_keyword(src, launch.call, kw))
    for node in grid_nodes(launch)[-1:]:
        text = src.segment(node)
        for value, kws in groups.items():
            text = _replace_literal(text, value, f'meta["{kws[0].arg}"]')
        edits.append(src.replace(node, f"lambda meta: {text}"))
    return edits


def _replace_literal(text: str, value: int, new: str) -> str:
    tree = ast.parse(text, mode="eval")
    s = Source(text)
    hits = [n for n in ast.walk(tree) if int_value(n) == value]
    out = text
    for n in sorted(hits, key=lambda n: n.col_offset, reverse=True):
        a, b = s.span(n)
        out = out[:a] + new + out[b:]
    return out


def _drop_keyword(src: Source, call: ast.Call, kw: ast.keyword) -> Edit:
    """The keyword and the comma before it."""
    start, end = src.span(kw)
    before = src.text.rfind(",", 0, start)
    return Edit(before, end, "")
