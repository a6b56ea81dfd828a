"""The lexical index on disk: numpy arrays and JSON in one .npz file, never pickle.

A cache file is data only: it is opened with `allow_pickle=False`, checked for shape and
range, and trusted only when its stamp names exactly the store content it was built from (the
collection's id and write generation) and the tokenizer that built it. Anything else (a torn,
corrupt, foreign or tampered file) is reported in one line and rebuilt from the store.

Layout: `meta` holds UTF-8 JSON {"stamp": ..., "json": {field: value}, "arrays": [...]};
every numeric array field is its own entry, `<field>` or `<field>/<key>` for dicts of arrays.
Fields with a plain default (BM25 parameters, the generation) come from the code, not the file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import zipfile
from pathlib import Path

import numpy as np

from kb.atomic import replace_atomically
from kb.lexical import FILTER_COLUMNS, LexicalIndex, tokenize

FORMAT = 3
_PROBE = "TritonGPUCoalesce tritongpu-coalesce get_vector_width numStages=3 向量加载 the of"


class CacheProblem(Exception):
    """Why a cache file cannot be used (a short phrase)."""


def tokenizer_fingerprint() -> str:
    """Changes when `tokenize` does, so a new tokenizer never reads an old cache."""
    return hashlib.sha1("\x1f".join(tokenize(_PROBE)).encode()).hexdigest()[:16]


def make_stamp(collection_id: str, generation: int) -> dict:
    return {"format": FORMAT, "collection": collection_id, "generation": generation,
            "tokenizer": tokenizer_fingerprint()}


def _data_fields() -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(LexicalIndex) if f.default is dataclasses.MISSING]


def save(idx: LexicalIndex, path: Path, stamp: dict) -> None:
    """Write the index atomically under a unique temporary name."""
    arrays: dict[str, np.ndarray] = {}
    plain: dict[str, object] = {}
    for f in _data_fields():
        _split(f.name, getattr(idx, f.name), arrays, plain)
    meta = {"stamp": stamp, "json": plain, "arrays": sorted(arrays)}
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    replace_atomically(path, lambda fh: np.savez(fh, **arrays))


def _split(name: str, value, arrays: dict, plain: dict) -> None:
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        arrays[name] = value
    elif isinstance(value, dict) and all(type(v) is int for v in value.values()) \
            and list(value.values()) == list(range(len(value))):
        plain[name] = {"__positions__": list(value)}  # a vocabulary: the keys in id order
    elif isinstance(value, np.ndarray):
        plain[name] = {"__strings__": [str(v) for v in value.tolist()]}
    elif isinstance(value, dict) and value and all(isinstance(v, np.ndarray) for v in value.values()):
        sub: dict[str, object] = {}
        for k, v in value.items():
            _split(f"{name}/{k}", v, arrays, sub)
        plain[name] = {"__dict_of_arrays__": sorted(value), "strings": sub}
    else:
        plain[name] = value


def load(path: Path, stamp: dict) -> LexicalIndex:
    """The cached index if it is whole, well-formed and built from exactly `stamp`'s content.

    Raises FileNotFoundError when there is no cache and CacheProblem when it cannot be used.
    """
    with open(path, "rb") as fh:
        if fh.read(4) != b"PK\x03\x04":  # not an .npz: never hand it to anything that unpickles
            raise CacheProblem("it is not a lexical index file")
        fh.seek(0)
        try:
            with np.load(fh, allow_pickle=False) as z:
                meta = json.loads(bytes(z["meta"]).decode())
                if not isinstance(meta, dict) or not isinstance(meta.get("stamp"), dict):
                    raise CacheProblem("it has no stamp")
                _check_stamp(meta["stamp"], stamp)
                arrays = {k: z[k] for k in meta.get("arrays", [])}
        except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile,
                UnicodeDecodeError) as e:
            raise CacheProblem(f"it is unreadable ({type(e).__name__})") from None
    try:
        idx = _assemble(meta.get("json", {}), arrays)
    except (TypeError, ValueError, AttributeError) as e:  # e.g. a list where text belongs
        raise CacheProblem(f"its fields are malformed ({type(e).__name__})") from None
    idx.generation = int(stamp["generation"])
    _check_shapes(idx)
    return idx


class StaleCache(CacheProblem):
    """A well-formed cache of another generation: expected after writes, not worth a warning."""


def _check_stamp(found: dict, want: dict) -> None:
    if found.get("format") != want["format"] or found.get("tokenizer") != want["tokenizer"]:
        raise StaleCache("it was built by another version of passwise")
    if found.get("collection") != want["collection"]:
        raise CacheProblem("it belongs to another collection")
    if found.get("generation") != want["generation"]:
        raise StaleCache("the store has changed since it was built")


def _assemble(plain: dict, arrays: dict[str, np.ndarray]) -> LexicalIndex:
    values = {}
    for f in _data_fields():
        if f.name in arrays:
            values[f.name] = arrays[f.name]
        elif f.name in plain:
            values[f.name] = _join(f.name, plain[f.name], arrays)
        else:
            raise CacheProblem(f"it lacks the field {f.name!r}")
    try:
        return LexicalIndex(**values)
    except TypeError as e:
        raise CacheProblem(f"its fields do not fit ({e})") from None


def _join(name: str, value, arrays: dict[str, np.ndarray]):
    if isinstance(value, dict) and "__positions__" in value:
        keys = value["__positions__"]
        return dict(zip(keys, range(len(keys)), strict=True))
    if isinstance(value, dict) and "__strings__" in value:
        strings = value["__strings__"]
        if not isinstance(strings, list) or not set(map(type, strings)) <= {str}:
            raise CacheProblem(f"its column {name!r} is not text")
        return np.array(strings, dtype=object)
    if isinstance(value, dict) and "__dict_of_arrays__" in value:
        sub = value.get("strings", {})
        out = {}
        for k in value["__dict_of_arrays__"]:
            key = f"{name}/{k}"
            out[k] = arrays[key] if key in arrays else _join(key, sub.get(key), arrays)
        return out
    if value is None:
        raise CacheProblem(f"it lacks the field {name!r}")
    return value


def _check_shapes(idx: LexicalIndex) -> None:
    """The invariants scoring relies on; a file that breaks one would crash or mislead search."""
    n = len(idx.ids)
    try:
        ok = (isinstance(idx.ids, list) and all(isinstance(i, str) for i in idx.ids)
              and isinstance(idx.vocab, dict) and _vocab_fits(idx)
              and idx.indptr.dtype.kind in "iu" and idx.docs.dtype.kind in "iu"
              and idx.tfs.dtype.kind == "f" and idx.doc_len.dtype.kind == "f"
              and set(FILTER_COLUMNS) <= set(idx.columns)
              and idx.indptr.ndim == 1 and len(idx.indptr) == len(idx.vocab) + 1
              and (len(idx.indptr) == 0 or (int(idx.indptr[0]) == 0
                                            and bool(np.all(np.diff(idx.indptr) >= 0))
                                            and int(idx.indptr[-1]) == len(idx.docs)))
              and idx.docs.ndim == 1 and len(idx.docs) == len(idx.tfs)
              and (len(idx.docs) == 0 or (int(idx.docs.min()) >= 0 and int(idx.docs.max()) < n))
              and idx.doc_len.ndim == 1 and len(idx.doc_len) == n
              and bool(np.isfinite(idx.tfs).all()) and bool(np.isfinite(idx.doc_len).all())
              and all(len(c) == n for c in idx.columns.values()))
    except (AttributeError, TypeError, ValueError) as e:
        raise CacheProblem(f"its arrays are malformed ({type(e).__name__})") from None
    if not ok:
        raise CacheProblem("its arrays do not fit together")


def _vocab_fits(idx: LexicalIndex) -> bool:
    """Every token id is an int naming a posting list (scoring indexes indptr with it)."""
    ids = list(idx.vocab.values())
    if not set(map(type, ids)) <= {int}:
        return False
    return not ids or (min(ids) >= 0 and max(ids) < len(idx.vocab))
