"""The pass registry: from a pass name, flag, binding or IR-dump header to the compiler source
that defines and implements the pass, and to its position in each backend's pipeline."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from kb.atomic import write_text_atomically
from kb.errors import KBError

# How a record's links were established, best first.
LINK_QUALITIES = ("exact", "partial", "inferred", "external", "unresolved")

SCHEMA_VERSION = 1


class PassRegistryError(KBError):
    """A registry file a user pointed at cannot be read."""


@dataclass
class PassOption:
    """One `Option<...>` or `ListOption<...>` of a TableGen pass def."""

    name: str
    type: str
    default: str = ""
    description: str = ""
    cpp_name: str = ""
    is_list: bool = False


@dataclass
class ImplAnchor:
    """A place in the source that implements a pass: fetch KB chunks overlapping these lines."""

    path: str
    symbol: str
    start_line: int
    end_line: int
    kind: str = "class"  # class | create_function | gen_pass_def | binding
    source: str = ""


@dataclass
class PipelinePosition:
    """Where a backend's pipeline adds the pass; `condition` is the guarding source text."""

    backend: str
    stage: str
    index: int
    condition: str = ""
    path: str = ""
    line: int = 0
    call: str = ""  # the call or flag as written, e.g. passes.ttgpuir.add_coalesce
    via: list[str] = field(default_factory=list)  # builder functions inlined to reach it


@dataclass
class PassRecord:
    """Everything passwise knows about one pass argument."""

    argument: str
    def_name: str = ""
    backend: str = "common"
    summary: str = ""
    description: str = ""
    options: list[PassOption] = field(default_factory=list)
    td_path: str = ""
    td_lines: list[int] = field(default_factory=list)  # [start, end], 1-based inclusive
    constructor: str = ""
    classes: list[str] = field(default_factory=list)
    create_functions: list[str] = field(default_factory=list)
    bindings: list[str] = field(default_factory=list)  # e.g. passes.ttgpuir.add_coalesce
    impl_anchors: list[ImplAnchor] = field(default_factory=list)
    pipeline_positions: list[PipelinePosition] = field(default_factory=list)
    source: str = ""
    repo_url: str = ""
    commit: str = ""
    link_quality: str = "exact"
    dependent_dialects: list[str] = field(default_factory=list)
    also_defined_in: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> PassRecord:
        known = {f.name for f in fields(cls)}
        d = {k: v for k, v in d.items() if k in known}
        d["options"] = [PassOption(**o) for o in d.get("options", [])]
        d["impl_anchors"] = [ImplAnchor(**a) for a in d.get("impl_anchors", [])]
        d["pipeline_positions"] = [PipelinePosition(**p) for p in d.get("pipeline_positions", [])]
        return cls(**d)

    def names(self) -> list[str]:
        """Every name this pass can be looked up by."""
        out = [self.argument, self.def_name, *self.classes, *self.create_functions]
        for b in self.bindings:
            parts = b.split(".")
            out += [".".join(parts[i:]) for i in range(len(parts))]
        return [n for n in out if n]


@dataclass
class PipelineFlag:
    """A command-line option a backend passes to an external compiler (e.g. bishengir-compile)
    that is not itself a pass argument; kept so a flag can still be traced to its stage."""

    backend: str
    stage: str
    flag: str
    condition: str = ""
    path: str = ""
    line: int = 0


@dataclass
class DumpHeader:
    """A parsed `IR Dump Before/After` line."""

    when: str  # Before | After
    pass_name: str
    argument: str = ""
    operation: str = ""
    failed: bool = False


# MLIR prints `// -----// IR Dump Before Name (arg) ('op' operation: @sym) //----- //`; older
# builds omit `(arg)`, failures print `After Name Failed (arg)`, and some tools print
# `IR Dump Before Name: arg`. One tolerant pattern covers them all.
_HEADER = re.compile(
    r"IR Dump (?P<when>Before|After)\s+(?:Pass\s+)?(?P<name>[A-Za-z_](?:[\w.<>]|::)*)"
    r"(?P<failed>\s+Failed)?"
    r"(?:\s*\((?P<arg>[\w.\-]+)\)|\s*:\s*(?P<arg2>[\w.\-]+))?"
    r"(?:\s*\('(?P<op>[\w.]+)' operation)?"
)


def parse_dump_header(line: str) -> DumpHeader | None:
    """Parse an MLIR IR-dump header line; None if the line is not one."""
    m = _HEADER.search(line)
    if not m:
        return None
    return DumpHeader(
        when=m["when"], pass_name=m["name"], argument=m["arg"] or m["arg2"] or "",
        operation=m["op"] or "", failed=bool(m["failed"]),
    )


def _flag_name(name: str) -> str:
    """`--triton-to-linalg=foo` -> `triton-to-linalg`."""
    return name.lstrip("-").split("=", 1)[0].strip()


class PassRegistry:
    """Pass records keyed by argument, with lookups by every name a user may hold."""

    def __init__(self, records: list[PassRecord] | None = None,
                 flags: list[PipelineFlag] | None = None,
                 stage_order: dict[str, list[str]] | None = None) -> None:
        self.records: dict[str, PassRecord] = {}
        self.flags: list[PipelineFlag] = list(flags or [])
        # backend -> its stages in the order the compiler runs them
        self.stage_order: dict[str, list[str]] = {b: list(s) for b, s in
                                                  (stage_order or {}).items()}
        self._index: dict[str, str] = {}
        for r in records or []:
            self.add(r)

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self):
        return iter(self.records.values())

    def add(self, record: PassRecord) -> None:
        """Add a record, merging with an existing one of the same argument."""
        old = self.records.get(record.argument)
        self.records[record.argument] = _merge_records(old, record) if old else record
        self._reindex(self.records[record.argument])

    def _reindex(self, record: PassRecord) -> None:
        for n in record.names():
            # The first record to claim a short name keeps it (e.g. add_canonicalizer).
            self._index.setdefault(n, record.argument)
            self._index.setdefault(n.lower(), record.argument)

    def lookup(self, name: str) -> PassRecord | None:
        """Find a pass by argument, def name, class, create function, binding, flag or
        a whole IR-dump header line."""
        name = name.strip()
        header = parse_dump_header(name) if "IR Dump" in name else None
        if header:
            for key in (header.argument, header.pass_name):
                if key and (r := self._find(key)):
                    return r
            return None
        return self._find(_flag_name(name)) or self._find(name)

    def _find(self, key: str) -> PassRecord | None:
        if key in self.records:
            return self.records[key]
        arg = self._index.get(key) or self._index.get(key.lower())
        if arg is None and "::" in key:
            return self._find(key.rsplit("::", 1)[1])
        return self.records.get(arg) if arg else None

    def backends(self) -> list[str]:
        seen: dict[str, None] = {}
        for r in self.records.values():
            for p in r.pipeline_positions:
                seen.setdefault(p.backend, None)
        return list(seen)

    def stages(self, backend: str) -> list[str]:
        """The backend's stages in pipeline order."""
        seen: dict[str, None] = {}
        for _, p in self._positions(backend):
            seen.setdefault(p.stage, None)
        return list(seen)

    def _positions(self, backend: str, stage: str | None = None):
        out = [(r, p) for r in self.records.values() for p in r.pipeline_positions
               if p.backend == backend and (stage is None or p.stage == stage)]
        order = {s: i for i, s in enumerate(self.stage_order.get(backend, []))}
        for _, p in out:
            order.setdefault(p.stage, len(order))
        out.sort(key=lambda rp: (order[rp[1].stage], rp[1].index))
        return out

    def pipeline(self, backend: str, stage: str | None = None) -> list[PassRecord]:
        """The passes of a backend's pipeline in order (a pass added twice appears twice)."""
        return [r for r, _ in self._positions(backend, stage)]

    def pipeline_entries(self, backend: str,
                         stage: str | None = None) -> list[tuple[PassRecord, PipelinePosition]]:
        """Like `pipeline`, with the position (stage, index, condition) of each entry."""
        return self._positions(backend, stage)

    def pipeline_json(self, backends: list[str] | None = None) -> dict[str, list[dict]]:
        """{backend: [entry]} in pipeline order, the form `passwise passes --json` prints."""
        return {b: [pipeline_entry_json(r, p) for r, p in self._positions(b)]
                for b in (backends or self.backends())}

    def gated_by(self, flag: str) -> list[tuple[PassRecord, PipelinePosition]]:
        """Pipeline entries whose guarding condition reads the option a command-line flag
        sets (`--enable-auto-multi-buffer` -> `options.enableAutoMultiBuffer`)."""
        want = _flag_name(flag).replace("-", "").lower()
        return [(r, p) for r in self.records.values() for p in r.pipeline_positions
                if want and want in re.sub(r"[^a-z0-9]", "", p.condition.lower())]

    def merge(self, other: PassRegistry) -> PassRegistry:
        """A new registry holding both; on a shared argument this one's facts win and
        positions, anchors and names are united."""
        out = PassRegistry(list(self.records.values()), self.flags, self.stage_order)
        for r in other.records.values():
            out.add(r)
        out.flags += [f for f in other.flags if f not in out.flags]
        for backend, stages in other.stage_order.items():
            out.stage_order[backend] = _union(out.stage_order.get(backend, []), stages)
        return out

    def to_json(self) -> dict:
        return {"schema": SCHEMA_VERSION,
                "records": [r.to_json() for r in self.records.values()],
                "flags": [asdict(f) for f in self.flags], "stage_order": self.stage_order}

    def save(self, path: str | Path) -> None:
        write_text_atomically(Path(path), json.dumps(self.to_json(), indent=1, sort_keys=True))

    @classmethod
    def load(cls, path: str | Path) -> PassRegistry:
        try:
            data = json.loads(Path(path).read_text())
        except FileNotFoundError:
            raise PassRegistryError(
                f"No pass registry at {path}; run `passwise index` to build one.") from None
        except json.JSONDecodeError as e:
            raise PassRegistryError(
                f"Pass registry {path} is not valid JSON ({e.msg}); rebuild it with "
                "`passwise index`.") from None
        return cls.from_json(data, str(path))

    @classmethod
    def from_json(cls, data: dict, where: str) -> PassRegistry:
        """A registry from its JSON form (`where` names its origin in the error)."""
        if data.get("schema") != SCHEMA_VERSION:
            raise PassRegistryError(
                f"Pass registry {where} has schema {data.get('schema')}, expected "
                f"{SCHEMA_VERSION}; rebuild it with `passwise index`.")
        return cls([PassRecord.from_json(r) for r in data["records"]],
                   [PipelineFlag(**f) for f in data.get("flags", [])],
                   data.get("stage_order", {}))


def pipeline_entry_json(rec: PassRecord, pos: PipelinePosition) -> dict:
    """One pipeline entry: the pass and where the backend adds it."""
    return {"argument": rec.argument, "def_name": rec.def_name, "stage": pos.stage,
            "index": pos.index, "condition": pos.condition or "", "summary": rec.summary or "",
            "td_path": rec.td_path}


def _union(a: list, b: list) -> list:
    return a + [x for x in b if x not in a]


def _merge_records(a: PassRecord, b: PassRecord) -> PassRecord:
    """Combine two records of one argument: `a`'s scalars win unless empty, or unless `b`
    has a better link quality (a real def beats a guess)."""
    rank = LINK_QUALITIES.index
    first, second = (b, a) if rank(b.link_quality) < rank(a.link_quality) else (a, b)
    merged = PassRecord(**{f.name: getattr(first, f.name) for f in fields(PassRecord)})
    for f in fields(PassRecord):
        v1, v2 = getattr(first, f.name), getattr(second, f.name)
        if isinstance(v1, list):
            setattr(merged, f.name, _union(list(v1), v2))
        elif not v1 and v2:
            setattr(merged, f.name, v2)
    if first.td_path and second.td_path and second.td_path != first.td_path:
        merged.also_defined_in = _union(merged.also_defined_in, [second.td_path])
    if first.td_lines:
        merged.td_lines = list(first.td_lines)
    return merged
