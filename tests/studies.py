"""The studies the tests browse and render, made as the command line makes them
(:func:`corefreport.study.plan.plan_of`, :func:`corefreport.study.run.stages`)."""

from __future__ import annotations

from corefreport.scoring.settings import Settings
from corefreport.study.plan import Policy, Resampling, pair_plan, plan_of
from corefreport.study.run import run, stages

BROWSE = Policy(rows=True, documents=True, jobs=1, browse=True)
"""The browser's policy: outcome rows and documents kept, one process, staged."""


def pair_stages(key: str, response: str, settings: Settings):
    """``stages(watch)`` of one pair for the browser (``CorefApp(stages=…)``)."""
    plan = pair_plan(key, response, settings, policy=BROWSE)
    return lambda watch=None: stages(plan, watch)


def pair_nodes(key: str, response: str, settings: Settings) -> list:
    """Every node the browser's study of one pair hands over: the first numbers, then the complete one."""
    return list(pair_stages(key, response, settings)())


def systems_plan(key: str, named: dict[str, str], settings: Settings, **resampling):
    return plan_of("tui", key, [f"{n}={p}" for n, p in named.items()], settings, compare=Resampling(**resampling),
                   policy=BROWSE)


def systems_nodes(key: str, named: dict[str, str], settings: Settings, **resampling) -> list:
    """Every node of the systems browser's study: the first numbers as they come, then the comparison."""
    return list(stages(systems_plan(key, named, settings, **resampling)))


def systems_node(key: str, named: dict[str, str], settings: Settings, **resampling):
    """The complete :class:`~corefreport.study.nodes.Systems` of the systems browser."""
    return run(systems_plan(key, named, settings, **resampling))


def level_nodes(key: str, items: list[str], settings: Settings, *, datasets: bool = False, subsets=()) -> list:
    """Every node of a page of datasets (``datasets``) or of groups of documents (``subsets``)."""
    plan = plan_of("tui", key, items, settings, datasets=datasets, subsets=list(subsets), policy=BROWSE)
    return list(stages(plan))


class Phases:
    """A :class:`~corefreport.study.run.Watch` that keeps the phase of every progress step."""

    def __init__(self) -> None:
        self.phases: list[str] = []

    def stage(self, message: str) -> None:
        pass

    def read(self) -> None:
        self.phases.append("read")

    def documents(self, phase: str, done: int, total: int) -> None:
        self.phases.append(phase)


def gated(nodes, gate):
    """``stages`` for the app that hand over ``nodes`` (a callable giving them) but the last at once,
    and the last once ``gate`` is set."""
    def stages(watch=None):
        made = nodes()
        yield from made[:-1]
        gate.wait(20)
        yield made[-1]
    return stages
