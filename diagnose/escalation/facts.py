"""Kernel facts for tier 4: what one compiled launch specialised (num_warps, dot shapes, which
integer arguments lack divisibility, loop kinds), read from a tier-3 capture, and a tiny
evaluator for the `requires` conditions of the symptom table's rewrite rules.

A deciding branch such as `numWarps % 4 == 0 && retShapePerCTA[rank - 2] % 64 == 0` has
several clauses; the facts say which clause this kernel fails, so the rewrite matches it.

Keys of the facts dict (all optional; a rule whose condition names a missing key is not judged):
  num_warps, num_stages       launch options
  constexprs                  {name: value} of the specialisation (not used by conditions)
  dot_rank, dot_m, dot_n, dot_k, dot_a_bits, dot_a_float32, dot_tf32
                              of the first tt.dot (result shape [.., m, n], operand A's element)
  unaligned_int_args          integer arguments without tt.divisibility
  unaligned_mask_bounds       those of them a mask compares against (cmpi after splat)
  unaligned_strides           those of them multiplied into offsets (muli)
  while_loops, for_loops      counts of scf.while / scf.for in the TTIR
  loaded_offsets, div_rem_offsets
                              tt.addptr offsets computed from a loaded value / from // or %
"""

from __future__ import annotations

import ast
import operator
import re
from typing import Any

KernelFacts = dict[str, Any]

_DOT = re.compile(r"=\s*tt\.dot\s+(?P<args>.*?):\s*tensor<(?P<a>[^>]*)>\s*\*\s*tensor<[^>]*>\s*->\s*"
                  r"tensor<(?P<c>[^>]*)>")
_ARG = re.compile(r"%(?P<name>\w+):\s*(?P<type>i32|i64)(?P<attrs>\s*\{[^}]*\})?")
_SPLAT = re.compile(r"(?P<out>%[\w.]+)\s*=\s*tt\.splat\s+%(?P<src>\w+)\s*:")
_CMP = re.compile(r"=\s*arith\.cmpi\s+\w+,\s*(?P<a>%[\w.]+),\s*(?P<b>%[\w.]+)")
_MUL = re.compile(r"=\s*arith\.muli\s+(?P<a>%[\w.]+),\s*(?P<b>%[\w.]+)")
_ELEM_BITS = re.compile(r"[a-z]+(?P<bits>\d+)")


def _shape(tensor: str) -> tuple[list[int], str]:
    """'2x64x32xf16' -> ([2, 64, 32], 'f16')."""
    parts = tensor.split(",")[0].strip().split("x")
    dims = [int(p) for p in parts[:-1] if p.isdigit()]
    return dims, parts[-1]


def dot_facts(ttir: str) -> KernelFacts:
    """Rank, result shape and operand type of the first tt.dot of a TTIR module."""
    m = _DOT.search(ttir)
    if m is None:
        return {}
    a_dims, a_elem = _shape(m.group("a"))
    c_dims, _ = _shape(m.group("c"))
    bits = _ELEM_BITS.search(a_elem)
    return {"dot_rank": len(c_dims), "dot_m": c_dims[-2], "dot_n": c_dims[-1], "dot_k": a_dims[-1],
            "dot_a_bits": int(bits.group("bits")) if bits else 0,
            "dot_a_float32": a_elem == "f32", "dot_tf32": "inputPrecision = tf32" in m.group("args")
            or "inputPrecision" not in m.group("args")}


def argument_facts(ttir: str) -> KernelFacts:
    """Integer arguments without tt.divisibility, and what the kernel does with them."""
    head = ttir[ttir.find("tt.func"):]
    head = head[: head.find("{\n")] if "{\n" in head else head.split("\n", 1)[0]
    unaligned = [m.group("name") for m in _ARG.finditer(head)
                 if "tt.divisibility" not in (m.group("attrs") or "")]
    # a value stands for an argument when it is the argument or a splat of it
    stands_for = {f"%{a}": a for a in unaligned}
    for m in _SPLAT.finditer(ttir):
        if m.group("src") in unaligned:
            stands_for[m.group("out")] = m.group("src")
    compared = {stands_for[v] for m in _CMP.finditer(ttir) for v in (m["a"], m["b"]) if v in stands_for}
    multiplied = {stands_for[v] for m in _MUL.finditer(ttir) for v in (m["a"], m["b"]) if v in stands_for}
    return {"unaligned_int_args": unaligned,
            "unaligned_mask_bounds": [a for a in unaligned if a in compared],
            "unaligned_strides": [a for a in unaligned if a in multiplied]}


_DEF = re.compile(r"^\s*(?P<out>%[\w.#]+)(?::\d+)?\s*=\s*(?P<op>[\w.]+)(?P<rest>.*)$")
_STORE = re.compile(r"^\s*(?P<op>tt\.store)\s(?P<rest>.*)$")
_VALUE = re.compile(r"%[\w.]+")  # `%b_40#1` is a result of `%b_40`
_DIV_REM = ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui")
_ITER_ARGS = re.compile(r"scf\.for\s.*?iter_args\((?P<args>[^)]*)\)")
_BLOCK_ARGS = re.compile(r"^\s*\^bb\d+\((?P<args>.*)\)\s*:?\s*$")
_DOT_OPERANDS = re.compile(r"=\s*tt\.dot\s+(?P<a>%[\w.#]+),\s*(?P<b>%[\w.#]+)")


def _operands_and_tensor(rest: str) -> tuple[list[str], bool]:
    """The values an op line uses and whether its result is a tensor (its type after ' : ')."""
    code = rest.split(" loc(")[0]
    head, _, types = code.rpartition(" : ")
    if not head:
        head, types = code, ""
    return _VALUE.findall(head), "tensor<" in types


def access_slices(ttir: str) -> list[tuple[str, set[str], set[str], set[str]]]:
    """(tt.load | tt.store, tensor ops on its pointer's def chain, tensor ops on its mask's
    def chain, the values of its mask's chain) per access. Scalar ops (a `pid % S` splat into the offsets) are left out: an
    offset analysis keeps scalar arithmetic structured; only tensor-typed ops shape the
    offsets' contiguity or structure. The chains are followed through every operand."""
    defs: dict[str, tuple[str, list[str], bool]] = {}
    accesses: list[tuple[str, list[str]]] = []
    for line in ttir.splitlines():
        m = _DEF.match(line) or _STORE.match(line)
        if m is None:
            continue
        used, tensor = _operands_and_tensor(m.group("rest"))
        if m.group("op") in ("tt.load", "tt.store"):
            accesses.append((m.group("op"), used))
        if "out" in m.groupdict() and m.group("out"):
            defs[m.group("out").split("#")[0]] = (m.group("op"), used, tensor)

    def chain(value: str | None) -> tuple[set[str], set[str]]:
        ops: set[str] = set()
        todo, seen = [value] if value else [], set[str]()
        while todo:
            v = todo.pop()
            if v in seen or v not in defs:
                continue
            seen.add(v)
            op, used, tensor = defs[v]
            if tensor:
                ops.add(op)
            todo += used
        return ops, seen

    out = []
    for op, used in accesses:
        mask = used[1] if op == "tt.load" and len(used) > 1 else used[2] if len(used) > 2 else None
        mask_ops, mask_values = chain(mask)
        out.append((op, chain(used[0] if used else None)[0], mask_ops, mask_values))
    return out


def _mask_bounds(ttir: str, masks: list[tuple[set[str], set[str]]]) -> list[str]:
    """Unaligned integer arguments that a compare in one of these masks reads (the bound of an
    `offs < n` mask: the argument, or its splat, is in the chain of a mask holding a cmpi)."""
    unaligned = argument_facts(ttir)["unaligned_int_args"]
    splats = {m.group("out"): m.group("src") for m in _SPLAT.finditer(ttir)}
    found = set()
    for ops, values in masks:
        if "arith.cmpi" in ops:
            found |= {splats.get(v, v.lstrip("%")) for v in values}
    return [a for a in unaligned if a in found]


def offset_facts(ttir: str) -> KernelFacts:
    """Which tensor ops the pointers of the loads and stores are computed with.

    load_offset_ops / store_offset_ops / offset_ops: {TTIR op: accesses whose pointer chain
    holds it as a tensor op}; loaded_offsets, div_rem_offsets: accesses whose pointer chain
    holds a tensor tt.load / a tensor // or %; load_mask_bounds: unaligned integer arguments
    that the mask of a tt.load compares against."""
    slices = access_slices(ttir)
    per: dict[str, dict[str, int]] = {"tt.load": {}, "tt.store": {}}
    for op, ptr_ops, _, _ in slices:
        for o in ptr_ops:
            per[op][o] = per[op].get(o, 0) + 1
    both = {o: per["tt.load"].get(o, 0) + per["tt.store"].get(o, 0)
            for o in sorted({*per["tt.load"], *per["tt.store"]})}
    load_masks = [(ops, values) for op, _, ops, values in slices if op == "tt.load"]
    return {"load_offset_ops": dict(sorted(per["tt.load"].items())),
            "store_offset_ops": dict(sorted(per["tt.store"].items())), "offset_ops": both,
            "loaded_offsets": sum("tt.load" in p for _, p, _, _ in slices),
            "div_rem_offsets": sum(bool(p & set(_DIV_REM)) for _, p, _, _ in slices),
            "load_mask_bounds": _mask_bounds(ttir, load_masks)}


def loop_facts(ttir: str) -> KernelFacts:
    """dot_loop_carried_operands: tt.dot operands (A, B) that are loop-carried values (scf.for
    iter_args or loop block arguments), i.e. tiles loaded the iteration before and carried in
    registers, not loads in the loop body."""
    carried: set[str] = set()
    for line in ttir.splitlines():
        m = _ITER_ARGS.search(line)
        if m:
            carried |= {a.split("=")[0].strip() for a in m.group("args").split(",") if "=" in a}
        b = _BLOCK_ARGS.match(line.split(" loc(")[0] if " loc(" not in line else line)
        if b:
            carried |= set(re.findall(r"(%[\w.]+)\s*:", b.group("args")))
    n = sum(v.split("#")[0] in carried for m in _DOT_OPERANDS.finditer(ttir) for v in (m["a"], m["b"]))
    return {"dot_loop_carried_operands": n}


def facts_from_ttir(ttir: str) -> KernelFacts:
    """Every fact a TTIR module shows by itself."""
    return {**dot_facts(ttir), **argument_facts(ttir), **offset_facts(ttir), **loop_facts(ttir),
            "while_loops": ttir.count("scf.while"), "for_loops": ttir.count("scf.for ")}


def kernel_facts(kir: Any) -> KernelFacts:
    """The facts of one captured launch (a diagnose.ir KernelIR): options, constexprs and the
    facts of the TTIR handed to the GPU pipeline (the input of convert-triton-to-tritongpu)."""
    spec = kir.specialization
    ttir = next((s.text for s in kir.stages
                 if s.pass_arg == "convert-triton-to-tritongpu" and s.when == "before"),
                kir.stages[0].text if kir.stages else "")
    facts: KernelFacts = {"constexprs": dict(spec.constexprs)}
    for key in ("num_warps", "num_stages"):
        if spec.options.get(key) is not None:
            facts[key] = spec.options[key]
    return {**facts, **facts_from_ttir(ttir)}


# ------------------------------------------------------------------ conditions over facts

_OPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Mod: operator.mod, ast.Add: operator.add,
        ast.Sub: operator.sub, ast.Mult: operator.mul, ast.In: lambda a, b: a in b,
        ast.NotIn: lambda a, b: a not in b}


class MissingFact(KeyError):
    """The condition names a fact the caller did not give."""


def _eval(node: ast.AST, facts: KernelFacts) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body, facts)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in facts:
            raise MissingFact(node.id)
        return facts[node.id]
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, facts) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _eval(node.operand, facts)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left, facts), _eval(node.right, facts))
    if isinstance(node, ast.Compare):
        left = _eval(node.left, facts)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _eval(right_node, facts)
            if not _OPS[type(op)](left, right):
                return False
            left = right
        return True
    raise ValueError(f"unsupported expression {ast.dump(node)[:60]}")


def holds(condition: str, facts: KernelFacts) -> bool | None:
    """Whether the kernel satisfies a rule's `requires` condition; None when it cannot be
    judged (no condition, or a fact it names is missing)."""
    if not condition or not facts:
        return None
    try:
        return bool(_eval(ast.parse(condition, mode="eval"), facts))
    except MissingFact:
        return None
