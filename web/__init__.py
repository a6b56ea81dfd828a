"""The web UI, the JSON API (/api/v1) and the MCP server: thin doors onto the functions the CLI
calls. `create_app(config)` is the Flask app factory; each area is a blueprint."""

from __future__ import annotations

import secrets

from flask import Flask, Response, redirect, url_for

from web.config import WebConfig


def create_app(config: WebConfig) -> Flask:
    """A Flask app serving one PASSWISE_HOME; `config` is the only configuration it reads."""
    from web import api, diagnoses, passes, runs, search, security, sources
    from web.house import House
    from web.jobs import JobQueue
    from web.render import style_css

    app = Flask(__name__)
    app.secret_key = config.secret_key or secrets.token_hex(32)
    app.config.update(PASSWISE=config, MAX_CONTENT_LENGTH=config.max_body_bytes,
                      MAX_FORM_MEMORY_SIZE=config.max_body_bytes, JSON_SORT_KEYS=False)
    app.extensions["passwise.house"] = House(config)
    app.extensions["passwise.jobs"] = JobQueue(config)
    app.extensions["passwise.code_css"] = style_css()
    security.install(app)
    for bp in (search.bp, passes.bp, diagnoses.bp, runs.bp, sources.bp, api.bp):
        app.register_blueprint(bp)
    app.add_url_rule("/", "index", lambda: redirect(url_for("search.page")))
    app.add_url_rule("/code.css", "code_css", lambda: Response(
        app.extensions["passwise.code_css"], mimetype="text/css"))
    return app
