"""Who may call, and what a response may do: the token beyond loopback, CSRF on forms, a strict
Content-Security-Policy, and errors as one sentence."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, current_app, g, jsonify, request
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException

from web.config import is_loopback

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
TOKEN_COOKIE = "passwise_token"
CSRF_FIELD = "csrf_token"
CSRF_MAX_AGE_S = 12 * 3600


def install(app: Flask) -> None:
    """Register the checks on every request and the headers on every response."""
    app.before_request(_check_caller)
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.jinja_env.globals["csrf_token"] = csrf_token


def _check_caller():
    """With a token every request carries it; without one only loopback may call."""
    token = current_app.config["PASSWISE"].token
    if not token:
        if not is_loopback(request.remote_addr or ""):
            abort(403, "This passwise listens to loopback only; start it with --token to "
                       "serve other machines.")
        return None
    given = _given_token()
    if given and hmac.compare_digest(given.encode(), token.encode()):
        g.token_ok = True
        return None
    abort(401, "A token is required: send 'Authorization: Bearer TOKEN' or open "
               "/?token=TOKEN once.")


def _given_token() -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return auth[7:].strip()
    return request.args.get("token") or request.cookies.get(TOKEN_COOKIE)


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key, salt="passwise-csrf")


def csrf_token() -> str:
    """A signed token a form posts back; a page from another site cannot read it."""
    if "csrf" not in g:
        g.csrf = _serializer().dumps(secrets.token_hex(8))
    return g.csrf


def _check_csrf():
    """Form posts carry a valid CSRF token; JSON API posts need a JSON content type (which a
    cross-site form cannot send) instead."""
    if request.method != "POST":
        return None
    if request.path.startswith("/api/"):
        if not request.is_json:
            abort(415, "Send the request body as JSON (Content-Type: application/json).")
        return None
    try:
        _serializer().loads(request.form.get(CSRF_FIELD, ""), max_age=CSRF_MAX_AGE_S)
    except BadSignature:
        abort(400, "The form's CSRF token is missing or stale; reload the page and submit again.")
    return None


def _headers(resp):
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Frame-Options"] = "DENY"
    if g.get("token_ok") and request.args.get("token"):
        resp.set_cookie(TOKEN_COOKIE, request.args["token"], httponly=True, samesite="Strict")
    return resp


def _http_error(exc: HTTPException):
    """Every error is one sentence: JSON for the API, a small page otherwise."""
    sentence = exc.description if isinstance(exc.description, str) else exc.name
    if exc.code == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        sentence = f"The request body is larger than {limit} bytes; send a smaller kernel."
    if exc.code == 404 and sentence.startswith("The requested URL"):
        sentence = f"Nothing is served at {request.path}."
    if exc.code == 405:
        sentence = f"{request.method} is not allowed on {request.path}."
    if request.path.startswith("/api/") or request.path.startswith("/mcp"):
        return jsonify(error=sentence), exc.code
    from flask import render_template

    return render_template("error.html", code=exc.code, sentence=sentence), exc.code
