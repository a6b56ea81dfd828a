"""The evidence tier 3 produces: stages, their signatures and diffs, machine-code facts, symptoms.

Every class is a plain dataclass; `to_json`/`capture_from_json` round-trip an IRCapture.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


@dataclass
class Stage:
    """One snapshot of the kernel's IR in the lowering.

    `when` is "before" (MLIR printed the IR before running `pass_arg`), "after" (after it) or
    "final" (an artefact the compiler returned: llir, ptx, sass). `pipeline` groups stages
    that one pass manager ran (ttir, ttgir, llir for CUDA; ttadapter for Ascend).
    """

    index: int
    name: str
    pass_arg: str
    when: str
    text: str
    pipeline: str = ""
    scope: str = ""
    failed: bool = False


@dataclass
class StageSignature:
    """Countable facts of one stage: what a reader looks for when scanning a dump."""

    stage_index: int
    ops: dict[str, int] = field(default_factory=dict)
    layouts: list[str] = field(default_factory=list)
    mma_versions: list[int] = field(default_factory=list)
    convert_layouts: int = 0
    local_allocs: int = 0
    async_copies: int = 0
    tma_ops: int = 0
    dots: int = 0
    warp_group_dots: int = 0
    mma_instructions: int = 0
    barriers: int = 0
    loops: int = 0
    global_loads: dict[str, int] = field(default_factory=dict)
    global_stores: dict[str, int] = field(default_factory=dict)
    i64_tensor_arith: int = 0
    discrete_accesses: int = 0
    selects: int = 0


@dataclass
class FieldChange:
    field: str
    before: object
    after: object


@dataclass
class StageDiff:
    """What changed between two consecutive stages, and the pass that did it."""

    from_index: int
    to_index: int
    pass_arg: str
    changes: list[FieldChange] = field(default_factory=list)


@dataclass
class PtxasFacts:
    """`ptxas -v` on the kernel's PTX."""

    arch: str = ""
    registers: int | None = None
    spill_stores: int = 0
    spill_loads: int = 0
    stack_frame: int = 0
    shared_bytes: int = 0
    barriers: int | None = None
    command: str = ""
    log: str = ""


@dataclass
class SassFacts:
    """Global-memory instructions in the SASS, by access width in bits."""

    global_loads: dict[str, int] = field(default_factory=dict)
    global_stores: dict[str, int] = field(default_factory=dict)
    local_memory_ops: int = 0
    instructions: int = 0
    command: str = ""


@dataclass
class CompileFailure:
    """The kernel did not get through: the compiler's (or the launcher's) own message."""

    kernel: str
    phase: str
    message: str


@dataclass
class Specialization:
    """What one launch really compiles: Triton's signature, constexprs and attributes."""

    signature: dict[str, str]
    constexprs: dict[str, object]
    attrs: dict[str, object]
    options: dict[str, object]
    autotune_configs: list[dict] = field(default_factory=list)
    grid: list | None = None


@dataclass
class KernelIR:
    """Everything captured for one distinct kernel launch."""

    kernel: str
    file: str
    line: int
    specialization: Specialization
    stages: list[Stage] = field(default_factory=list)
    signatures: list[StageSignature] = field(default_factory=list)
    diffs: list[StageDiff] = field(default_factory=list)
    ptxas: PtxasFacts | None = None
    sass: SassFacts | None = None
    failure: CompileFailure | None = None


@dataclass
class IRCapture:
    """The result of one capture: per-launch kernels, failures, and how to reproduce it."""

    backend: str
    target: str
    source: str
    compiler_version: str = ""
    kernels: list[KernelIR] = field(default_factory=list)
    failures: list[CompileFailure] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    # Buffers the launcher allocated and passed from one launch to a later one (neither an
    # input nor an output of the call): intermediates that go through global memory.
    # [{"producer": kernel, "producer_arg": name, "consumer": kernel, "consumer_arg": name}]
    intermediates: list[dict] = field(default_factory=list)
    # Inputs of the call that two different kernels receive (read from memory twice):
    # [{"kernels": [k1, k2], "args": [arg names]}]
    rereads: list[dict] = field(default_factory=list)
    # How many times each kernel was launched in one call of the launcher (repeats included).
    launch_counts: dict[str, int] = field(default_factory=dict)
    # Whole-tensor copies and casts the launcher's host code ran (torch ops around the
    # launches): [{"op": "aten._to_copy", "bytes": n, "dtype": "float32", "from_dtype": "float16"}]
    host_ops: list[dict] = field(default_factory=list)


@dataclass
class Symptom:
    """A slow-code symptom with the pass that introduced it (or failed to remove it)."""

    id: str
    kernel: str
    pass_arg: str
    stage_index: int | None
    summary: str
    evidence: list[str] = field(default_factory=list)
    survived: list[str] = field(default_factory=list)
    # mechanism -> kernel source lines where the IR shows it ("narrow-contiguity": [13, 14]);
    # tier 3 maps mechanisms to the idioms (pattern cards) that produce them
    mechanisms: dict[str, list[int]] = field(default_factory=dict)
    # numbers the symptom's cost depends on (grid-underfill: programs and SMs)
    # (fp64-arith: the kinds of its fp64 ops)
    facts: dict[str, int | list[str]] = field(default_factory=dict)
    # source lines of the symptom's accesses that sit inside a loop (those repeat per program)
    lines_in_loops: list[int] = field(default_factory=list)


def to_json(obj: object) -> str:
    """Serialise any of the dataclasses above."""
    return json.dumps(asdict(obj), indent=1)


def capture_from_json(text: str) -> IRCapture:
    """Rebuild an IRCapture from `to_json` output."""
    raw = json.loads(text)
    kernels = []
    for k in raw.pop("kernels"):
        kernels.append(KernelIR(
            kernel=k["kernel"], file=k["file"], line=k["line"],
            specialization=Specialization(**k["specialization"]),
            stages=[Stage(**s) for s in k["stages"]],
            signatures=[StageSignature(**s) for s in k["signatures"]],
            diffs=[StageDiff(d["from_index"], d["to_index"], d["pass_arg"],
                             [FieldChange(**c) for c in d["changes"]]) for d in k["diffs"]],
            ptxas=PtxasFacts(**k["ptxas"]) if k["ptxas"] else None,
            sass=SassFacts(**k["sass"]) if k["sass"] else None,
            failure=CompileFailure(**k["failure"]) if k["failure"] else None,
        ))
    failures = [CompileFailure(**f) for f in raw.pop("failures")]
    return IRCapture(kernels=kernels, failures=failures, **raw)
