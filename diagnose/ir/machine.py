"""Machine-code facts: `ptxas -v` resource usage and SASS global-access widths.

Uses the ptxas / cuobjdump / nvdisasm that ship inside the triton wheel; no GPU needed.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from collections import Counter
from pathlib import Path

from .model import PtxasFacts, SassFacts

REGISTERS = re.compile(r"Used (\d+) registers(?:, used (\d+) barriers)?")
SPILLS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
SMEM = re.compile(r"(\d+) bytes smem")
# LDG.E.128, LDG.E.64.CONSTANT, STG.E.U16 ... ; no width suffix means 32 bits
SASS_GLOBAL = re.compile(r"\b(LDG|STG)\.E((?:\.[A-Z0-9_]+)*)")
SASS_LOCAL = re.compile(r"\b(LDL|STL)\b")
SASS_INSTR = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
WIDTHS = {"128": 128, "64": 64, "U16": 16, "S16": 16, "U8": 8, "S8": 8}


def parse_ptxas_log(log: str) -> PtxasFacts:
    """Registers, spills, stack and shared memory from a `ptxas -v` log."""
    facts = PtxasFacts(log=log)
    if m := REGISTERS.search(log):
        facts.registers = int(m.group(1))
        facts.barriers = int(m.group(2)) if m.group(2) else None
    if m := SPILLS.search(log):
        facts.stack_frame, facts.spill_stores, facts.spill_loads = map(int, m.groups())
    if m := SMEM.search(log):
        facts.shared_bytes = int(m.group(1))
    return facts


def run_ptxas(tool_dir: Path, ptx_file: Path, arch: str = "sm_90a",
              timeout: float = 120) -> PtxasFacts:
    """Assemble the PTX with -v and read the resource usage it reports.

    Wheels carry two assemblers; which one Triton uses for sm_90 changed between releases
    (3.9 emits PTX only the newer `ptxas-blackwell` accepts), so the other is tried when the
    first rejects the PTX version."""
    for name in ("ptxas", "ptxas-blackwell"):
        cmd = [str(tool_dir / name), f"-arch={arch}", "-v", str(ptx_file), "-o",
               str(ptx_file.with_suffix(".ptxas.cubin"))]
        if not (tool_dir / name).exists():
            continue
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if "Unsupported .version" not in proc.stderr:
            break
    facts = parse_ptxas_log(proc.stdout + proc.stderr)
    facts.arch, facts.command = arch, shlex.join(cmd)
    return facts


def parse_sass(text: str) -> SassFacts:
    """Global loads/stores by width in bits, and local-memory traffic, from SASS text."""
    loads: Counter[str] = Counter()
    stores: Counter[str] = Counter()
    for m in SASS_GLOBAL.finditer(text):
        bits = 32
        for qualifier in m.group(2).split("."):
            bits = WIDTHS.get(qualifier, bits)
        (loads if m.group(1) == "LDG" else stores)[str(bits)] += 1
    return SassFacts(global_loads=dict(loads), global_stores=dict(stores),
                     local_memory_ops=len(SASS_LOCAL.findall(text)),
                     instructions=len(SASS_INSTR.findall(text)))


def disassemble(tool_dir: Path, cubin_file: Path, timeout: float = 120) -> tuple[str, str]:
    """SASS text of a cubin (nvdisasm, falling back to cuobjdump) and the command used."""
    for cmd in ([str(tool_dir / "nvdisasm"), "-c", str(cubin_file)],
                [str(tool_dir / "cuobjdump"), "-sass", str(cubin_file)]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if proc.returncode == 0 and proc.stdout.strip():
            return proc.stdout, shlex.join(cmd)
    return "", ""
