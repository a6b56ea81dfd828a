"""MCP tools over the knowledge base: search, one pass, the sources, a refresh."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ToolAnnotations

from web.house import House
from web.mcp.models import PassInfo, SearchHit, SearchResult, Source, SourceList

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True,
                            openWorldHint=False)


def register(server: FastMCP, house: House, relist) -> None:
    """`relist(ctx, force=False)` re-lists the pass resources (and notifies) after a refresh."""

    @server.tool(annotations=READ_ONLY)
    async def search_compiler_source(query: str, ctx: Context, backend: str | None = None,
                                     kind: str | None = None, source: str | None = None,
                                     pass_name: str | None = None, k: int = 8) -> SearchResult:
        """Hybrid search of the indexed compiler source and docs (Triton, triton-ascend,
        AscendNPU-IR): the k best passages with path, lines, symbol, permalink and score.
        Filters: backend (cuda, ascend, amd, common), kind (function, pass_def, doc_section,
        lit_test, ...), source name, and a pass argument such as tritongpu-coalesce."""
        page = await anyio.to_thread.run_sync(lambda: house.search(
            query, backend=backend, kind=kind, source=source, pass_=pass_name, page=1,
            per_page=max(1, min(k, 50))))
        await relist(ctx)
        return SearchResult(query=page.query, hits=[SearchHit(**{
            f: h[f] for f in SearchHit.model_fields}) for h in page.hits])

    @server.tool(annotations=READ_ONLY)
    async def get_pass(name: str, ctx: Context) -> PassInfo:
        """A compiler pass from the pass registry, looked up by argument, class, create
        function, binding or a whole 'IR Dump Before ...' line: its TableGen summary and
        options, where each backend's pipeline adds it, its implementation anchors, the
        analyses it consults and the IR symptoms that point to it."""
        rec = await anyio.to_thread.run_sync(house.pass_detail, name)
        await relist(ctx)
        return PassInfo(**{f: rec[f] for f in PassInfo.model_fields if f != "chunk_ids"},
                        chunk_ids=[c["id"] for c in rec["chunks"]])

    @server.tool(annotations=READ_ONLY)
    async def list_sources(ctx: Context) -> SourceList:
        """What the knowledge base holds: each source, its indexed commit or version, files,
        chunks and when it was last refreshed."""
        rows = await anyio.to_thread.run_sync(house.sources)
        await relist(ctx)
        return SourceList(sources=[Source(**{f: r.get(f) for f in Source.model_fields})
                                   for r in rows])

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False,
                                             idempotentHint=True, openWorldHint=True))
    async def refresh_index(ctx: Context) -> dict[str, Any]:
        """Bring every indexed source to its newest version (only changed files are
        re-indexed) and rebuild the pass registry; pass resources are re-listed after."""
        report = await anyio.to_thread.run_sync(house.refresh)
        await relist(ctx, force=True)
        return report
