"""Read Ascend profiler CSVs into per-kernel records: the `msprof op` OPPROF folder
(OpBasicInfo, PipeUtilization, Memory, L2Cache, ResourceConflictRatio, ArithmeticUtilization)
and the torch_npu profiler's kernel_details.csv (or msprof's op_summary_*.csv).

Column names and meanings follow the documentation, not observed files (no NPU here):
- Ascend/msopprof docs/en/user_guide/msopprof_performance_data.md (every OPPROF CSV and field)
- Ascend/msopprof docs/en/user_guide/msopprof_user_guide.md (folder layout, xxx_<timestamp>.csv names)
- hicann/oam-tools skills/cann-perf-breakdown/references/kernel_data_guide.md and
  skills/cann-npu-perfanalysis/references/data-schema.md (kernel_details.csv, V1/V2 columns)
- triton-lang/triton-ascend third_party/ascend/backend/testing.py (reads "Name", "Type",
  "Duration(us)" of kernel_details.csv)
"""

from __future__ import annotations

import csv
import io
import re
import statistics
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

DOCS = {
    "msprof-op": "Ascend/msopprof docs/en/user_guide/msopprof_performance_data.md",
    "kernel_details": "hicann/oam-tools skills/cann-perf-breakdown/references/kernel_data_guide.md",
}
# OPPROF files are "<Metric>.csv" or "<Metric>_<timestamp>.csv" (msopprof_user_guide.md).
OPPROF_FILE = re.compile(
    r"^(OpBasicInfo|PipeUtilization|ArithmeticUtilization|MemoryL0|MemoryUB|Memory|L2Cache|"
    r"ResourceConflictRatio)(_\d+)?\.csv$", re.IGNORECASE)
KERNEL_TABLE_FILE = re.compile(r"^(kernel_details|op_summary)(_[\w.]+)?\.csv$", re.IGNORECASE)
# aic_/aiv_ pipe ratios of PipeUtilization, Memory and kernel_details V2 ("mac" is kernel_details'
# name for the cube unit); sub-ratios like aiv_vec_fp32_ratio or aic_cube_wait_ratio do not match.
PIPE_RATIO = re.compile(r"^(aic|aiv)_(vec|scalar|mte1|mte2|mte3|cube|mac|fixpipe)_ratio$")
PIPE_TIME = re.compile(r"^(aic|aiv)_(vec|scalar|mte1|mte2|mte3|cube|mac|fixpipe)_time$")
CONFLICT_RATIO = re.compile(r"^(aic|aiv)_vec_(bank|bankgroup|resc|mte|total)_cflt_ratio$")
BANDWIDTH_USAGE = re.compile(r"^(gm_to_ub|ub_to_gm|gm_to_l1|l0c_to_gm|l0c_to_l1)_bw_usage_rate$")
MISSING = {"", "n/a", "na", "nan", "-", "none", "null"}
TIME_UNITS = {"us": 1.0, "μs": 1.0, "ms": 1e3, "ns": 1e-3, "s": 1e6}
# Column aliases across the two formats: canonical field -> names seen in the docs.
NAME_COLUMNS = ("op_name", "name")
TYPE_COLUMNS = ("op_type", "type")
DURATION_COLUMNS = ("task_duration", "duration")
CORE_COLUMNS = ("accelerator_core", "task_type", "core_type")
BLOCK_COLUMNS = ("block_dim", "block_num")
MIX_BLOCK_COLUMNS = ("mix_block_dim", "mix_block_num")


class MsprofError(ValueError):
    """A profiler CSV that cannot be read; the message names the file, the cause and the fix."""


@dataclass
class CsvTable:
    """One CSV with canonical column names ("Task Duration(us)" -> "task_duration") and units."""

    path: str
    rows: list[dict[str, str]]
    units: dict[str, str]

    def number(self, row: dict[str, str], *names: str) -> float | None:
        """The first present value of `names` in row, as a float; times converted to us."""
        for name in names:
            raw = row.get(name)
            if raw is None or raw.strip().lower() in MISSING:
                continue
            try:
                value = float(raw.replace(",", "").strip().rstrip("%"))
            except ValueError:
                continue
            return value * TIME_UNITS.get(self.units.get(name, ""), 1.0)
        return None

    def text(self, row: dict[str, str], *names: str) -> str | None:
        for name in names:
            raw = (row.get(name) or "").strip()
            if raw and raw.lower() not in MISSING:
                return raw
        return None

    def has(self, *names: str) -> bool:
        return any(n in self.units for n in names)


@dataclass
class AscendKernel:
    """One operator (Triton kernel) on the NPU: duration, cores used, and per-pipe shares."""

    name: str
    op_type: str | None = None
    core_type: str | None = None               # vector | cube | mix | aicpu, from the core column
    duration_us: float | None = None           # msprof op Task Duration, else median Duration
    launches: int = 1
    block_dim: int | None = None
    mix_block_dim: int | None = None
    pipes: dict[str, float] = field(default_factory=dict)        # "aiv_scalar" -> 0..1 of cycles
    pipe_time_us: dict[str, float] = field(default_factory=dict)
    bandwidth_usage_pct: dict[str, float] = field(default_factory=dict)  # "gm_to_ub" -> %
    l2_hit_rate_pct: float | None = None
    conflicts: dict[str, float] = field(default_factory=dict)    # "aiv_vec_bank" -> 0..1
    block_time_spread: float | None = None     # (max - min) / max of per-block times
    sources: list[str] = field(default_factory=list)
    verified_on_hardware: bool = False

    @property
    def total_us(self) -> float:
        return (self.duration_us or 0.0) * self.launches

    def top_pipe(self) -> tuple[str, float] | None:
        return max(self.pipes.items(), key=lambda kv: kv[1]) if self.pipes else None


def canonical(header: str) -> tuple[str, str]:
    """'Task Duration(us)' -> ('task_duration', 'us'); 'L1_to_GM_datas(KB)(estimate)' -> ('l1_to_gm_datas', 'kb')."""
    text = header.strip().lstrip("\ufeff")
    text = re.sub(r"\(estimate\)\s*$", "", text, flags=re.IGNORECASE).strip()
    unit = ""
    match = re.match(r"^(.*?)\s*[（(]([^()（）]*)[）)]\s*$", text)
    if match:
        text, unit = match.group(1), match.group(2).strip().lower()
    return re.sub(r"[\s\-/]+", "_", text.strip().lower()), unit


def read_table(text: str, path: str) -> CsvTable:
    """Parse one CSV; a ragged or header-only file raises MsprofError with one sentence."""
    rows = [r for r in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in r)]
    if not rows:
        raise MsprofError(f"{path} is empty; re-run msprof op or the torch_npu profiler and pass its output.")
    header = [canonical(h) for h in rows[0]]
    if not any(name for name, _ in header) or len(header) < 2:
        raise MsprofError(f"{path} has no CSV header row; pass the CSV msprof or torch_npu wrote, unedited.")
    names = [name for name, _ in header]
    table = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) > len(names) and any(c.strip() for c in row[len(names):]):
            raise MsprofError(f"{path} line {line} has {len(row)} fields but the header has {len(names)}; "
                              "the file is damaged or not a profiler CSV, export it again.")
        table.append({n: v for n, v in zip(names, row, strict=False)})
    return CsvTable(path, table, {name: unit for name, unit in header})


def read_source(source: str | Path | Mapping[str, str]) -> dict[str, str]:
    """CSV texts keyed by file name, from an OPPROF folder (searched recursively), one CSV file,
    or a mapping of file name to text (what a runner can ship back from the NPU host)."""
    if isinstance(source, Mapping):
        return {Path(k).name: v for k, v in source.items()}
    path = Path(source)
    if path.is_file():
        return {path.name: _read_text(path)}
    if not path.is_dir():
        raise MsprofError(f"{path} does not exist; pass the OPPROF_* folder of msprof op or a kernel_details.csv.")
    files = sorted(p for p in path.rglob("*.csv")
                   if OPPROF_FILE.match(p.name) or KERNEL_TABLE_FILE.match(p.name))
    if not files:
        raise MsprofError(f"{path} holds no msprof op CSV (OpBasicInfo.csv, PipeUtilization.csv, ...) nor "
                          "kernel_details.csv; pass the folder msprof op --output wrote.")
    return {str(p.relative_to(path)): _read_text(p) for p in files}


def read_kernels(source: str | Path | Mapping[str, str],
                 names: Collection[str] | None = None) -> list[AscendKernel]:
    """Every kernel the source describes (only `names` when given), the longest total time first."""
    kernels = _all_kernels(read_source(source))
    if names:
        kernels = [k for k in kernels if k.name in names]
        if not kernels:
            raise MsprofError(f"The profiler output has no kernel named {', '.join(sorted(names))}; "
                              "check --kernel-name or profile the candidate again.")
    return sorted(kernels, key=lambda k: -k.total_us)


def _all_kernels(texts: dict[str, str]) -> list[AscendKernel]:
    opprof = _group_opprof(texts)
    kernels = [_from_opprof(group) for group in opprof.values()]
    for name, text in texts.items():
        if KERNEL_TABLE_FILE.match(Path(name).name):
            kernels += _from_kernel_table(read_table(text, name))
    if not kernels:
        raise MsprofError(f"No profiler CSV among {', '.join(sorted(texts))}; expected OpBasicInfo.csv, "
                          "PipeUtilization.csv or kernel_details.csv.")
    return kernels


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    for encoding in ("utf-8-sig", "gb18030"):  # CANN tools on Chinese locales may write GB text
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise MsprofError(f"{path} is neither UTF-8 nor GB18030 text; pass the CSV the profiler wrote.")


def _group_opprof(texts: dict[str, str]) -> dict[str, dict[str, CsvTable]]:
    """OPPROF CSVs grouped by folder (one folder per profiled operator launch)."""
    groups: dict[str, dict[str, CsvTable]] = {}
    for name, text in texts.items():
        match = OPPROF_FILE.match(Path(name).name)
        if match:
            metric = match.group(1).lower()
            groups.setdefault(str(Path(name).parent), {})[metric] = read_table(text, name)
    return groups


def _from_opprof(tables: dict[str, CsvTable]) -> AscendKernel:
    basic = tables.get("opbasicinfo")
    row = basic.rows[0] if basic and basic.rows else {}
    kernel = AscendKernel(name=(basic.text(row, *NAME_COLUMNS) if basic else None) or "?")
    if basic:
        kernel.op_type = basic.text(row, *TYPE_COLUMNS)
        kernel.duration_us = basic.number(row, *DURATION_COLUMNS)
        kernel.block_dim = _int(basic.number(row, *BLOCK_COLUMNS))
        kernel.mix_block_dim = _int(basic.number(row, *MIX_BLOCK_COLUMNS))
    for table in tables.values():
        kernel.sources.append(table.path)
        _merge_per_block(kernel, table)
    kernel.core_type = _core_from_pipes(kernel.pipes)
    pipe = tables.get("pipeutilization")
    if pipe:
        kernel.block_time_spread = _spread(pipe)
    return kernel


def _merge_per_block(kernel: AscendKernel, table: CsvTable) -> None:
    """Per-block rows (block_id, sub_block_id) averaged into the kernel's shares."""
    for column in table.units:
        values = [v for v in (table.number(r, column) for r in table.rows) if v is not None]
        if not values:
            continue
        mean = statistics.fmean(values)
        if m := PIPE_RATIO.match(column):
            kernel.pipes.setdefault(_pipe_key(m), _as_fraction(mean))
        elif m := PIPE_TIME.match(column):
            kernel.pipe_time_us.setdefault(_pipe_key(m), mean)
        elif m := CONFLICT_RATIO.match(column):
            kernel.conflicts.setdefault(f"{m.group(1)}_vec_{m.group(2)}", _as_fraction(mean))
        elif m := BANDWIDTH_USAGE.match(column):
            kernel.bandwidth_usage_pct.setdefault(m.group(1), mean)
        elif re.match(r"^ai[cv]_total_hit_rate$", column) or column == "aic_l2_cache_hit_rate":
            kernel.l2_hit_rate_pct = mean                      # read+write: the rate to report
        elif re.match(r"^ai[cv]_read_hit_rate$", column) and kernel.l2_hit_rate_pct is None:
            kernel.l2_hit_rate_pct = mean


def _from_kernel_table(table: CsvTable) -> list[AscendKernel]:
    """kernel_details.csv / op_summary: one row per launch, grouped by kernel name."""
    if not table.has(*NAME_COLUMNS) or not table.has(*DURATION_COLUMNS):
        raise MsprofError(f"{table.path} lacks a Name or Duration(us) column; pass the kernel_details.csv "
                          "the torch_npu profiler wrote (or msprof's op_summary CSV).")
    by_name: dict[str, list[dict[str, str]]] = {}
    for row in table.rows:
        by_name.setdefault(table.text(row, *NAME_COLUMNS) or "?", []).append(row)
    kernels = []
    for name, rows in by_name.items():
        first = rows[0]
        durations = [d for d in (table.number(r, *DURATION_COLUMNS) for r in rows) if d is not None]
        kernel = AscendKernel(
            name=name, op_type=table.text(first, *TYPE_COLUMNS),
            core_type=_core_type(table.text(first, *CORE_COLUMNS)),
            duration_us=statistics.median(durations) if durations else None, launches=len(rows),
            block_dim=_int(table.number(first, *BLOCK_COLUMNS)),
            mix_block_dim=_int(table.number(first, *MIX_BLOCK_COLUMNS)), sources=[table.path])
        _merge_per_block(kernel, CsvTable(table.path, rows, table.units))
        kernel.core_type = kernel.core_type or _core_from_pipes(kernel.pipes)
        kernels.append(kernel)
    return kernels


def _pipe_key(match: re.Match[str]) -> str:
    unit = "cube" if match.group(2) == "mac" else match.group(2)
    return f"{match.group(1)}_{unit}"


def _as_fraction(value: float) -> float:
    """The docs give ratios as 0..1 of cycles; a value above 1 can only be a percentage."""
    return value / 100 if value > 1.0 else value


def _core_type(text: str | None) -> str | None:
    if not text:
        return None
    t = text.lower().replace("_", "").replace(" ", "")
    if "cpu" in t:
        return "aicpu"
    if "mix" in t:
        return "mix"
    if "vector" in t or "aiv" in t:
        return "vector"
    return "cube" if "core" in t or "aic" in t else None


def _core_from_pipes(pipes: dict[str, float]) -> str | None:
    cube = any(k.startswith("aic_") and v > 0 for k, v in pipes.items())
    vector = any(k.startswith("aiv_") and v > 0 for k, v in pipes.items())
    return "mix" if cube and vector else "cube" if cube else "vector" if vector else None


def _spread(table: CsvTable) -> float | None:
    """Load imbalance: spread of per-block aiv_time (or aic_time) over the blocks."""
    for column in ("aiv_time", "aic_time"):
        times = [t for t in (table.number(r, column) for r in table.rows) if t]
        if len(times) >= 2:
            return (max(times) - min(times)) / max(times)
    return None


def _int(value: float | None) -> int | None:
    return int(value) if value is not None else None
