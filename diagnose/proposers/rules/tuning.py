"""Launch parameters retuned by a measured search: block sizes, warps, pipeline stages and the
dot's input precision. Each function returns several candidates; the round times them all and
keeps the best that beats the noise."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .launchargs import literal_of
from .source import (
    Edit,
    Launch,
    Source,
    apply,
    calls_named,
    dotted,
    grid_nodes,
    int_value,
    keyword,
    launches,
)

BLOCK_FACTORS = (2, 4, 0.5)
WARPS = (2, 4, 8, 16, 32)  # 32 warps: 1024 threads, for whole-row tiles of 16K-64K elements
STAGES = (2, 3, 4, 5)
MIN_BLOCK, MAX_BLOCK = 16, 65536


def _block_groups(launch: Launch) -> dict[int, list[ast.keyword]]:
    """BLOCK* keywords with a power-of-two literal, grouped by value (a GEMM's BLOCK_M=BLOCK_N=64
    is one group: the grid's literal 64 cannot tell them apart)."""
    groups: dict[int, list[ast.keyword]] = {}
    for kw in launch.call.keywords:
        v = int_value(kw.value)
        if kw.arg and kw.arg.upper().startswith("BLOCK") and v and v & (v - 1) == 0:
            groups.setdefault(v, []).append(kw)
    return groups


def _scaled(src: Source, launch: Launch, value: int, new: int) -> list[Edit]:
    """The group's keywords and the grid's literals equal to value, set to new."""
    edits = [src.replace(kw.value, str(new)) for kw in _block_groups(launch)[value]]
    for node in grid_nodes(launch):
        for sub in ast.walk(node):
            if int_value(sub) == value:
                edits.append(src.replace(sub, str(new)))
    return edits


def retune_block_sizes(text: str) -> list[Candidate]:
    """Every group of literal BLOCK sizes at every launch scaled by 2, 4 and 1/2 (the grid's
    matching literals with it); a BLOCK passed as a local bound once to a literal is scaled where
    it is bound (the grid reads the same local)."""
    src = Source(text)
    out = []
    for launch in launches(src.tree):
        out += _scaled_locals(src, launch)
        for value, kws in _block_groups(launch).items():
            for f in BLOCK_FACTORS:
                new = int(value * f)
                if not MIN_BLOCK <= new <= MAX_BLOCK:
                    continue
                names = [k.arg for k in kws]
                out.append(Candidate(apply(text, _scaled(src, launch, value, new)),
                                     f"{launch.kernel}: {'='.join(names)} {value} -> {new}",
                                     {"kernel": launch.kernel, "keywords": names, "from": value, "to": new}))
    return out


def _scaled_locals(src: Source, launch: Launch) -> list[Candidate]:
    out = []
    for kw in launch.call.keywords:
        site = literal_of(launch, kw.value) if isinstance(kw.value, ast.Name) else None
        if not (kw.arg and kw.arg.upper().startswith("BLOCK") and site and site[0] & (site[0] - 1) == 0):
            continue
        value, node = site
        for f in BLOCK_FACTORS:
            new = int(value * f)
            if MIN_BLOCK <= new <= MAX_BLOCK:
                out.append(Candidate(apply(src.text, [src.replace(node, str(new))]),
                                     f"{launch.kernel}: {kw.arg} ({kw.value.id}) {value} -> {new}",
                                     {"kernel": launch.kernel, "keywords": [kw.arg], "from": value, "to": new}))
    return out


def _launch_option(text: str, name: str, choices: tuple[int, ...], default: int) -> list[Candidate]:
    src = Source(text)
    out = []
    for launch in launches(src.tree):
        kw = keyword(launch.call, name)
        site = literal_of(launch, kw.value) if kw else None
        if kw is not None and site is None:
            continue  # computed at run time: not ours to search
        current = site[0] if site else default
        for v in choices:
            if v == current:
                continue
            if site is not None:
                edit = src.replace(site[1], str(v))  # the literal, or where its local is bound
            else:
                end = src.span(launch.call)[1] - 1  # before the closing parenthesis
                sep = ", " if launch.call.args or launch.call.keywords else ""
                if text[:end].rstrip().endswith(","):
                    sep = " "  # a trailing comma already closes the last argument
                edit = Edit(end, end, f"{sep}{name}={v}")
            out.append(Candidate(apply(text, [edit]), f"{launch.kernel}: {name} {current} -> {v}",
                                 {"kernel": launch.kernel, name: v, "from": current}))
    return out


def retune_num_warps(text: str) -> list[Candidate]:
    """num_warps searched over 2, 4, 8, 16, 32 at every launch (Triton's default is 4)."""
    return _launch_option(text, "num_warps", WARPS, 4)


def retune_num_stages(text: str) -> list[Candidate]:
    """num_stages searched over 2..5 at launches of kernels with a loop around tl.dot."""
    src = Source(text)
    looped = {fn.name for fn in ast.walk(src.tree) if isinstance(fn, ast.FunctionDef)
              and any(isinstance(n, ast.For | ast.While) and any(calls_named(n, "tl.dot"))
                      for n in ast.walk(fn))}
    if not any(launch.kernel in looped for launch in launches(src.tree)):
        return []
    return _launch_option(text, "num_stages", STAGES, 3)


def _upcast(node: ast.expr) -> ast.expr | None:
    """`x.to(tl.float32)` -> x."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to"
            and len(node.args) == 1 and dotted(node.args[0]) == "tl.float32"):
        return node.func.value
    return None


def _precision_dots(src: Source) -> list[ast.Call]:
    """The tl.dot calls with input_precision='ieee' or an fp32 upcast of an operand."""
    return [d for d in calls_named(src.tree, "tl.dot")
            if (keyword(d, "input_precision") and isinstance(keyword(d, "input_precision").value, ast.Constant)
                and keyword(d, "input_precision").value.value == "ieee")
            or any(_upcast(a) is not None for a in d.args[:2])]


def retune_input_precision(text: str) -> list[Candidate]:
    """tl.dot with input_precision='ieee' and/or fp32 upcasts of its operands: (a) drop both (the
    operands' own dtype on tensor cores, fp32 accumulation kept), (b) tf32 on the upcast operands."""
    src = Source(text)
    dots = _precision_dots(src)
    if not dots:
        return []
    tf32 = [src.replace(prec.value, '"tf32"') for d in dots if (prec := keyword(d, "input_precision")) is not None]
    # one dot at a time, the source read again after each: a dot nested in another's operands
    # (tl.dot(a, b, tl.dot(c, d, ...))) would otherwise be edited twice in overlapping spans
    native = text
    for _ in range(len(dots)):
        src = Source(native)
        left = _precision_dots(src)
        if not left:
            break
        d = left[0]
        prec = keyword(d, "input_precision")
        args = [src.segment(_upcast(a) or a) for a in d.args]
        kws = [src.segment(k) for k in d.keywords if k is not prec]
        native = apply(native, [src.replace(d, f"{src.segment(d.func)}({', '.join(args + kws)})")])
    out = [Candidate(native, "tl.dot on the operands' own dtype (no fp32 upcast, "
                     "default precision)", {"input_precision": "default", "upcast": False})]
    if tf32:
        out.append(Candidate(apply(text, tf32), "tl.dot input_precision='tf32'", {"input_precision": "tf32"}))
    return out
