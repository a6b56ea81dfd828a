"""`passwise serve`: the app under waitress, loopback unless a token guards it."""

from __future__ import annotations

import threading

from web import create_app
from web.config import WebConfig, is_loopback


class ServeError(ValueError):
    """A serve configuration that must not start (one sentence)."""


def check_listen(host: str, token: str | None) -> None:
    if not is_loopback(host) and not token:
        raise ServeError(f"Listening on {host} serves other machines, so it needs a token: "
                         "pass --token or set PASSWISE_TOKEN (or keep the default 127.0.0.1).")


def serve(config: WebConfig, host: str = "127.0.0.1", port: int = 8765,
          threads: int = 8) -> None:
    """Serve until interrupted; refuses a non-loopback host without a token. New questions
    are ranked in `config.search_workers` processes (web/search_pool.py)."""
    from waitress import serve as waitress_serve

    check_listen(host, config.token)
    _one_torch_thread()
    app = create_app(config)
    threading.Thread(target=_warm, args=(app,), daemon=True, name="passwise-warm").start()
    print(f"passwise: serving {config.home} on http://{host}:{port}/", flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident="passwise",
                   max_request_body_size=config.max_body_bytes * 2, clear_untrusted_proxy_headers=True)


def _warm(app) -> None:
    """Load the embedder and the lexical index now, not on the first user's search."""
    try:
        app.extensions["passwise.house"].warm()
    except Exception:  # an empty or unreachable index says so on the first real request
        pass


def _one_torch_thread() -> None:
    """Requests run side by side on waitress' threads; a query embedding is small, and torch's
    intra-op threads would only fight each other (and the index) for the same cores."""
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(1)
