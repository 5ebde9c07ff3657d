"""``corefreport tui --serve``: textual-serve on 127.0.0.1, a page that works through an SSH tunnel
whose local port differs from the remote one."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from corefreport.tui.serve import command_line
from served import free_port, stop

SRC = Path(__file__).resolve().parents[1] / "src"
TOKEN = "the-token-of-these-tests-0123"  # the server's $COREFREPORT_TOKEN (without it: 403)


def test_the_served_command_drops_serve_and_port():
    assert command_line(["tui", "K", "R", "--serve", "--port", "9000", "-a", "arcs"]) == ["tui", "K", "R", "-a", "arcs"]
    assert command_line(["tui", "--example", "--port=9001", "--serve"]) == ["tui", "--example"]


def get(port: int, host_header: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", f"/?token={TOKEN}", headers={"Host": host_header})
    r = conn.getresponse()
    return r.status, r.read().decode("utf-8", "replace")


async def screen(port: int) -> bytes:
    import aiohttp

    got = b""
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"http://127.0.0.1:{port}/ws?token={TOKEN}") as ws:
            await ws.send_str(json.dumps(["resize", {"width": 80, "height": 24}]))
            try:
                while b"MUC" not in got:
                    m = await asyncio.wait_for(ws.receive(), 20)
                    if m.type == aiohttp.WSMsgType.BINARY:
                        got += m.data
                    elif m.type == aiohttp.WSMsgType.TEXT:
                        got += m.data.encode()
                    else:
                        break
            except asyncio.TimeoutError:
                pass
    return got


@contextmanager
def serving(tmp_path: Path, *args: str):
    """``corefreport tui ARGS --serve --port PORT`` started in ``tmp_path``: yields ``(port, status,
    page)`` once its page answers (30 s at most), then stops it; ``err`` of the yielded dict holds
    what it printed on stderr."""
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        pytest.skip("textual-serve is not installed (pip install textual-serve): --serve cannot be tested")
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               COREFREPORT_TOKEN=TOKEN)
    proc = subprocess.Popen([sys.executable, "-m", "corefreport", "tui", *args, "--serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path, text=True)
    out: dict = {}
    try:
        deadline = time.monotonic() + 30
        page = None
        while time.monotonic() < deadline:
            try:
                status, page = get(port, f"127.0.0.1:{port}")
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.2)
        assert page is not None, proc.stderr.read() if proc.poll() is not None else "no answer in 30 s"
        yield port, status, page, out
    finally:
        out["err"] = stop(proc)


def test_serve_listens_on_loopback_and_the_page_follows_the_tunnel_port(tmp_path):
    with serving(tmp_path, "--example") as (port, status, page, out):
        assert status == 200
        assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page
        # through `ssh -L 9000:127.0.0.1:PORT` the browser asks for localhost:9000: the page must
        # send it there, not to the remote port
        status, page = get(port, "localhost:9000")
        assert status == 200 and 'data-session-websocket-url="ws://localhost:9000/ws"' in page
        assert "http://localhost:9000/static/" in page
        # a browser tab: the websocket runs `corefreport tui --example` and sends its screen
        assert b"MUC" in asyncio.run(screen(port))
        # loopback only: the port is not open on another address of this machine
        others = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)} - {"127.0.0.1"}
        for addr in others:
            with socket.socket() as s:
                s.settimeout(1)
                assert s.connect_ex((addr, port)) != 0
    assert f"ssh -N -L {port}:127.0.0.1:{port}" in out["err"]


def test_serve_browses_several_systems(tmp_path):
    """Issue 30: ``tui KEY A B --serve`` serves the many-system browser (it was refused); a tab runs
    ``corefreport tui KEY A B`` and shows both systems' totals side by side."""
    from corefreport.cli import example_paths

    key, ml = example_paths()
    rules = Path(__file__).parent / "data" / "systems" / "xrenner_rules_example.conll"
    with serving(tmp_path, key, f"ml={ml}", f"rules={rules}") as (port, status, page, out):
        got = asyncio.run(screen(port))
        assert b"MUC" in got and b"rules" in got and b"ml" in got
    assert f"ssh -N -L {port}:127.0.0.1:{port}" in out["err"]
