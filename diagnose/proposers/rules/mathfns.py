"""Element-wise math evaluated to the precision the output needs: libdevice's exact erf replaced by a
bounded-error, branch-free formula (Abramowitz & Stegun 7.1.26), then the tile retuned for the
cheaper element. The error bound is stated in every candidate; the gate's tolerance decides."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .source import Edit, Source, apply, dotted, is_jit_decorator, jit_kernels
from .tuning import retune_block_sizes

HELPER = "_erf_bounded"
BOUND = "1.5e-7"
# A&S 7.1.26: erf(x) = 1 - (a1 t + a2 t^2 + a3 t^3 + a4 t^4 + a5 t^5) exp(-x^2), t = 1 / (1 + p x), x >= 0
HELPER_TEXT = '''@{jit}
def {name}(z):
    # erf(z) to |error| <= {bound} (Abramowitz & Stegun 7.1.26): one exp, one fast reciprocal,
    # five FMAs and no branch, in place of libdevice's exact erff (passwise precision-matched-math)
    a = {tl}.abs(z)
    t = {tl}.fdiv(1.0, 1.0 + 0.3275911 * a)
    p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    e = 1.0 - p * {tl}.exp(-a * a)
    return {tl}.where(z < 0, -e, e)


'''


def _language_alias(tree: ast.Module) -> str | None:
    """The name this module reaches triton.language through: `tl`, `triton.language`, ..."""
    plain_triton = False
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "triton.language":
                    return a.asname or "triton.language"
                plain_triton |= a.name == "triton" and a.asname is None
        elif isinstance(node, ast.ImportFrom) and node.module == "triton":
            for a in node.names:
                if a.name == "language":
                    return a.asname or "language"
    return "triton.language" if plain_triton else None


def _erf_names(tree: ast.Module) -> set[str]:
    """Bare names bound to a Triton erf by `from triton.language[...] import erf [as e]`."""
    return {a.asname or a.name for node in tree.body if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("triton") for a in node.names if a.name == "erf"}


def _is_erf(call: ast.Call, alias: str, bare: set[str]) -> bool:
    name = dotted(call.func)
    if isinstance(call.func, ast.Name):
        return name in bare
    prefix, _, last = name.rpartition(".")
    return last == "erf" and (prefix in (alias, f"{alias}.math", "triton.language", "triton.language.math")
                              or prefix.endswith("libdevice")) and len(call.args) == 1 and not call.keywords


def _jit_text(src: Source, fn: ast.FunctionDef) -> str:
    dec = next(d for d in fn.decorator_list if is_jit_decorator(d))
    return src.segment(dec.func if isinstance(dec, ast.Call) else dec)


def bounded_error_erf(text: str) -> list[Candidate]:
    """Every Triton erf call inside @triton.jit functions routed to one added helper evaluating
    A&S 7.1.26; then the same kernel with its launch BLOCKs retuned (the loop measures them
    together). Left alone: a module with no Triton erf in a jit function, or no way to name
    triton.language for the helper."""
    src = Source(text)
    alias, bare = _language_alias(src.tree), _erf_names(src.tree)
    kernels = jit_kernels(src.tree)
    if alias is None or not kernels:
        return []
    taken = {n.id for n in ast.walk(src.tree) if isinstance(n, ast.Name)} | {
        f.name for f in src.tree.body if isinstance(f, (ast.FunctionDef, ast.ClassDef))}
    name = HELPER
    while name in taken:
        name += "_"
    edits = [src.replace(call.func, name) for fn in kernels for call in ast.walk(fn)
             if isinstance(call, ast.Call) and _is_erf(call, alias, bare)]
    if not edits:
        return []
    first = kernels[0]
    top = min([first.lineno] + [d.lineno for d in first.decorator_list])
    at = src.line_start(top)  # a module-level function: its first decorator opens the line
    helper = HELPER_TEXT.format(jit=_jit_text(src, first), name=name, bound=BOUND, tl=alias)
    edits.append(Edit(at, at, helper))
    base = apply(text, edits)
    what = (f"erf by Abramowitz-Stegun 7.1.26 (|error| <= {BOUND} absolute; one exp and one fast reciprocal) "
            f"in place of libdevice's exact erff ({len(edits) - 1} call(s))")
    out = [Candidate(base, what, {"math": "erf-as26", "error_bound": float(BOUND), "erf_calls": len(edits) - 1})]
    for c in retune_block_sizes(base):
        if c.params.get("to", 0) > c.params.get("from", 0):
            out.append(Candidate(c.source, f"{what}; {c.description}", {"math": "erf-as26", **c.params}))
    return out
