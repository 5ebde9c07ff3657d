"""``corefreport tui --serve``: the terminal browser as a web page, for a cluster reached by SSH,
drivable only by the person who started it (like a notebook server).

textual-serve (Textualize's own package for this job) runs ``corefreport tui …`` for each browser
tab and relays the terminal over a websocket. It listens on 127.0.0.1 only: the page is reached
through ``ssh -L LOCAL:127.0.0.1:PORT``, never through a public address or relay.

127.0.0.1 is not private: every user of the machine can connect to it, and so can any web page open
in the browser at the end of the tunnel (websockets ignore the same-origin rule; a page can also
rebind its own host name to 127.0.0.1). textual-serve checks nothing, so :class:`TunnelServer`
refuses, before any handler runs (one aiohttp middleware):

* a ``Host`` that is not ``localhost``, ``127.0.0.1`` or ``[::1]`` (any port: a tunnel from another
  local port makes the browser send ``localhost:9000``) — 403; this stops DNS rebinding;
* an ``Origin`` (browsers send one with every websocket) whose host and port differ from the
  ``Host``'s — 403; a page of another site, or of another port of the laptop, cannot drive it;
* a request without the token of this start (``?token=…`` in the URL, or the cookie the first good
  request sets, so that the page's static files and its websocket need no token in their URLs;
  compared with :func:`hmac.compare_digest`) — 403;
* a websocket beyond ``max_sessions`` open at once — 503, before any scoring process starts.

textual-serve writes its own address (``public_url``, ``http://HOST:PORT``) into the page, for the
static files and the websocket: behind a tunnel whose local port differs (``ssh -L
9000:127.0.0.1:8000``) the browser would then connect to port 8000 of the laptop and fail.
:class:`TunnelServer` writes the address the browser asked for instead (the request's ``Host``,
checked above).

textual-serve builds its aiohttp application in the private ``Server._make_app``; the middleware is
added to the application it returns. textual-serve is pinned to the minor version tested
(``pyproject.toml``) and ``tests/test_tui_serve_auth.py`` fails when that name moves.
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
import shlex
import sys
from typing import Mapping
from urllib.parse import urlsplit

from ..errors import SettingsError

HOST = "127.0.0.1"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
TOKEN_ENV = "COREFREPORT_TOKEN"
MAX_SESSIONS = 2
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9._~-]{16,}")
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def command_line(argv: list[str]) -> list[str]:
    """The ``corefreport tui …`` arguments each browser tab runs: ``argv`` without ``--serve``,
    ``--port N``, ``--token T`` and ``--max-sessions N`` (the token never reaches a child's command
    line, which other users can read with ``ps``)."""
    with_value = ("--port", "--token", "--max-sessions")
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a in with_value:
            skip = True
        elif a != "--serve" and not a.startswith(tuple(f"{o}=" for o in with_value)):
            out.append(a)
    return out


def choose_token(given: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """The token of this start: ``given`` (``--token``), else ``$COREFREPORT_TOKEN``, else 32 random
    bytes (:func:`secrets.token_urlsafe`, 43 characters). A chosen token must be at least 16
    characters of ``A-Z a-z 0-9 - _ . ~`` (it goes into a URL and a cookie, and a short one can be
    guessed by trying)."""
    source, token = ("--token", given) if given is not None else (TOKEN_ENV, environ.get(TOKEN_ENV))
    if token is None:
        return secrets.token_urlsafe(32)
    if not TOKEN_SHAPE.fullmatch(token):
        raise SettingsError(f"{source}: the token must be at least 16 characters of A-Z a-z 0-9 - _ . ~ "
                            f"(got {len(token)} character(s){'' if token.isascii() else ', not all ASCII'}); "
                            f"leave it out for a random one")
    return token


def host_authority(value: str | None, scheme: str = "http") -> tuple[str, int] | None:
    """``(name, port)`` of a ``Host`` header naming this machine's loopback — ``localhost``,
    ``127.0.0.1`` or ``[::1]``, any port (the scheme's default when none is given) — else ``None``."""
    if not value:
        return None
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket:
            return None
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if name not in LOOPBACK_NAMES:
        return None
    if not rest:
        return name, DEFAULT_PORTS.get(scheme, 80)
    port = rest[1:] if rest.startswith(":") else ""
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        return None
    return name, int(port)


def origin_authority(origin: str) -> tuple[str, int] | None:
    """``(name, port)`` of an ``Origin`` header (``http://localhost:9000``) on the loopback, else
    ``None`` (another site, ``null``, a malformed value)."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or parts.path not in ("", "/") or parts.query or parts.username:
        return None
    return host_authority(parts.netloc, parts.scheme)


def refusal(host: str | None, origin: str | None, offered: list[str], token: str) -> str | None:
    """Why a request is refused (403), or ``None`` when it may go on: ``host``/``origin`` are its
    headers, ``offered`` the tokens it carries (query string, cookie)."""
    where = host_authority(host)
    if where is None:
        return "this server answers only to localhost, 127.0.0.1 or [::1] (the Host of the request is another name)"
    if origin is not None and origin_authority(origin) != where:
        return "a page of another site (its Origin is not the address of this page) may not use this server"
    expected = token.encode()
    if not any(hmac.compare_digest(t.encode("utf-8", "replace"), expected) for t in offered):
        return ("open the address with ?token=… that 'corefreport tui --serve' printed where it runs "
                "(no token, or a wrong one)")
    return None


def tunnel_line(port: int, token: str = "TOKEN", max_sessions: int = MAX_SESSIONS) -> str:
    """What ``--serve`` prints on stderr: the address with the token and the ``ssh -L`` line."""
    q = f"/?token={token}"
    return (f"serving corefreport on http://{HOST}:{port}{q} (this machine only, with its token; "
            f"at most {max_sessions} browser tab(s) at once; Ctrl+C stops).\n"
            f"On your laptop: ssh -N -L {port}:{HOST}:{port} USER@THIS_HOST  then open http://localhost:{port}{q}\n"
            f"(any local port works: ssh -N -L 9000:{HOST}:{port} … and http://localhost:9000{q})")


def make_server(command: str, port: int, token: str | None = None, max_sessions: int = MAX_SESSIONS):
    """A textual-serve server on 127.0.0.1:``port`` whose page uses the browser's own address and
    that refuses, before anything else, every request without ``token`` (random when ``None``),
    with a foreign ``Host`` or ``Origin``, and every websocket beyond ``max_sessions``."""
    from aiohttp import web
    from textual_serve.server import Server

    token = token if token is not None else choose_token(None, {})
    cookie = f"corefreport-token-{port}"

    class TunnelServer(Server):
        sessions = 0

        async def _make_app(self) -> web.Application:  # private in textual-serve 1.1 (pinned, tested)
            app = await super()._make_app()
            app.middlewares.append(self.guard)
            return app

        @web.middleware
        async def guard(self, request: web.Request, handler):
            query = request.query.get("token")
            offered = [t for t in (query, request.cookies.get(cookie)) if t is not None]
            why = refusal(request.headers.get("Host"), request.headers.get("Origin"), offered, token)
            if why is not None:
                return web.Response(status=403, text=f"corefreport: {why}\n")
            response = await handler(request)
            if query is not None and not response.prepared:
                # the page's static files and its websocket carry the cookie, not the token
                response.set_cookie(cookie, token, httponly=True, samesite="Strict", path="/")
            return response

        async def handle_index(self, request):  # type: ignore[override]
            # the URLs in the page (static files, websocket) follow the address the browser used
            # (a loopback name: the guard refused any other), so a tunnel from another local port
            # works; handle_index renders without awaiting anything, so no other request sees it
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        async def handle_websocket(self, request):  # type: ignore[override]
            # no await between the test and the count: two sockets cannot both take the last place
            if self.sessions >= max_sessions:
                print(f"corefreport: refused a browser tab: {max_sessions} are open (--max-sessions)",
                      file=sys.stderr, flush=True)
                return web.Response(status=503, text=f"corefreport: at most {max_sessions} browser tab(s) at "
                                                     f"once (--max-sessions); close one and reload\n")
            self.sessions += 1
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions -= 1

    return TunnelServer(command, host=HOST, port=port, title="corefreport")


def serve_tui(argv: list[str] | None = None, port: int = 8000, token: str | None = None,
              max_sessions: int = MAX_SESSIONS) -> int:
    """Serve ``corefreport tui …`` (``argv``; default this process's arguments without
    ``--serve``/``--port``/``--token``/``--max-sessions``) on 127.0.0.1:``port`` until Ctrl+C, to
    requests that carry ``token`` (default: :func:`choose_token`); 2 when textual-serve is missing,
    the token is malformed or the port is taken."""
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        print("corefreport: error: --serve needs textual-serve: pip install textual-serve", file=sys.stderr)
        return 2
    try:
        token = choose_token(token)
    except SettingsError as err:
        print(f"corefreport: error: {err}", file=sys.stderr)
        return 2
    args = command_line(list(sys.argv[1:] if argv is None else argv))
    command = shlex.join([sys.executable, "-m", "corefreport", *args])
    print(tunnel_line(port, token, max_sessions), file=sys.stderr, flush=True)
    try:
        make_server(command, port, token, max_sessions).serve()
    except OSError as err:
        print(f"corefreport: error: --serve cannot listen on {HOST}:{port}: {err.strerror or err} "
              f"(another --port?)", file=sys.stderr)
        return 2
    return 0
