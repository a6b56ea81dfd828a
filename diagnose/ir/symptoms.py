"""Symptoms from a capture, each pinned to the pass that introduced it or failed to remove it.

Detectors are an ordered list of small functions (KernelIR in, symptoms out), like the
pass lists of a backend's compiler.py; `attribute` runs them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from diagnose.triage.detectors.launch import FEW_WARPS

from .model import IRCapture, KernelIR, Stage, StageSignature, Symptom
from .ptx_lines import accesses_by_line

NARROW_BITS = 32


def attribute(capture: IRCapture) -> list[Symptom]:
    """All symptoms of all kernels of a capture, compile failures first.

    On Ascend, triton-adapter-opt can abort in a late pass (triton-to-linalg) after the passes
    that decide memory access have run; that is a `frontend-abort` (the CPU front end's limit,
    evidence but not proof that the kernel does not build for the NPU), and the stages before
    it are still read for symptoms."""
    partial = {kir.kernel for kir in capture.kernels if _aborted_late(kir, capture.backend)}
    symptoms = [Symptom(id="frontend-abort" if f.kernel in partial else "compile-failure",
                        kernel=f.kernel, pass_arg=f.phase, stage_index=None,
                        summary=("the Ascend front end stopped after the passes before "
                                 f"{f.phase}" if f.kernel in partial
                                 else "the kernel did not compile"),
                        evidence=f.message.splitlines()[-12:]) for f in capture.failures]
    detectors = ASCEND_DETECTORS if capture.backend == "ascend" else CUDA_DETECTORS
    for kir in capture.kernels:
        if kir.failure is None or kir.kernel in partial:
            for detect in detectors:
                symptoms.extend(detect(kir))
    return symptoms


def _aborted_late(kir: KernelIR, backend: str) -> bool:
    """An Ascend front-end run that failed after at least one pass had produced its IR."""
    return (backend == "ascend" and kir.failure is not None
            and sum(1 for s in kir.stages if s.when == "after" and not s.failed) >= 1)


# ---------------------------------------------------------------- helpers over one kernel

def _first(kir: KernelIR, pass_arg: str, when: str = "before") -> int | None:
    return next((s.index for s in kir.stages if s.pass_arg == pass_arg and s.when == when), None)


def _state_after_pipeline(kir: KernelIR, next_first_pass: str) -> int | None:
    """Index of the IR a pipeline handed on: the Before dump of the next pipeline's first pass."""
    return _first(kir, next_first_pass)


def _named(kir: KernelIR, name: str) -> Stage | None:
    return next((s for s in kir.stages if s.name == name and s.when == "final"), None)


def _sig(kir: KernelIR, index: int) -> StageSignature:
    return kir.signatures[index]


def _introduced(kir: KernelIR, field: str, upto: int) -> tuple[str, int] | None:
    """The pass after which `field` last became non-zero (before stage `upto`)."""
    found = None
    for diff in kir.diffs:
        if diff.to_index > upto:
            break
        for change in diff.changes:
            if change.field == field and not change.before and change.after:
                found = (diff.pass_arg, diff.to_index)
            elif change.field == field and change.before and not change.after:
                found = None
    return found


def _lines(text: str, pattern: str, limit: int = 4) -> list[str]:
    rx = re.compile(pattern)
    return [ln.strip()[:200] for ln in text.splitlines() if rx.search(ln)][:limit]


# ---------------------------------------------------------------- CUDA detectors

# Why a global access stays narrow, as the IR shows it (docs/ir.md, "scalar-global-loads"):
SCALAR_POINTER = "scalar-pointer"          # a single-element load: a loop of element accesses
TILE_WITHIN_THREADS = "tile-within-threads"  # <= 1 element per thread: nothing to vectorise
NARROW_CONTIGUITY = "narrow-contiguity"    # the axis analysis proved no wider contiguity
NO_DIVISIBILITY = "no-divisibility-hint"   # ... and an int argument came without tt.divisibility
SCALAR_STORE = "scalar-store"              # one value per program (a reduction's result): inherent
DATA_MASK = "data-mask"                    # the mask derives from loaded values: constancy 1
GATHERED = "gathered-pointer"              # the address itself derives from loaded values
TTGIR_ACCESS = re.compile(r"tt\.(load|store) [^\n]*?: (tensor<([0-9x]+)x!tt\.ptr|!tt\.ptr)"
                          r"[^\n]*loc\((#loc\d+)\)")
LOC_DEF = re.compile(r'^(#loc\d+) = loc\((.*)\)\s*$', re.M)


def _loc_lines(ttgir: str) -> dict[str, int]:
    """#locN -> source line, following named locations (`loc("x"(#loc12))`) to their target."""
    return {ref: line for ref, (_, line) in _loc_sites(ttgir).items()}


def _loc_sites(ttgir: str) -> dict[str, tuple[str, int]]:
    """#locN -> (source file, line), following named locations to their target."""
    raw = dict(LOC_DEF.findall(ttgir))
    sites: dict[str, tuple[str, int]] = {}

    def resolve(ref: str, depth: int = 0) -> tuple[str, int] | None:
        body = raw.get(ref, "")
        direct = re.match(r'"([^"]*)":(\d+):\d+', body)
        if direct:
            return direct.group(1), int(direct.group(2))
        inner = re.search(r"(#loc\d+)", body)
        return resolve(inner.group(1), depth + 1) if inner and depth < 8 else None

    for ref in raw:
        site = resolve(ref)
        if site is not None:
            sites[ref] = site
    return sites


def _access_mechanisms(kir: KernelIR, stage: Stage) -> tuple[dict[int, str], set[int]]:
    """Per source line of a tt.load/tt.store: why it cannot be a vector access, when the
    TTGIR alone says so (a scalar pointer, or no more elements than threads); and the lines of
    the accesses inside an scf.for / scf.while, which a program repeats and which carry the
    traffic (an access outside every loop runs once)."""
    lines = _loc_lines(stage.text)
    threads = 32 * int(kir.specialization.options.get("num_warps") or 4)
    looped = _in_loops(stage.text)
    defs = _ssa_defs(stage.text)
    lane_loads = _lane_loads(stage.text)
    found: dict[int, str] = {}
    repeated: set[int] = set()
    for m in TTGIR_ACCESS.finditer(stage.text):
        line = lines.get(m.group(4))
        if line is None:
            continue
        in_loop = stage.text.rfind("\n", 0, m.start()) + 1 in looped
        if in_loop:
            repeated.add(line)
        operands = _operands(stage.text, m)
        at = 1 if m.group(1) == "load" else 2  # load(ptr, mask) / store(ptr, value, mask)
        mask = operands[at] if len(operands) > at else None
        if m.group(3) is not None and mask and _derives_from_load(mask, defs):
            # an address read from memory is narrow whatever its mask: the gather is the cause
            found[line] = GATHERED if operands and _derives_from_load(operands[0], defs) else DATA_MASK
        elif m.group(3) is None:
            # one scalar outside any loop (a scale, a row offset) is inherent, not a walk
            found[line] = SCALAR_POINTER if m.group(1) == "load" and in_loop else SCALAR_STORE
        elif (in_loop and "x" not in m.group(3) and operands
              and _derives_from_load(operands[0], defs, lane_loads)):
            # a 1-D tile whose every lane steps through an address the data chose (a segment
            # start it loaded): no block size or hint widens it, whatever the mask
            found[line] = GATHERED
        elif _elements(m.group(3)) <= threads:
            found[line] = TILE_WITHIN_THREADS
    return found, repeated


SSA_DEF = re.compile(r"^\s*(%[\w.#]+)(?::\d+)? = \"?([\w.]+)\"?([^\n]*)$", re.M)
SSA_NAME = re.compile(r"%[\w.#]+")


def _ssa_defs(text: str) -> dict[str, tuple[str, list[str]]]:
    """SSA value -> (its op, the values it reads), over one IR dump (types and locs dropped)."""
    defs = {}
    for name, op, rest in SSA_DEF.findall(text):
        operands = rest.split(" : ")[0].split(" loc(")[0]
        defs[name] = (op, SSA_NAME.findall(operands))
    return defs


def _operands(text: str, access: re.Match) -> list[str]:
    """The SSA operands of a tt.load (pointer, mask, other) or tt.store (pointer, value, mask)."""
    line = text[text.rfind("\n", 0, access.start()) + 1:access.end()]
    operands = line.split(f"tt.{access.group(1)} ", 1)[-1].split(" : ")[0]
    return SSA_NAME.findall(operands.split("{")[0])


def _lane_loads(text: str) -> set[str]:
    """SSA values loaded as a tensor: one value per lane, not a scalar every lane shares."""
    return {name for name, op, rest in SSA_DEF.findall(text)
            if op == "tt.load" and "tensor<" in rest.split(" : ", 1)[-1]}


def _derives_from_load(value: str, defs: dict[str, tuple[str, list[str]]],
                       sources: set[str] | None = None, limit: int = 64) -> bool:
    """Whether `value` is computed from a tt.load result (through at most `limit` ops); with
    `sources`, from one of those loads only."""
    seen, todo = set(), [value]
    while todo and len(seen) < limit:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        op, reads = defs[name]
        if op in ("tt.load", "tt.descriptor_load", "ttg.local_load"):
            if sources is None or name in sources:
                return True
            continue
        todo += reads
    return False


def _in_loops(text: str) -> set[int]:
    """Character offsets of the IR lines that sit inside an scf.for / scf.while body."""
    inside, stack, offset = set(), [], 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("}"):
            if stack:
                stack.pop()
        if any(stack):
            inside.add(offset)
        if stripped.endswith("{"):
            stack.append(any(w in stripped for w in ("scf.for", "scf.while", "} do")))
        offset += len(line)
    return inside


def _elements(shape: str) -> int:
    total = 1
    for dim in shape.split("x"):
        total *= int(dim)
    return total


def _unhinted_ints(kir: KernelIR) -> list[str]:
    """Integer scalar arguments without a divisibility hint (a tuple argument's signature is a
    list of its members' types: not a scalar)."""
    spec = kir.specialization
    return [arg for arg, ty in spec.signature.items()
            if isinstance(ty, str) and ty.startswith(("i32", "i64")) and not any(
                a and a[0] == "tt.divisibility" for a in spec.attrs.get(arg, []))]


def scalar_global_loads(kir: KernelIR) -> list[Symptom]:
    """Global loads/stores of <= 32 bits, each pinned to its source line through the PTX
    `.loc` directives, with the mechanism the TTGIR shows for that line."""
    ptx = _named(kir, "ptx")
    if ptx is None:
        return []
    accesses = [a for a in accesses_by_line(ptx.text, kir.file) if a.kind in ("ld", "st")]
    narrow = sorted({a.line for a in accesses if a.bits <= NARROW_BITS and a.line})
    if not narrow:
        return []
    after_coalesce = _first(kir, "tritongpu-coalesce")
    coalesce = kir.stages[after_coalesce] if after_coalesce is not None else None
    why, repeated = _access_mechanisms(kir, coalesce) if coalesce is not None else ({}, set())
    unhinted = _unhinted_ints(kir)
    narrow = [line for line in narrow if why.get(line) != SCALAR_STORE]
    if not narrow:
        return []
    mechanisms: dict[str, list[int]] = {}
    for line in narrow:
        mechanism = why.get(line, NARROW_CONTIGUITY)
        mechanisms.setdefault(mechanism, []).append(line)
        if unhinted and mechanism not in (SCALAR_POINTER, DATA_MASK):
            mechanisms.setdefault(NO_DIVISIBILITY, []).append(line)
    loads = _sig(kir, ptx.index).global_loads
    evidence = [f"PTX global loads by width (bits): {loads}",
                f"narrow (<= {NARROW_BITS}-bit) accesses at source lines {narrow}"]
    evidence += [f"line {a.line}: {a.text}" for a in accesses
                 if a.bits <= NARROW_BITS and a.line][:6]
    if after_coalesce is not None and after_coalesce + 1 < len(kir.stages):
        evidence += _lines(kir.stages[after_coalesce + 1].text, r"^#blocked\d* = ")
    for arg in unhinted:
        evidence.append(f"argument {arg}: {kir.specialization.signature[arg]} is a runtime "
                        "value without tt.divisibility (no multiple-of-16 hint), so axis "
                        "analysis cannot prove contiguity")
    looped = [line for line in narrow if line in repeated]
    return [Symptom(id="scalar-global-loads", kernel=kir.kernel, pass_arg="tritongpu-coalesce",
                    stage_index=after_coalesce,
                    summary=f"{_narrow_summary(accesses, set(narrow), loads)}; coalesce chose "
                            "sizePerThread from the contiguity it could prove",
                    evidence=evidence, mechanisms=mechanisms,
                    lines_in_loops=looped)]


def _narrow_summary(accesses: list, narrow: set[int], loads: dict[str, int]) -> str:
    """Which narrow accesses are loads and which are stores, by source line: a defect in a
    store is not confirmed by a sentence about loads."""
    def lines(kind: str) -> list[int]:
        return sorted({a.line for a in accesses if a.kind == kind and a.line in narrow
                       and a.bits <= NARROW_BITS})

    narrow_loads = sum(n for bits, n in loads.items() if int(bits) <= NARROW_BITS)
    parts = []
    if lines("ld"):
        parts.append(f"{narrow_loads} of {sum(loads.values())} global loads are <= "
                     f"{NARROW_BITS}-bit (narrow loads at lines {', '.join(map(str, lines('ld')))})")
    if lines("st"):
        parts.append(f"global stores are <= {NARROW_BITS}-bit at lines "
                     f"{', '.join(map(str, lines('st')))}")
    return "; ".join(parts) or f"narrow accesses at lines {', '.join(map(str, sorted(narrow)))}"


def global_atomics(kir: KernelIR) -> list[Symptom]:
    """atom/red.global in the PTX: each is a read-modify-write serialised at one address."""
    ptx = _named(kir, "ptx")
    if ptx is None:
        return []
    atomics = [a for a in accesses_by_line(ptx.text, kir.file) if a.kind in ("atom", "red")]
    if not atomics:
        return []
    lines = sorted({a.line for a in atomics if a.line})
    return [Symptom(id="global-atomics", kernel=kir.kernel, pass_arg="convert-triton-gpu-to-llvm",
                    stage_index=None,
                    summary=f"{len(atomics)} global atomic instruction(s) in the PTX at lines "
                            f"{', '.join(map(str, lines)) or '?'}: programs that hit the same "
                            "address are serialised in L2",
                    evidence=[f"line {a.line}: {a.text}" for a in atomics[:6]],
                    mechanisms={"atomic-accumulate": lines})]


def convert_layout_survives(kir: KernelIR) -> list[Symptom]:
    end = _state_after_pipeline(kir, "convert-scf-to-cf")
    if end is None or _sig(kir, end).convert_layouts == 0:
        return []
    intro = _introduced(kir, "convert_layouts", end)
    by, at = intro if intro else ("convert-triton-to-tritongpu", 0)
    survived = sorted({s.pass_arg for s in kir.stages[at:end]
                       if s.pass_arg == "tritongpu-remove-layout-conversions"})
    return [Symptom(id="convert-layout-survives", kernel=kir.kernel, pass_arg=by,
                    stage_index=at,
                    summary=f"{_sig(kir, end).convert_layouts} ttg.convert_layout reach LLVM "
                            "lowering (each is a shared-memory round trip or shuffles)",
                    evidence=_lines(kir.stages[end].text, r"ttg\.convert_layout"),
                    survived=survived)]


def dot_without_wgmma(kir: KernelIR) -> list[Symptom]:
    ttir = _state_after_pipeline(kir, "convert-triton-to-tritongpu")
    end = _state_after_pipeline(kir, "convert-scf-to-cf")
    arch = str(kir.specialization.options.get("arch", ""))
    if ttir is None or end is None or not arch.startswith("sm9"):
        return []
    if _sig(kir, ttir).dots == 0 or _sig(kir, end).warp_group_dots > 0:
        return []
    sig = _sig(kir, end)
    ieee = _ieee_dot_lines(kir, kir.stages[ttir].text)
    why = (f"; the fp32 dot at line(s) {', '.join(map(str, ieee))} asks for IEEE fp32 inputs "
           "(inputPrecision ieee), which no tensor-core instruction takes") if ieee else ""
    return [Symptom(id="dot-without-wgmma", kernel=kir.kernel,
                    pass_arg="tritongpu-accelerate-matmul",
                    stage_index=_first(kir, "tritongpu-accelerate-matmul"),
                    summary=f"tt.dot was not turned into warp-group MMA on {arch} "
                            f"(mma versions seen: {sig.mma_versions or 'none'}){why}",
                    evidence=_lines(kir.stages[ttir].text, r"tt\.dot"),
                    mechanisms={"ieee-fp32-inputs": ieee} if ieee else {},
                    facts={"mma_versions": list(sig.mma_versions or [])})]


# `tt.dot a, b, c : tensor<..xf32> * tensor<..xf32>`: the precision attribute is printed only
# when it is not the default (IEEE), so an fp32 x fp32 dot without one, or with `ieee`, is IEEE
IEEE_DOT = re.compile(r"= tt\.dot [^\n]*?(?:inputPrecision = (\w+) )?: tensor<[^>]*xf32> \* "
                      r"tensor<[^>]*xf32>[^\n]*loc\((#loc\d+)\)")


def _ieee_dot_lines(kir: KernelIR, text: str) -> list[int]:
    """Source lines of fp32 dots that ask for IEEE inputs (not tf32, tf32x3 or bf16x3)."""
    sites = _loc_sites(text)
    return sorted({sites.get(m.group(2), ("", kir.line))[1] for m in IEEE_DOT.finditer(text)
                   if m.group(1) in (None, "ieee")})


DOT_TYPES = re.compile(r"= (?:ttng\.warp_group_dot|tt\.dot) [^\n]*?: (?:!ttg\.memdesc|tensor)"
                       r"<(\d+)x(\d+)x(\w+?)[,>][^\n]*loc\((#loc\d+)\)")
ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "tf32": 4, "i8": 1, "f64": 8}
THIN_K_BYTES = 32  # a K step of 32 bytes is one MMA k-step (k16 for 16-bit, k8 for fp32)


def thin_k_dot(kir: KernelIR) -> list[Symptom]:
    """A dot inside a loop whose K tile is one MMA k-step (32 bytes of K per row): every
    iteration pays the loop's fixed costs for a single instruction's worth of MMA work."""
    end = _state_after_pipeline(kir, "convert-scf-to-cf")
    if end is None:
        return []
    text = kir.stages[end].text
    looped, sites = _in_loops(text), _loc_sites(text)
    for m in DOT_TYPES.finditer(text):
        rows, k, ty = int(m.group(1)), int(m.group(2)), m.group(3)
        size = ELEMENT_BYTES.get(ty, 1 if ty.startswith("f8") else 0)
        line_start = text.rfind("\n", 0, m.start()) + 1
        file, line = sites.get(m.group(4), ("", kir.line))
        if file and kir.file and Path(file).name != Path(kir.file).name:
            continue  # a dot the compiler made from a broadcast-multiply-sum: not a K tile
        if not size or k * size > THIN_K_BYTES or line_start not in looped:
            continue
        return [Symptom(id="thin-k-dot", kernel=kir.kernel, pass_arg="tritongpu-pipeline",
                        stage_index=end,
                        summary=f"the K loop's dot multiplies {rows}x{k}x{ty} tiles (line {line}): "
                                f"{k * size} bytes of K per iteration, one MMA k-step, so each "
                                "iteration's fixed cost (tile copies, barriers, the MMA fence "
                                "and wait) outweighs its tensor-core work",
                        evidence=[text[line_start:m.end()].strip()[:240]],
                        mechanisms={"thin-k-step": [line]},
                        facts={"k_tile": k, "element": ty})]
    return []


def no_async_copy_after_pipeline(kir: KernelIR) -> list[Symptom]:
    start = _first(kir, "tritongpu-pipeline")
    end = _state_after_pipeline(kir, "convert-scf-to-cf")
    if start is None or end is None:
        return []
    before = _sig(kir, start)
    after = _sig(kir, end)
    has_mma_loop = before.loops > 0 and (before.dots or before.warp_group_dots)
    if not has_mma_loop or after.async_copies or after.tma_ops:
        return []
    stages = kir.specialization.options.get("num_stages")
    return [Symptom(id="no-async-copy-after-pipeline", kernel=kir.kernel,
                    pass_arg="tritongpu-pipeline", stage_index=start,
                    summary=f"the dot loop was not software-pipelined (num_stages={stages}): "
                            "no async copies or TMA loads after tritongpu-pipeline",
                    evidence=_lines(kir.stages[end].text, r"scf\.for|tt\.load"))]


# libdevice's sin/cos/tan keep a small local array for the Payne-Hanek reduction of large
# arguments (tl.randn's Box-Muller calls both): local-memory ops with no spill, not pressure.
TRIG_RANGE_REDUCTION = re.compile(r"math\.(?:sin|cos|tan)\b|__nv_(?:sin|cos|tan|sincos)")


MINOR_SPILL = 16  # bytes of spill stores and loads per thread, at most: one or two registers


def register_spills(kir: KernelIR) -> list[Symptom]:
    p = kir.ptxas
    local_ops = kir.sass.local_memory_ops if kir.sass else 0
    if p is None or (p.spill_stores + p.spill_loads == 0 and local_ops == 0):
        return []
    if p.spill_stores + p.spill_loads == 0 and any(TRIG_RANGE_REDUCTION.search(s.text) for s in kir.stages):
        return []
    if 0 < p.spill_stores + p.spill_loads <= MINOR_SPILL:
        return []  # a register or two parked once: allocation noise, not pressure
    # Each thread's share of the tile is tile / (32 * num_warps): with one or two warps the
    # share, not the tile, is what outgrows the registers.
    warps = kir.specialization.options.get("num_warps")
    few = isinstance(warps, int) and warps <= FEW_WARPS
    mechanisms = {"few-warps" if few else "oversized-tile": [kir.line]}
    wide = _wide_value_lines(kir)
    if wide:  # fp64 values take two registers each: the widening, not the tile, is the cause
        mechanisms = {"wide-values": wide, **mechanisms}
    return [Symptom(id="register-spills", kernel=kir.kernel, pass_arg="ptxas",
                    stage_index=None,
                    summary=f"{p.registers} registers, {p.spill_stores} B spill stores, "
                            f"{p.spill_loads} B spill loads, {local_ops} local-memory ops"
                            + (f" with num_warps={warps}" if few else ""),
                    evidence=[ln for ln in p.log.splitlines() if "spill" in ln or "Used" in ln],
                    mechanisms=mechanisms)]


WIDE_ARITH = re.compile(r"= (?:arith|math)\.\w+ [^\n]*tensor<[^>]*xf64[^\n]*loc\((#loc\d+)\)")
# fp64 math: arithmetic on fp64 tensors (not the conversions into or out of fp64, which an
# output stored as fp64 needs and which cost one instruction each), and reductions or scans
# over fp64 tensors (their combine region is scalar; the closing line names the tensor)
WIDE_MATH = re.compile(r"(?:= (?:arith|math)\.(?!(?:extf|truncf|sitofp|uitofp|fptosi|fptoui|constant|bitcast)\b)\w+ "
                       r"|^\s*\}\)[^\n]*: \()[^\n]*tensor<[^>]*xf64[^\n]*loc\((#loc\d+)\)", re.MULTILINE)


def _op_lines(kir: KernelIR, ops: re.Pattern[str]) -> list[int]:
    """Source lines (at most 8) of the TTGIR ops `ops` matches, its group 1 being the op's loc ref."""
    ttgir = _state_after_pipeline(kir, "convert-triton-gpu-to-llvm")
    if ttgir is None:
        return []
    text = kir.stages[ttgir].text
    locs = _loc_lines(text)
    return sorted({locs[ref] for ref in ops.findall(text) if ref in locs})[:8]


def _wide_value_lines(kir: KernelIR) -> list[int]:
    """Source lines of tensor-wide fp64 arithmetic in the TTGIR (at most 8)."""
    return _op_lines(kir, WIDE_ARITH)


WIDE_OP = re.compile(r"= (?:arith|math)\.(\w+) [^\n]*tensor<[^>]*xf64|^\s*\}\)[^\n]*: \([^\n]*tensor<[^>]*xf64",
                     re.MULTILINE)
CONVERSIONS = frozenset({"extf", "truncf", "sitofp", "uitofp", "fptosi", "fptoui", "constant", "bitcast"})


def _wide_ops(text: str) -> list[str]:
    """The kinds of the tensor-wide fp64 ops (`subf`, `cmpf`, `exp`; `reduce` for a reduction's
    combine), conversions left out."""
    return sorted({m or "reduce" for m in WIDE_OP.findall(text)} - CONVERSIONS)


def fp64_arith(kir: KernelIR) -> list[Symptom]:
    """Tensor-wide fp64 arithmetic left in the TTGIR: every element pays the fp64 rate (a half
    or less of fp32 on sm_90) and fp64 exp/log/sqrt are long software sequences, spills or not."""
    ttgir = _state_after_pipeline(kir, "convert-triton-gpu-to-llvm")
    lines = _op_lines(kir, WIDE_MATH)
    if ttgir is None or not lines:
        return []
    text = kir.stages[ttgir].text
    ops = WIDE_MATH.findall(text)
    return [Symptom(id="fp64-arith", kernel=kir.kernel, pass_arg="ast-to-ttir", stage_index=ttgir,
                    summary=f"{len(ops)} tensor-wide fp64 arithmetic op(s) reach the LLVM lowering "
                            f"(source lines {', '.join(map(str, lines))})",
                    evidence=_lines(text, r"(?:arith|math)\.\w+ .*xf64")[:6],
                    mechanisms={"wide-values": lines}, facts={"fp64_ops": _wide_ops(text)})]


def int64_index_arith(kir: KernelIR) -> list[Symptom]:
    ttir = _state_after_pipeline(kir, "convert-triton-to-tritongpu")
    if ttir is None or _sig(kir, ttir).i64_tensor_arith == 0:
        return []
    return [Symptom(id="int64-index-arith", kernel=kir.kernel, pass_arg="ast-to-ttir",
                    stage_index=ttir,
                    summary=f"{_sig(kir, ttir).i64_tensor_arith} tensor-wide int64 arithmetic "
                            "ops survive the TTIR pipeline (the source computes indices in int64)",
                    evidence=_lines(kir.stages[ttir].text, r"arith\.\w+ .*xi64"))]


RUNTIME_DIVIDE = re.compile(r"= arith\.(?:remsi|divsi|remui|divui) %[\w.#]+, (%[\w.#]+) : tensor<[^>]*xi64>")


def int64_runtime_divide(kir: KernelIR) -> list[Symptom]:
    """Tensor-wide int64 division or remainder by a divisor that is not a constant (a runtime
    modulus, a size passed as an argument): sm_90 has no 64-bit integer divide, so ptxas calls a
    software division routine of several dozen instructions for every element."""
    ttir = _state_after_pipeline(kir, "convert-triton-to-tritongpu")
    if ttir is None:
        return []
    text = kir.stages[ttir].text
    defs = _ssa_defs(text)

    def constant(name: str) -> bool:
        op, operands = defs.get(name, ("", []))
        if op == "tt.splat" and operands:  # a scalar broadcast to the tile: its source decides
            op = defs.get(operands[0], ("", []))[0]
        return op == "arith.constant"

    found = [m for m in RUNTIME_DIVIDE.finditer(text) if not constant(m.group(1))]
    if not found:
        return []
    return [Symptom(id="int64-runtime-divide", kernel=kir.kernel, pass_arg="ast-to-ttir",
                    stage_index=ttir,
                    summary=f"{len(found)} tensor-wide int64 division/remainder op(s) by a divisor "
                            "that is not a constant survive the TTIR pipeline: each is a software "
                            "division routine per element on sm_90",
                    evidence=[text[m.start():text.find(chr(10), m.start())].strip() for m in found[:4]])]


# libdevice's accurate fp32 functions (the ones tier 1's EXACT_MATH names), as TTGIR calls them
EXACT_SYMBOLS = ("powf|tanhf|erff|erfcf|erfinvf|lgammaf|tgammaf|atan2f|atanf|asinf|acosf|cbrtf|"
                 "expm1f|log1pf|sinhf|coshf")
EXACT_ERF = re.compile(r"= (?:math\.erf [^\n]*tensor<[^>]*xf32|tt\.extern_elementwise [^\n]*"
                       rf"symbol = \"__nv_(?:{EXACT_SYMBOLS})\"[^\n]*tensor<)[^\n]*loc\((#loc\d+)\)")
DOT_OPS = re.compile(r"\b(?:tt\.dot|ttng\.warp_group_dot|tt\.dot_scaled)\b")


def exact_erf(kir: KernelIR) -> list[Symptom]:
    """Tensor-wide accurate fp32 math reaching the LLVM lowering: math.erf (libdevice's exact erff,
    a two-branch polynomial with an exp) or a libdevice call such as __nv_powf / __nv_tanhf, per
    element. Left alone beside a dot: there the MMA, not the epilogue's math, is the cost."""
    ttgir = _state_after_pipeline(kir, "convert-triton-gpu-to-llvm")
    if ttgir is None:
        return []
    text = kir.stages[ttgir].text
    refs = EXACT_ERF.findall(text)
    if not refs or DOT_OPS.search(text):
        return []
    lines = _op_lines(kir, EXACT_ERF)
    names = sorted({erf or lib.removesuffix("f")
                    for erf, lib in re.findall(rf"math\.(erf) |__nv_({EXACT_SYMBOLS})\"", text)})
    return [Symptom(id="exact-erf", kernel=kir.kernel, pass_arg="convert-triton-gpu-to-llvm", stage_index=ttgir,
                    summary=f"{len(refs)} tensor-wide accurate fp32 math op(s) ({', '.join(names)}) reach the "
                            f"LLVM lowering, each a libdevice call per element (source lines "
                            f"{', '.join(map(str, lines)) or '?'})",
                    evidence=_lines(text, rf"math\.erf |__nv_(?:{EXACT_SYMBOLS})\"")[:4],
                    mechanisms={"exact-math": lines})]


# tl.div_rn / tl.sqrt_rn (and fdiv with ieee_rounding): IEEE round-to-nearest sequences, an SFU
# estimate plus Newton steps and special-case branches, where `/` and tl.sqrt are approximations
PRECISE_MATH = re.compile(r"= tt\.precise_(?:divf|sqrt) [^\n]*tensor<[^>]*xf32[^\n]*loc\((#loc\d+)\)")


def precise_math(kir: KernelIR) -> list[Symptom]:
    """Tensor-wide IEEE-rounded fp32 division or square root reaching the LLVM lowering: each is
    a multi-instruction sequence per element where the approximate form is one or two
    instructions. Left alone beside a dot, whose MMA is the cost."""
    ttgir = _state_after_pipeline(kir, "convert-triton-gpu-to-llvm")
    if ttgir is None:
        return []
    text = kir.stages[ttgir].text
    refs = PRECISE_MATH.findall(text)
    if not refs or DOT_OPS.search(text):
        return []
    lines = _op_lines(kir, PRECISE_MATH)
    names = sorted(set(re.findall(r"tt\.precise_(divf|sqrt) [^\n]*xf32", text)))
    return [Symptom(id="precise-math", kernel=kir.kernel, pass_arg="convert-triton-gpu-to-llvm",
                    stage_index=ttgir,
                    summary=f"{len(refs)} tensor-wide IEEE-rounded fp32 op(s) ({', '.join(names)}) reach "
                            "the LLVM lowering, each a refinement sequence per element (source lines "
                            f"{', '.join(map(str, lines)) or '?'})",
                    evidence=_lines(text, r"tt\.precise_(?:divf|sqrt) ")[:4],
                    mechanisms={"ieee-math": lines})]


SMS_BY_ARCH = {"sm90": 132, "sm100": 148, "sm80": 108, "sm89": 128}  # H100/H200, B200, A100, L40


def grid_underfill(kir: KernelIR) -> list[Symptom]:
    """The captured launch starts at most half as many programs as the target has SMs while its
    kernel loops over its share of the work: the grid leaves most SMs idle whatever the code does.
    A grid that fills more than half of them (128 programs on 132 SMs) is not this symptom: the
    idle SMs bound what a split can win below 2x, less than the kernel's other costs usually are."""
    arch = str(kir.specialization.options.get("arch", "")).replace("sm_", "sm")
    sms = next((n for a, n in SMS_BY_ARCH.items() if arch.startswith(a)), None)
    grid = kir.specialization.grid or []
    if sms is None or not grid or not all(isinstance(g, int) for g in grid):
        return []
    programs = 1
    for g in grid:
        programs *= g
    ttir = _state_after_pipeline(kir, "convert-triton-to-tritongpu")
    loops = _sig(kir, ttir).loops if ttir is not None else 0
    if 2 * programs > sms or not loops:
        return []  # at least half the SMs busy: splitting can win < 2x on the idle ones
    warps = kir.specialization.options.get("num_warps")
    return [Symptom(id="grid-underfill", kernel=kir.kernel, pass_arg="", stage_index=None,
                    summary=f"the launch starts {programs} programs (grid {grid}) of "
                            f"{warps} warps for the {sms} SMs of {arch}, and each program "
                            f"loops ({loops} loop(s) in the TTIR): {sms - programs} SMs idle",
                    evidence=[f"grid {grid}, num_warps {warps}, target {arch}"],
                    mechanisms={"few-programs": [kir.line]},
                    facts={"programs": programs, "sms": sms})]


CUDA_DETECTORS: list[Callable[[KernelIR], list[Symptom]]] = [
    scalar_global_loads, convert_layout_survives, dot_without_wgmma,
    no_async_copy_after_pipeline, register_spills, int64_index_arith, global_atomics,
    grid_underfill, thin_k_dot, fp64_arith, exact_erf, precise_math, int64_runtime_divide,
]


# ---------------------------------------------------------------- Ascend detectors

def _changed_by(kir: KernelIR, pass_arg: str, field: str) -> tuple[int, object, object] | None:
    for diff in kir.diffs:
        if diff.pass_arg == pass_arg:
            for c in diff.changes:
                if c.field == field:
                    return diff.to_index, c.before, c.after
    return None


def discrete_mask_access(kir: KernelIR) -> list[Symptom]:
    hit = _changed_by(kir, "discrete-mask-access-conversion", "selects")
    if hit is None or not hit[2] > hit[1]:
        return []
    index, before, after = hit
    return [Symptom(id="discrete-mask-to-select", kernel=kir.kernel,
                    pass_arg="discrete-mask-access-conversion", stage_index=index,
                    summary="a mask the analysis cannot read as a range was rewritten into a "
                            "full, unmasked transfer plus arith.select (a load: load all, then "
                            "select; a store: read the destination, select, store all) "
                            f"({before} -> {after} selects)",
                    evidence=_lines(kir.stages[index].text, r"arith\.select|tt\.load"))]


def unstructured_access_fallback(kir: KernelIR) -> list[Symptom]:
    hit = _changed_by(kir, "triton-to-unstructure", "discrete_accesses")
    if hit is None or not hit[2]:
        return []
    index = hit[0]
    return [Symptom(id="unstructured-access-fallback", kernel=kir.kernel,
                    pass_arg="triton-to-unstructure", stage_index=index,
                    summary="memory access with offsets the pass could not prove structured "
                            "was scalarised into an element-by-element loop (DiscreteMemAccess)",
                    evidence=_lines(kir.stages[index].text, r"DiscreteMemAccess|scf\.for"))]


SSA_OP = re.compile(r"^\s*(%[\w.]+)(?::\d+)? = (arith\.\w+) ([^:]*):\s*(.*)$")


def _linalg(kir: KernelIR) -> Stage | None:
    """The last IR triton-to-linalg produced (the linalg/memref form of the kernel)."""
    stages = [st for st in kir.stages if st.pass_arg == "triton-to-linalg" and not st.failed]
    return stages[-1] if stages else None


def strided_memref(kir: KernelIR) -> list[Symptom]:
    """memref.reinterpret_cast views whose innermost stride is not 1: each row of the
    transfer is one element (a strided or transposed tile read)."""
    stage = _linalg(kir)
    if stage is None:
        return []
    strided = []
    for line in stage.text.splitlines():
        m = re.search(r"memref\.reinterpret_cast .*?strides: \[([^\]]*)\]", line)
        if m and m.group(1).split(",")[-1].strip() != "1":
            strided.append(line.strip()[:200])
    if not strided:
        return []
    return [Symptom(id="strided-memref", kernel=kir.kernel, pass_arg="triton-to-linalg",
                    stage_index=stage.index,
                    summary=f"{len(strided)} memref.reinterpret_cast view(s) with a non-unit "
                            "innermost stride reach linalg: the transfer moves one element per "
                            "row (a strided or transposed tile read)",
                    evidence=strided[:4])]


# Ops that use a tensor of booleans as data: a select on it, or its conversion to numbers
# (`mask.to(tl.float32)` to count the lanes that hold)
BOOLEAN_USES = ("arith.select", "arith.uitofp", "arith.sitofp", "arith.extui")


def int_compare_select(kir: KernelIR) -> list[Symptom]:
    """Tensor arith.select (or a conversion of the booleans to numbers) whose condition comes
    from an integer arith.cmpi on a tensor (through andi/ori): the compare the vector unit lacks
    runs element by element, or the mask is made of loaded data. (A load's or a store's mask
    becomes the transfer's bounds and is no compare in linalg.)"""
    stage = _linalg(kir)
    if stage is None:
        return []
    ops = {m.group(1): m for m in (SSA_OP.match(ln) for ln in stage.text.splitlines()) if m}
    found = []
    for m in ops.values():
        if m.group(2) not in BOOLEAN_USES or "tensor<" not in m.group(4):
            continue
        if m.group(2) != "arith.select" and "xi1>" not in m.group(4).split(" to ")[0]:
            continue  # a conversion of numbers, not of booleans
        todo, seen = [m.group(3).split(",")[0].strip()], set()
        while todo:
            name = todo.pop()
            op = ops.get(name)
            if op is None or name in seen:
                continue
            seen.add(name)
            if op.group(2) == "arith.cmpi" and "tensor<" in op.group(4):
                found.append(op.group(0).strip()[:200])
            elif op.group(2) in ("arith.andi", "arith.ori", "arith.xori"):
                todo += [a.strip() for a in op.group(3).split(",")]
    if not found:
        return []
    found = list(dict.fromkeys(found))
    if all(re.search(r"tensor<[^>]*xi64>", f) for f in found):
        # int64 data compared as loaded (token ids, targets): the A2/A3 vector unit compares
        # i32 only, so an i64 compare runs element by element; narrowing first keeps it vector
        return [Symptom(id="int64-compare-select", kernel=kir.kernel, pass_arg="triton-to-linalg",
                        stage_index=stage.index,
                        summary=f"{len(found)} int64 tensor compare(s) (arith.cmpi on i64) feed an "
                                "arith.select (or are turned into numbers) in linalg: the vector "
                                "unit compares i32, so each "
                                "runs element by element; narrow the operands to int32 first",
                        evidence=found[:4])]
    return [Symptom(id="int-compare-select", kernel=kir.kernel, pass_arg="triton-to-linalg",
                    stage_index=stage.index,
                    summary=f"{len(found)} integer tensor compare(s) (arith.cmpi) feed an "
                            "arith.select (or are turned into numbers) in linalg: an integer "
                            "compare the vector unit runs element by element, or a mask built "
                            "from loaded data",
                    evidence=found[:4])]


def int64_index_arith_ttir(kir: KernelIR) -> list[Symptom]:
    """Tensor int64 arithmetic in the TTIR the Ascend pipeline starts from (the source
    computes indices in int64; the vector unit has no int64 multiply)."""
    ttir = next((st for st in kir.stages if st.pass_arg == "make_ttir"), None)
    if ttir is None or _sig(kir, ttir.index).i64_tensor_arith == 0:
        return []
    return [Symptom(id="int64-index-arith", kernel=kir.kernel, pass_arg="ast-to-ttir",
                    stage_index=ttir.index,
                    summary=f"{_sig(kir, ttir.index).i64_tensor_arith} tensor-wide int64 "
                            "arithmetic ops in the TTIR (the source computes indices in int64)",
                    evidence=_lines(ttir.text, r"arith\.\w+ .*xi64"))]


TTIR_DEF = re.compile(r"^\s*(%[\w.]+)(?::\d+)? = ([\w.]+) (.*)$")
# Ops that pass a tile on unchanged in value (a transpose, a reshape, a layout view).
VALUE_PRESERVING = ("tt.trans", "tt.reshape", "tt.broadcast", "tt.expand_dims", "ttg.convert_layout")


def upcast_dot_ttir(kir: KernelIR) -> list[Symptom]:
    """tt.dot on f32 operands that arith.extf widened from bf16/f16 tiles (through transposes
    or reshapes): the matmul runs at the fp32 rate on tiles twice the size, where the 16-bit
    tiles as loaded would feed the matrix unit at its full rate."""
    ttir = next((st for st in kir.stages if st.pass_arg == "make_ttir"), None)
    if ttir is None:
        return []
    defs = {m.group(1): (m.group(2), m.group(3)) for m in
            (TTIR_DEF.match(ln) for ln in ttir.text.splitlines()) if m}

    def widened(name: str, depth: int = 0) -> bool:
        op = defs.get(name)
        if op is None or depth > 8:
            return False
        if op[0] == "arith.extf":
            return bool(re.search(r":\s*tensor<[^>]*x(bf16|f16)>", op[1]))
        if op[0] in VALUE_PRESERVING:
            return widened(op[1].split()[0].rstrip(","), depth + 1)
        return False

    found = []
    for ln in ttir.text.splitlines():
        m = TTIR_DEF.match(ln)
        if not m or m.group(2) != "tt.dot" or "xf32> *" not in m.group(3):
            continue
        operands = [a.strip() for a in m.group(3).split(",")[:2]]
        if any(widened(a) for a in operands):
            found.append(ln.strip()[:200])
    if not found:
        return []
    return [Symptom(id="upcast-dot", kernel=kir.kernel, pass_arg="ast-to-ttir", stage_index=ttir.index,
                    summary=f"{len(found)} tt.dot(s) take f32 operands that arith.extf widened from "
                            "16-bit tiles: the matmul runs at the fp32 rate on tiles twice the size",
                    evidence=found[:4])]


ASCEND_DETECTORS: list[Callable[[KernelIR], list[Symptom]]] = [
    discrete_mask_access, unstructured_access_fallback, strided_memref, int_compare_select,
    int64_index_arith_ttir, upcast_dot_ttir,
]
