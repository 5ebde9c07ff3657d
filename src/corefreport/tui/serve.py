"""``corefreport tui --serve``: the terminal browser as a web page, for a cluster reached by SSH.

textual-serve (Textualize's own package for this job) runs ``corefreport tui …`` for each browser
tab and relays the terminal over a websocket. It listens on 127.0.0.1 only: the page is reached
through ``ssh -L LOCAL:127.0.0.1:PORT``, never through a public address or relay.

textual-serve writes its own address (``public_url``, ``http://HOST:PORT``) into the page, for
the static files and the websocket: behind a tunnel whose local port differs (``ssh -L
9000:127.0.0.1:8000``) the browser would then connect to port 8000 of the laptop and fail.
:class:`TunnelServer` writes the address the browser asked for instead (the request's ``Host``).
"""

from __future__ import annotations

import shlex
import sys

HOST = "127.0.0.1"


def command_line(argv: list[str]) -> list[str]:
    """The ``corefreport tui …`` arguments each browser tab runs: ``argv`` without ``--serve`` and
    ``--port N``."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == "--port":
            skip = True
        elif a != "--serve" and not a.startswith("--port="):
            out.append(a)
    return out


def tunnel_line(port: int) -> str:
    return (f"serving corefreport on http://{HOST}:{port} (this machine only; Ctrl+C stops).\n"
            f"On your laptop: ssh -N -L {port}:{HOST}:{port} USER@THIS_HOST  then open http://localhost:{port}\n"
            f"(any local port works: ssh -N -L 9000:{HOST}:{port} … and http://localhost:9000)")


def make_server(command: str, port: int):
    """A textual-serve server on 127.0.0.1:``port`` whose page uses the browser's own address."""
    from textual_serve.server import Server

    class TunnelServer(Server):
        async def handle_index(self, request):  # type: ignore[override]
            # the URLs in the page (static files, websocket) follow the address the browser used,
            # so a tunnel from another local port works; handle_index renders without awaiting
            # anything, so no other request sees this value
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    return TunnelServer(command, host=HOST, port=port, title="corefreport")


def serve_tui(argv: list[str] | None = None, port: int = 8000) -> int:
    """Serve ``corefreport tui …`` (``argv``; default this process's arguments without
    ``--serve``/``--port``) on 127.0.0.1:``port`` until Ctrl+C; 2 when textual-serve is missing."""
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        print("corefreport: error: --serve needs textual-serve: pip install textual-serve", file=sys.stderr)
        return 2
    args = command_line(list(sys.argv[1:] if argv is None else argv))
    command = shlex.join([sys.executable, "-m", "corefreport", *args])
    print(tunnel_line(port), file=sys.stderr, flush=True)
    make_server(command, port).serve()
    return 0
