"""Chunkers: one module per language; `chunk_file` picks by extension and falls back to
line windows when a file does not parse or has no chunker."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from indexer.chunkers.segments import Source, emit, window_segments
from kb.chunk import Chunk

# Extension -> language. `.inc` is left out on purpose: those files are generated.
LANGUAGES = {
    ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".h": "cpp", ".hpp": "cpp",
    ".py": "python",
    ".td": "tablegen",
    ".mlir": "mlir",
    ".md": "markdown", ".markdown": "markdown",
    ".rst": "rst",
}
# Files larger than this are not parsed (generated tables, bundles): line windows only.
MAX_PARSE_CHARS = 2_000_000
# Rows of overlap between neighbouring line windows of the fallback splitter.
WINDOW_OVERLAP = 2


@dataclass
class ChunkResult:
    """The chunks of one file; `fallback` is True when the line-window splitter was used."""

    chunks: list[Chunk] = field(default_factory=list)
    fallback: bool = False
    language: str = ""


def language_for(path: str) -> str | None:
    """The language a path is chunked as, or None when such files are not indexed."""
    return LANGUAGES.get(posixpath.splitext(path)[1].lower())


def chunk_file(path: str, text: str, *, max_chars: int = 1800, min_chars: int = 200) -> ChunkResult:
    """Split one file's text into chunks whose text starts with the header line."""
    if "\x00" in text:
        return ChunkResult([], False, "")
    language = language_for(path) or "text"
    chunks = None
    if len(text) <= MAX_PARSE_CHARS and language != "text":
        try:
            chunks = _chunk_language(language, path, text, max_chars, min_chars)
        except (RecursionError, ValueError, UnicodeError):
            chunks = None  # a parser choked on odd input: line windows still index it
    if chunks is None:
        return ChunkResult(windows(path, text, max_chars, language), True, language)
    return ChunkResult(chunks, False, language)


def windows(path: str, text: str, max_chars: int, language: str = "text") -> list[Chunk]:
    """Line windows of at most max_chars with a small overlap, cut at blank lines if it can."""
    src = Source(path, text, weigh_cjk=True)
    braces = language in ("cpp", "tablegen")
    return [c for seg in window_segments(src, braces=braces) for c in
            emit(seg, src, max_chars, language, overlap=WINDOW_OVERLAP)]


def _chunk_language(language: str, path: str, text: str, max_chars: int,
                    min_chars: int) -> list[Chunk] | None:
    # Imported here so that a broken grammar install breaks only its own language.
    if language == "cpp":
        from indexer.chunkers.cpp import chunk_cpp
        return chunk_cpp(Source(path, text), max_chars, min_chars)
    if language == "python":
        from indexer.chunkers.python import chunk_python
        return chunk_python(Source(path, text), max_chars, min_chars)
    if language == "tablegen":
        from indexer.chunkers.tablegen import chunk_tablegen
        return chunk_tablegen(Source(path, text), max_chars, min_chars)
    if language == "mlir":
        from indexer.chunkers.mlir import chunk_mlir
        return chunk_mlir(Source(path, text), max_chars, min_chars)
    from indexer.chunkers.markdown import chunk_markdown
    return chunk_markdown(Source(path, text, weigh_cjk=True), max_chars, min_chars,
                          rst=language == "rst")
