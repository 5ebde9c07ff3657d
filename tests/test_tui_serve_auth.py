"""``corefreport tui --serve`` can be driven only by its owner (issue 37; the review of 2026-11-29,
§3, opened a websocket with ``Origin: http://attacker.example`` and read the corpus back).

Each server test starts the real ``corefreport tui --example --serve`` on a free port of 127.0.0.1,
talks to it with aiohttp's HTTP and websocket client (textual-serve's own dependency) and stops it:
no token → 403; a foreign Origin or Host → 403; a socket beyond ``--max-sessions`` → 503 and no
scoring process; the token → the page and a websocket that sends the screen."""

from __future__ import annotations

import asyncio
import inspect
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from corefreport.errors import SettingsError
from corefreport.tui.serve import choose_token, command_line, host_authority, origin_authority, refusal
from served import free_port, stop

SRC = Path(__file__).resolve().parents[1] / "src"
TOKEN = "s3cret-token-for-the-tests_0123"


# ---- the rules, without a server -------------------------------------------------------------

def test_host_must_name_the_loopback_with_any_port():
    assert host_authority("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert host_authority("localhost:9000") == ("localhost", 9000)  # ssh -L 9000:127.0.0.1:8000
    assert host_authority("LOCALHOST") == ("localhost", 80)
    assert host_authority("[::1]:9000") == ("::1", 9000)
    for foreign in ("attacker.example:8000", "localhost.attacker.example:8000", "127.0.0.1.nip.io:8000",
                    "localhost.:8000", "[::2]:8000", "10.0.0.1:8000", "localhost:", "localhost:0",
                    "localhost:70000", "localhost:80a", "[::1", "", None):
        assert host_authority(foreign) is None, foreign


def test_origin_must_be_the_page_itself():
    assert origin_authority("http://localhost:9000") == ("localhost", 9000)
    assert origin_authority("https://127.0.0.1") == ("127.0.0.1", 443)
    for foreign in ("http://attacker.example", "null", "file://", "chrome-extension://abc",
                    "http://localhost.attacker.example:9000", "http://user@localhost:9000"):
        assert origin_authority(foreign) is None, foreign
    ok = "localhost:9000"
    assert refusal(ok, None, [TOKEN], TOKEN) is None  # not a browser: no Origin, the token suffices
    assert refusal(ok, "http://localhost:9000", [TOKEN], TOKEN) is None
    # a page on another port of the laptop shares localhost's cookies: its Origin is refused
    assert "Origin" in refusal(ok, "http://localhost:3000", [TOKEN], TOKEN)
    assert "Origin" in refusal(ok, "http://attacker.example", [TOKEN], TOKEN)
    assert "Host" in refusal("attacker.example:9000", None, [TOKEN], TOKEN)
    assert "token" in refusal(ok, None, [], TOKEN)
    assert "token" in refusal(ok, None, [TOKEN[:-1], "é" * 5], TOKEN)
    assert refusal(ok, None, ["wrong", TOKEN], TOKEN) is None  # a stale cookie beside a good ?token=


def test_the_token_is_random_or_chosen_and_never_reaches_a_tab_command_line():
    a, b = choose_token(None, {}), choose_token(None, {})
    assert a != b and len(a) >= 43  # secrets.token_urlsafe(32)
    assert choose_token(None, {"COREFREPORT_TOKEN": TOKEN}) == TOKEN
    assert choose_token("given-by-option-123", {"COREFREPORT_TOKEN": TOKEN}) == "given-by-option-123"
    for bad, source in (("short", "--token"), ("", "--token"), ("sixteen chars   ", "--token")):
        with pytest.raises(SettingsError, match=source):
            choose_token(bad, {})
    with pytest.raises(SettingsError, match="COREFREPORT_TOKEN"):
        choose_token(None, {"COREFREPORT_TOKEN": ""})
    assert command_line(["tui", "K", "R", "--serve", "--token", TOKEN, "--max-sessions", "3"]) == ["tui", "K", "R"]
    assert command_line(["tui", "--example", f"--token={TOKEN}", "--max-sessions=1", "--serve"]) == \
        ["tui", "--example"]


def test_the_options_go_with_serve_and_refuse_a_weak_token(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("COREFREPORT_TOKEN", None)
    for args, says in ((["--token", TOKEN], "--token goes with --serve"),
                       (["--max-sessions", "3"], "--max-sessions goes with --serve"),
                       (["--serve", "--token", "abc"], "--token: the token must be at least 16 characters")):
        r = subprocess.run([sys.executable, "-m", "corefreport", "tui", "--example", *args], capture_output=True,
                           text=True, env=env, cwd=tmp_path, timeout=60)
        assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert "abc" not in r.stderr  # the token is not echoed


def test_textual_serve_private_names_still_there():
    """tui/serve.py overrides textual-serve's private ``Server._make_app`` (pinned ``<1.2`` in
    pyproject.toml): this fails when that name, or the routes it builds, move."""
    from importlib.metadata import version

    from textual_serve.server import Server

    from corefreport.tui.serve import make_server

    assert version("textual-serve").startswith("1.1."), "textual-serve moved: check tui/serve.py, then the pin"
    assert inspect.iscoroutinefunction(Server._make_app)
    for public in ("handle_index", "handle_websocket"):
        assert inspect.iscoroutinefunction(getattr(Server, public))
    server = make_server("true", 8000, TOKEN)
    assert "public_url" in vars(server)

    async def build():
        return await server._make_app()

    app = asyncio.run(build())
    assert server.guard in app.middlewares
    assert {"index", "websocket", "download", "static"} <= set(app.router.named_resources())
    assert app.router["websocket"].url_for().path == "/ws"


# ---- the real server -------------------------------------------------------------------------

@contextmanager
def serving(tmp_path: Path, *extra: str, token: str | None = TOKEN):
    """``corefreport tui --example --serve --port PORT EXTRA`` with ``$COREFREPORT_TOKEN=token``
    (unset when ``None``), started in ``tmp_path``: yields ``(port, proc, out)`` once it listens
    (``out["banner"]``: its first three lines on stderr); stops it; ``out["err"]``: all its stderr."""
    pytest.importorskip("textual_serve", reason="textual-serve is not installed: --serve cannot be tested")
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("COREFREPORT_TOKEN", None)
    if token is not None:
        env["COREFREPORT_TOKEN"] = token
    proc = subprocess.Popen([sys.executable, "-m", "corefreport", "tui", "--example", "--serve", "--port", str(port),
                             *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
                            text=True)
    out: dict = {}
    try:
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        out["banner"] = "".join(proc.stderr.readline() for _ in range(3))  # printed before it listens
        yield port, proc, out
    finally:
        out["err"] = out.get("banner", "") + stop(proc)


def client():
    import aiohttp

    # unsafe: keep the cookie a server on an IP address (127.0.0.1) sets, as a browser does
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                 timeout=aiohttp.ClientTimeout(total=20))


async def status(session, url: str, **headers) -> int:
    async with session.get(url, headers=headers) as r:
        await r.read()
        return r.status


async def ws_status(session, url: str, **headers):
    """101 and the open websocket, or the status of the refused upgrade and ``None``."""
    import aiohttp

    try:
        ws = await session.ws_connect(url, headers=headers)
    except aiohttp.WSServerHandshakeError as err:
        return err.status, None
    return 101, ws


async def first_screen(ws) -> bytes:
    import aiohttp

    m = await asyncio.wait_for(ws.receive(), 15)
    assert m.type == aiohttp.WSMsgType.BINARY, m
    return m.data


def descendants(pid: int) -> int:
    """How many processes descend from ``pid`` (``/proc``)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    seen, todo = 0, [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        seen += len(kids)
        todo.extend(kids)
    return seen


def test_without_the_token_every_request_is_refused(tmp_path):
    with serving(tmp_path) as (port, _, out):
        base = f"http://127.0.0.1:{port}"

        async def go():
            async with client() as s:
                for path in ("/", "/static/js/textual.js", "/static/", "/download/x", "/nothing"):
                    assert await status(s, base + path) == 403, path
                assert await status(s, base + "/?token=" + TOKEN[:-1]) == 403
                assert (await ws_status(s, base + "/ws"))[0] == 403
                assert (await ws_status(s, base + "/ws?token=wrong-token-0123456789"))[0] == 403
                assert not s.cookie_jar.filter_cookies(base)  # no cookie for a refused request

        asyncio.run(go())
    assert f"http://localhost:{port}/?token={TOKEN}" in out["err"]
    assert f"ssh -N -L {port}:127.0.0.1:{port}" in out["err"]


def test_the_token_opens_the_page_its_files_and_a_websocket(tmp_path):
    with serving(tmp_path) as (port, proc, _):
        base = f"http://127.0.0.1:{port}"

        async def go():
            async with client() as s:
                async with s.get(f"{base}/?token={TOKEN}") as r:
                    page = await r.text()
                    assert r.status == 200 and f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page
                    cookie = r.cookies[f"corefreport-token-{port}"]
                    assert cookie.value == TOKEN and cookie["httponly"] and cookie["samesite"] == "Strict"
                # the page's own requests carry the cookie, not the token
                assert await status(s, f"{base}/static/js/textual.js") == 200
                code, ws = await ws_status(s, f"{base}/ws?width=80&height=24", Origin=f"http://127.0.0.1:{port}")
                assert code == 101
                assert len(await first_screen(ws)) > 0
                await ws.close()
            # a tunnel from another local port: Host and Origin are localhost:9000
            async with client() as s:
                code, ws = await ws_status(s, f"{base}/ws?token={TOKEN}", Host="localhost:9000",
                                           Origin="http://localhost:9000")
                assert code == 101
                await ws.close()

        asyncio.run(go())


def test_a_foreign_origin_or_host_is_refused_even_with_the_token(tmp_path):
    with serving(tmp_path) as (port, proc, _):
        base = f"http://127.0.0.1:{port}"

        async def go():
            async with client() as s:
                good = f"{base}/ws?token={TOKEN}"
                for headers in ({"Origin": "http://attacker.example"}, {"Origin": "null"},
                                {"Origin": "http://localhost:3000", "Host": "localhost:9000"},
                                {"Host": f"attacker.example:{port}"},
                                {"Host": f"attacker.example:{port}", "Origin": f"http://attacker.example:{port}"}):
                    assert (await ws_status(s, good, **headers))[0] == 403, headers
                # DNS rebinding: a page served as attacker.example, its name now pointing at 127.0.0.1
                assert await status(s, f"{base}/?token={TOKEN}", Host=f"attacker.example:{port}") == 403
                assert await status(s, f"{base}/?token={TOKEN}", Host="localhost:9000") == 200

        before = descendants(proc.pid)
        asyncio.run(go())
        assert descendants(proc.pid) == before  # no refused socket started a scoring run


def test_sockets_beyond_max_sessions_are_refused_and_start_nothing(tmp_path):
    with serving(tmp_path) as (port, proc, out):  # the default: 2
        url = f"http://127.0.0.1:{port}/ws?token={TOKEN}"

        async def go():
            async with client() as s:
                opened = [(await ws_status(s, url))[1] for _ in range(2)]
                assert all(opened)
                for ws in opened:
                    await first_screen(ws)  # both tabs' processes run
                running = descendants(proc.pid)
                assert running >= 2
                assert await ws_status(s, url) == (503, None)
                assert await ws_status(s, url) == (503, None)
                await asyncio.sleep(0.3)
                assert descendants(proc.pid) == running
                # closing a tab frees its place
                await opened[0].close()
                for _ in range(50):
                    code, ws = await ws_status(s, url)
                    if code == 101:
                        break
                    await asyncio.sleep(0.1)
                assert code == 101
                for w in (ws, opened[1]):
                    await w.close()

        asyncio.run(go())
    assert "refused a browser tab: 2 are open (--max-sessions)" in out["err"]


def test_a_random_token_per_start_and_max_sessions(tmp_path):
    tokens = []
    for _ in range(2):
        with serving(tmp_path, "--max-sessions", "1", token=None) as (port, _, out):
            line = out["banner"].splitlines()[0]
            token = line.split("?token=", 1)[1].split()[0]
            assert "at most 1 browser tab(s)" in line and f"http://localhost:9000/?token={token}" in out["banner"]
            tokens.append(token)
            url = f"http://127.0.0.1:{port}/ws?token="

            async def go():
                async with client() as s:
                    assert (await ws_status(s, url + TOKEN))[0] == 403
                    code, ws = await ws_status(s, url + token)
                    assert code == 101
                    assert await ws_status(s, url + token) == (503, None)
                    await ws.close()

            asyncio.run(go())
    assert len(tokens[0]) >= 43 and tokens[0] != tokens[1]


def test_a_taken_port_is_one_error_line(tmp_path):
    pytest.importorskip("textual_serve", reason="textual-serve is not installed: --serve cannot be tested")
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "corefreport", "tui", "--example", "--serve", "--port", str(port)],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"corefreport: error: --serve cannot listen on 127.0.0.1:{port}" in r.stderr.splitlines()[-1]
