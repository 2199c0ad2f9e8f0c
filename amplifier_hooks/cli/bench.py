"""The ``bench`` command: score a bundle on corpora of tool calls with expected decisions.

Every case is judged as ``test`` judges one (`amplifier_hooks.cli.probe`: the bundle's
``tool:pre`` emit, no approval asked, nothing run) and classified: denied, asked, or
allowed. Three rates make the score (docs/guard.md):

- deny: of the cases expected ``deny``, the share denied outright;
- ask: of the cases expected ``ask``, the share asked or denied (never let through);
- benign: of the cases expected ``allow``, the share allowed without a question.

``--min-score X`` is the bar for each rate (``--min-deny``, ``--min-ask`` and
``--min-benign`` set one alone); below a bar the exit code is 1. Without corpora, the
shipped ones are used (`shipped_corpora`).
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
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.corpus import Case, load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import Judged, Probe
from amplifier_hooks.cli.report import make_console, write_json
from amplifier_hooks.cli.test import SHOWN_LIMIT
from amplifier_hooks.toolcalls import clean_text

__all__ = ["RATES", "Outcome", "Scores", "add_parser", "judge_all", "run", "score"]

RATES = ("deny", "ask", "benign")
"""The three rates, by the expectation they are counted over (``benign``: ``allow``)."""
_EXPECTED = {"deny": "deny", "ask": "ask", "benign": "allow"}


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
    bench: argparse.ArgumentParser = commands.add_parser(
        "bench",
        parents=[common],
        help="score a bundle on corpora of tool calls",
        description="Judge every case of each CORPUS (YAML or JSON Lines; default: the "
        "shipped attack and benign corpora) with BUNDLE, running nothing, and print per "
        "category how many were caught, asked, missed, and falsely stopped, and three "
        "rates: deny (deny-expected denied), ask (ask-expected asked or denied), benign "
        "(allow-expected allowed without a question). -v lists the cases that missed "
        "their expectation. Exit code 1 when a rate is below its bar.",
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
    return bench


@dataclass(frozen=True)
class Outcome:
    """One case and what the bundle made of it."""

    case: Case
    judged: Judged

    @property
    def ok(self) -> bool:
        """The case met its expectation: deny denied, ask not allowed, allow allowed."""
        got, expected = self.judged.decision, self.case.expected
        if expected == "ask":
            return got != "allow"
        return got == expected


@dataclass(frozen=True)
class Scores:
    """The counts and rates of a bench run."""

    categories: dict[str, dict[str, int]]
    rates: dict[str, dict[str, Any]]

    def below(self, bars: dict[str, float]) -> list[str]:
        """The rates below their bars, each as a sentence."""
        failing = []
        for rate, bar in bars.items():
            value = self.rates[rate]["rate"]
            if value is not None and value < bar:
                failing.append(f"{rate} rate {value:.1%} is below {bar:.1%}")
        return failing


def score(outcomes: list[Outcome]) -> Scores:
    """Count ``outcomes`` per category and compute the three rates."""
    categories: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        got, expected = outcome.judged.decision, outcome.case.expected
        counts = categories.setdefault(outcome.case.category, Counter())
        counts["cases"] += 1
        if expected == "allow":
            counts["benign"] += 1
            counts["false_positives"] += got != "allow"
        else:
            counts["caught"] += got == "deny"
            counts["asked"] += got == "ask"
            counts["missed"] += got == "allow"
    rates: dict[str, dict[str, Any]] = {}
    for rate in RATES:
        cases = [o for o in outcomes if o.case.expected == _EXPECTED[rate]]
        good = sum(o.ok for o in cases)
        rates[rate] = {
            "cases": len(cases),
            "met": good,
            "rate": good / len(cases) if cases else None,
        }
    columns = ("cases", "caught", "asked", "missed", "benign", "false_positives")
    return Scores(
        {name: {c: counts[c] for c in columns} for name, counts in sorted(categories.items())},
        rates,
    )


def bars_of(args: argparse.Namespace) -> dict[str, float]:
    """Each rate's bar from ``--min-score`` and ``--min-<rate>`` (unset: no bar)."""
    bars = {}
    for rate in RATES:
        bar = getattr(args, f"min_{rate}")
        bar = args.min_score if bar is None else bar
        if bar is not None:
            bars[rate] = bar
    return bars


async def judge_all(bundle: Bundle, cases: list[Case]) -> list[Outcome]:
    """What ``bundle`` makes of each case."""
    async with Probe(bundle, isolated=True) as probe:
        return [Outcome(case, await probe.judge(case.call)) for case in cases]


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Score the bundle on the corpora ``args`` name; print the scores; the exit code."""
    paths = args.corpora or [str(p) for p in shipped_corpora()]
    cases = [case for path in paths for case in load_corpus(path)]
    bundle = load_bundle(args.bundle)
    outcomes = asyncio.run(judge_all(bundle, cases))
    scores = score(outcomes)
    bars = bars_of(args)
    report = _Report(bundle.name, paths, outcomes, scores, bars, scores.below(bars))
    if args.json:
        write_json(out, _as_json(report))
    else:
        _print(out, report, args.verbose > 0)
    return 1 if report.failing else 0


def _failure(outcome: Outcome) -> dict[str, Any]:
    case, judged = outcome.case, outcome.judged
    return {
        "id": case.id,
        "file": case.file,
        "category": case.category,
        "tool": case.call.tool,
        "input": dict(case.call.input),
        "expected": case.expected,
        "got": judged.decision,
        "by": judged.by,
        "rule": judged.rule,
        "reason": judged.reason,
    }


@dataclass(frozen=True)
class _Report:
    """What a bench run prints: travels whole from `run` to the printers."""

    bundle: str
    paths: list[str]
    outcomes: list[Outcome]
    scores: Scores
    bars: dict[str, float]
    failing: list[str]


def _as_json(report: _Report) -> dict[str, Any]:
    return {
        "bundle": report.bundle,
        "corpora": report.paths,
        "cases": len(report.outcomes),
        "categories": report.scores.categories,
        "rates": report.scores.rates,
        "bars": report.bars,
        "ok": not report.failing,
        "below": report.failing,
        "failures": [_failure(o) for o in report.outcomes if not o.ok],
    }


def _print(out: IO[str], report: _Report, verbose: bool) -> None:
    bundle, paths, outcomes = report.bundle, report.paths, report.outcomes
    scores, bars, failing = report.scores, report.bars, report.failing
    console = make_console(out)
    console.print(Text(f"bundle {bundle}: {len(outcomes)} cases", style="bold"))
    for path in paths:
        console.print(Text(f"  corpus  {path}", style="dim"))
    table = Table(box=None, padding=(0, 1), title="Per category", title_justify="left")
    table.add_column("category")
    labels = ("cases", "caught", "asked", "missed", "benign", "false pos.")
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
    misses = [o for o in outcomes if not o.ok]
    if verbose and misses:
        console.print()
        console.print(Text(f"{len(misses)} cases missed their expectation:", style="bold"))
        for outcome in misses:
            case, judged = outcome.case, outcome.judged
            what = case.call.input.get("command") or case.call.input
            line = Text(f"  {case.id} ", style="bold")
            line.append(f"[{case.category}] expected {case.expected}, got {judged.decision}: ")
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
