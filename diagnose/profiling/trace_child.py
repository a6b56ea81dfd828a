"""Child process of the CPU trace: runs a task's launcher in Triton's interpreter with a few
programs of every launch executed, and records what each memory access of those programs does.

Run as a script by the interpreter of the CUDA compiler environment (TRITON_INTERPRET=1 is set
before triton is imported); imports only torch, triton, numpy and the standard library. The
kernels' results are wrong on purpose (most programs never run): only the accesses matter.
Writes one JSON report (schema: TRACE_SCHEMA below).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
import traceback
from pathlib import Path

# {"setup_error": str | None, "triton_version": str,
#  "launches": [{"kernel", "file", "grid": [x, y, z], "programs", "num_warps", "sampled": [[x,y,z]],
#                "truncated": bool, "cut_by": work | clock (when truncated), "seconds": float,
#                "work": [units per sampled program], "tally": [[operations, elements, accesses]
#                per sampled program], "program_seconds": [per sampled program]}],
#  "launch_count": {kernel: n}  (every launch of the run, traced or not),
#  "accesses": [{"launch", "kernel", "file", "line", "function", "op", "elem_bytes", "shape",
#                "execs": [per sampled program], "lanes", "active", "sectors", "ideal_sectors",
#                "unit_axis", "strides", "affine", "uniform", "unique_bytes", "requested_bytes",
#                "overlap_next": {axis: fraction}, "atomic_distinct",
#                "keys": {"execs", "sorted", "mean_run"[, "across_programs"]} (integer loads only:
#                        are the values read, one per address in lane order, non-decreasing, and
#                        how long their runs; a scalar read per program: the same over programs),
#                "address_runs": {"execs", "sorted", "mean_run", "min_distinct"} (atomics only: do
#                        neighbouring lanes reach non-decreasing addresses, how many lanes per address)}],
#  "dots": [{"launch", "file", "line", "function", "a", "b", "a_shape", "b_shape", "per_program"}],
#  "notes": [{"launch", "file", "line", "kind": broadcast | outer | widen-fp64 | int64-offset, "detail",
#             "function", "count", "elements" (widen-fp64: values widened; outer: elements of the
#             rank-2 result of an outer operation's operand, over the sampled programs),
#             "callers" (outer: the kernel-file lines that called the helper holding `line`)}],
#  "selects": [{"launch", "file", "line", "function", "how": where | numbers,
#               "per_program": {"x,y,z": [steps, dropped]}}]
#              (tl.where filling a 2-D tile with one value where its condition fails, or a 2-D
#               condition tile turned into numbers (`ok.to(tl.int32)`, counted or used as weights):
#               how often it ran, and how often the condition kept no lane),
#  "lane_selects": [{"launch", "file", "line", "function",
#                    "per_program": {"x,y,z": [steps, tail, kept, widest]}}]
#              (tl.where over a row of at least LANE_ROW lanes: how often it ran, the run of steps at
#               the end whose condition held for no lane, how many steps kept some lane, and the
#               most lanes one step kept),
#  "host_ops": [{"op", "bytes", "range": [start, end), "dtype", "from"}]}
TRACE_SCHEMA = 1
SECTOR = 32  # bytes of one DRAM sector / L2 request granule
WARP_LANES = 32
MAX_KEPT_EXECS = 64  # per (program, access): executions whose addresses are kept for overlap
LANE_ROW = 16  # a tl.where over fewer lanes is a scalar's choice, not a row of live lanes
# One sampled program is cut short after this much interpreter work (a count, so the same kernel
# is cut at the same step however loaded the machine is): one unit per interpreter operation and
# one per ELEMENTS_PER_UNIT elements it produced, ACCESS_UNITS more per memory access recorded.
# Fitted on 26 development kernels' programs on a 2-CPU VM (2026-12-06): a unit is about 28 us
# there, so the budget is about 3 s of one uncontended CPU; the fit is good to a factor of two.
PROGRAM_WORK = 100_000
ELEMENTS_PER_UNIT = 2048
ACCESS_UNITS = 2
PROGRAM_SECONDS = 60.0  # a safety net only (an operation far slower than the work count says)
MAX_TRACED_LAUNCHES = 3  # of one kernel: later launches are counted, not traced
MAX_KEY_EXECS = 8  # per (program, integer load): executions whose values are checked for order


class _CutShort(Exception):
    """Raised inside a sampled program that did PROGRAM_WORK units of work (or ran past
    PROGRAM_SECONDS)."""


def _load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


OUTER_ELEMENTS = 1024  # a smaller outer operation (a row of a tile) is index math


def _scattered(on) -> bool:
    """Whether a partly active mask is scattered: some row along its last axis switches between
    active and masked more than twice. A mask from index bounds (a tail, a causal edge, a range)
    leaves each row one run of active lanes; a mask computed from loaded data does not."""
    import numpy as np

    rows = on.reshape(-1, on.shape[-1]) if on.ndim else on.reshape(1, -1)
    return bool((np.count_nonzero(np.diff(rows.astype(np.int8), axis=1), axis=1) > 2).any())


class Tracer:
    """Collects the accesses of the sampled programs of every launch."""

    def __init__(self, roots: list[str]):
        self.roots = roots  # source files whose lines an access is attributed to
        self.launches: list[dict] = []
        self.launch_count: dict[str, int] = {}
        self.program: tuple[int, int, int] | None = None
        self.deadline = 0.0
        self.work = 0  # units of work the current program did
        self.tally = [0, 0, 0]  # the current program's operations, elements, accesses
        self.cut_by: str | None = None  # what cut the current program short: work | clock
        self.records: dict[tuple, dict] = {}  # (launch, file, line, op) -> raw record
        self.dots: dict[tuple, dict] = {}  # (launch, file, line, a dtype, b dtype) -> counts
        self.notes: dict[tuple, dict] = {}  # (launch, file, line, kind, detail) -> counts
        self.selects: dict[tuple, dict] = {}  # (launch, file, line) -> per-program steps, dropped
        # (launch, file, line) -> per-program steps, idle tail, kept, widest
        self.lane_selects: dict[tuple, dict] = {}

    def tick(self, units: int, elements: int = 0, access: bool = False) -> None:
        """Count work of the current program (an operation or a recorded access, and the
        elements it produced or read); cut the program short past its budget."""
        self.work += units
        self.tally[2 if access else 0] += 1
        self.tally[1] += elements
        if self.work > PROGRAM_WORK:
            self.cut_by = "work"
            raise _CutShort()
        if self.work & 0xFF < units and time.perf_counter() > self.deadline:
            self.cut_by = "clock"
            raise _CutShort()

    # ------------------------------------------------------------ where an access comes from
    def _site(self, callers: bool = False, stop_at: str | None = None) -> tuple[str, int, str, tuple]:
        """The innermost source line of the kernel's files an event comes from, and (asked for:
        the stack is then walked to its end, or to the function named `stop_at`) the lines of
        those files that called it (a helper called twice is two sites: two passes, not one)."""
        frame = sys._getframe(2)
        site = None
        above: list[int] = []
        while frame is not None:
            name = frame.f_code.co_filename
            if any(name == root or name.startswith(root) for root in self.roots):
                if site is not None:
                    above.append(frame.f_lineno)
                    if frame.f_code.co_name == stop_at:
                        break
                else:
                    site = (name, frame.f_lineno, frame.f_code.co_name)
                    if not callers:
                        break
            frame = frame.f_back
        if site is None:
            return "?", 0, "?", ()
        return (*site, tuple(above))

    def dot(self, a: str, b: str, a_shape: list, b_shape: list, live=None) -> None:
        """A tl.dot ran; `live`: which rows of its first operand hold a nonzero value (a row a
        mask filled with zeros makes its products zero whatever the other operand holds)."""
        if self.program is None:
            return
        file, line, function, _callers = self._site()
        rec = self.dots.setdefault((len(self.launches) - 1, file, line, a, b), {
            "function": function, "a_shape": a_shape, "b_shape": b_shape, "per_program": {},
            "idle": {}, "ever_live": {}})
        key = ",".join(map(str, self.program))
        rec["per_program"][key] = rec["per_program"].get(key, 0) + 1
        if live is not None and live.size:
            # zero rows per call, and the rows live in some call: rows never live are past the
            # data (an oversized block), rows live in some calls only were masked for those
            rec["idle"][key] = round(rec["idle"].get(key, 0.0) + 1.0 - float(live.mean()), 4)
            ever = rec["ever_live"].get(key)
            rec["ever_live"][key] = live.copy() if ever is None or ever.shape != live.shape else ever | live

    def select(self, kept_any: bool, how: str = "where") -> None:
        """A tl.where over a tile ran in the current program (or, `how` "numbers", a condition
        tile was turned into numbers); `kept_any`: its condition held for at least one lane (when
        it held for none, the tile it guarded was computed for nothing)."""
        if self.program is None:
            return
        file, line, function, _callers = self._site()
        rec = self.selects.setdefault((len(self.launches) - 1, file, line),
                                      {"function": function, "how": how, "per_program": {}})
        key = ",".join(map(str, self.program))
        steps = rec["per_program"].setdefault(key, [0, 0])
        steps[0] += 1
        steps[1] += 0 if kept_any else 1

    def lane_select(self, cond) -> None:
        """A tl.where over a row of lanes (one value per lane) ran in the current program: counts
        its steps, the run of steps at the end whose condition held for no lane, the steps that
        kept some lane, and the most lanes one step kept (a liveness mask starts with many; a
        one-hot match, `cols == label`, never keeps more than one)."""
        if self.program is None:
            return
        import numpy as np

        file, line, function, _callers = self._site()
        rec = self.lane_selects.setdefault((len(self.launches) - 1, file, line),
                                           {"function": function, "per_program": {}})
        key = ",".join(map(str, self.program))
        steps = rec["per_program"].setdefault(key, [0, 0, 0, 0])
        kept = int(np.count_nonzero(cond))
        steps[0] += 1
        if kept:
            steps[1], steps[2] = 0, steps[2] + 1
        else:
            steps[1] += 1
        steps[3] = max(steps[3], kept)

    def note(self, kind: str, detail: str, elements: int = 0, callers: bool = False) -> None:
        """Count an interpreter event of `kind` at its source line, and the elements it touched
        (asked for: and the kernel-file lines that called the helper holding that line)."""
        kernel = self.launches[-1]["kernel"] if self.launches else None
        file, line, function, above = self._site(callers=callers, stop_at=kernel)
        key = (len(self.launches) - 1, file, line, kind, detail)
        rec = self.notes.setdefault(key, {"function": function, "count": 0, "elements": 0})
        rec["count"] += 1
        rec["elements"] += elements
        if callers:
            rec["callers"] = sorted(set(rec.get("callers", [])) | set(above))

    def access(self, op: str, ptrs, mask, elem_bytes: int) -> dict | None:
        """Record one execution of a load, store or atomic by the current program; returns that
        program's record of the access (for the key and address orders read next)."""
        if self.program is None:
            return None
        self.tick(ACCESS_UNITS, access=True)
        import numpy as np

        file, line, function, callers = self._site(callers=True)
        key = (len(self.launches) - 1, file, line, op)
        rec = self.records.get(key)
        if rec is None:
            rec = self.records[key] = {"file": file, "line": line, "function": function, "op": op,
                                       "elem_bytes": elem_bytes, "per_program": {}}
        addr = np.asarray(ptrs, dtype=np.uint64)
        on = _lane_mask(mask, addr.shape)
        prog = rec["per_program"].setdefault(self.program, {"execs": 0, "kept": [], "shape": list(addr.shape),
                                                            "lanes": 0, "active": 0})
        prog["execs"] += 1
        prog["lanes"] += int(addr.size)
        active = int(on.sum())
        prog["active"] += active
        prog["idle_execs"] = prog.get("idle_execs", 0) + (active == 0)
        if 0 < active < on.size and _scattered(on):
            prog["scattered_execs"] = prog.get("scattered_execs", 0) + 1
        if len(prog["kept"]) < MAX_KEPT_EXECS:
            prog["kept"].append((addr.copy(), on.copy()))
        # per call path (a helper called from two lines is two passes through one line): the
        # lowest and highest address its kept executions touched
        site = prog.setdefault("sites", {}).setdefault(",".join(map(str, callers)), [None, None, 0])
        if active and site[2] < MAX_KEPT_EXECS:
            lo, hi = int(addr[on].min()), int(addr[on].max())
            site[0] = lo if site[0] is None else min(site[0], lo)
            site[1] = hi if site[1] is None else max(site[1], hi)
            site[2] += 1
        return prog

    @staticmethod
    def address_order(prog: dict | None, ptrs, mask) -> None:
        """For an atomic just recorded (`prog`, its program's record): along some axis of its
        tile, do the active lanes reach non-decreasing addresses (lanes that add into one
        address sit next to each other), and how many lanes per distinct address."""
        if not prog or len(prog.setdefault("address_order", [])) >= MAX_KEY_EXECS:
            return
        import numpy as np

        addr = np.asarray(ptrs, dtype=np.uint64).astype(np.int64)
        on = _lane_mask(mask, addr.shape)
        active = addr[on]
        if active.size < 4 or addr.ndim == 0:
            return
        best = (0, False)  # along the axis where most neighbours share an address: sorted?
        for axis in range(addr.ndim):
            if addr.shape[axis] < 2:
                continue
            a, o = np.moveaxis(addr, axis, 0), np.moveaxis(on, axis, 0)
            shared = int(np.count_nonzero((a[1:] == a[:-1]) & o[1:] & o[:-1]))
            # each active lane at or above every active lane before it along `axis`
            before = np.maximum.accumulate(np.where(o, a, -1), axis=0)
            before = np.concatenate([np.full((1, *a.shape[1:]), -1, np.int64), before[:-1]])
            best = max(best, (shared, bool(np.all(a[o] >= before[o]))))
        ordered = best[0] > 0 and best[1]
        prog["address_order"].append((ordered, int(active.size), int(np.unique(active).size)))

    @staticmethod
    def key_values(prog: dict | None, ptrs, mask, values) -> None:
        """For an integer load just recorded (`prog`, its program's record): are the values it
        read, one per distinct address in lane order, non-decreasing (sorted keys), and how many
        addresses share each value (runs)."""
        if prog is None:
            return
        import numpy as np

        vals = np.asarray(values)
        if not np.issubdtype(vals.dtype, np.integer) or vals.size == 0:
            return
        if vals.size < 4:  # one key per program (a row's expert): order across programs
            prog.setdefault("scalar_key", int(vals.reshape(-1)[0]))
            return
        if len(prog.setdefault("keys", [])) >= MAX_KEY_EXECS:
            return
        addr = np.asarray(ptrs, dtype=np.uint64).reshape(-1)
        on = _lane_mask(mask, np.shape(ptrs)).reshape(-1)
        addr, vals = addr[on], np.broadcast_to(vals, np.shape(ptrs)).reshape(-1)[on]
        _, first = np.unique(addr, return_index=True)
        keys = vals[np.sort(first)].astype(np.int64)  # one value per address, in lane order
        if keys.size >= 4:
            prog["keys"].append((bool(np.all(np.diff(keys) >= 0)), int(keys.size),
                                 int(np.unique(keys).size)))


def _dot_summary(tracer: Tracer) -> list[dict]:
    return [{"launch": k[0], "file": k[1], "line": k[2], "function": v["function"], "a": k[3], "b": k[4],
             "a_shape": v["a_shape"], "b_shape": v["b_shape"], "per_program": v["per_program"],
             "idle": v["idle"], "never_live": {p: round(1.0 - float(e.mean()), 4) for p, e in v["ever_live"].items()}}
            for k, v in tracer.dots.items()]


def _casting_load_other(depth: int = 8) -> bool:
    """Whether the cast under way is tl.load's own cast of its `other` fill value to the
    pointer's element type (`other=0.0` on an fp64 pointer): a constant the compiler folds, no
    math at the fp64 rate. Read from the interpreter's call stack: the load of triton's
    semantic module is among the cast's nearest callers."""
    frame = sys._getframe(2)
    for _ in range(depth):
        if frame is None:
            return False
        code = frame.f_code
        if code.co_name in ("_load_legacy", "load") and "semantic" in Path(code.co_filename).stem:
            return True
        frame = frame.f_back
    return False


def _install(tracer: Tracer) -> None:
    import numpy as np
    import triton.language as tl
    import triton.runtime.interpreter as interp

    builder = interp.InterpreterBuilder

    def element_bytes(ptrs) -> int:
        try:
            return max(1, ptrs.get_element_ty().primitive_bitwidth // 8)
        except Exception:
            return 4

    load, store = builder.create_masked_load, builder.create_masked_store
    rmw, cas = builder.create_atomic_rmw, builder.create_atomic_cas

    def integer_elements(ptrs) -> bool:
        """The pointee is an integer type (bf16 data is held as uint16 by the interpreter)."""
        try:
            return bool(ptrs.get_element_ty().is_int())
        except Exception:
            return False

    def masked_load(self, ptrs, mask, *args, **kwargs):
        prog = tracer.access("load", ptrs.data, mask.data, element_bytes(ptrs))
        out = load(self, ptrs, mask, *args, **kwargs)
        if integer_elements(ptrs):
            tracer.key_values(prog, ptrs.data, mask.data, out.data)
        return out

    def masked_store(self, ptrs, value, mask, *args, **kwargs):
        tracer.access("store", ptrs.data, mask.data, element_bytes(ptrs))
        return store(self, ptrs, value, mask, *args, **kwargs)

    def atomic_rmw(self, op, ptr, val, mask, *args, **kwargs):
        prog = tracer.access("atomic", ptr.data, mask.data, element_bytes(ptr))
        tracer.address_order(prog, ptr.data, mask.data)
        return rmw(self, op, ptr, val, mask, *args, **kwargs)

    def atomic_cas(self, ptr, cmp, val, *args, **kwargs):
        tracer.access("atomic", ptr.data, np.ones(np.shape(ptr.data), dtype=bool), element_bytes(ptr))
        return cas(self, ptr, cmp, val, *args, **kwargs)

    dot = builder.create_dot

    def live_rows(a):
        """Per row of a dot's first operand (all leading axes flattened): any nonzero value."""
        x = np.asarray(a)
        return np.any(x != 0, axis=-1).reshape(-1) if x.ndim >= 2 and x.size else None

    def create_dot(self, a, b, *args, **kwargs):
        tracer.dot(str(a.dtype.scalar), str(b.dtype.scalar), list(np.shape(a.data)), list(np.shape(b.data)),
                   live_rows(a.data) if tracer.program is not None else None)
        return dot(self, a, b, *args, **kwargs)

    builder.create_dot = create_dot
    broadcast, cast, addptr = builder.create_broadcast, builder.cast_impl, builder.create_addptr

    def create_broadcast(self, arg, shape):
        src = list(np.shape(arg.data))
        if len(shape) >= 3 and tracer.program is not None:
            tracer.note("broadcast", f"{src}->{list(shape)}")
        elif len(shape) == 2 and len(src) == 2 and 1 in src and tracer.program is not None \
                and shape[0] * shape[1] >= OUTER_ELEMENTS:
            # one operand of an outer operation (a[:, None] op b[None, :]): its element count
            # is work done in registers that no memory access shows
            tracer.note("outer", "", int(shape[0] * shape[1]), callers=True)
        return broadcast(self, arg, shape)

    def cast_impl(self, src, dst_type):
        if tracer.program is not None and getattr(dst_type, "scalar", dst_type) == tl.float64 \
                and src.dtype.scalar != tl.float64 and not _casting_load_other():
            tracer.note("widen-fp64", str(src.dtype.scalar), int(np.size(src.data)))
        elif tracer.program is not None and np.ndim(src.data) >= 2 \
                and np.asarray(src.data).dtype == np.bool_:
            # a pairwise condition counted or used as weights (`tl.sum(ok.to(tl.int32), 1)`): the
            # same mask as a tl.where's, spelled as numbers (the data's dtype, not the handle's: the
            # interpreter's `&` of two conditions keeps an operand's integer dtype on the handle)
            tracer.select(bool(np.any(src.data)), how="numbers")
        return cast(self, src, dst_type)

    def create_addptr(self, ptr, offset):
        if tracer.program is not None and offset.dtype.scalar == tl.int64:
            tracer.note("int64-offset", "")
        return addptr(self, ptr, offset)

    select = builder.create_select

    def uniform(values) -> bool:
        flat = np.asarray(values).reshape(-1)
        return flat.size <= 1 or bool(np.all(flat == flat[0]))

    def create_select(self, cond, lhs, rhs):
        # a 2-D tile (a score block) replaced by one fill value where the condition fails (-inf,
        # 0): a mask, not a choice between two computed values (a running minimum, a row vector,
        # keeps its old values; with most programs not run, its data may well look uniform)
        if tracer.program is not None and np.ndim(lhs.data) >= 2 and uniform(rhs.data):
            tracer.select(bool(np.any(cond.data)))
        elif tracer.program is not None and np.ndim(cond.data) == 1 and np.size(cond.data) >= LANE_ROW:
            tracer.lane_select(cond.data)
        return select(self, cond, lhs, rhs)

    builder.create_select = create_select
    builder.create_broadcast = create_broadcast
    builder.cast_impl = cast_impl
    builder.create_addptr = create_addptr
    builder.create_masked_load = masked_load
    builder.create_masked_store = masked_store
    builder.create_atomic_rmw = atomic_rmw
    builder.create_atomic_cas = atomic_cas
    _count_work(tracer, builder)
    interp.GridExecutor.__call__ = _sampled_call(tracer, interp)
    _first_config_only()


def _count_work(tracer: Tracer, builder) -> None:
    """Every operation of the interpreter's builder, reduction and scan counts toward its
    program's work."""
    import numpy as np
    import triton.runtime.interpreter as interp

    def counted(op):
        def run(self, *args, **kwargs):
            out = op(self, *args, **kwargs)
            if tracer.program is not None:
                data = getattr(out, "data", None)
                n = int(np.size(data)) if data is not None else 0
                tracer.tick(1 + n // ELEMENTS_PER_UNIT, n)
            return out
        return run

    def counted_reduce(apply):
        def run(self, input):
            if tracer.program is not None:
                n = sum(int(np.size(t.handle.data)) for t in (input if isinstance(input, tuple) else (input,)))
                tracer.tick(1 + n // ELEMENTS_PER_UNIT, n)
            return apply(self, input)
        return run

    interp.ReduceScanOpInterface.apply = counted_reduce(interp.ReduceScanOpInterface.apply)
    for name in dir(builder):
        if name.startswith(("create_", "binary_op", "unary_op", "ternary_op", "cast_impl")) \
                and callable(getattr(builder, name)):
            setattr(builder, name, counted(getattr(builder, name)))


def _samples(grid: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The programs run: the first, its next neighbour along each axis that has one, the middle
    and the last (a ragged tail or a diagonal shows there)."""
    gx, gy, gz = grid
    picks = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (gx // 2, gy // 2, gz // 2),
             (gx - 1, gy - 1, gz - 1)]
    seen = []
    for p in picks:
        if all(0 <= p[i] < grid[i] for i in range(3)) and p not in seen:
            seen.append(p)
    return seen


def _sampled_call(tracer: Tracer, interp):
    import inspect

    def call(self, *args_dev, **kwargs):
        argspec = inspect.getfullargspec(self.fn)
        kwargs = {k: v for k, v in kwargs.items() if k in argspec.args}
        name = getattr(self.fn, "__name__", "?")
        tracer.launch_count[name] = tracer.launch_count.get(name, 0) + 1
        if tracer.launch_count[name] > MAX_TRACED_LAUNCHES:
            return None
        args_hst, kwargs_hst = self._init_args_hst(args_dev, kwargs)
        patch_scope = interp._patch_lang(self.fn)
        started = time.perf_counter()
        record = {"kernel": name, "file": getattr(self.fn, "__code__", None) and self.fn.__code__.co_filename,
                  "grid": None, "sampled": [], "truncated": False,
                  "num_warps": kwargs.get("num_warps"), "launch_kwargs": {
                      k: v for k, v in kwargs.items() if isinstance(v, (int, float, bool))}}
        tracer.launches.append(record)
        try:
            args = inspect.getcallargs(self.fn, *args_hst, **kwargs_hst)
            args = {n: a if n in self.constexprs else interp._implicit_cvt(a) for n, a in args.items()}
            grid = self.grid(args) if callable(self.grid) else self.grid
            grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
            record["grid"] = list(grid)
            interp.interpreter_builder.set_grid_dim(*grid)
            for program in _samples(grid):
                interp.interpreter_builder.set_grid_idx(*program)
                tracer.program = program
                tracer.deadline = time.perf_counter() + PROGRAM_SECONDS
                tracer.work, tracer.cut_by = 0, None
                tracer.tally = [0, 0, 0]
                began = time.perf_counter()
                record["sampled"].append(list(program))
                try:
                    self.fn(**args)
                except _CutShort:
                    record["truncated"] = True
                except Exception as exc:  # a sampled program of garbage data may fault: keep what it did
                    if isinstance(exc.__cause__ or exc.__context__, _CutShort) or "_CutShort" in repr(exc):
                        record["truncated"] = True
                    else:
                        record.setdefault("errors", []).append(f"{type(exc).__name__}: {exc}"[:300])
                finally:
                    tracer.program = None
                    record.setdefault("work", []).append(tracer.work)
                    record.setdefault("tally", []).append(tracer.tally)
                    record.setdefault("program_seconds", []).append(round(time.perf_counter() - began, 3))
                    if tracer.cut_by:
                        record["cut_by"] = tracer.cut_by
        finally:
            patch_scope.restore()
            record["seconds"] = round(time.perf_counter() - started, 3)
        return None

    return call


def _first_config_only() -> None:
    """An autotuned kernel runs its first config (the interpreter cannot time the others)."""
    from triton.runtime.autotuner import Autotuner

    def run(self, *args, **kwargs):
        config = self.configs[0]
        full = {**kwargs, **config.all_kwargs()}
        return self.fn.run(*args, **full)

    Autotuner.run = run


# ---------------------------------------------------------------- what the addresses say

def _axis_strides(addr, on, elem: int) -> list[int | None]:
    """Per axis, the constant address step in elements between neighbours (None: not constant)."""
    import numpy as np

    out = []
    a = addr.astype(np.int64)
    for axis in range(a.ndim):
        if a.shape[axis] < 2:
            out.append(None)
            continue
        d = np.diff(a, axis=axis)
        both = np.logical_and(np.take(on, range(1, a.shape[axis]), axis=axis),
                              np.take(on, range(0, a.shape[axis] - 1), axis=axis))
        vals = d[both]
        if vals.size == 0:
            out.append(None)
        elif np.all(vals == vals.flat[0]):
            out.append(int(vals.flat[0]) // elem if vals.flat[0] % elem == 0 else None)
        else:
            out.append(None)
    return out


def _sectors(addr, on, elem: int) -> tuple[int, int]:
    """Sectors a warp-wide step touches, summed over the tile's row-major order of active lanes
    (the blocked layout gives consecutive threads consecutive elements of the last axis), against
    the fewest that many active bytes could fill."""
    import numpy as np

    flat = addr.reshape(-1)[on.reshape(-1)].astype(np.int64)
    if flat.size == 0:
        return 0, 0
    per_step = max(1, (16 // elem)) * WARP_LANES  # a warp moves up to 16 bytes per lane per step
    touched = 0
    for start in range(0, flat.size, per_step):
        chunk = flat[start:start + per_step]
        touched += int(np.unique(chunk // SECTOR).size)
    ideal = -(-flat.size * elem // SECTOR)
    return touched, ideal


def _lane_mask(mask, shape):
    """The access's mask as one bool per lane of `shape` (no mask: every lane)."""
    import numpy as np

    return np.broadcast_to(np.asarray(mask, dtype=bool), shape) if mask is not None \
        else np.ones(shape, dtype=bool)


def _order_summary(checked: list[tuple[bool, int, int]]) -> dict:
    """Over checked executions (ordered?, items, distinct values): how many were ordered, and
    the mean number of items per distinct value."""
    return {"execs": len(checked), "sorted": sum(1 for s, _n, _d in checked if s),
            "mean_run": round(sum(n for _s, n, _d in checked) / max(sum(d for _s, _n, d in checked), 1), 2)}


def _key_order(progs: dict) -> dict | None:
    """Over the sampled programs' checked executions of an integer load: how many read sorted
    keys, and the mean number of addresses per distinct key (1: no repeats)."""
    checked = [k for p in progs.values() for k in p.get("keys", [])]
    return _order_summary(checked) if checked else _keys_across_programs(progs)


def _address_runs(progs: dict) -> dict | None:
    """Over the sampled programs' checked executions of an atomic: how many send their lanes to
    non-decreasing addresses, the mean number of lanes per distinct address, and the fewest
    addresses one step reached."""
    checked = [k for p in progs.values() for k in p.get("address_order", [])]
    if not checked:
        return None
    return {**_order_summary(checked), "min_distinct": min(d for _s, _n, d in checked)}


def _keys_across_programs(progs: dict) -> dict | None:
    """One integer read per program (a row's expert, a token's id): over the sampled programs in
    launch order, are the values non-decreasing, and do the first two neighbours share one (a
    run)? At least three programs and two distinct values; else nothing is said."""
    read = sorted(((k[2], k[1], k[0]), p["scalar_key"]) for k, p in progs.items() if "scalar_key" in p)
    values = [v for _k, v in read]
    if len(values) < 3 or len(set(values)) < 2:
        return None
    ordered = all(a <= b for a, b in zip(values, values[1:], strict=False))
    first = dict(read)
    neighbours = (0, 0, 0) in first and (0, 0, 1) in first and first[(0, 0, 0)] == first[(0, 0, 1)]
    return {"execs": len(values), "sorted": len(values) if ordered else 0,
            "mean_run": 2.0 if neighbours else 1.0, "across_programs": True}


def summarise(tracer: Tracer) -> list[dict]:
    import numpy as np

    out = []
    for (launch, _file, _line, _op), rec in tracer.records.items():
        elem = rec["elem_bytes"]
        progs = rec["per_program"]
        first_prog = next(iter(progs))
        first = progs[first_prog]
        addr0, on0 = first["kept"][0]
        sectors = ideal = 0
        unique_bytes, requested, spans = [], [], []
        touched: dict[tuple, set] = {}  # per sampled program: the active addresses it touched
        for key, prog in progs.items():
            seen = touched[key] = set()
            req = 0
            lo, hi = None, None
            for addr, on in prog["kept"]:
                active = addr.reshape(-1)[on.reshape(-1)]
                if active.size:
                    lo = int(active.min()) if lo is None else min(lo, int(active.min()))
                    hi = int(active.max()) if hi is None else max(hi, int(active.max()))
                t, i = _sectors(addr, on, elem)
                sectors, ideal = sectors + t, ideal + i
                req += int(active.size) * elem
                seen.update(np.unique(active).tolist())
            unique_bytes.append(len(seen) * elem)
            requested.append(req)
            spans.append([lo, hi])
        active0 = addr0.reshape(-1)[on0.reshape(-1)]
        overlap = {}
        base = touched.get((0, 0, 0))
        for axis in range(3):
            nxt = tuple(1 if i == axis else 0 for i in range(3))
            if base and nxt in touched:
                overlap[str(axis)] = round(len(base & touched[nxt]) / len(base), 3)
        strides = _axis_strides(addr0, on0, elem) if addr0.ndim else []
        step = None  # the first program's first two executions: how far apart they start, how wide
        moving = [a.reshape(-1)[o.reshape(-1)] for a, o in first["kept"][:8]]
        moving = [m for m in moving if m.size]
        if len(moving) >= 2:
            step = [int(moving[1].min()) - int(moving[0].min()),
                    int(moving[0].max()) - int(moving[0].min()) + elem]
        out.append({
            "launch": launch, "kernel": tracer.launches[launch]["kernel"] if launch < len(tracer.launches) else "?",
            "file": rec["file"], "line": rec["line"], "function": rec["function"], "op": rec["op"],
            # the first sampled program's spans per call path ("28,44": the lines that called the
            # helper holding `line`), when it ran through `line` from more than one
            "site_spans": {k: v[:2] for k, v in first.get("sites", {}).items()}
            if len(first.get("sites", {})) > 1 else {},
            "elem_bytes": elem, "shape": first["shape"],
            "execs": [p["execs"] for p in progs.values()],
            "lanes": sum(p["lanes"] for p in progs.values()),
            "active": sum(p["active"] for p in progs.values()),
            "sectors": sectors, "ideal_sectors": ideal,
            "strides": strides,
            "unit_axis": next((i for i, s in enumerate(strides) if s == 1), None),
            "affine": all(s is not None for s in strides) if strides else True,
            "uniform": bool(active0.size > 1 and np.all(active0 == active0[0])),
            "distinct_in_exec": int(np.unique(active0).size),
            "unique_bytes": unique_bytes, "requested_bytes": requested,
            "overlap_next": overlap,
            "spans": spans,  # per sampled program: lowest and highest active address
            "idle_execs": [p.get("idle_execs", 0) for p in progs.values()],
            # executions whose active lanes are scattered, not runs (a mask computed from data)
            "scattered_execs": [p.get("scattered_execs", 0) for p in progs.values()],
            "keys": _key_order(progs),
            # atomics: lanes in order reaching non-decreasing addresses, and lanes per address
            "address_runs": _address_runs(progs) if rec["op"] == "atomic" else None,
            "step": step,  # [start-to-start distance, width] in bytes of consecutive executions
        })
    return out


# ---------------------------------------------------------------- the run

HOST_OPS: list[dict] = []
HOST_WATCH = ("aten._to_copy", "aten.clone", "aten.copy_", "aten.contiguous", "aten.zero_",
              "aten.fill_", "aten.zeros", "aten.full", "aten._local_scalar_dense", "aten.cat",
              "aten.index", "aten.index_put_", "aten.sort", "aten.cumsum", "aten.sum")


def _host_ops_mode():
    from torch.utils._python_dispatch import TorchDispatchMode

    class _HostOps(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            name = str(getattr(func, "overloadpacket", func))
            if name.startswith(HOST_WATCH):
                nbytes = int(out.numel() * out.element_size()) if hasattr(out, "element_size") else 0
                start = int(out.data_ptr()) if hasattr(out, "data_ptr") and nbytes else 0
                source = next((a for a in args if hasattr(a, "data_ptr")), None)
                HOST_OPS.append({"op": name, "bytes": nbytes, "range": [start, start + nbytes],
                                 "dtype": str(getattr(out, "dtype", "")).replace("torch.", ""),
                                 "from": str(getattr(source, "dtype", "")).replace("torch.", "")})
            return out

    return _HostOps()


def _call_launcher(task_dir: Path, kernel_file: Path, size: str) -> None:
    sys.path.insert(0, str(kernel_file.parent))
    module = _load_module(kernel_file, "passwise_candidate")
    sys.path.insert(0, str(task_dir))
    task = _load_module(task_dir / "task.py", "passwise_task")
    inputs = task.make_inputs(size=size, device="cpu")
    with _host_ops_mode():
        module.run(*inputs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernel", required=True)
    parser.add_argument("--task-dir", required=True)
    parser.add_argument("--size", default="large")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    os.environ["TRITON_INTERPRET"] = "1"
    import triton

    kernel = Path(args.kernel).resolve()
    tracer = Tracer([str(kernel.parent)])
    report = {"schema": TRACE_SCHEMA, "triton_version": triton.__version__, "setup_error": None}
    try:
        from diagnose.runner.interpreter import patch_interpreter  # the runner's interpreter fixes

        patch_interpreter()
    except ImportError:
        pass
    _install(tracer)  # after the fixes, so a bf16 dot is seen before they widen it
    started = time.perf_counter()
    try:
        _call_launcher(Path(args.task_dir).resolve(), kernel, args.size)
    except Exception as exc:
        report["setup_error"] = f"{type(exc).__name__}: {exc}"[:500]
        report["setup_traceback"] = traceback.format_exc(limit=-3)[-2000:]
    report["seconds"] = round(time.perf_counter() - started, 2)
    report["launches"] = tracer.launches
    report["launch_count"] = tracer.launch_count
    report["accesses"] = summarise(tracer)
    report["dots"] = _dot_summary(tracer)
    report["selects"] = [{"launch": k[0], "file": k[1], "line": k[2], **v} for k, v in tracer.selects.items()]
    report["lane_selects"] = [{"launch": k[0], "file": k[1], "line": k[2], **v}
                              for k, v in tracer.lane_selects.items()]
    report["notes"] = [{"launch": k[0], "file": k[1], "line": k[2], "kind": k[3], "detail": k[4], **v}
                       for k, v in tracer.notes.items()]
    report["host_ops"] = HOST_OPS
    Path(args.out).write_text(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
