"""The kernel model sees launches however the host code reaches the kernel: aliases, kernels kept
in dicts, lists and attributes, `kernel.run`, functools.partial, lambdas and launcher wrappers
(functions and methods launching the kernel they are given), each bound at its call site."""

from __future__ import annotations

import ast

from diagnose.triage import triage
from diagnose.triage.detectors.model import build_model, launch_value

HEAD = '''
import functools
from functools import partial
import torch, triton, triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, 2 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''

SPELLINGS = {
    "partial of kernel[grid]": '''
def run(x, y):
    go = functools.partial(copy_kernel[(4,)], BLOCK=256)
    go(x, y, x.numel(), num_warps=2)
''',
    "partial of kernel.run": '''
def run(x, y):
    go = partial(copy_kernel.run, grid=(4,), BLOCK=256, num_warps=2)
    go(x, y, x.numel())
''',
    "kernel.run": '''
def run(x, y):
    copy_kernel.run(x, y, x.numel(), grid=(4,), BLOCK=256, num_warps=2, warmup=False)
''',
    "dict of kernels": '''
KERNELS = {"copy": copy_kernel, "scale": scale_kernel}

def run(x, y):
    KERNELS["copy"][(4,)](x, y, x.numel(), BLOCK=256, num_warps=2)
''',
    "list of kernels": '''
KERNELS = [scale_kernel, copy_kernel]

def run(x, y):
    KERNELS[1][(4,)](x, y, x.numel(), BLOCK=256, num_warps=2)
''',
    "local alias": '''
def run(x, y):
    k = copy_kernel
    k[(4,)](x, y, x.numel(), BLOCK=256, num_warps=2)
''',
    "attribute of a class": '''
class Op:
    def __init__(self):
        self.kernel = copy_kernel

    def __call__(self, x, y):
        self.kernel[(4,)](x, y, x.numel(), BLOCK=256, num_warps=2)

def run(x, y):
    Op()(x, y)
''',
    "lambda": '''
def run(x, y):
    go = lambda a, b: copy_kernel[(4,)](a, b, a.numel(), BLOCK=256, num_warps=2)
    go(x, y)
''',
    "partial of a launcher wrapper": '''
def _launch(kernel, grid, *args, **meta):
    kernel[grid](*args, **meta)

copy = functools.partial(_launch, copy_kernel, BLOCK=256)

def run(x, y):
    copy((4,), x, y, x.numel(), num_warps=2)
''',
    "a wrapper launching through a local alias": '''
def _launch(kernel, grid, *args, **meta):
    go = kernel[grid]
    go(*args, **meta)

def run(x, y):
    _launch(copy_kernel, (4,), x, y, x.numel(), BLOCK=256, num_warps=2)
''',
    "a wrapper handing the kernel to another wrapper": '''
def _inner(kernel, grid, *args, **meta):
    kernel[grid](*args, **meta)

def _outer(kernel, grid, *args, **meta):
    _inner(kernel, grid, *args, **meta)

def run(x, y):
    _outer(copy_kernel, (4,), x, y, x.numel(), BLOCK=256, num_warps=2)
''',
    "a method launching the kernel it is given": '''
class Op:
    def _launch(self, kernel, grid, *args, **meta):
        kernel[grid](*args, **meta)

    def __call__(self, x, y):
        self._launch(copy_kernel, (4,), x, y, x.numel(), BLOCK=256, num_warps=2)

def run(x, y):
    Op()(x, y)
''',
}


def _launches(body: str):
    source = HEAD + body
    module = build_model(source, "k.py", ast.parse(source))
    return module, module.launches


def test_every_spelling_of_a_launch_is_one_launch_of_the_right_kernel_with_its_constants() -> None:
    for spelling, body in SPELLINGS.items():
        module, launches = _launches(body)
        assert [la.kernel for la in launches] == ["copy_kernel"], spelling
        (launch,) = launches
        assert ast.unparse(launch.grid) == "(4,)", spelling
        assert ast.unparse(launch.args["x_ptr"]) in ("x", "a"), spelling
        assert launch_value(module, launch, "BLOCK") == 256, spelling
        assert launch_value(module, launch, "num_warps") == 2, spelling


def test_what_does_not_name_one_kernel_is_not_taken_for_a_launch() -> None:
    """An unknown key into a table of two kernels, a wrapper launching a fixed kernel (its launch
    is read inside it, not again at each call), a subscripted call of a tensor or a list."""
    _, launches = _launches('''
KERNELS = {"copy": copy_kernel, "scale": scale_kernel}

def run(x, y, which):
    KERNELS[which][(4,)](x, y, x.numel(), BLOCK=256)
''')
    assert launches == []
    _, launches = _launches('''
def _copy(x, y):
    copy_kernel[(4,)](x, y, x.numel(), BLOCK=256)

def run(x, y):
    _copy(x, y)
    fns = [torch.relu]
    fns[0](x)
''')
    assert [(la.kernel, la.launcher.name) for la in launches] == [("copy_kernel", "_copy")]


CAST_THROUGH_PARTIAL = '''
import functools
import torch, triton, triton.language as tl


@triton.jit
def cast_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n).to(tl.float32), mask=offs < n)


@triton.jit
def square_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n){convert}
    tl.store(y_ptr + offs, x * x, mask=offs < n)


def _launch(kernel, grid, *args, **meta):
    kernel[grid](*args, **meta)


cast = functools.partial(_launch, cast_kernel, BLOCK=1024)
square = functools.partial(_launch, square_kernel, BLOCK=1024)


def run(x):
    n = x.numel()
    y = torch.empty_like(x, dtype=torch.float32)
    {before}
    square((triton.cdiv(n, 1024),), {arg}, y, n)
    return y
'''


def test_a_cast_kernel_launched_through_partial_is_a_host_cast_and_its_fused_twin_is_not() -> None:
    slow = CAST_THROUGH_PARTIAL.format(
        convert="", arg="xf",
        before="xf = torch.empty_like(y)\n    cast((triton.cdiv(n, 1024),), x, xf, n)")
    fixed = CAST_THROUGH_PARTIAL.format(convert=".to(tl.float32)", arg="x", before="pass")
    families = {f.rewrite_family for f in triage(slow, "k.py", "cuda").findings if f.confidence >= 0.7}
    assert "cast-inside-kernel" in families
    fixed_families = {f.rewrite_family for f in triage(fixed, "k.py", "cuda").findings}
    assert "cast-inside-kernel" not in fixed_families


def test_a_method_launching_for_another_method_gets_the_constants_its_caller_passes() -> None:
    """`self._launch(x, y, 256)` from `__call__`: the launch in `_launch` reads BLOCK=256 from the
    call on self (the object is not the first argument); a value two call sites disagree on
    stays unknown."""
    body = '''
class Op:
    def _launch(self, x, y, block):
        copy_kernel[(4,)](x, y, x.numel(), BLOCK=block)

    def __call__(self, x, y):
        self._launch(x, y, {first})
        self._launch(y, x, {second})

def run(x, y):
    Op()(x, y)
'''
    module, (launch,) = _launches(body.format(first=256, second=256))
    assert launch_value(module, launch, "BLOCK") == 256
    module, (launch,) = _launches(body.format(first=256, second=512))
    assert launch_value(module, launch, "BLOCK") is None


HANDOVER = '''
import torch, triton, triton.language as tl


@triton.jit
def gate_kernel(x_ptr, z_ptr, g_ptr, H, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * H + cols, mask=cols < H, other=0.0)
    z = tl.load(z_ptr + row * H + cols, mask=cols < H, other=0.0)
    tl.store(g_ptr + row * H + cols, x * tl.sigmoid(z), mask=cols < H)


@triton.jit
def norm_kernel(g_ptr, y_ptr, H, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + row * H + cols, mask=cols < H, other=0.0)
    tl.store(y_ptr + row * H + cols, g / tl.sqrt(tl.sum(g * g, axis=0) / H), mask=cols < H)


class GatedNorm:
    def gate(self, x, z):
        T, H = x.shape
        {alloc}
        gate_kernel[(T,)](x, z, g, H, BLOCK=1024)
        return {returned}

    def __call__(self, x, z):
        T, H = x.shape
        {take}
        y = torch.empty_like(x)
        norm_kernel[(T,)](h, y, H, BLOCK=1024)
        return y


def run(x, z):
    return GatedNorm()(x, z)
'''


def _handover_matches(source: str) -> list:
    from diagnose.triage.detectors.launch import unfused_launches

    return unfused_launches(build_model(source, "k.py", ast.parse(source)), "cuda")


def test_a_buffer_a_method_fills_and_returns_read_by_the_next_launch_is_a_hand_over() -> None:
    """Returned by a method (through an alias, or unpacked from a returned tuple): the reader in
    the caller sees the writer in the method."""
    alloc = "g = torch.empty((T, H), device=x.device, dtype=torch.float32)"
    for returned, take in (("g", "h = self.gate(x, z)"), ("g, T", "h, _ = self.gate(x, z)"),
                           ("g", "got = self.gate(x, z)\n        h = got")):
        (match,) = _handover_matches(HANDOVER.format(alloc=alloc, returned=returned, take=take))
        assert match.facts["kernel"] == "norm_kernel" and match.function == "__call__"
        assert "gate_kernel" in match.message and match.confidence == 0.75


def test_a_returned_input_or_an_unwritten_buffer_is_no_hand_over() -> None:
    """The method hands back its input (the kernel reads it, writes another buffer) or a buffer it
    allocated but no launch wrote: nothing made on the device is read back."""
    alloc = "g = torch.empty((T, H), device=x.device, dtype=torch.float32)"
    assert _handover_matches(HANDOVER.format(alloc=alloc, returned="x", take="h = self.gate(x, z)")) == []
    assert _handover_matches(HANDOVER.format(alloc=alloc + "\n        w = torch.empty_like(g)",
                                             returned="w", take="h = self.gate(x, z)")) == []


CLASS_HELD = {
    "an attribute set in __init__": ('''
class Op:
    def __init__(self, block=256):
        self.block = block
        self.warps = 2

    def __call__(self, x, y):
        copy_kernel[(4,)](x, y, x.numel(), BLOCK=self.block, num_warps=self.warps)

def run(x, y):
    Op()(x, y)
''', 256),
    "the constructor's argument": ('''
class Op:
    def __init__(self, block):
        self.block = block

    def __call__(self, x, y):
        copy_kernel[(4,)](x, y, x.numel(), BLOCK=self.block, num_warps=2)

def run(x, y):
    Op(512)(x, y)
''', 512),
    "a class constant": ('''
class Op:
    BLOCK = 128

    def __call__(self, x, y):
        copy_kernel[(4,)](x, y, x.numel(), BLOCK=self.BLOCK, num_warps=2)

def run(x, y):
    Op()(x, y)
''', 128),
    "an autograd Function's apply": ('''
class CopyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, block):
        copy_kernel[(4,)](x, y, x.numel(), BLOCK=block, num_warps=2)
        return y

def run(x, y):
    return CopyFn.apply(x, y, 64)
''', 64),
}


def test_constants_a_launcher_class_keeps_are_read_at_the_launch() -> None:
    for spelling, (body, block) in CLASS_HELD.items():
        module, (launch,) = _launches(body)
        assert launch_value(module, launch, "BLOCK") == block, spelling
        assert launch_value(module, launch, "num_warps") == 2, spelling


def test_an_attribute_another_method_reassigns_is_not_a_constant() -> None:
    module, (launch,) = _launches('''
class Op:
    def __init__(self):
        self.block = 256

    def grow(self):
        self.block = 1024

    def __call__(self, x, y):
        copy_kernel[(4,)](x, y, x.numel(), BLOCK=self.block)

def run(x, y):
    Op()(x, y)
''')
    assert launch_value(module, launch, "BLOCK") is None


def test_a_kernel_made_by_calling_the_decorators_is_a_kernel_with_its_configs() -> None:
    source = HEAD + '''
def _sq(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) ** 2, mask=offs < n)

sq_kernel = triton.autotune(configs=[triton.Config({"BLOCK": 512}, num_warps=8)], key=["n"])(triton.jit(_sq))
cached = functools.lru_cache(_sq)

def run(x, y):
    sq_kernel[(4,)](x, y, x.numel())
'''
    module = build_model(source, "k.py", ast.parse(source))
    assert "sq_kernel" in module.kernels and "cached" not in module.kernels
    (launch,) = module.launches
    assert module.kernels["sq_kernel"].autotuned
    assert launch_value(module, launch, "BLOCK") == 512
    assert launch_value(module, launch, "num_warps") == 8


def test_starred_launch_arguments_bind_through_a_tuple_and_stop_at_an_unknown_one() -> None:
    module, (launch,) = _launches('''
def run(x, y):
    args = (x, y, x.numel())
    copy_kernel[(4,)](*args, BLOCK=256)
''')
    assert ast.unparse(launch.args["y_ptr"]) == "y" and ast.unparse(launch.args["n"]) == "x.numel()"
    module, (launch,) = _launches('''
def run(tensors, n):
    copy_kernel[(4,)](*tensors, n, BLOCK=256)
''')
    assert "y_ptr" not in launch.args and "n" not in launch.args  # not shifted onto the wrong parameter
    assert launch_value(module, launch, "BLOCK") == 256


KEPT_ON_SELF = '''
import torch, triton, triton.language as tl


@triton.jit
def gate_kernel(x_ptr, g_ptr, H, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * H + cols, mask=cols < H, other=0.0)
    tl.store(g_ptr + row * H + cols, x * tl.sigmoid(x), mask=cols < H)


@triton.jit
def norm_kernel(g_ptr, y_ptr, H, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + row * H + cols, mask=cols < H, other=0.0)
    tl.store(y_ptr + row * H + cols, g / tl.sqrt(tl.sum(g * g, axis=0) / H), mask=cols < H)


class Op:
    def fill(self, x):
        T, H = x.shape
        self.tmp = torch.empty((T, H), device=x.device, dtype=torch.float32)
        gate_kernel[(T,)](x, self.tmp, H, BLOCK=1024)

    def read(self, x):
        T, H = x.shape
        y = torch.empty_like(x)
        norm_kernel[(T,)](self.tmp, y, H, BLOCK=1024)
        return y

    def __call__(self, x):
{body}
'''


def test_a_buffer_a_called_method_keeps_on_self_and_the_next_launch_reads_is_a_hand_over() -> None:
    (match,) = _handover_matches(KEPT_ON_SELF.format(body="        self.fill(x)\n        return self.read(x)"))
    assert match.facts["kernel"] == "norm_kernel" and "self.tmp" in match.message


def test_a_buffer_on_self_that_no_earlier_call_fills_is_state_not_a_hand_over() -> None:
    """The reading method runs without the filling one before it (a cache another call fills):
    no call sequence hands the buffer over, so no fusion is named."""
    assert _handover_matches(KEPT_ON_SELF.format(body="        return self.read(x)")) == []


def test_a_starred_argument_passes_through_a_wrapper_and_binding_stops_there() -> None:
    """`_launch(k, grid, x, *rest, BLOCK=..)`: the launch is seen, x binds, the parameters after
    the starred argument stay unknown (not shifted), the keywords bind."""
    module, (launch,) = _launches('''
def _launch(kernel, grid, *args, **meta):
    kernel[grid](*args, **meta)

def run(x, rest):
    _launch(copy_kernel, (4,), x, *rest, BLOCK=256)
''')
    assert ast.unparse(launch.args["x_ptr"]) == "x" and "n" not in launch.args
    assert launch_value(module, launch, "BLOCK") == 256


def test_a_helper_handing_its_tensors_to_a_wrapper_is_not_a_wrapper_itself() -> None:
    """`_rows(x, y)` launches a fixed kernel through `_launch`: its callers pass tensors, not the
    kernel, so their calls are not launches (the launch is read once, inside `_rows`)."""
    _, launches = _launches('''
def _launch(kernel, grid, *args, **meta):
    kernel[grid](*args, **meta)

def _rows(x, y):
    _launch(copy_kernel, (4,), x, y, x.numel(), BLOCK=256)

def run(x, y, z):
    _rows(x, y)
    _rows(z, y)
''')
    assert [(la.kernel, la.launcher.name) for la in launches] == [("copy_kernel", "_rows")]
