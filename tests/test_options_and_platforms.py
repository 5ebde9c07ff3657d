"""Issue 26, "Trust on every input": option values and platforms.

* ``--scheme NAME`` always means the shipped scheme, whatever the working folder holds; a scheme
  file's values are validated with one-line errors naming the file and the key;
* ``--jobs`` has an upper bound;
* ``report -r a=X -r a=Y`` refuses the repeated name, like ``compare``;
* every command works on a simulated Windows (no fork, no load average, no ``/proc``, a cp1252
  standard output) with the same numbers as natively.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app, example_paths
from corefreport.errors import InputError
from corefreport.scoring.scheme import load_scheme

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def run(*args: str):
    return runner.invoke(app, list(args))


def typed_json(*extra: str) -> dict:
    """``score --example -a typed -m muc -f json`` with ``extra`` options, parsed; must exit 0."""
    res = run("score", "--example", "-a", "typed", "-m", "muc", "-f", "json", "-q", *extra)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


# --- 1. schemes -------------------------------------------------------------------------------

def typed_outcome(name: str) -> tuple[int, str]:
    """Exit code and output of ``score --example -a typed --scheme NAME -f json``."""
    res = run("score", "--example", "-a", "typed", "-m", "muc", "-f", "json", "-q", "--scheme", name)
    return res.exit_code, res.output


@pytest.mark.parametrize("name", ["gum", "derived", "lcc"])
def test_a_scheme_name_is_the_shipped_scheme_next_to_a_folder_or_file_of_that_name(tmp_path, monkeypatch, name):
    """A folder ``gum/`` or a valid TOML *file* called ``derived`` in the working folder neither
    breaks nor replaces the shipped scheme of that name (the example carries only derived types, so
    gum and lcc end in the shipped scheme's own "none of the classes" error both times)."""
    expected = typed_outcome(name)
    assert expected[0] == (0 if name == "derived" else 2)
    if name != "derived":
        assert f"none of the classes of scheme '{name}'" in expected[1]
    (tmp_path / name).mkdir()
    monkeypatch.chdir(tmp_path)
    assert typed_outcome(name) == expected
    (tmp_path / name).rmdir()
    (tmp_path / name).write_text('name = "impostor"\nn = 9\nclass_of = "before-slash"\n'
                                 '[classes]\nNAME = "x"\n', encoding="utf-8")
    assert typed_outcome(name) == expected
    assert load_scheme(name).name == name


def test_default_report_works_in_a_folder_holding_derived(tmp_path, monkeypatch):
    """The default scheme is ``derived``: ``report`` once failed in any folder holding ``derived``."""
    (tmp_path / "derived").mkdir()
    monkeypatch.chdir(tmp_path)
    res = run("report", "--example", "-o", "r.html")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "r.html").stat().st_size > 0


def test_an_explicit_path_is_read_as_a_file(tmp_path, monkeypatch):
    """A value with a path separator or ending in .toml is a file: ``./gum`` (a folder) is an error
    naming it, and a scheme file with the name of a shipped scheme is read."""
    (tmp_path / "gum").mkdir()
    monkeypatch.chdir(tmp_path)
    res = run("score", "--example", "-a", "typed", "--scheme", "./gum")
    assert res.exit_code == 2
    assert res.output.strip() == "corefreport: error: ./gum: cannot read scheme file: Is a directory"
    (tmp_path / "derived.toml").write_text('name = "mine"\nn = 4\nclass_of = "before-slash"\n'
                                           '[classes]\nNAME = "n"\nNOMINAL = "x"\n'
                                           'PRONOUN = "p"\n', encoding="utf-8")
    assert load_scheme("derived.toml").name == "mine" and load_scheme("derived.toml").n == 4
    assert typed_json("--scheme", "derived.toml")["typed"]["scheme_coverage"]["n"] == 4
    res = run("score", "--example", "-a", "typed", "--scheme", "nosuch")
    assert res.exit_code == 2
    assert "nosuch: no such scheme file, and not a shipped scheme (lcc, derived, gum)" in res.output


SCHEME_HEAD = 'name = "s"\nsource = "derived"\nclass_of = "before-slash"\n'
CLASSES = '[classes]\nNAME = "name"\nNOMINAL = "nominal"\nPRONOUN = "pronoun"\n'


@pytest.mark.parametrize(
    "body, problem",
    [
        ("n = -2\n" + CLASSES, "n must be a positive integer (the number of classes), not an integer (-2)"),
        ("n = 0\n" + CLASSES, "n must be a positive integer (the number of classes), not an integer (0)"),
        ("n = 2.7\n" + CLASSES, "n must be a positive integer (the number of classes), not a number (2.7)"),
        ("n = 1e400\n" + CLASSES, "n must be a positive integer (the number of classes), not a number (inf)"),
        ('n = "many"\n' + CLASSES, "n must be a positive integer (the number of classes), not a string ('many')"),
        ("n = true\n" + CLASSES, "n must be a positive integer (the number of classes), not a boolean (True)"),
        ('types = "oops"\n' + CLASSES, "types must be a table of names, not a string ('oops')"),
        ("[classes]\nNAME = 3\n", "classes.NAME must be a string, not an integer (3)"),
        ('classes = "x"\n', "a scheme needs a [classes] table naming at least one class"),
        ("name = 5\n" + CLASSES, "name must be a string, not an integer (5)"),
        ('attempted = [["x"]]\n' + CLASSES, "attempted must list classes named in [classes]"),
        ('attempted = "NAME"\n' + CLASSES, "attempted must list classes named in [classes]"),
        ('description = ["d"]\n' + CLASSES, "description must be a string, not an array (['d'])"),
        ('[types]\n"NAME/x" = 1\n' + CLASSES, "types.NAME/x must be a string, not an integer (1)"),
    ],
)
def test_scheme_values_are_validated_with_one_line_naming_file_and_key(tmp_path, body, problem):
    """Each wrong value is an exit-2 error of one line: ``FILE: KEY …`` (once a traceback, or a
    silently wrong scheme coverage: n = -2 printed −41.67 %)."""
    text = SCHEME_HEAD.replace('name = "s"\n', "") if body.startswith("name") else SCHEME_HEAD
    path = tmp_path / "bad.toml"
    path.write_text(text + body, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_scheme(str(path))
    assert str(err.value) == f"{path}: {problem}"
    res = run("score", "--example", "-a", "typed", "-m", "muc", "--scheme", str(path))
    assert res.exit_code == 2
    assert res.output == f"corefreport: error: {path}: {problem}\n"


def test_scheme_header_values_and_encoding_are_validated(tmp_path):
    """``class_of``, ``source`` and a non-UTF-8 file each give one line naming the file."""
    cases = {
        'class_of = "last-letter"\n' + CLASSES:
            "class_of = 'last-letter': use 'first-letter', 'before-slash', 'same'",
        'source = 3\n' + CLASSES: "source must be a string, not an integer (3)",
        'source = "feature:"\n' + CLASSES: "source = 'feature:': use 'derived', 'gum' or 'feature:NAME'",
    }
    for body, problem in cases.items():
        path = tmp_path / "h.toml"
        path.write_text(body, encoding="utf-8")
        res = run("score", "--example", "-a", "typed", "--scheme", str(path))
        assert (res.exit_code, res.output) == (2, f"corefreport: error: {path}: {problem}\n")
    latin = tmp_path / "latin1.toml"
    latin.write_bytes('description = "d\u00e9riv\u00e9"\n'.encode("latin-1") + CLASSES.encode())
    res = run("score", "--example", "-a", "typed", "--scheme", str(latin))
    assert (res.exit_code, res.output) == (
        2, f"corefreport: error: {latin}: a scheme file must be UTF-8 text (byte 16 is not)\n")


def test_a_valid_n_is_used_for_the_scheme_coverage(tmp_path):
    """A positive integer n divides the scheme coverage: n = 6 halves the n = 3 recall/precision."""
    path = tmp_path / "six.toml"
    path.write_text(SCHEME_HEAD + "n = 6\n" + CLASSES, encoding="utf-8")
    three = typed_json()["typed"]["scheme_coverage"]
    six = typed_json("--scheme", str(path))["typed"]["scheme_coverage"]
    assert three["n"] == 3 and six["n"] == 6
    assert six["precision"] == pytest.approx(three["precision"] / 2)
    assert six["recall"] == pytest.approx(three["recall"] / 2)


# --- 2. --jobs --------------------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["0", "65", "1000", "99999999999999999999"])
def test_jobs_out_of_range_is_one_line_and_exit_2(jobs):
    """``--jobs`` takes 1 to 64; a larger N once forked until the file descriptors ran out. The
    typer application and the console entry point (its fast path, without typer) both refuse it."""
    line = f"corefreport: error: --jobs takes a number from 1 to 64, got {jobs}\n"
    res = run("score", "--example", "-j", jobs)
    assert (res.exit_code, res.output) == (2, line)
    proc = subprocess.run([sys.executable, "-m", "corefreport", "score", "--example", "-j", jobs],
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", line)


def test_jobs_at_the_bound_scores_as_one_process():
    """``-j 64`` is accepted and gives exactly the numbers of ``-j 1``."""
    one, many = run("score", "--example", "-f", "json", "-j", "1"), run("score", "--example", "-f", "json", "-j", "64")
    assert one.exit_code == many.exit_code == 0
    assert json.loads(one.stdout)["metrics"] == json.loads(many.stdout)["metrics"]


def test_jobs_help_names_the_bound():
    res = run("score", "--help")
    assert res.exit_code == 0 and "N is 1 to 64." in " ".join(res.output.split())


# --- 3. report -r with a repeated name --------------------------------------------------------

def test_report_refuses_two_systems_of_the_same_name(tmp_path):
    """``report -r a=X -r a=Y`` once dropped X silently; like ``compare`` it is now an exit-2 line
    naming the name, and nothing is written. The positional RESPONSE's name counts too."""
    key, resp = example_paths()
    out = tmp_path / "dup.html"
    res = run("report", key, "-r", f"a={resp}", "-r", f"a={key}", "-o", str(out))
    assert (res.exit_code, res.output) == (
        2, "corefreport: error: two systems are called 'a': give each -r NAME=FILE its own NAME\n")
    res = run("report", key, resp, "--name", "b", "-r", f"b={key}", "-o", str(out))
    assert (res.exit_code, res.output) == (
        2, "corefreport: error: two systems are called 'b': give each -r NAME=FILE its own NAME\n")
    assert not out.exists()
    proc = subprocess.run([sys.executable, "-m", "corefreport", "report", key, "-r", f"a={resp}", "-r",
                           f"a={key}", "-o", str(out)], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr) == (
        2, "corefreport: error: two systems are called 'a': give each -r NAME=FILE its own NAME\n")
    assert not out.exists()


def test_compare_refuses_the_same_name_in_the_same_way_as_before():
    key, resp = example_paths()
    res = run("compare", key, f"a={resp}", f"a={key}")
    assert (res.exit_code, res.output) == (
        2, "corefreport: error: two systems are called 'a': name them with NAME=FILE\n")


# --- 4./5. Windows: no fork, no load average, no /proc, a cp1252 standard output -------------

WINDOWS = textwrap.dedent('''
    import builtins, io, os, signal, sys

    for name in ("fork", "register_at_fork", "getloadavg", "sched_getaffinity", "setpriority"):
        if hasattr(os, name):
            delattr(os, name)
    real_open = builtins.open
    PROC = []

    def no_proc(file, *args, **kwargs):
        """Windows has no /proc: every read of it fails as a missing file does (and is counted)."""
        if isinstance(file, (str, bytes, os.PathLike)) and os.fsdecode(file).startswith("/proc"):
            PROC.append(os.fsdecode(file))
            raise FileNotFoundError(2, "No such file or directory", file)
        return real_open(file, *args, **kwargs)

    builtins.open = no_proc
    import corefreport.forking
    assert corefreport.forking.idle_cores() == 0 and not corefreport.forking.can_fork()
''')

RUN = textwrap.dedent('''
    import io, os, sys
    ENCODING = sys.argv.pop(1)
    # what Windows gives a redirected stdout: its ANSI code page, strict
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(sys.stdout.detach(), encoding=ENCODING, errors="strict")
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(sys.stderr.detach(), encoding=ENCODING, errors="strict")
    real_exit = os._exit

    def exit_(code):
        sys.stderr.write(f"/proc reads: {len(globals().get('PROC', []))}\\n")
        sys.stderr.flush()
        real_exit(code)

    os._exit = exit_
    import corefreport.cli
    corefreport.cli.main()
''')


def run_as(windows: bool, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``corefreport ARGS`` through :func:`corefreport.cli.main` in a fresh interpreter whose
    standard output and error are strict cp1252 (``windows``, with no fork, load average, CPU
    affinity or /proc) or strict UTF-8 (the native run the numbers are compared with)."""
    code = (WINDOWS if windows else "") + RUN
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONIOENCODING", "COREFREPORT_"))}
    return subprocess.run([sys.executable, "-c", code, "cp1252" if windows else "utf-8", *args],
                          capture_output=True, cwd=cwd, env=env, timeout=300)


def commands(tmp: Path) -> list[tuple[str, ...]]:
    key, resp = example_paths()
    return [
        ("score", "--example", "-f", "json"),
        ("score", "--example"),
        ("score", "--example", "-f", "markdown", "-a", "typed", "-a", "arcs", "--per-doc"),
        ("score", "--example", "--match", "head", "-f", "json"),
        ("score", "--example", "--match", "head"),
        ("score", "-h"),
        ("compare", key, f"A={resp}", f"B={key}", "--bootstrap", "50", "--randomization", "50"),
        ("report", "--example", "-o", str(tmp / "r.html")),
        ("report", "--example", "-o", str(tmp / "r.tex")),
    ]


@pytest.mark.parametrize("index", range(9))
def test_every_command_on_simulated_windows_gives_the_native_output(tmp_path, index):
    """Each command exits 0 on the simulated Windows. Its output is the native one with what cp1252
    lacks (Δ, ≥, ∩ …) replaced by ``?``: JSON parses to the same document; a report file has the
    same bytes. Before, ``compare`` (Δ) and typed Markdown (∩) ended in UnicodeEncodeError."""
    native_dir, windows_dir = tmp_path / "native", tmp_path / "windows"
    native_dir.mkdir(), windows_dir.mkdir()
    args_native, args_windows = commands(native_dir)[index], commands(windows_dir)[index]
    native = run_as(False, *args_native, cwd=native_dir)
    windows = run_as(True, *args_windows, cwd=windows_dir)
    assert native.returncode == 0, native.stderr.decode("utf-8")
    assert windows.returncode == 0, windows.stderr.decode("cp1252")
    assert b"Traceback" not in windows.stderr
    last = windows.stderr.decode("cp1252").splitlines()[-1]
    assert last.startswith("/proc reads: ") and int(last.split(": ")[1]) >= 1  # the simulation was on
    expected = native.stdout.decode("utf-8").encode("cp1252", errors="replace")
    if "json" in args_native:
        assert json.loads(windows.stdout.decode("cp1252")) == json.loads(native.stdout)
    elif args_native[0] == "report":
        name = Path(args_native[-1]).name
        assert (windows_dir / name).read_bytes() == (native_dir / name).read_bytes()
        assert windows.stdout == native.stdout == b""
    else:
        assert windows.stdout == expected
    if args_native[0] == "compare":
        assert "\u0394".encode("utf-8") in native.stdout and b"?" in windows.stdout


def test_only_a_strict_legacy_stream_is_made_to_replace():
    """cp1252 strict → replace; UTF-8, or a stream that already escapes (stderr's default), stays."""
    import io

    from corefreport.cli import replace_unencodable

    legacy, utf8, escaping = (io.TextIOWrapper(io.BytesIO(), encoding=e, errors=r)
                              for e, r in (("cp1252", "strict"), ("utf-8", "strict"), ("cp1252", "backslashreplace")))
    replace_unencodable((legacy, utf8, escaping))
    assert (legacy.errors, utf8.errors, escaping.errors) == ("replace", "strict", "backslashreplace")
    legacy.write("\u0394 B\u00b3 \u2265 1\n")
    legacy.flush()
    assert legacy.buffer.getvalue() == b"? B\xb3 ? 1\n"


def test_idle_cores_without_proc_or_load_average_is_zero(tmp_path, monkeypatch):
    """Windows: no /proc/loadavg and no os.getloadavg: no idle core is assumed (one process)."""
    from corefreport import forking

    monkeypatch.delattr(os, "getloadavg", raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert forking.idle_cores(str(tmp_path / "missing")) == 0
