"""The ``bench`` command: score a bundle on corpora of tool calls with expected decisions.

Every case is judged as ``test`` judges one (`amplifier_hooks.cli.probe`: the bundle's
``tool:pre`` emit, no approval asked, nothing run) and gets one of four decisions: deny,
ask, allow (a grant: the host skips its own prompt) or no opinion (the host decides).
Four rates make the score (docs/guard.md):

- caught: of the cases expected ``deny``, the share denied or asked;
- deny: of the cases expected ``deny``, the share denied outright;
- ask: of the cases expected ``ask``, the share asked or denied (never let through);
- benign: of the cases expected ``allow`` (everyday work), the share left free: neither
  asked nor denied (a grant and no opinion both count).

A *wrong grant* is a grant of a case expected ``deny`` or ``ask``: the worst result, since
the host then skips its own prompt. ``--min-score X`` is the bar for each rate
(``--min-caught``, ``--min-deny``, ``--min-ask`` and ``--min-benign`` set one alone) and
``--max-wrong-grants N`` the most wrong grants allowed; past a bar the exit code is 1.
Without corpora, the shipped ones are used (`shipped_corpora`). ``--workspace`` judges
every case once more in real repositories where the paths it names exist
(`amplifier_hooks.cli.benchspace`), and scores each case by its worst result.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import IO, Any

from rich.table import Table
from rich.text import Text

from amplifier_hooks.bundles import Bundle, load_bundle
from amplifier_hooks.cli import benchspace
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.corpus import Case, load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import Judged, Probe
from amplifier_hooks.cli.report import make_console, write_json
from amplifier_hooks.cli.test import SHOWN_LIMIT
from amplifier_hooks.toolcalls import clean_text

__all__ = ["RATES", "Scores", "Trial", "add_parser", "judge_all", "run", "score"]

RATES = ("caught", "deny", "ask", "benign")
"""The four rates, by the expectation they are counted over (`_EXPECTED`)."""
_EXPECTED = {"caught": "deny", "deny": "deny", "ask": "ask", "benign": "allow"}
_STOPPED = ("deny", "ask")


def _fraction(text: str) -> float:
    try:
        value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a fraction (0.97, 97%), got {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a fraction between 0 and 1, got {text!r}")
    return value


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``bench`` to the CLI; its parser."""
    bench = add_command(
        commands,
        common,
        "bench",
        "Judge every case of each CORPUS (YAML or JSON Lines; default: the "
        "shipped attack and benign corpora) with BUNDLE, running nothing, and print per "
        "category how many were denied, asked, missed, wrongly granted and falsely "
        "stopped, and four rates: caught (deny-expected denied or asked), deny "
        "(deny-expected denied), ask (ask-expected asked or denied), benign "
        "(allow-expected neither asked nor denied). -v lists the cases that missed their "
        "expectation. Exit code 1 when a rate is below its bar or there are more wrong "
        "grants than --max-wrong-grants.",
    )
    add_bundle_argument(bench)
    bench.add_argument("corpora", nargs="*", metavar="CORPUS", help="corpus files")
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument(
        "--min-score",
        type=_fraction,
        metavar="X",
        help="the bar for every rate (0.97 or 97%%); the rates below set one alone",
    )
    for rate in RATES:
        bench.add_argument(
            f"--min-{rate}", type=_fraction, metavar="X", help=f"the bar for the {rate} rate"
        )
    bench.add_argument(
        "--max-wrong-grants",
        type=_count,
        metavar="N",
        help="the most grants of deny- or ask-expected cases allowed (0: none)",
    )
    bench.add_argument(
        "--workspace",
        action="store_true",
        help="judge every case in temporary git repositories where the paths it names "
        "exist (tracked with changes not committed, untracked, ignored); each case "
        "counts its worst result",
    )
    return bench


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class Trial:
    """One case and what the bundle made of it."""

    case: Case
    judged: Judged
    where: str | None = None
    """The workspace variant it was judged in (``bench --workspace``), else None."""

    @property
    def ok(self) -> bool:
        """The case met its expectation: deny denied, ask asked or denied, allow (everyday)
        neither asked nor denied."""
        got, expected = self.judged.decision, self.case.expected
        if expected == "ask":
            return got in _STOPPED
        if expected == "allow":
            return got not in _STOPPED
        return got == expected

    @property
    def wrong_grant(self) -> bool:
        """A case expected to be denied or asked was granted."""
        return self.case.expected != "allow" and self.judged.decision == "allow"


@dataclass(frozen=True)
class Scores:
    """The counts and rates of a bench run."""

    categories: dict[str, dict[str, int]]
    rates: dict[str, dict[str, Any]]
    wrong_grants: int = 0

    def below(self, bars: dict[str, float], max_wrong_grants: int | None = None) -> list[str]:
        """The rates below their bars, and too many wrong grants, each as a sentence."""
        failing = []
        for rate, bar in bars.items():
            value = self.rates[rate]["rate"]
            if value is not None and value < bar:
                failing.append(f"{rate} rate {value:.1%} is below {bar:.1%}")
        if max_wrong_grants is not None and self.wrong_grants > max_wrong_grants:
            failing.append(f"{self.wrong_grants} wrong grants, more than {max_wrong_grants}")
        return failing


def score(trials: list[Trial]) -> Scores:
    """Count ``trials`` per category and compute the four rates."""
    categories: dict[str, Counter[str]] = {}
    for trial in trials:
        got, expected = trial.judged.decision, trial.case.expected
        counts = categories.setdefault(trial.case.category, Counter())
        counts["cases"] += 1
        if expected == "allow":
            counts["benign"] += 1
            counts["false_positives"] += got in _STOPPED
        else:
            counts["caught"] += got == "deny"
            counts["asked"] += got == "ask"
            counts["missed"] += got not in _STOPPED
            counts["wrong_grants"] += got == "allow"
    rates: dict[str, dict[str, Any]] = {}
    for rate in RATES:
        cases = [o for o in trials if o.case.expected == _EXPECTED[rate]]
        good = sum(_met(rate, o) for o in cases)
        rates[rate] = {
            "cases": len(cases),
            "met": good,
            "rate": good / len(cases) if cases else None,
        }
    return Scores(
        {name: {c: counts[c] for c in COLUMNS} for name, counts in sorted(categories.items())},
        rates,
        sum(o.wrong_grant for o in trials),
    )


COLUMNS = ("cases", "caught", "asked", "missed", "wrong_grants", "benign", "false_positives")
"""Per category: cases; of the risky ones (deny or ask expected) denied, asked, neither
(missed) and granted (wrong grants, a part of missed); of the everyday ones, how many and
how many were asked or denied (false positives)."""


def _met(rate: str, trial: Trial) -> bool:
    if rate == "caught":
        return trial.judged.decision in _STOPPED
    return trial.ok


def bars_of(args: argparse.Namespace) -> dict[str, float]:
    """Each rate's bar from ``--min-score`` and ``--min-<rate>`` (unset: no bar)."""
    bars = {}
    for rate in RATES:
        bar = getattr(args, f"min_{rate}")
        bar = args.min_score if bar is None else bar
        if bar is not None:
            bars[rate] = bar
    return bars


async def judge_all(bundle: Bundle, cases: list[Case]) -> list[Trial]:
    """What ``bundle`` makes of each case."""
    async with Probe(bundle, isolated=True) as probe:
        return [Trial(case, await probe.judge(case.call)) for case in cases]


async def judge_in_workspaces(bundle: Bundle, cases: list[Case]) -> list[Trial]:
    """What ``bundle`` makes of each case in each workspace variant (`benchspace`): the
    worst trial of each case (`_badness`), kept with the case as the corpus wrote it. A
    case that states its repository (`Case.git`) is judged once, in a workspace built for
    it alone as it says."""
    root = benchspace.scratch_root()
    slow = benchspace.slow_git(bundle)
    plain = [case for case in cases if not case.git]
    try:
        worst: list[Trial] = []
        for variant in benchspace.VARIANTS:
            places = benchspace.Workspaces(root / variant, variant, plain)
            async with Probe(slow, isolated=True) as probe:
                for index, case in enumerate(plain):
                    trial = Trial(case, await probe.judge(places.case(case).call), variant)
                    if index == len(worst):
                        worst.append(trial)
                    elif _badness(trial) > _badness(worst[index]):
                        worst[index] = trial
        described: dict[int, Trial] = {}
        async with Probe(slow, isolated=True) as probe:
            for index, case in enumerate(cases):
                if case.git:
                    own = root / benchspace.DESCRIBED / str(index)
                    places = benchspace.Workspaces(own, benchspace.DESCRIBED, [case])
                    judged = await probe.judge(places.case(case).call)
                    described[index] = Trial(case, judged, benchspace.DESCRIBED)
        kept = iter(worst)
        return [described[i] if case.git else next(kept) for i, case in enumerate(cases)]
    finally:
        benchspace.remove(root)


def _badness(trial: Trial) -> int:
    """How far a trial is from its expectation: a wrong grant, a miss, a deny-expected
    case only asked, met."""
    if trial.wrong_grant:
        return 3
    if not trial.ok:
        return 2
    return 1 if trial.case.expected == "deny" and trial.judged.decision != "deny" else 0


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Score the bundle on the corpora ``args`` name; print the scores; the exit code."""
    paths = args.corpora or [str(p) for p in shipped_corpora()]
    cases = [case for path in paths for case in load_corpus(path)]
    bundle = load_bundle(args.bundle)
    judging = judge_in_workspaces if args.workspace else judge_all
    trials = asyncio.run(judging(bundle, cases))
    scores = score(trials)
    bars = bars_of(args)
    failing = scores.below(bars, args.max_wrong_grants)
    report = _Report(bundle.name, paths, trials, scores, bars, failing)
    if args.json:
        write_json(out, _as_json(report))
    else:
        _print(out, report, args.verbose > 0)
    return 1 if report.failing else 0


def _failure(trial: Trial) -> dict[str, Any]:
    case, judged = trial.case, trial.judged
    return {
        "id": case.id,
        "file": case.file,
        "category": case.category,
        "tool": case.call.tool,
        "input": dict(case.call.input),
        "expected": case.expected,
        "got": judged.said,
        "by": judged.by,
        "rule": judged.rule,
        "reason": judged.reason,
        **({"workspace": trial.where} if trial.where else {}),
    }


@dataclass(frozen=True)
class _Report:
    """What a bench run prints: travels whole from `run` to the printers."""

    bundle: str
    paths: list[str]
    trials: list[Trial]
    scores: Scores
    bars: dict[str, float]
    failing: list[str]


def _as_json(report: _Report) -> dict[str, Any]:
    return {
        "bundle": report.bundle,
        "corpora": report.paths,
        "cases": len(report.trials),
        "categories": report.scores.categories,
        "rates": report.scores.rates,
        "wrong_grants": report.scores.wrong_grants,
        "bars": report.bars,
        "ok": not report.failing,
        "below": report.failing,
        "failures": [_failure(o) for o in report.trials if not o.ok],
    }


def _print(out: IO[str], report: _Report, verbose: bool) -> None:
    bundle, paths, trials = report.bundle, report.paths, report.trials
    scores, bars, failing = report.scores, report.bars, report.failing
    console = make_console(out)
    console.print(Text(f"bundle {bundle}: {len(trials)} cases", style="bold"))
    for path in paths:
        console.print(Text(f"  corpus  {path}", style="dim"))
    table = Table(box=None, padding=(0, 1), title="Per category", title_justify="left")
    table.add_column("category")
    labels = ("cases", "denied", "asked", "missed", "wrong grants", "everyday", "false pos.")
    for label in labels:
        table.add_column(label, justify="right")
    for name, counts in scores.categories.items():
        cells = [str(v) for v in counts.values()]
        table.add_row(name, *cells)
    console.print()
    console.print(table)
    console.print()
    for rate in RATES:
        figures = scores.rates[rate]
        value = figures["rate"]
        shown = "n/a" if value is None else f"{value:.1%}"
        bar = f" (bar {bars[rate]:.1%})" if rate in bars else ""
        bad = value is not None and rate in bars and value < bars[rate]
        console.print(
            Text(
                f"{rate:<7} {shown:>6}  {figures['met']}/{figures['cases']}{bar}",
                style="red" if bad else "",
            )
        )
    wrong = scores.wrong_grants
    console.print(Text(f"wrong grants: {wrong}", style="bold red" if wrong else ""))
    misses = [o for o in trials if not o.ok]
    if verbose and misses:
        console.print()
        console.print(Text(f"{len(misses)} cases missed their expectation:", style="bold"))
        for trial in misses:
            case, judged = trial.case, trial.judged
            what = case.call.input.get("command") or case.call.input
            line = Text(f"  {case.id} ", style="bold")
            where = f" (workspace: {trial.where})" if trial.where else ""
            line.append(f"[{case.category}] expected {case.expected}, got {judged.said}{where}: ")
            line.append(clean_text(f"{case.call.tool} {what}", SHOWN_LIMIT, middle=True))
            console.print(line)
            if judged.reason:
                rule = f" [{judged.rule}]" if judged.rule else ""
                said = clean_text(f"{judged.by}{rule}: {judged.reason}", SHOWN_LIMIT)
                console.print(Text(f"      {said}", style="dim"))
    elif misses:
        console.print(Text(f"{len(misses)} cases missed their expectation (-v lists them)"))
    for sentence in failing:
        console.print(Text(f"below the bar: {sentence}", style="bold red"))
