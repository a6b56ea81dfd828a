"""Output schemas of the MCP tools: the JSON the CLI's --json prints, as typed models."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class SearchHit(BaseModel):
    """One passage, with where it lives and why it ranked."""

    id: str
    path: str
    repo: str
    start_line: int
    end_line: int
    symbol: str
    scope: str
    kind: str
    backend: str
    passes: list[str]
    permalink: str
    commit: str
    score: float
    lexical_score: float
    dense_score: float
    text: str


class SearchResult(BaseModel):
    query: str
    hits: list[SearchHit]


class PassInfo(BaseModel):
    """A pass from the registry: definition, options, pipeline places, anchors, symptoms."""

    argument: str
    def_name: str
    backend: str
    summary: str
    description: str
    td_path: str
    options: list[dict[str, Any]]
    pipeline_positions: list[dict[str, Any]]
    impl_anchors: list[dict[str, Any]]
    analyses: list[str]
    symptoms: list[dict[str, Any]]
    chunk_ids: list[str] = Field(description="ids of the chunks defining or implementing it")


class DiagnosisResult(BaseModel):
    """The end of a diagnose job; `diagnosis` is the full documented JSON when there is one."""

    state: str
    name: str
    verdict: str
    reason: str
    rewrite_family: str
    error: str
    progress: list[str]
    diagnosis: dict[str, Any] | None


class Source(BaseModel):
    name: str
    corpus: str | None
    version: str | None
    compiler_version: str | None
    files: int
    chunks: int
    refreshed_at: str | None


class SourceList(BaseModel):
    sources: list[Source]
