"""Static torch-fallback check: find host code that computes the result with torch ops.

A candidate may allocate and reshape with torch; everything else must happen in Triton
kernels. We read the AST, never run it, so the check also works on files that crash.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

# torch.<name>(...) calls that allocate, describe or synchronise but compute nothing.
ALLOWED_TORCH_CALLS = {
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "device", "Size", "finfo",
    "iinfo", "is_tensor", "is_floating_point", "get_default_dtype", "no_grad", "inference_mode",
    "manual_seed", "dtype", "Generator", "Stream", "Event", "set_grad_enabled",
    "get_device_properties", "current_device", "set_device", "device_count", "is_available",
    "synchronize", "current_stream", "default_stream", "stream", "get_device_name",
    "get_device_capability", "Parameter", "range_push", "range_pop", "range",
    "triton_op", "wrap_triton", "custom_op", "register_fake", "disable",
}
# Tensor methods that only describe, reshape (views) or allocate.
ALLOWED_METHODS = {
    "view", "reshape", "stride", "contiguous", "size", "numel", "dim", "data_ptr",
    "element_size", "is_contiguous", "storage_offset", "unsqueeze", "squeeze", "expand",
    "permute", "transpose", "t", "flatten", "unflatten", "as_strided", "narrow", "new_empty",
    "new_zeros", "zero_", "fill_", "item", "tolist", "unbind", "chunk", "split", "view_as",
    "expand_as", "is_cuda", "get_device", "new_empty_strided", "select", "movedim",
}
# Tensor methods that compute: flagged when called on anything but torch/triton/tl themselves.
COMPUTE_METHODS = {
    "add", "sub", "mul", "div", "pow", "neg", "abs", "exp", "exp2", "log", "log2", "log1p",
    "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "relu", "softmax", "log_softmax", "sum",
    "mean", "var", "std", "norm", "prod", "amax", "amin", "argmax", "argmin", "cumsum",
    "cumprod", "cummax", "logcumsumexp", "argsort", "topk", "matmul", "mm", "bmm",
    "addmm", "baddbmm", "dot", "masked_fill", "clamp", "clip", "maximum", "minimum", "gather",
    "scatter", "scatter_add", "index_select", "index_add", "index_put", "take", "floor",
    "ceil", "round", "erf", "reciprocal", "lerp", "addcmul", "addcdiv", "logsumexp",
    "eq", "ne", "lt", "le", "gt", "ge", "tril", "triu", "flip", "roll", "repeat",
    "repeat_interleave", "float", "half", "bfloat16", "double", "copy_", "clone", "add_",
    "sub_", "mul_", "div_", "exp_", "clamp_", "masked_fill_", "scatter_", "scatter_add_",
    "index_add_", "sort", "max", "min", "where", "mv", "outer", "silu", "gelu", "cross",
    "cumsum_", "square", "nan_to_num", "to",
}
# Calls through these modules are Triton itself (device code helpers, launch grids).
TRITON_ROOTS = {"triton", "tl", "libdevice"}
JIT_DECORATORS = {"jit", "autotune", "heuristics"}


@dataclass
class Finding:
    """One torch compute call in host code."""

    function: str   # enclosing function, "<module>" at top level
    call: str       # e.g. "torch.softmax" or "x.sum"
    line: int

    def sentence(self) -> str:
        where = "the module body" if self.function == "<module>" else f"{self.function}()"
        return f"{where} calls {self.call} at line {self.line}"


def torch_fallbacks(tree: ast.Module) -> list[Finding]:
    """All torch compute calls outside @triton.jit functions, in source order."""
    aliases = _torch_aliases(tree)
    visitor = _HostCallVisitor(aliases, _other_modules(tree) - set(aliases))
    visitor.visit(tree)
    return sorted(visitor.findings, key=lambda f: f.line)


def summary(findings: list[Finding]) -> str:
    """One sentence naming the first finding and how many more there are."""
    first = findings[0].sentence()
    more = f" (and {len(findings) - 1} more torch compute calls)" if len(findings) > 1 else ""
    return (
        f"{first}{more}; candidates must compute the result in Triton kernels and use torch "
        "only to allocate and reshape."
    )


def _torch_aliases(tree: ast.Module) -> dict[str, str]:
    """Local names bound to torch modules or functions: {'F': 'torch.nn.functional', ...}."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "torch" or a.name.startswith("torch."):
                    if a.asname:
                        aliases[a.asname] = a.name
                    else:
                        aliases["torch"] = "torch"
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "torch":
            for a in node.names:
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    return aliases


def _other_modules(tree: ast.Module) -> set[str]:
    """Names bound by importing non-torch modules (math, numpy, functools): math.sqrt is host arithmetic."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _is_triton_jit(fn: ast.FunctionDef) -> bool:
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = _dotted(target) or ""
        if name.split(".")[-1] in JIT_DECORATORS and name.split(".")[0] in {"triton", "jit", "autotune", "heuristics"}:
            return True
    return False


class _HostCallVisitor(ast.NodeVisitor):
    def __init__(self, aliases: dict[str, str], modules: set[str]) -> None:
        self.aliases = aliases
        self.modules = modules
        self.findings: list[Finding] = []
        self.scope = ["<module>"]
        self.torch_modules: dict[str, str] = {}   # self.<attr> = nn.Conv2d(...) in __init__

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if _is_triton_jit(node):
            return  # device code: tl.* is the point
        if node.name == "__init__":
            self._record_modules(node)
            return  # building weights or submodules is setup, not the computation
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.MatMult):  # `a @ b` is a tensor matmul in practice
            self._flag("@ (matmul)", node.lineno)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func)
        if name:
            self._check_call(name, node)
        elif isinstance(node.func, ast.Attribute) and node.func.attr in COMPUTE_METHODS:
            self._flag(f"<expr>.{node.func.attr}", node.lineno)
        self.generic_visit(node)

    def _check_call(self, name: str, node: ast.Call) -> None:
        head, _, rest = name.partition(".")
        if head in self.aliases:
            full = self.aliases[head] + (f".{rest}" if rest else "")
            leaf = full.split(".")[-1]
            if leaf not in ALLOWED_TORCH_CALLS and not _is_type_or_dtype(full):
                self._flag(full, node.lineno)
            return
        if head in TRITON_ROOTS or head in self.modules:
            return
        if head == "self" and rest in self.torch_modules:
            self._flag(f"self.{rest} ({self.torch_modules[rest]})", node.lineno)
            return
        method = name.split(".")[-1]
        if "." in name and method in COMPUTE_METHODS and method not in ALLOWED_METHODS:
            if method == "to" and not _casts_dtype(node, self.aliases):
                return  # .to(device) moves data but computes nothing
            self._flag(name, node.lineno)

    def _record_modules(self, init: ast.FunctionDef) -> None:
        for node in ast.walk(init):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                callee = _dotted(node.value.func) or ""
                head, _, rest = callee.partition(".")
                full = self.aliases.get(head, head) + (f".{rest}" if rest else "")
                if full.startswith("torch.nn.") and full.split(".")[-1] not in {"Parameter", "ParameterList"}:
                    for t in node.targets:
                        if isinstance(t, ast.Attribute) and _dotted(t.value) == "self":
                            self.torch_modules[t.attr] = full

    def _flag(self, call: str, line: int) -> None:
        self.findings.append(Finding(self.scope[-1], call, line))


def _is_type_or_dtype(full: str) -> bool:
    """torch.float16, torch.Tensor, torch.cuda.* helpers: names, not computations."""
    parts = full.split(".")
    return parts[-1][:1].isupper() or (len(parts) > 2 and parts[1] in {"cuda", "npu", "backends"}
                                        and parts[-1] in ALLOWED_TORCH_CALLS)


def _casts_dtype(node: ast.Call, aliases: dict[str, str]) -> bool:
    if any(k.arg == "dtype" for k in node.keywords):
        return True
    for arg in node.args:
        name = _dotted(arg) or ""
        head = name.split(".")[0]
        if head in aliases and name.count(".") == 1:  # torch.float32 and the like
            return True
    return False
