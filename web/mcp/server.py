"""`passwise mcp`: one FastMCP server (the official SDK) over stdio or streamable HTTP, whose
tools and resources call the same House the web pages and /api/v1 call."""

from __future__ import annotations

import hmac

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.resources import FunctionResource

from web.config import WebConfig
from web.house import House
from web.jobs import JobQueue
from web.mcp import diagnosis_tools, kb_tools

PASS_URI = "passwise://pass/{backend}/{name}"


def build_server(config: WebConfig, host: str = "127.0.0.1", port: int = 8766) -> FastMCP:
    """The MCP server of one PASSWISE_HOME: tools, and each pipeline pass as a resource."""
    house, jobs = House(config), JobQueue(config)
    server = FastMCP("passwise", instructions=(
        "passwise explains why a Triton kernel is slow with evidence from the compiler: search "
        "the compiler's source, look passes up, diagnose a kernel, escalate an IR symptom."),
        host=host, port=port, log_level="WARNING")
    listed: set[str] = set()
    seen = {"registry": None}

    def list_passes() -> None:
        """(Re)register one resource per pass of each backend's pipeline."""
        try:
            seen["registry"] = house.registry_mtime()
        except Exception:
            seen["registry"] = None
        manager = server._resource_manager
        for uri in listed:
            manager._resources.pop(uri, None)
        listed.clear()
        try:
            pipelines = house.pipeline()
        except Exception:  # no index or registry yet: no pass resources, tools still answer
            return
        for backend, entries in pipelines.items():
            for e in entries:
                uri = PASS_URI.format(backend=backend, name=e["argument"])
                if uri not in listed:
                    listed.add(uri)
                    server.add_resource(FunctionResource(
                        uri=uri, name=e["argument"], description=e["summary"] or None,
                        mime_type="application/json",
                        fn=lambda name=e["argument"]: house.pass_detail(name)))

    @server.resource(PASS_URI, mime_type="application/json")
    def pass_resource(backend: str, name: str) -> dict:
        """A compiler pass from the registry (as get_pass returns it)."""
        return house.pass_detail(name)

    async def relist(ctx: Context, force: bool = False) -> None:
        """After a refresh (by the refresh_index tool, or `passwise refresh` beside this
        server: the registry file changed) re-list the passes and tell the client."""
        try:
            changed = force or house.registry_mtime() != seen["registry"]
        except Exception:
            changed = False
        if changed:
            list_passes()
            await ctx.session.send_resource_list_changed()

    kb_tools.register(server, house, relist)
    diagnosis_tools.register(server, house, jobs)
    list_passes()
    return server


class _TokenGate:
    """ASGI middleware: every HTTP request carries `Authorization: Bearer TOKEN`."""

    def __init__(self, app, token: str):
        self.app, self.token = app, token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            auth = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not (auth.startswith(b"Bearer ") and hmac.compare_digest(auth[7:].strip(), self.token)):
                body = b'{"error": "A token is required: send Authorization: Bearer TOKEN."}'
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(config: WebConfig, host: str = "127.0.0.1", port: int = 8766):
    """The streamable-HTTP ASGI app at /mcp, behind the token when one is set."""
    app = build_server(config, host, port).streamable_http_app()
    return _TokenGate(app, config.token) if config.token else app


def run(config: WebConfig, http: bool = False, host: str = "127.0.0.1", port: int = 8766) -> None:
    if not http:
        build_server(config).run("stdio")
        return
    import uvicorn

    uvicorn.run(http_app(config, host, port), host=host, port=port, log_level="warning")
