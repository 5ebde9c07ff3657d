"""Issue 17 item 5: a Rich progress bar on stderr for runs longer than a second, on a terminal only,
and Rich not even imported by a short run."""

from __future__ import annotations

import io
import sys

from corefreport.cli import output as run


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert run.progress_bar(False) is None


def test_the_bar_starts_after_one_second_and_is_removed(monkeypatch):
    started: list = []

    class FakeProgress:
        def __init__(self, **kw) -> None:
            started.append(kw)
            self.updates: list = []

        def start(self) -> None:
            pass

        def add_task(self, name: str, total=None) -> int:
            self.total = total
            return 0

        def update(self, task: int, completed: int) -> None:
            self.updates.append(completed)

        def stop(self) -> None:
            started.append("stopped")

    import rich.progress

    monkeypatch.setattr(rich.progress, "Progress", FakeProgress)
    bar = run.ProgressBar()
    clock = Clock()
    bar._clock, bar._start = clock, 0.0
    for done in range(1, 50):
        bar.documents('scoring', done, 0)
    assert not started  # the first second: nothing shown
    clock.now = run.PROGRESS_AFTER + 0.01
    bar.documents('scoring', 50, 0)
    bar.documents('scoring', 51, 0)
    assert len(started) == 1 and started[0]["console"].stderr and started[0]["transient"]
    assert bar._bar.updates == [50, 51] and bar._bar.total is None
    bar.close()
    assert started[-1] == "stopped"


def test_a_known_total_stops_the_bar_itself(monkeypatch):
    calls: list = []

    class FakeProgress:
        def __init__(self, **kw) -> None:
            pass

        def start(self) -> None:
            calls.append("start")

        def add_task(self, name: str, total=None) -> int:
            calls.append(total)
            return 0

        def update(self, task: int, completed: int) -> None:
            pass

        def stop(self) -> None:
            calls.append("stop")

    import rich.progress

    monkeypatch.setattr(rich.progress, "Progress", FakeProgress)
    bar = run.ProgressBar()
    bar._start = -10.0
    bar.documents('scoring', 1, 2)
    bar.documents('scoring', 2, 2)
    assert calls == ["start", 2, "stop"]
