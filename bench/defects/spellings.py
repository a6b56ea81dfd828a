"""Meaning-preserving respellings of a Triton kernel file, the way other authors write the same
code: launch constants bound to locals or module constants, renamed variables and constexpr
parameters, a grid bound to a name, ceil-division and next_power_of_2 written by hand, launch
options passed through a dict, the launcher wrapped in a class, a kernel's body or its loads,
reductions and math moved into @triton.jit helpers. Each rewrite mutates an ast tree
in place and says whether it applied; `respell(source)` yields (name, new source) pairs.
Used by bench/defects/metamorphic.py and tests/test_triage_spellings.py."""

from __future__ import annotations

import ast
import builtins
import copy
from collections.abc import Callable, Iterator

Rewrite = Callable[[ast.Module], bool]  # mutates the tree in place; False when nothing applied


def _is_jit(fn: ast.FunctionDef) -> bool:
    return any("jit" in ast.unparse(d) for d in fn.decorator_list)


def _jit_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in tree.body if isinstance(n, ast.FunctionDef) and _is_jit(n)]


def _host_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and not _is_jit(n)]


def _launches(fn: ast.FunctionDef) -> list[ast.Call]:
    """`kernel[grid](...)` calls in a host function."""
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript)]


def _statement_of(fn: ast.FunctionDef, node: ast.AST) -> tuple[list[ast.stmt], int] | None:
    """The statement list and index holding `node` (innermost block)."""
    for parent in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                if isinstance(stmt, ast.stmt) and any(n is node for n in ast.walk(stmt)):
                    inner = [s for s in ast.walk(stmt) if s is not stmt and isinstance(s, ast.stmt)
                             and any(n is node for n in ast.walk(s))]
                    if not inner:
                        return block, i
    return None


def rename_locals(tree: ast.Module) -> bool:
    """Every name a @triton.jit function assigns (not its parameters) gets a neutral name."""
    changed = False
    for fn in _jit_functions(tree):
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        stored = sorted({n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                         and isinstance(n.ctx, ast.Store) and n.id not in params})
        mapping = {name: f"v{i}_{fn.name[:3]}" for i, name in enumerate(stored)}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and n.id in mapping:
                n.id, changed = mapping[n.id], True
    return changed


def _hoist_keywords(tree: ast.Module, to_module: bool) -> bool:
    """Launch keyword values (constants or expressions of the host's names) bound to a name first."""
    changed, module_lines = False, []
    for fn in _host_functions(tree):
        for call in _launches(fn):
            where = _statement_of(fn, call)
            if where is None:
                continue
            block, index = where
            for kw in call.keywords:
                if kw.arg is None or isinstance(kw.value, ast.Name):
                    continue
                is_const = isinstance(kw.value, ast.Constant)
                if to_module and not is_const:
                    continue
                name = (f"_{kw.arg.upper()}_DEFAULT" if to_module else f"{kw.arg.lower()}_value")
                if to_module:  # two launches with BLOCK=4096 and BLOCK=1024 need two constants
                    taken = {ast.unparse(b.targets[0]): ast.unparse(b.value) for b in module_lines}
                    while name in taken and taken[name] != ast.unparse(kw.value):
                        name += "_"
                bind = ast.Assign(targets=[ast.Name(name, ast.Store())], value=copy.deepcopy(kw.value),
                                  lineno=0)
                (module_lines if to_module else block).insert(
                    len(module_lines) if to_module else index, bind)
                if not to_module:
                    index += 1
                kw.value, changed = ast.Name(name, ast.Load()), True
    if module_lines:
        first = next(i for i, s in enumerate(tree.body) if not isinstance(s, (ast.Import, ast.ImportFrom, ast.Expr)))
        tree.body[first:first] = module_lines
    return changed


def hoist_launch_keywords(tree: ast.Module) -> bool:
    return _hoist_keywords(tree, to_module=False)


def module_constants(tree: ast.Module) -> bool:
    return _hoist_keywords(tree, to_module=True)


def grid_to_local(tree: ast.Module) -> bool:
    """`kernel[(a, b)](...)` becomes `launch_grid = (a, b)` then `kernel[launch_grid](...)`."""
    changed = False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            grid = call.func.slice
            if isinstance(grid, ast.Name):
                continue
            where = _statement_of(fn, call)
            if where is None:
                continue
            block, index = where
            block.insert(index, ast.Assign(targets=[ast.Name("launch_grid", ast.Store())],
                                           value=copy.deepcopy(grid), lineno=0))
            call.func.slice, changed = ast.Name("launch_grid", ast.Load()), True
    return changed


def spell_cdiv(tree: ast.Module) -> bool:
    """`triton.cdiv(a, b)` written out as `(a + b - 1) // b`."""
    changed = False

    class Cdiv(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            nonlocal changed
            self.generic_visit(node)
            if ast.unparse(node.func) in ("triton.cdiv", "cdiv") and len(node.args) == 2:
                a, b = node.args
                changed = True
                return ast.BinOp(ast.BinOp(ast.BinOp(a, ast.Add(), copy.deepcopy(b)), ast.Sub(),
                                           ast.Constant(1)), ast.FloorDiv(), copy.deepcopy(b))
            return node

    Cdiv().visit(tree)
    return changed


def _jit_params(tree: ast.Module) -> dict[str, list[str]]:
    return {fn.name: [a.arg for a in fn.args.args] for fn in _jit_functions(tree)}


def _kernel_name(call: ast.Call) -> str:
    return ast.unparse(call.func.value).split(".")[-1]


def rename_constexpr_params(tree: ast.Module) -> bool:
    """The kernels' constexpr parameters renamed (BLOCK -> TILE_0), in the kernels and at every
    launch, one name for each across the module (a launch-options dict may serve two kernels)."""
    mapping: dict[str, str] = {}
    kernels = _jit_functions(tree)
    for fn in kernels:
        for a in fn.args.args:
            if a.annotation is not None and "constexpr" in ast.unparse(a.annotation):
                mapping.setdefault(a.arg, f"TILE_{len(mapping)}")
    if not mapping:
        return False
    names = {fn.name for fn in kernels}
    for fn in kernels:
        for a in fn.args.args:
            a.arg = mapping.get(a.arg, a.arg)
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and n.id in mapping:
                n.id = mapping[n.id]
    for host in _host_functions(tree):
        for call in _launches(host):
            if _kernel_name(call) in names:
                for kw in call.keywords:
                    kw.arg = mapping.get(kw.arg, kw.arg)
    for n in ast.walk(tree):  # autotune configs, heuristics and option dicts name them in strings
        if isinstance(n, ast.Constant) and n.value in mapping:
            n.value = mapping[n.value]
        if isinstance(n, ast.Call) and ast.unparse(n.func).split(".")[-1] in ("dict", "Config"):  # or keywords
            for kw in n.keywords:
                kw.arg = mapping.get(kw.arg, kw.arg)
    return True


def keywords_to_positional(tree: ast.Module) -> bool:
    """Kernel arguments passed by keyword move to their positions where the order allows."""
    params, changed = _jit_params(tree), False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            order = params.get(_kernel_name(call))
            if not order or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            by_name = {kw.arg: kw for kw in call.keywords if kw.arg}
            while len(call.args) < len(order) and order[len(call.args)] in by_name:
                kw = by_name.pop(order[len(call.args)])
                call.args.append(kw.value)
                call.keywords.remove(kw)
                changed = True
    return changed


def options_dict(tree: ast.Module) -> bool:
    """num_warps / num_stages passed through `**launch_options`, a dict built before the launch."""
    changed = False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            opts = [kw for kw in call.keywords if kw.arg in ("num_warps", "num_stages")]
            where = _statement_of(fn, call)
            if not opts or where is None:
                continue
            block, index = where
            block.insert(index, ast.Assign(
                targets=[ast.Name("launch_options", ast.Store())],
                value=ast.Dict(keys=[ast.Constant(k.arg) for k in opts],
                               values=[copy.deepcopy(k.value) for k in opts]), lineno=0))
            call.keywords = [kw for kw in call.keywords if kw not in opts]
            call.keywords.append(ast.keyword(arg=None, value=ast.Name("launch_options", ast.Load())))
            changed = True
    return changed


def next_pow2_by_hand(tree: ast.Module) -> bool:
    """`triton.next_power_of_2(n)` written as `1 << (n - 1).bit_length()`."""
    changed = False

    class Pow2(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            nonlocal changed
            self.generic_visit(node)
            if ast.unparse(node.func).endswith("next_power_of_2") and len(node.args) == 1:
                changed = True
                less = ast.BinOp(node.args[0], ast.Sub(), ast.Constant(1))
                bits = ast.Call(ast.Attribute(less, "bit_length", ast.Load()), [], [])
                return ast.BinOp(ast.Constant(1), ast.LShift(), bits)
            return node

    Pow2().visit(tree)
    return changed


def host_in_class(tree: ast.Module) -> bool:
    """The module's `run` body moves into a static method of a class (an autograd-style wrapper)."""
    for i, node in enumerate(tree.body):
        if isinstance(node, ast.FunctionDef) and node.name == "run" and not _is_jit(node):
            method = copy.deepcopy(node)
            method.name = "forward"
            method.decorator_list = [ast.Name("staticmethod", ast.Load())]
            cls = ast.ClassDef(name="_KernelOp", bases=[], keywords=[], body=[method],
                               decorator_list=[], type_params=[])
            call = ast.Call(ast.Attribute(ast.Name("_KernelOp", ast.Load()), "forward", ast.Load()),
                            [ast.Starred(ast.Name("args", ast.Load()), ast.Load())],
                            [ast.keyword(None, ast.Name("kwargs", ast.Load()))])
            node.args = ast.arguments(posonlyargs=[], args=[], vararg=ast.arg("args"), kwonlyargs=[],
                                      kw_defaults=[], kwarg=ast.arg("kwargs"), defaults=[])
            node.body = [ast.Return(call)]
            tree.body.insert(i, cls)
            return True
    return False


def _kernel_defs(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {fn.name: fn for fn in _jit_functions(tree)}


def _constexpr_params(fn: ast.FunctionDef) -> list[str]:
    return [a.arg for a in fn.args.args if a.annotation is not None and "constexpr" in ast.unparse(a.annotation)]


def launch_alias(tree: ast.Module) -> bool:
    """`kernel[grid](...)` becomes `launch = kernel[grid]` then `launch(...)`."""
    changed = False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            where = _statement_of(fn, call)
            if where is None:
                continue
            block, index = where
            block.insert(index, ast.Assign(targets=[ast.Name("launch_fn", ast.Store())],
                                           value=copy.deepcopy(call.func), lineno=0))
            call.func, changed = ast.Name("launch_fn", ast.Load()), True
    return changed


def grid_lambda(tree: ast.Module) -> bool:
    """The grid as `lambda META: (...)`, a constant it shares with a launch constexpr read from META."""
    changed = False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            grid = call.func.slice
            if isinstance(grid, (ast.Lambda, ast.Name)):
                continue
            consts = {kw.value.value: kw.arg for kw in call.keywords
                      if kw.arg and kw.arg not in ("num_warps", "num_stages")
                      and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, int)
                      and not isinstance(kw.value.value, bool) and kw.value.value > 1}
            body = copy.deepcopy(grid)
            for node in ast.walk(body):
                for field, value in ast.iter_fields(node):
                    if isinstance(value, ast.Constant) and value.value in consts and not isinstance(value.value, bool):
                        setattr(node, field, ast.Subscript(ast.Name("META", ast.Load()),
                                                           ast.Constant(consts[value.value]), ast.Load()))
            call.func.slice = ast.Lambda(ast.arguments(posonlyargs=[], args=[ast.arg("META")], kwonlyargs=[],
                                                       kw_defaults=[], defaults=[]), body)
            changed = True
    return changed


def body_in_helper(tree: ast.Module) -> bool:
    """A kernel's body moves into a @triton.jit helper that the kernel calls with all its parameters."""
    changed = False
    for i in range(len(tree.body) - 1, -1, -1):
        fn = tree.body[i]
        if not (isinstance(fn, ast.FunctionDef) and _is_jit(fn)) or fn.args.vararg or fn.args.kwonlyargs:
            continue
        if not any(isinstance(n, ast.Call) and ast.unparse(n.func) == "tl.program_id" for n in ast.walk(fn)):
            continue  # only launched kernels
        if any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn)):
            continue
        helper = copy.deepcopy(fn)
        helper.name = f"_{fn.name}_body"
        helper.decorator_list = [ast.Attribute(ast.Name("triton", ast.Load()), "jit", ast.Load())]
        args = [ast.Name(a.arg, ast.Load()) for a in fn.args.args]
        fn.body = [ast.Expr(ast.Call(ast.Name(helper.name, ast.Load()), args, []))]
        tree.body.insert(i, helper)
        changed = True
    return changed


HELPER_VALUES = {"load", "sum", "max", "min", "dot", "where", "exp", "exp2", "log", "sqrt", "rsqrt"}


def values_in_helpers(tree: ast.Module) -> bool:
    """Each assignment in a launched kernel whose value is a `tl.load`, a reduction, a `tl.dot` or
    an elementwise math call gets that value from a @triton.jit helper instead (`x = _value_3(ptr,
    offs, mask)`), its free names passed as parameters (constexpr ones marked so)."""
    module_names = {a.asname or a.name.split(".")[0] for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)
                    for a in n.names}
    module_names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    module_names |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    module_names |= set(dir(builtins))
    changed, made = False, 0
    for i in range(len(tree.body) - 1, -1, -1):
        fn = tree.body[i]
        if not (isinstance(fn, ast.FunctionDef) and _is_jit(fn)):
            continue
        if not any(isinstance(n, ast.Call) and ast.unparse(n.func) == "tl.program_id" for n in ast.walk(fn)):
            continue  # only launched kernels
        constexpr = {a.arg for a in fn.args.args if a.annotation is not None and "constexpr" in ast.unparse(a.annotation)}
        helpers = []
        for stmt in [n for n in ast.walk(fn) if isinstance(n, ast.Assign | ast.AugAssign)]:
            value = stmt.value
            inner = value.func.value if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                                         and value.func.attr == "to") else value  # `tl.load(...).to(...)`
            if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
                    and ast.unparse(inner.func.value) == "tl" and inner.func.attr in HELPER_VALUES):
                continue
            free = sorted({n.id for n in ast.walk(value) if isinstance(n, ast.Name)} - module_names)
            made += 1
            name = f"_value_{made}"
            args = [ast.arg(v, ast.Attribute(ast.Name("tl", ast.Load()), "constexpr", ast.Load())
                            if v in constexpr else None) for v in free]
            helpers.append(ast.FunctionDef(
                name=name, args=ast.arguments(posonlyargs=[], args=args, kwonlyargs=[], kw_defaults=[], defaults=[]),
                body=[ast.Return(copy.deepcopy(value))], returns=None, type_params=[],
                decorator_list=[ast.Attribute(ast.Name("triton", ast.Load()), "jit", ast.Load())]))
            stmt.value = ast.Call(ast.Name(name, ast.Load()), [ast.Name(v, ast.Load()) for v in free], [])
        for helper in helpers:
            tree.body.insert(i, helper)
        changed = changed or bool(helpers)
    return changed


def loops_tl_range(tree: ast.Module) -> bool:
    """`for i in range(...)` inside @triton.jit functions written `for i in tl.range(...)`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and ast.unparse(node.iter.func) == "range":
                node.iter.func, changed = ast.Attribute(ast.Name("tl", ast.Load()), "range", ast.Load()), True
    return changed


def expand_augassign(tree: ast.Module) -> bool:
    """`acc += x` inside @triton.jit functions written `acc = acc + x`."""
    changed = False
    for fn in _jit_functions(tree):
        for parent in ast.walk(fn):
            for field in ("body", "orelse"):
                block = getattr(parent, field, None)
                if not isinstance(block, list):
                    continue
                for i, stmt in enumerate(block):
                    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                        name = stmt.target.id
                        block[i] = ast.copy_location(ast.Assign(
                            [ast.Name(name, ast.Store())],
                            ast.BinOp(ast.Name(name, ast.Load()), stmt.op, stmt.value)), stmt)
                        changed = True
    return changed


# tl builtins whose keyword arguments other authors pass by position: the first position they
# may take and their positional order
_AXIS = (1, ("axis",))
POSITIONAL = {"load": (1, ("mask", "other")), "store": (2, ("mask",)), "program_id": (0, ("axis",)),
              "num_programs": (0, ("axis",)), "sum": _AXIS, "max": _AXIS, "min": _AXIS,
              "argmax": _AXIS, "argmin": _AXIS, "cumsum": _AXIS}


def builtin_args_positional(tree: ast.Module) -> bool:
    """`tl.load(p, mask=m, other=0.0)`, `tl.sum(x, axis=1)`, `tl.program_id(axis=0)` written with
    those arguments by position, where every earlier position is filled."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and ast.unparse(node.func.value) == "tl" and node.func.attr in POSITIONAL):
                continue
            first, order = POSITIONAL[node.func.attr]
            given = {k.arg: k for k in node.keywords}
            moved = False
            for slot, name in enumerate(order, start=first):
                if len(node.args) != slot or name not in given:
                    break
                node.args.append(given.pop(name).value)
                moved = True
            if moved:
                node.keywords = [k for k in node.keywords if k.arg in given]
                changed = True
    return changed


def _hoist_operands(tree: ast.Module, pick, prefix: str) -> bool:
    """The operand `pick(call)` points at (a list and an index, or a node and a field) of each
    tl call in a @triton.jit function, bound to a fresh local in a statement of its own just
    before the (simple) statement that holds the call."""
    changed, count = False, 0
    for fn in _jit_functions(tree):
        calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and ast.unparse(n.func.value) == "tl" and pick(n) is not None]
        for call in calls:
            where = _statement_of(fn, call)
            if where is None or not isinstance(where[0][where[1]], (ast.Assign, ast.AugAssign, ast.Expr)):
                continue
            block, i = where
            holder, key = pick(call)
            value = holder[key] if isinstance(holder, list) else getattr(holder, key)
            name = f"{prefix}{count}"
            count += 1
            block.insert(i, ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], value), block[i]))
            if isinstance(holder, list):
                holder[key] = ast.Name(name, ast.Load())
            else:
                setattr(holder, key, ast.Name(name, ast.Load()))
            changed = True
    return changed


def pointer_temporaries(tree: ast.Module) -> bool:
    """A computed address passed to tl.load / tl.store bound to a `ptrs_` local first."""
    def pick(call: ast.Call):
        if call.func.attr in ("load", "store") and call.args and isinstance(call.args[0], ast.BinOp):
            return call.args, 0
        return None
    return _hoist_operands(tree, pick, "ptrs_")


def mask_temporaries(tree: ast.Module) -> bool:
    """A mask expression passed by keyword to tl.load / tl.store bound to a `valid` local first."""
    def pick(call: ast.Call):
        if call.func.attr not in ("load", "store"):
            return None
        kw = next((k for k in call.keywords if k.arg == "mask"), None)
        return (kw, "value") if kw is not None and not isinstance(kw.value, ast.Name) else None
    return _hoist_operands(tree, pick, "valid_")


_MIRROR = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}


def reverse_compares(tree: ast.Module) -> bool:
    """`offs < n` inside @triton.jit functions written `n > offs` (one-operator compares)."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _MIRROR:
                node.left, node.comparators = node.comparators[0], [node.left]
                node.ops = [_MIRROR[type(node.ops[0])]()]
                changed = True
    return changed


def commute_products(tree: ast.Module) -> bool:
    """`row * stride` inside @triton.jit functions written `stride * row`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                node.left, node.right = node.right, node.left
                changed = True
    return changed


def tile_index_loops(tree: ast.Module) -> bool:
    """`for k in range(a, b, STEP)` inside @triton.jit functions written as a loop over the tile
    index, `for k_tile in range(0, tl.cdiv(b - a, STEP)): k = a + k_tile * STEP`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
                    and isinstance(node.iter, ast.Call) and ast.unparse(node.iter.func) == "range"
                    and len(node.iter.args) == 3 and not node.iter.keywords):
                continue
            start, stop, step = node.iter.args
            if isinstance(step, ast.Constant) and step.value in (1, -1) or isinstance(step, ast.UnaryOp):
                continue
            var = node.target.id
            tile = f"{var}_tile"
            span = stop if isinstance(start, ast.Constant) and start.value == 0 else ast.BinOp(stop, ast.Sub(), start)
            node.iter = ast.Call(ast.Name("range", ast.Load()),
                                 [ast.Constant(0), ast.Call(ast.Attribute(ast.Name("tl", ast.Load()), "cdiv", ast.Load()),
                                                            [span, step], [])], [])
            node.target = ast.Name(tile, ast.Store())
            offset = ast.BinOp(ast.Name(tile, ast.Load()), ast.Mult(), copy.deepcopy(step))
            value = offset if isinstance(start, ast.Constant) and start.value == 0 else ast.BinOp(start, ast.Add(), offset)
            node.body.insert(0, ast.Assign([ast.Name(var, ast.Store())], value))
            changed = True
    return changed


def _additive_terms(node: ast.expr) -> list[ast.expr]:
    """The terms of a chain of `+` (`a + b + c` -> [a, b, c])."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _additive_terms(node.left) + _additive_terms(node.right)
    return [node]


def _step_of(term: ast.expr, var: str) -> ast.expr | None:
    """What `term` grows by when `var` grows by one, for `var` and `var * x` / `x * var` (x free of
    var); None for any other use of `var`."""
    if isinstance(term, ast.Name) and term.id == var:
        return ast.Constant(1)
    if isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult):
        for mine, other in ((term.left, term.right), (term.right, term.left)):
            if (isinstance(mine, ast.Name) and mine.id == var
                    and not any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(other))):
                return other
    return None


def _uses(node: ast.AST, var: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(node))


def _assigned(nodes: list[ast.stmt]) -> set[str]:
    return {t.id for stmt in nodes for n in ast.walk(stmt) if isinstance(n, ast.Assign | ast.AugAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}


def pointer_increments(tree: ast.Module) -> bool:
    """A load or store in a `for k in range(...)` loop whose address is `base + ... + k * s` (one
    term in k) walked by a pointer instead, as matmul kernels do: `ptrs_0 = base + ... + start *
    s` before the loop, `tl.load(ptrs_0, ...)` in it and `ptrs_0 += step * s` at its end."""
    changed, count = False, 0
    for fn in _jit_functions(tree):
        for loop in [n for n in ast.walk(fn) if isinstance(n, ast.For)]:
            if not (isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Call)
                    and ast.unparse(loop.iter.func) in ("range", "tl.range", "tl.static_range")
                    and 1 <= len(loop.iter.args) <= 3 and not loop.iter.keywords and not loop.orelse):
                continue
            if any(isinstance(n, ast.Continue | ast.Break | ast.Return) for n in ast.walk(loop)):
                continue
            var = loop.target.id
            args = loop.iter.args
            start = args[0] if len(args) >= 2 else ast.Constant(0)
            step = args[2] if len(args) == 3 else ast.Constant(1)
            where = _statement_of(fn, loop)
            if where is None:
                continue
            block, at = where
            written = _assigned(loop.body) | {var} | {n.target.id for n in ast.walk(loop)
                                                       if isinstance(n, ast.For) and isinstance(n.target, ast.Name)}
            for call in [n for n in ast.walk(loop) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                         and ast.unparse(n.func) in ("tl.load", "tl.store") and n.args]:
                address = call.args[0]
                terms = _additive_terms(address)
                mine = [t for t in terms if _uses(t, var)]
                if len(mine) != 1 or _step_of(mine[0], var) is None:
                    continue
                if any(_uses(t, w) for t in terms for w in written - {var}):
                    continue  # the address also moves with values the loop computes
                per = _step_of(mine[0], var)
                name = f"walk_{count}"
                count += 1
                zero = isinstance(start, ast.Constant) and start.value == 0
                kept = [copy.deepcopy(t) for t in terms if t is not mine[0]]
                if not zero:
                    moved = copy.deepcopy(mine[0])
                    if isinstance(moved, ast.Name):
                        moved = copy.deepcopy(start)
                    else:
                        for field in ("left", "right"):
                            if isinstance(getattr(moved, field), ast.Name) and getattr(moved, field).id == var:
                                setattr(moved, field, copy.deepcopy(start))
                    kept.append(moved)
                if not kept:
                    continue
                first = kept[0]
                for t in kept[1:]:
                    first = ast.BinOp(first, ast.Add(), t)
                block.insert(at, ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], first), loop))
                at += 1
                call.args[0] = ast.Name(name, ast.Load())
                if isinstance(step, ast.Constant) and step.value == 1:
                    grow = per
                elif isinstance(per, ast.Constant) and per.value == 1:
                    grow = copy.deepcopy(step)
                else:
                    grow = ast.BinOp(copy.deepcopy(step), ast.Mult(), copy.deepcopy(per))
                loop.body.append(ast.AugAssign(ast.Name(name, ast.Store()), ast.Add(), grow))
                changed = True
    return changed


def expand_dims_calls(tree: ast.Module) -> bool:
    """`x[:, None]` / `x[None, :]` inside @triton.jit functions written `tl.expand_dims(x, 1)` /
    `tl.expand_dims(x, 0)`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            for field, value in ast.iter_fields(node):
                if not (isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Tuple)
                        and len(value.slice.elts) == 2 and isinstance(value.ctx, ast.Load)):
                    continue
                a, b = value.slice.elts
                none_at = [i for i, e in enumerate((a, b)) if isinstance(e, ast.Constant) and e.value is None]
                full = [i for i, e in enumerate((a, b)) if isinstance(e, ast.Slice) and e.lower is None
                        and e.upper is None and e.step is None]
                if len(none_at) != 1 or len(full) != 1:
                    continue
                setattr(node, field, ast.Call(ast.Attribute(ast.Name("tl", ast.Load()), "expand_dims", ast.Load()),
                                              [value.value, ast.Constant(none_at[0])], []))
                changed = True
    return changed


def static_range_loops(tree: ast.Module) -> bool:
    """`for i in range(K)` inside @triton.jit functions, K a constexpr parameter or an int literal,
    written `for i in tl.static_range(K)` (the loop unrolled at compile time)."""
    changed = False
    for fn in _jit_functions(tree):
        consts = set(_constexpr_params(fn))
        for node in ast.walk(fn):
            if not (isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
                    and ast.unparse(node.iter.func) == "range" and not node.iter.keywords
                    and 1 <= len(node.iter.args) <= 2):
                continue
            if all(isinstance(a, ast.Constant) and isinstance(a.value, int) and abs(a.value) <= 64
                   or isinstance(a, ast.Name) and a.id in consts for a in node.iter.args):
                node.iter.func = ast.Attribute(ast.Name("tl", ast.Load()), "static_range", ast.Load())
                changed = True
    return changed

def keyword_program_id(tree: ast.Module) -> bool:
    """`tl.program_id(0)` / `tl.num_programs(0)` written `tl.program_id(axis=0)`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and ast.unparse(node.func.value) == "tl" and node.func.attr in ("program_id", "num_programs")
                    and len(node.args) == 1 and not node.keywords):
                node.keywords, node.args, changed = [ast.keyword("axis", node.args[0])], [], True
    return changed


def cast_function(tree: ast.Module) -> bool:
    """`x.to(tl.float32)` inside @triton.jit functions written `tl.cast(x, tl.float32)`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            for name, value in ast.iter_fields(node):
                values = value if isinstance(value, list) else [value]
                for i, v in enumerate(values):
                    if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "to"
                            and len(v.args) == 1 and not v.keywords
                            and ast.unparse(v.args[0]).startswith("tl.")):
                        new = ast.Call(ast.Attribute(ast.Name("tl", ast.Load()), "cast", ast.Load()),
                                       [v.func.value, v.args[0]], [])
                        if isinstance(value, list):
                            value[i] = new
                        else:
                            setattr(node, name, new)
                        changed = True
    return changed


def _swap_operands(tree: ast.Module, op: type[ast.operator]) -> bool:
    """Every `a <op> b` inside @triton.jit functions written `b <op> a`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.BinOp) and isinstance(node.op, op):
                node.left, node.right, changed = node.right, node.left, True
    return changed


def commute_and(tree: ast.Module) -> bool:
    """`(a < M) & (b < N)` inside @triton.jit functions written `(b < N) & (a < M)`."""
    return _swap_operands(tree, ast.BitAnd)


def zeros_as_full(tree: ast.Module) -> bool:
    """`tl.zeros(shape, dtype=T)` inside @triton.jit functions written `tl.full(shape, 0, T)`."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and ast.unparse(node.func.value) == "tl" and node.func.attr == "zeros"):
                dtype = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "dtype"), None)
                if not node.args or dtype is None:
                    continue
                node.func.attr = "full"
                node.args, node.keywords, changed = [node.args[0], ast.Constant(0), dtype], [], True
    return changed


def _named_assignments(fn: ast.FunctionDef) -> Iterator[tuple[list[ast.stmt], ast.Assign]]:
    """(block, statement) for each `name = value` of a function's blocks, listed before any
    rewrite inserts statements next to them."""
    found = []
    for node in ast.walk(fn):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                found += [(block, stmt) for stmt in block if isinstance(stmt, ast.Assign)
                          and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)]
    yield from found


def load_then_where(tree: ast.Module) -> bool:
    """`x = tl.load(p, mask=m, other=v)` inside @triton.jit functions written as a load under the
    mask alone followed by `x = tl.where(m, x, v)` (the fill selected after the load)."""
    changed = False
    for fn in _jit_functions(tree):
        for block, stmt in _named_assignments(fn):
            call = stmt.value
            if not (isinstance(call, ast.Call) and ast.unparse(call.func) == "tl.load"):
                continue
            mask = next((k.value for k in call.keywords if k.arg == "mask"), None)
            other = next((k.value for k in call.keywords if k.arg == "other"), None)
            target = stmt.targets[0].id  # type: ignore[attr-defined]
            if (mask is None or other is None or len(call.args) != 1
                    or _uses(mask, target) or _uses(other, target)):
                continue
            call.keywords = [k for k in call.keywords if k.arg != "other"]
            select = ast.Assign([ast.Name(target, ast.Store())], ast.Call(
                ast.Attribute(ast.Name("tl", ast.Load()), "where", ast.Load()),
                [copy.deepcopy(mask), ast.Name(target, ast.Load()), copy.deepcopy(other)], []))
            block.insert(block.index(stmt) + 1, ast.copy_location(select, stmt))
            changed = True
    return changed


def commute_sums(tree: ast.Module) -> bool:
    """`pid * BLOCK + tl.arange(0, BLOCK)` inside @triton.jit functions written
    `tl.arange(0, BLOCK) + pid * BLOCK` (every `+` with its operands swapped)."""
    return _swap_operands(tree, ast.Add)


_METHOD_CALLS = frozenset({"sum", "max", "min", "argmax", "argmin", "exp", "log", "sqrt", "abs"})


def builtins_as_methods(tree: ast.Module) -> bool:
    """`tl.sum(x, axis=1)`, `tl.exp(x)` inside @triton.jit functions written `x.sum(axis=1)`,
    `x.exp()` (Triton's tensor methods)."""
    changed = False
    for fn in _jit_functions(tree):
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "tl"
                    and node.func.attr in _METHOD_CALLS and node.args):
                node.func = ast.Attribute(node.args[0], node.func.attr, ast.Load())
                node.args, changed = node.args[1:], True
    return changed


def _rebuild_sum(terms: list[ast.expr]) -> ast.expr:
    out = terms[0]
    for term in terms[1:]:
        out = ast.BinOp(out, ast.Add(), term)
    return out


def _scalar_names(fn: ast.FunctionDef) -> dict[str, int]:
    """{name: index of its statement} for names the kernel's top level binds once, before any
    loop, from parameters, program ids, constants and other such names (a row's offset)."""
    params = {a.arg for a in fn.args.args}
    counts: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            counts[n.id] = counts.get(n.id, 0) + 1
    known, out = set(params), {}
    for index, stmt in enumerate(fn.body):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and counts.get(stmt.targets[0].id) == 1):
            continue
        calls = [ast.unparse(c.func) for c in ast.walk(stmt.value) if isinstance(c, ast.Call)]
        names = {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)} - {"tl"}
        if all(c in ("tl.program_id", "tl.num_programs") or c.endswith(".to") for c in calls) and names <= known:
            known.add(stmt.targets[0].id)
            out[stmt.targets[0].id] = index
    return out


def rebase_pointer_params(tree: ast.Module) -> bool:
    """A pointer parameter every access of which adds the same per-program offset
    (`x_ptr + row * stride + cols`) is moved once at the kernel's top (`x_ptr += row * stride`),
    the accesses then add only the rest, as Liger-style kernels write it."""
    changed = False
    launched = {_kernel_name(call) for fn in _host_functions(tree) for call in _launches(fn)}
    for fn in _jit_functions(tree):
        if fn.name not in launched:
            continue  # a helper's parameters may be tiles
        params = [a.arg for a in fn.args.args]
        scalars = _scalar_names(fn)
        stored = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        ops = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and ast.unparse(c.func) in ("tl.load", "tl.store")
               and c.args]
        for param in params:
            if param in stored:
                continue
            uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == param]
            mine = [c for c in ops if any(isinstance(t, ast.Name) and t.id == param
                                          for t in _additive_terms(c.args[0]))]
            if not mine or len(uses) != len(mine):
                continue  # used elsewhere than as an address's base
            shared = None
            for term in _additive_terms(mine[0].args[0]):
                text = ast.unparse(term)
                names = {n.id for n in ast.walk(term) if isinstance(n, ast.Name)}
                if (not isinstance(term, ast.Name) and names and names <= set(scalars) | set(params)
                        and param not in names
                        and all(text in [ast.unparse(t) for t in _additive_terms(c.args[0])] for c in mine)):
                    shared = term
                    break
            if shared is None:
                continue
            text = ast.unparse(shared)
            for call in mine:
                terms = _additive_terms(call.args[0])
                drop = next(i for i, t in enumerate(terms) if ast.unparse(t) == text)
                rest = terms[:drop] + terms[drop + 1:]
                call.args[0] = _rebuild_sum(rest)
            after = max([scalars[n.id] for n in ast.walk(shared) if isinstance(n, ast.Name) and n.id in scalars],
                        default=-1)
            fn.body.insert(after + 1, ast.AugAssign(ast.Name(param, ast.Store()), ast.Add(), copy.deepcopy(shared)))
            scalars = {k: (v + 1 if v > after else v) for k, v in scalars.items()}
            changed = True
    return changed


def scale_before_expand(tree: ast.Module) -> bool:
    """`rows[:, None] * stride` inside @triton.jit functions written `(rows * stride)[:, None]`,
    for a scalar `stride` (a constant, a parameter or a local made of them before any loop)."""
    changed = False
    scalars: set[str] = set()

    class Swap(ast.NodeTransformer):
        def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
            nonlocal changed
            self.generic_visit(node)
            if not isinstance(node.op, ast.Mult):
                return node
            for mine, other, left in ((node.left, node.right, True), (node.right, node.left, False)):
                if (isinstance(mine, ast.Subscript) and isinstance(mine.slice, ast.Tuple)
                        and len(mine.slice.elts) == 2
                        and any(isinstance(e, ast.Constant) and e.value is None for e in mine.slice.elts)
                        and (isinstance(other, ast.Constant)
                             or isinstance(other, ast.Name) and other.id in scalars)):
                    inner = ast.BinOp(mine.value, ast.Mult(), other) if left else ast.BinOp(other, ast.Mult(), mine.value)
                    changed = True
                    return ast.Subscript(inner, mine.slice, ast.Load())
            return node

    launched = {_kernel_name(call) for fn in _host_functions(tree) for call in _launches(fn)}
    for fn in _jit_functions(tree):
        # a helper's parameters may be tiles; a launched kernel's are scalars or pointers
        params = {a.arg for a in fn.args.args} if fn.name in launched else set()
        scalars = params | {n for n in _scalar_names(fn) if fn.name in launched}
        Swap().visit(fn)
    return changed


def sum_temporaries(tree: ast.Module) -> bool:
    """`offs = pid * BLOCK + tl.arange(0, BLOCK)` inside @triton.jit functions written
    `start_0 = pid * BLOCK` then `offs = start_0 + tl.arange(0, BLOCK)`: the left operand of an
    assigned sum (not a bare name or constant) bound to a local of its own first."""
    changed, count = False, 0
    for fn in _jit_functions(tree):
        for block, stmt in _named_assignments(fn):
            value = stmt.value
            if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add | ast.Sub)
                    and not isinstance(value.left, ast.Name | ast.Constant)):
                continue
            name = f"start_{count}"
            count += 1
            block.insert(block.index(stmt), ast.copy_location(
                ast.Assign([ast.Name(name, ast.Store())], value.left), stmt))
            value.left, changed = ast.Name(name, ast.Load()), True
    return changed


def masks_inline(tree: ast.Module) -> bool:
    """A mask bound once to a local (`mask = offs < n`) and passed by name to tl.load / tl.store,
    written out at each access instead (`mask=offs < n`); the binding stays for other uses."""
    changed = False
    for fn in _jit_functions(tree):
        stores: dict[str, list[ast.Assign]] = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                stores.setdefault(n.id, [])
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                stores.setdefault(n.targets[0].id, []).append(n)
        counts: dict[str, int] = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                counts[n.id] = counts.get(n.id, 0) + 1
        once = {name: a[0] for name, a in stores.items() if counts.get(name) == 1 and len(a) == 1
                and isinstance(a[0].value, ast.Compare | ast.BinOp)}
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call) and ast.unparse(n.func) in ("tl.load", "tl.store")):
            for kw in call.keywords:
                if kw.arg == "mask" and isinstance(kw.value, ast.Name) and kw.value.id in once:
                    definition = once[kw.value.id]
                    used = names_of(definition.value)
                    # inline only where the mask's own names still hold the values they had
                    if definition.lineno < call.lineno and not (used & _rebound_between(fn, definition, call)):
                        kw.value, changed = copy.deepcopy(definition.value), True
    return changed


def names_of(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _rebound_between(fn: ast.FunctionDef, first: ast.stmt, call: ast.Call) -> set[str]:
    """Names stored by statements after `first` and up to the line of `call` (or anywhere in a loop
    holding `call` that `first` is outside of)."""
    loops = [n for n in ast.walk(fn) if isinstance(n, ast.For | ast.While)
             and any(c is call for c in ast.walk(n)) and not any(c is first for c in ast.walk(n))]
    out = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
           and first.lineno < getattr(n, "lineno", 0) <= call.lineno}
    for loop in loops:
        out |= {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return out


def for_as_while(tree: ast.Module) -> bool:
    """`for k in range(a, b, s)` inside @triton.jit functions (k not assigned in the body, a
    positive step) written `k = a` then `while k < b:` with `k += s` at the body's end."""
    changed = False
    for fn in _jit_functions(tree):
        for node in list(ast.walk(fn)):
            for field in ("body", "orelse"):
                block = getattr(node, field, None)
                if not isinstance(block, list):
                    continue
                for stmt in list(block):
                    if not (isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)
                            and isinstance(stmt.iter, ast.Call) and ast.unparse(stmt.iter.func) == "range"
                            and 1 <= len(stmt.iter.args) <= 3 and not stmt.orelse):
                        continue
                    args = stmt.iter.args
                    if len(args) == 3 and not (isinstance(args[2], ast.Constant) and args[2].value > 0
                                               or isinstance(args[2], ast.Name)):
                        continue  # a negative or computed step may count down
                    var = stmt.target.id
                    at = block.index(stmt)
                    if var in _assigned(stmt.body) or any(_uses(later, var) for later in block[at + 1:]):
                        continue  # after a for loop its variable holds the last value, after a while the bound
                    start = args[0] if len(args) > 1 else ast.Constant(0)
                    end = args[1] if len(args) > 1 else args[0]
                    step = args[2] if len(args) == 3 else ast.Constant(1)
                    loop = ast.While(ast.Compare(ast.Name(var, ast.Load()), [ast.Lt()], [end]),
                                     stmt.body + [ast.AugAssign(ast.Name(var, ast.Store()), ast.Add(), step)], [])
                    block[at:at + 1] = [ast.copy_location(ast.Assign([ast.Name(var, ast.Store())], start), stmt),
                                        ast.copy_location(loop, stmt)]
                    changed = True
    return changed


def _move_launch_constants(tree: ast.Module, decorate, with_options: bool = True) -> bool:
    """Constant constexpr launch keywords (and num_warps / num_stages) of a kernel launched once move
    into a decorator built by `decorate(kernel, {name: value}, {option: value})`."""
    kernels, changed = _kernel_defs(tree), False
    calls = [(call, _kernel_name(call)) for fn in _host_functions(tree) for call in _launches(fn)]
    counts: dict[str, int] = {}
    for _, name in calls:
        counts[name] = counts.get(name, 0) + 1
    for call, name in calls:
        fn = kernels.get(name)
        if fn is None or counts[name] != 1 or any("autotune" in ast.unparse(d) or "heuristics" in ast.unparse(d)
                                                  for d in fn.decorator_list):
            continue
        consts = set(_constexpr_params(fn))
        moved = [kw for kw in call.keywords if kw.arg in consts and isinstance(kw.value, ast.Constant)]
        options = [kw for kw in call.keywords if with_options and kw.arg in ("num_warps", "num_stages")
                   and isinstance(kw.value, ast.Constant)]
        if not moved and not options:
            continue
        decorator = decorate({kw.arg: kw.value.value for kw in moved}, {kw.arg: kw.value.value for kw in options})
        if decorator is None:
            continue
        call.keywords = [kw for kw in call.keywords if kw not in moved and kw not in options]
        fn.decorator_list.insert(0, decorator)  # above @triton.jit, as authors write it
        changed = True
    return changed


def constexpr_defaults(tree: ast.Module) -> bool:
    """Constant constexpr launch keywords of a kernel launched once become the parameters' default
    values in its signature (`BLOCK: tl.constexpr = 1024`), and the launch leaves them out."""
    kernels, changed = _kernel_defs(tree), False
    calls = [(call, _kernel_name(call)) for fn in _host_functions(tree) for call in _launches(fn)]
    counts: dict[str, int] = {}
    for _, name in calls:
        counts[name] = counts.get(name, 0) + 1
    for call, name in calls:
        fn = kernels.get(name)
        if fn is None or counts[name] != 1 or fn.args.defaults or fn.args.vararg or fn.args.kwonlyargs:
            continue
        consts = _constexpr_params(fn)
        given = {kw.arg: kw for kw in call.keywords if kw.arg in consts and isinstance(kw.value, ast.Constant)}
        params = [a.arg for a in fn.args.args]
        # only a trailing run of parameters can take defaults
        tail: list[str] = []
        for param in reversed(params):
            if param not in given:
                break
            tail.insert(0, param)
        if not tail or len(call.args) > len(params) - len(tail):
            continue
        fn.args.defaults = [given[p].value for p in tail]
        call.keywords = [kw for kw in call.keywords if kw.arg not in tail]
        changed = True
    return changed


def drop_default_options(tree: ast.Module) -> bool:
    """`num_warps=4` and `num_stages=3` (Triton's defaults on CUDA) left out of a launch."""
    changed = False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            kept = [kw for kw in call.keywords if not (kw.arg == "num_warps" and isinstance(kw.value, ast.Constant)
                                                        and kw.value.value == 4
                                                        or kw.arg == "num_stages" and isinstance(kw.value, ast.Constant)
                                                        and kw.value.value == 3)]
            if len(kept) != len(call.keywords):
                call.keywords, changed = kept, True
    return changed

def heuristics_constants(tree: ast.Module) -> bool:
    """Constant constexpr launch values given by `@triton.heuristics({"BLOCK": lambda args: 1024})`."""
    def decorate(values, options):
        if not values:
            return None
        lam = lambda v: ast.Lambda(ast.arguments(posonlyargs=[], args=[ast.arg("args")], kwonlyargs=[],  # noqa: E731
                                                  kw_defaults=[], defaults=[]), ast.Constant(v))
        return ast.Call(ast.Attribute(ast.Name("triton", ast.Load()), "heuristics", ast.Load()),
                        [ast.Dict([ast.Constant(k) for k in values], [lam(v) for v in values.values()])], [])
    return _move_launch_constants(tree, decorate, with_options=False)


def single_config_autotune(tree: ast.Module) -> bool:
    """Constant launch constants and options given by a one-config `@triton.autotune`."""
    def decorate(values, options):
        config = ast.Call(ast.Attribute(ast.Name("triton", ast.Load()), "Config", ast.Load()),
                          [ast.Dict([ast.Constant(k) for k in values], [ast.Constant(v) for v in values.values()])],
                          [ast.keyword(k, ast.Constant(v)) for k, v in options.items()])
        return ast.Call(ast.Attribute(ast.Name("triton", ast.Load()), "autotune", ast.Load()), [],
                        [ast.keyword("configs", ast.List([config], ast.Load())),
                         ast.keyword("key", ast.List([], ast.Load()))])
    return _move_launch_constants(tree, decorate)


def _import_functools(tree: ast.Module) -> None:
    if not any(isinstance(n, ast.Import) and any(a.name == "functools" for a in n.names) for n in tree.body):
        tree.body.insert(0, ast.Import([ast.alias("functools")]))


def launch_partial(tree: ast.Module) -> bool:
    """`kernel[grid](args, BLOCK=..)` becomes `go = functools.partial(kernel[grid], BLOCK=..)`,
    then `go(args)`: launch constants bound ahead of the call, as FlagGems-style launchers do."""
    changed = False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            where = _statement_of(fn, call)
            if where is None or any(kw.arg is None for kw in call.keywords):
                continue
            block, index = where
            partial = ast.Call(ast.Attribute(ast.Name("functools", ast.Load()), "partial", ast.Load()),
                               [copy.deepcopy(call.func)], call.keywords)
            block.insert(index, ast.Assign(targets=[ast.Name("launch_partial", ast.Store())], value=partial,
                                           lineno=0))
            call.func, call.keywords, changed = ast.Name("launch_partial", ast.Load()), [], True
    if changed:
        _import_functools(tree)
    return changed


def launch_wrapper(tree: ast.Module) -> bool:
    """Every launch goes through one generic launcher, `_launch(kernel, grid, *args, **meta)`."""
    changed = False
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    wrapper_name = next(f"_launch_any{i or ''}" for i in range(100) if f"_launch_any{i or ''}" not in taken)
    for fn in _host_functions(tree):
        for call in _launches(fn):
            if not isinstance(call.func.value, ast.Name):
                continue
            kernel, grid = call.func.value, call.func.slice
            call.func = ast.Name(wrapper_name, ast.Load())
            call.args = [kernel, grid, *call.args]
            changed = True
    if changed:
        wrapper = ast.parse(f"def {wrapper_name}(kernel, grid, *args, **meta):\n"
                            "    return kernel[grid](*args, **meta)\n").body[0]
        first = next(i for i, n in enumerate(tree.body) if isinstance(n, ast.FunctionDef))
        tree.body.insert(first, wrapper)
    return changed


def kernel_table(tree: ast.Module) -> bool:
    """Kernels are launched out of a module-level dict: `KERNELS["name"][grid](...)`."""
    launched = sorted({call.func.value.id for fn in _host_functions(tree) for call in _launches(fn)
                       if isinstance(call.func.value, ast.Name) and call.func.value.id in _kernel_defs(tree)})
    if not launched:
        return False
    for fn in _host_functions(tree):
        for call in _launches(fn):
            if isinstance(call.func.value, ast.Name) and call.func.value.id in launched:
                call.func.value = ast.Subscript(ast.Name("KERNELS", ast.Load()), ast.Constant(call.func.value.id),
                                                ast.Load())
    table = ast.Assign(targets=[ast.Name("KERNELS", ast.Store())],
                       value=ast.Dict([ast.Constant(k) for k in launched], [ast.Name(k, ast.Load()) for k in launched]),
                       lineno=0)
    last = max(i for i, n in enumerate(tree.body) if isinstance(n, ast.FunctionDef) and n.name in launched)
    tree.body.insert(last + 1, table)
    return True


def jit_applied(tree: ast.Module) -> bool:
    """`@triton.jit def k(...)` becomes `def _k_impl(...)` and `k = triton.jit(_k_impl)` (an
    autotune or heuristics above it applied the same way, as a call)."""
    changed = False
    for i in range(len(tree.body) - 1, -1, -1):
        fn = tree.body[i]
        if not (isinstance(fn, ast.FunctionDef) and _is_jit(fn)):
            continue
        value: ast.expr = ast.Name(f"_{fn.name}_impl", ast.Load())
        for dec in reversed(fn.decorator_list):
            value = (ast.Call(dec.func, [value], dec.keywords) if isinstance(dec, ast.Call) and "jit" in ast.unparse(dec)
                     else ast.Call(dec, [value], []))
        bound = ast.Assign(targets=[ast.Name(fn.name, ast.Store())], value=value, lineno=0)
        fn.name, fn.decorator_list = f"_{fn.name}_impl", []
        tree.body.insert(i + 1, bound)
        changed = True
    return changed


def _run_function(tree: ast.Module) -> tuple[int, ast.FunctionDef] | None:
    """The module's plain `run(...)` with named positional parameters only, and its index."""
    for i, node in enumerate(tree.body):
        if (isinstance(node, ast.FunctionDef) and node.name == "run" and not _is_jit(node)
                and not node.args.vararg and not node.args.kwarg and not node.args.kwonlyargs):
            return i, node
    return None


def _params_of(fn: ast.FunctionDef) -> list[ast.Name]:
    return [ast.Name(a.arg, ast.Load()) for a in fn.args.args]


def constants_on_class(tree: ast.Module) -> bool:
    """`run` becomes the `__call__` of a launcher class whose `__init__` keeps the launch
    constants (`self.c_BLOCK = 1024`), read at the launches as `self.c_BLOCK`."""
    found = _run_function(tree)
    if found is None:
        return False
    index, run = found
    kept: dict[str, ast.expr] = {}
    for call in _launches(run):
        for kw in call.keywords:
            if kw.arg and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, int) \
                    and not isinstance(kw.value.value, bool):
                kept[f"c_{kw.arg}"] = kw.value
                kw.value = ast.Attribute(ast.Name("self", ast.Load()), f"c_{kw.arg}", ast.Load())
    if not kept:
        return False
    init = ast.parse("def __init__(self):\n    pass\n").body[0]
    init.body = [ast.Assign(targets=[ast.Attribute(ast.Name("self", ast.Load()), k, ast.Store())], value=v, lineno=0)
                 for k, v in kept.items()]
    call = copy.deepcopy(run)
    call.name, call.args.args = "__call__", [ast.arg("self"), *run.args.args]
    cls = ast.ClassDef(name="_Launcher", bases=[], keywords=[], body=[init, call], decorator_list=[],
                       type_params=[])
    run.body = [ast.Return(ast.Call(ast.Call(ast.Name("_Launcher", ast.Load()), [], []), _params_of(run), []))]
    tree.body.insert(index, cls)
    return True


def autograd_function(tree: ast.Module) -> bool:
    """`run`'s body becomes the `forward(ctx, ...)` of a torch.autograd.Function, and `run` calls
    `_Fn.apply(...)` (the Liger / unsloth launcher shape)."""
    found = _run_function(tree)
    if found is None or not any(isinstance(n, ast.Import) and any(a.name == "torch" for a in n.names)
                                for n in tree.body):
        return False
    index, run = found
    forward = copy.deepcopy(run)
    forward.name, forward.args.args = "forward", [ast.arg("ctx"), *run.args.args]
    forward.decorator_list = [ast.Name("staticmethod", ast.Load())]
    cls = ast.ClassDef(name="_Fn", bases=[ast.parse("torch.autograd.Function", mode="eval").body], keywords=[],
                       body=[forward], decorator_list=[], type_params=[])
    run.body = [ast.Return(ast.Call(ast.Attribute(ast.Name("_Fn", ast.Load()), "apply", ast.Load()),
                                    _params_of(run), []))]
    tree.body.insert(index, cls)
    return True


REWRITES: dict[str, Rewrite] = {
    "rename-locals": rename_locals,
    "hoist-launch-keywords": hoist_launch_keywords,
    "module-constants": module_constants,
    "grid-to-local": grid_to_local,
    "spell-cdiv": spell_cdiv,
    "rename-constexpr-params": rename_constexpr_params,
    "keywords-to-positional": keywords_to_positional,
    "options-dict": options_dict,
    "next-pow2-by-hand": next_pow2_by_hand,
    "host-in-class": host_in_class,
    "launch-alias": launch_alias,
    "grid-lambda": grid_lambda,
    "body-in-helper": body_in_helper,
    "loops-tl-range": loops_tl_range,
    "values-in-helpers": values_in_helpers,
    "heuristics-constants": heuristics_constants,
    "single-config-autotune": single_config_autotune,
    "launch-partial": launch_partial,
    "launch-wrapper": launch_wrapper,
    "kernel-table": kernel_table,
    "jit-applied": jit_applied,
    "constants-on-class": constants_on_class,
    "autograd-function": autograd_function,
    "expand-augassign": expand_augassign,
    "builtin-args-positional": builtin_args_positional,
    "pointer-temporaries": pointer_temporaries,
    "mask-temporaries": mask_temporaries,
    "reverse-compares": reverse_compares,
    "commute-products": commute_products,
    "tile-index-loops": tile_index_loops,
    "keyword-program-id": keyword_program_id,
    "pointer-increments": pointer_increments,
    "expand-dims-calls": expand_dims_calls,
    "constexpr-defaults": constexpr_defaults,
    "drop-default-options": drop_default_options,
    "static-range-loops": static_range_loops,
    "cast-function": cast_function,
    "commute-and": commute_and,
    "zeros-as-full": zeros_as_full,
    "load-then-where": load_then_where,
    "commute-sums": commute_sums,
    "builtins-as-methods": builtins_as_methods,
    "rebase-pointer-params": rebase_pointer_params,
    "scale-before-expand": scale_before_expand,
    "sum-temporaries": sum_temporaries,
    "masks-inline": masks_inline,
    "for-as-while": for_as_while,
}


# On Ascend a mask comparison written bound-first (`n > offs`) is itself a defect the front end
# handles badly (card ascend-reversed-mask): reversing compares is a respelling on CUDA only. Launch
# options' defaults are CUDA's (num_warps 4, num_stages 3).
CUDA_ONLY = frozenset({"reverse-compares", "drop-default-options", "load-then-where"})


def respell(source: str, path: str = "<kernel>", backend: str = "cuda") -> Iterator[tuple[str, str]]:
    """(rewrite name, rewritten source) for every rewrite that changes `source` (and keeps its
    meaning on `backend`)."""
    for name, rewrite in REWRITES.items():
        if backend != "cuda" and name in CUDA_ONLY:
            continue
        tree = ast.parse(source)
        if not rewrite(tree):
            continue
        mutant = ast.unparse(ast.fix_missing_locations(tree))
        compile(mutant, path, "exec")  # a rewrite that breaks the file is this module's bug
        yield name, mutant
