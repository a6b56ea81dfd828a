"""The MCP server through the SDK's own client: over stdio (`passwise mcp` as a subprocess) and
over streamable HTTP; tools with schemas and annotations, passes as resources, a refresh that
announces the resource list changed."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {"search_compiler_source", "get_pass", "diagnose_kernel", "escalate_symptom",
         "list_sources", "refresh_index"}
READ_ONLY = {"search_compiler_source", "get_pass", "escalate_symptom", "list_sources"}


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 240))


async def exercise(session: ClientSession, home: dict) -> dict:
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    hits = await session.call_tool("search_compiler_source",
                                   {"query": "vector width contiguity", "k": 2})
    rec = await session.call_tool("get_pass", {"name": "tritongpu-coalesce"})
    resources = [str(r.uri) for r in (await session.list_resources()).resources]
    read = await session.read_resource("passwise://pass/cuda/tritongpu-coalesce")
    bad = await session.call_tool("get_pass", {"name": "no-such-pass"})
    return {"tools": tools, "hits": hits, "rec": rec, "resources": resources, "read": read,
            "bad": bad}


def check(out: dict) -> None:
    assert TOOLS <= set(out["tools"])
    for name, tool in out["tools"].items():
        assert tool.inputSchema["type"] == "object" and tool.outputSchema, name
        assert tool.annotations.readOnlyHint == (name in READ_ONLY), name
    hits = out["hits"].structuredContent["hits"]
    assert len(hits) == 2 and hits[0]["path"] and hits[0]["start_line"] >= 1
    assert out["rec"].structuredContent["argument"] == "tritongpu-coalesce"
    assert "passwise://pass/cuda/tritongpu-coalesce" in out["resources"]
    assert "tritongpu-coalesce" in out["read"].contents[0].text
    assert out["bad"].isError and "No pass matches" in out["bad"].content[0].text


def test_mcp_over_stdio_serves_tools_and_pass_resources(web_home):
    params = StdioServerParameters(
        command=sys.executable, cwd=str(ROOT),
        args=["-m", "passwise", "mcp", "--home", str(web_home["home"]), "--corpus-set", "default"],
        env={**os.environ, "PASSWISE_KERNELS": str(web_home["kernels"])})

    async def go():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            out = await exercise(s, web_home)
            source = (web_home["kernels"] / "shifted" / "baseline.py").read_text()
            out["diag"] = await s.call_tool("diagnose_kernel", {"source": source,
                                                                "task": "shifted", "max_tier": 1})
            return out

    out = run(go())
    check(out)
    assert not out["diag"].isError, out["diag"].content
    diag = out["diag"].structuredContent
    assert diag["state"] == "done" and diag["diagnosis"]["target"] == "shifted"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def mcp_http(web_home):
    import uvicorn

    from tests.escalate_fixtures.repo import URL
    from web.config import WebConfig
    from web.mcp.server import http_app

    port = _free_port()
    config = WebConfig(home=web_home["home"], corpus_set="default", token="t0ken",
                       kernels_dir=web_home["kernels"], mirrors=[f"{URL}={web_home['upstream']}"])
    server = uvicorn.Server(uvicorn.Config(http_app(config, port=port), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(10)


def test_mcp_over_http_needs_the_token_and_announces_resources_after_a_refresh(mcp_http,
                                                                                web_home):
    import requests

    assert requests.post(mcp_http, json={}, timeout=10).status_code == 401
    seen: list[str] = []

    async def on_message(message) -> None:
        root = getattr(message, "root", None)
        if root is not None:
            seen.append(type(root).__name__)

    async def go():
        headers = {"Authorization": "Bearer t0ken"}
        async with create_mcp_http_client(headers=headers) as http, \
                streamable_http_client(mcp_http, http_client=http) as (read, write, _), \
                ClientSession(read, write, message_handler=on_message) as s:
            out = await exercise(s, web_home)
            out["refresh"] = await s.call_tool("refresh_index", {})
            await asyncio.sleep(0.5)
            out["after_tool"] = seen.count("ResourceListChangedNotification")
            await asyncio.to_thread(refresh_beside_the_server, web_home)  # `passwise refresh`
            await s.call_tool("get_pass", {"name": "tritongpu-coalesce"})
            await asyncio.sleep(0.5)
            return out

    out = run(go())
    check(out)
    assert not out["refresh"].isError, out["refresh"].content
    assert out["after_tool"] == 1  # the refresh_index tool announced the new list
    assert seen.count("ResourceListChangedNotification") == 2  # and so did a refresh beside it


def refresh_beside_the_server(web_home: dict) -> None:
    """What `passwise refresh` does, in this process: the registry file is rewritten."""
    from indexer.index import Progress, refresh
    from indexer.registry import save_source_registry
    from tests.escalate_fixtures.repo import URL

    kb = web_home["kb"]
    time.sleep(0.05)  # a new mtime even on a coarse clock
    refresh(kb, mirrors={URL: str(web_home["upstream"])}, progress=Progress(quiet=True),
            on_snapshot=lambda snap, _v: save_source_registry(kb, snap))
