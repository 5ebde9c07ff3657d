"""What a command evaluates, decided once: a :class:`Plan`.

A plan is the key (one per dataset), the systems as a list (one system is a list of one, as
sacrebleu's paired test takes them), each system's runs (one run when they are not ``--runs``),
the groupings of documents (``--subsets``), the :class:`Settings`, what is compared
(:class:`Resampling`) and the policies of the run (:class:`Policy`: rows, documents, processes).
Every command builds one with :func:`plan_of` from its arguments, written the same way in every
command:

* a system is ``FILE`` (named by its stem) or ``NAME=FILE`` — any corpus a reader reads, LLM
  markup included; a path that exists is a file even with an ``=`` in its name;
* with ``--runs`` a system is ``NAME=RUN1,RUN2,…`` (or a quoted glob or a directory, one run a
  file: :mod:`.runsources`);
* with ``--datasets`` the key is a MANIFEST (``NAME<TAB>KEY<TAB>RESPONSE`` lines) and each other
  system a manifest of the same datasets and keys, or the key is a KEYDIR and each system a
  response directory, files paired by name (:mod:`.manifest`);
* ``--subsets`` (``genre``, ``length[:EDGES]``, a ``DOC_ID<TAB>GROUP`` file) with any shape whose
  systems are scored on one key;
* ``--strata`` (``chain-length[:EDGES]``, ``spread[:EDGES]``, ``etype``: groupings of chains, not
  of documents) with one pair or several systems on one key.

Which combinations make sense is checked here and nowhere else; a problem is a
:class:`PlanError` (or the reader's :class:`~corefreport.errors.InputError`) with the message the
command prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .read import FORMATS, STDIN, Source

PAIR, SYSTEMS, RUNS, DATASETS = "pair", "systems", "runs", "datasets"
"""The shapes of a study: one system on one key; several systems on one key; groups of runs of
one or more systems on one key; one or more systems on several datasets."""


class PlanError(SettingsError):
    """A combination of arguments no study can honour (the command line: exit 2 with the message)."""


@dataclass(frozen=True, slots=True)
class System:
    """A system: its name and its runs, each ``(run name, response)`` (a plain system: one run)."""

    name: str
    runs: tuple[tuple[str, Source], ...]

    @property
    def response(self) -> Source:
        """The response of a system of one run (the first run's otherwise)."""
        return self.runs[0][1]


@dataclass(frozen=True, slots=True)
class Dataset:
    """A key and every system's response(s) to it; ``name`` "" for the key of a one-dataset plan."""

    name: str
    key: Source
    systems: tuple[System, ...]


@dataclass(frozen=True, slots=True)
class Resampling:
    """How systems are compared: paired bootstrap resamples and approximate-randomization trials
    over the documents (0: that test is not run), the seed, and the outcome-row columns the
    per-group deltas are computed for (``None``: ``compare``'s defaults)."""

    bootstrap: int = 1000
    randomization: int = 10000
    seed: int = 12345
    groupings: tuple[str, ...] | None = None
    correction: str = "none"
    """Multiple-comparison correction of the p-values: ``none``, ``holm`` or ``bh`` (``--correction``)."""


@dataclass(frozen=True, slots=True)
class Policy:
    """What a run keeps and how it runs: ``rows`` (the outcome rows: ``True``; their digest with that
    many rows per error group: an ``int``; none: ``False``), ``documents`` (the documents as
    scored), ``jobs`` (processes for a pair; ``None``: by the key's size), ``detail`` (the runs and
    datasets shapes: ``"first"`` — only the first run or dataset keeps rows and documents, the
    others their scores — or ``"all"``), ``lean`` (the several-pair shapes score the metrics alone:
    no analysis, no p-link) and ``intervals`` (each group's bootstrap interval, the report's)."""

    rows: bool | int = False
    documents: bool = False
    jobs: int | None = 1
    detail: str = "first"
    lean: bool = False
    intervals: bool = False
    browse: bool = False
    """The browser: datasets' other variants compute the ranking's metrics alone; groups of
    documents are each scored on their own (each group's browser)."""
    digest: bool = False
    """The analyses that can keep only what their tables read do (one pair's study; the error
    classes: ``score``'s tables, not its JSON, which lists every error)."""
    apart: bool = True
    """A large document's error classes may be scored in a forked process on an idle core while this
    one scores the other analyses (``score --jobs 1``: one process, this one; not in the browser,
    whose scoring runs in a thread beside the terminal's)."""


@dataclass(frozen=True)
class Plan:
    """Everything one study evaluates (see the module docstring)."""

    shape: str
    datasets: tuple[Dataset, ...]
    settings: Settings
    groupings: tuple = ()
    """:class:`~.subsets.Grouping` s of the documents (``--subsets``, ``--by genre``)."""
    compare: Resampling | None = None
    """Compare the systems with the first (the baseline); ``None``: score each alone."""
    policy: Policy = field(default_factory=Policy)
    unpaired: tuple[str, ...] = ()
    """Response files no key file took (``--datasets KEYDIR RESPONSEDIR``)."""
    strata: tuple = ()
    """:class:`~corefreport.scoring.strata.Stratification` s of the chains (``--strata``; the
    settings' ``strata``, which the scoring computes per document): ``compare`` tests each stratum."""

    @property
    def systems(self) -> tuple[str, ...]:
        """The systems' names, the baseline first."""
        return tuple(s.name for s in self.datasets[0].systems)

    @property
    def key(self) -> Source:
        """The key of a one-dataset plan."""
        return self.datasets[0].key

    def system(self, name: str) -> System:
        return next(s for s in self.datasets[0].systems if s.name == name)

    def sources(self) -> list[str]:
        """Every path the plan reads (the browser refuses standard input among them)."""
        return [p for d in self.datasets for p in (d.key.path, *(src.path for s in d.systems for _, src in s.runs))]

    def with_policy(self, **changes) -> Plan:
        return replace(self, policy=replace(self.policy, **changes))


# --------------------------------------------------------------------------- the arguments' syntax


def named_systems(items: list[str], fmt: str | None = None) -> list[System]:
    """Systems of ``FILE`` or ``NAME=FILE`` items (a path that exists is a file even with an ``=``);
    a name given twice is an error."""
    out: list[System] = []
    for item in items:
        name, _, path = item.partition("=") if "=" in item and not Path(item).exists() else (Path(item).stem, "", item)
        if not name or not path:
            raise PlanError(f"a system is FILE or NAME=FILE, got {item!r}")
        if any(s.name == name for s in out):
            raise PlanError(f"two systems are called {name!r}: name them with NAME=FILE")
        out.append(System(name, (("", Source(path, fmt)),)))
    return out


def run_groups(items: list[str], fmt: str | None = None) -> list[System]:
    """Systems of runs, each ``NAME=RUN1,RUN2,…`` or a quoted glob or directory (:mod:`.runsources`)."""
    from .runsources import run_files

    out: list[System] = []
    for item in items:
        files = run_files(item)
        if any(s.name == files.system for s in out):
            raise PlanError("two groups of runs have the same name: name them NAME=RUN1,RUN2,…")
        out.append(System(files.system, tuple((run, Source(path, fmt)) for run, path in files.runs)))
    return out


def _named_paths(items: list[str]) -> list[tuple[str, str]]:
    """``NAME=PATH`` or ``PATH`` (named by its stem) → (name, path), names distinct."""
    out: list[tuple[str, str]] = []
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or Path(item).exists():
            name, path = Path(item).stem or Path(item).name, item
        out.append((name, path))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise PlanError(f"two systems are called {next(n for n in names if names.count(n) > 1)!r}: name them "
                        "NAME=PATH")
    return out


def dataset_list(key: str, items: list[str], kf: str | None, rf: str | None, several: bool = False
                 ) -> tuple[tuple[Dataset, ...], tuple]:
    """The datasets of ``--datasets`` and the response files no key took. One system: ``key`` a
    MANIFEST alone, or a KEYDIR with ``items`` its RESPONSEDIR. ``several`` systems: ``key`` a
    KEYDIR with a response directory per system in ``items`` (the first the baseline), or ``key``
    the baseline's MANIFEST with the other systems' manifests in ``items`` — every system has every
    dataset, with the baseline's keys."""
    from .manifest import dataset_files

    if not several:
        if len(items) > 1:
            raise PlanError("--datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR")
        files = {"": dataset_files(key, items[0] if items else None)}
    elif Path(key).is_dir():
        files = {n: dataset_files(key, p) for n, p in _named_paths(items)}
    else:
        files = {n: dataset_files(p, None) for n, p in _named_paths([key, *items])}
    baseline = next(iter(files))
    base = files[baseline].datasets
    for n, f in files.items():
        if [(d.name, Path(d.key).resolve()) for d in f.datasets] != [(d.name, Path(d.key).resolve()) for d in base]:
            raise PlanError(f"{n}: its datasets (names and keys) are not the baseline's "
                            f"{', '.join(d.name for d in base)}")
    out = tuple(Dataset(d.name, Source(d.key, kf), tuple(System(n, (("", Source(f.datasets[i].response, rf)),))
                                                           for n, f in files.items()))
                for i, d in enumerate(base))
    return out, files[baseline].unpaired


def groupings_of(specs: list[str], settings: Settings) -> tuple:
    """The :class:`~.subsets.Grouping` of each ``--subsets`` spec, then of ``--by genre`` /
    ``--by length`` (each once)."""
    from ..scoring.options import document_grouping
    from .subsets import DOCUMENT_GROUPINGS, grouping

    names = list(dict.fromkeys([*specs, *(f for f in settings.by if document_grouping(f))]))
    out = []
    for spec in names:
        if spec.partition(":")[0] in DOCUMENT_GROUPINGS:
            out.append(grouping(spec))
        elif Path(spec).is_file():
            from .groupsources import read_groups

            out.append(grouping(Path(spec).stem, read_groups(spec)))
        else:
            raise PlanError(f"--subsets takes genre, length[:EDGES] or a file of DOC_ID<TAB>GROUP lines; {spec!r} is "
                            "none of them")
    return tuple(out)


# --------------------------------------------------------------------------- plans


def pair_plan(key: str, response: str, settings: Settings, kf: str | None = None, rf: str | None = None,
              name: str = "", **kwargs) -> Plan:
    """One system on one key."""
    system = System(name, (("", Source(response, rf)),))
    return Plan(PAIR, (Dataset("", Source(key, kf), (system,)),), settings, **kwargs)


def systems_plan(key: str, systems: list[System], settings: Settings, kf: str | None = None, **kwargs) -> Plan:
    """Several systems (the first the baseline) on one key."""
    return Plan(SYSTEMS if len(systems) > 1 else PAIR, (Dataset("", Source(key, kf), tuple(systems)),), settings,
                **kwargs)


def plan_of(command: str, key: str | None, items: list[str], settings: Settings, *, runs: bool = False,
            datasets: bool = False, subsets: list[str] = (), kf: str | None = None, rf: str | None = None,
            compare: Resampling | None = None, policy: Policy | None = None) -> Plan:
    """The plan of ``command`` (score, compare, report, tui) over ``key`` and ``items`` (its
    systems, groups of runs or datasets, as the module docstring writes them)."""
    policy = policy or Policy()
    if command == "tui":
        browsable(key, items, settings, datasets, list(subsets))
    if runs and datasets:
        raise PlanError({"score": "--runs and --datasets go separately: score each dataset's runs alone"}.get(
            command, "--runs and --datasets go separately"))
    if settings.plink_by and (compare is not None or command == "tui"):
        raise PlanError("compare does not resample p-link categories; use 'corefreport score -m plink' per system"
                        if command != "tui" else
                        "the terminal browser has no p-link view; use 'corefreport score -m plink' or the report")
    # score and report show the groups of --by genre too; compare and the browser only those of --subsets
    groupings = groupings_of(list(subsets), settings if command in ("score", "report") else replace(settings, by=()))
    if settings.strata and (runs or datasets):
        raise PlanError(f"--strata is not available with {'--runs' if runs else '--datasets'}: score "
                        f"{'one run' if runs else 'one dataset'} alone")
    strata = strata_of(settings)
    for on, flag in ((settings.window, "--window"), (settings.response_windows, "--response-windows")):
        if on and (runs or datasets):
            raise PlanError(f"{flag} is not available with {'--runs' if runs else '--datasets'}: score "
                            f"{'one run' if runs else 'one dataset'} alone")
    if datasets:
        if not key:
            raise PlanError("--datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR")
        if subsets:
            raise PlanError("--subsets is not available with --datasets: score one dataset alone")
        if settings.cross_document is not None and command == "tui":
            raise PlanError("--cross-document is not available with --datasets or --subsets in the browser")
        found, unpaired = dataset_list(key, items, kf, rf, several=compare is not None)
        if compare is not None and len(found[0].systems) < 2:
            raise PlanError("compare --datasets takes KEYDIR BASEDIR SYSDIR… or BASE_MANIFEST SYSTEM_MANIFEST…")
        return Plan(DATASETS, found, settings, (), compare, policy, unpaired)
    if runs:
        if not key or not items:
            raise PlanError("--runs takes KEY and RUNS (NAME=RUN1,RUN2,… or a quoted glob of run files)")
        if subsets:
            raise PlanError("--subsets is not available with --runs: score one run alone")
        groups = run_groups(items, rf)
        if compare is not None and len(groups) < 2:
            raise PlanError("compare --runs takes KEY and two groups of runs or more: BASE=RUN1,RUN2,… "
                            "SYSTEM=RUN1,RUN2,…")
        return Plan(RUNS, (Dataset("", Source(key, kf), tuple(groups)),), settings, (),
                    compare if len(groups) > 1 else None, policy)
    if not key or not items:
        raise PlanError("give KEY and RESPONSE (or --example)")
    systems = named_systems(items, rf)
    if compare is not None and len(systems) < 2:
        raise PlanError("give a BASELINE and at least one SYSTEM")
    return systems_plan(key, systems, settings, kf, groupings=groupings,
                        compare=compare if len(systems) > 1 else None, policy=policy, strata=strata)


def strata_of(settings: Settings) -> tuple:
    """The :class:`~corefreport.scoring.strata.Stratification` of each ``--strata`` value."""
    from ..scoring.strata import stratification

    return tuple(stratification(s) for s in settings.strata)


def browsable(key: str | None, items: list[str], settings: Settings, datasets: bool, subsets: list[str]) -> None:
    """What the browser opens on: one pair, several systems, the datasets or one pair's groups of
    documents by one grouping."""
    if datasets and subsets:
        raise PlanError("--datasets and --subsets go separately: browse one dataset's groups with 'tui KEY RESPONSE "
                        "--subsets'")
    if len(subsets) > 1:
        raise PlanError("the browser opens on one grouping: give --subsets once")
    if subsets and (not key or len(items) != 1):
        raise PlanError("tui --subsets takes KEY and RESPONSE")
    if datasets and (not key or len(items) > 1):
        raise PlanError("tui --datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR")
    if not datasets and (not key or not items):
        raise PlanError("give KEY and RESPONSE (or --example)" if len(items) < 2 else "give KEY and two or more systems")
    if settings.cross_document is not None and (datasets or subsets):
        raise PlanError("--cross-document is not available with --datasets or --subsets in the browser")


def refuse_stdin(plan: Plan) -> None:
    """The browser reads the keyboard from standard input: no input of ``plan`` may be ``-``."""
    if STDIN in plan.sources():
        inputs = ("KEY and RESPONSE" if plan.shape == PAIR and not plan.groupings else
                  "KEY and the systems" if plan.shape == SYSTEMS else "no input")
        raise PlanError(f"the terminal browser reads the keyboard from standard input, so {inputs} cannot be '-'; "
                        "give a file, a FIFO or a process substitution such as <(zcat key.gz)")


__all__ = ["DATASETS", "FORMATS", "PAIR", "RUNS", "SYSTEMS", "Dataset", "InputError", "Plan", "PlanError", "Policy",
           "Resampling", "Source", "System", "dataset_list", "groupings_of", "named_systems", "pair_plan",
           "plan_of", "refuse_stdin", "run_groups", "strata_of", "systems_plan"]
