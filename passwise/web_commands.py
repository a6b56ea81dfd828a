"""`passwise serve` and `passwise mcp`: Settings and flags into a WebConfig, then the server."""

from __future__ import annotations

import argparse
from dataclasses import replace

from kb.errors import KBError
from passwise.settings import Settings
from web.config import WebConfig


def web_config(args: argparse.Namespace, s: Settings) -> WebConfig:
    return WebConfig(home=s.home, chroma_url=s.chroma_url, corpus_set=s.corpus_set,
                     model=s.model, token=getattr(args, "token", None) or s.token,
                     mirrors=list(s.mirrors))


def cmd_serve(args: argparse.Namespace, s: Settings) -> int:
    from web.serve import ServeError, serve

    try:
        config = replace(web_config(args, s), search_workers=max(0, args.search_workers))
        serve(config, host=args.host, port=args.port, threads=args.threads)
    except ServeError as exc:
        raise KBError(str(exc)) from None
    except OSError as exc:
        raise KBError(f"Cannot listen on {args.host}:{args.port} ({exc.strerror or exc}); "
                      "pick another --port.") from None
    return 0


def cmd_mcp(args: argparse.Namespace, s: Settings) -> int:
    from web.mcp.server import run
    from web.serve import ServeError, check_listen

    config = web_config(args, s)
    try:
        if args.http:
            check_listen(args.host, config.token)
        run(config, http=args.http, host=args.host, port=args.port)
    except ServeError as exc:
        raise KBError(str(exc)) from None
    return 0
