"""The workspace server's side of ``test``: run the command for a relayed command line.

`amplifier_hooks.transports.relay.trial` sends the parsed arguments of a ``test``
process, the folder it runs in, its environment and its terminal (`Screen`). Here the
same `amplifier_hooks.cli.test.run` judges them and prints into the answer, so the
answer is what the process would have printed itself: the same text or JSON, the same
exit code, the same one-line error for bad input.

The server declines (`TrialDeclined`; the process then judges in-process) whatever it
could answer differently from the process:

- it runs in another folder (relative paths, the guard's workspace), for another bundle,
  or with another
  environment (a bundle's ``${VAR}``, what modules and git read) than the caller, but
  for the terminal's variables, which the screen carries
  (`amplifier_hooks.transports.relay.trial.TERMINAL_NAMES`);
- judging logged a warning or worse: the process would have printed it on stderr, where
  the server's log has it instead;
- anything other than bad input went wrong (the process shows the traceback).
"""

from __future__ import annotations

import argparse
import contextvars
import io
import json
import logging
import os
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.cli.input_errors import input_error, report_input_error
from amplifier_hooks.cli.screen import screen_of
from amplifier_hooks.logs import LOGGER_NAME
from amplifier_hooks.transports.http.app import Trial
from amplifier_hooks.transports.relay.client import RelayAnswer
from amplifier_hooks.transports.relay.trial import TERMINAL_NAMES, TrialDeclined

__all__ = ["served_test"]

_TEXT = ("bundle", "tool", "path", "payload", "host", "cwd")

_warnings: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "trial_warnings", default=None
)


class _Watch(logging.Handler):
    """Notes the records of warning level and above that a trial's judging logs (those
    of its task, and of the threads and tasks it starts: they copy its context)."""

    def emit(self, record: logging.LogRecord) -> None:
        noted = _warnings.get()
        if noted is not None:
            noted.append(record.getMessage())


def _watching() -> None:
    """Attach the watch to the library's logger and to the root (where other loggers'
    records go), once."""
    for logger in (logging.getLogger(LOGGER_NAME), logging.getLogger()):
        if not any(isinstance(handler, _Watch) for handler in logger.handlers):
            logger.addHandler(_Watch(logging.WARNING))


def _request(raw: bytes) -> dict[str, Any]:
    try:
        request = json.loads(raw)
    except ValueError as exc:
        raise TrialDeclined(f"not a trial: {exc}") from None
    if not isinstance(request, dict):
        raise TrialDeclined("not a trial: not a JSON object")
    ok = (
        all(isinstance(request.get(name), str | None) for name in _TEXT)
        and isinstance(request.get("bundle"), str)
        and isinstance(request.get("json"), bool)
        and isinstance(request.get("words"), list)
        and all(isinstance(word, str) for word in request["words"])
        and isinstance(request.get("here"), str)
        and isinstance(request.get("environ"), dict)
        and all(isinstance(v, str) for v in request["environ"].values())
    )
    if not ok:
        raise TrialDeclined("not a trial: a field is missing or of the wrong kind")
    return request


def _differences(theirs: Mapping[str, str], ours: Mapping[str, str]) -> list[str]:
    names = (set(theirs) | set(ours)) - TERMINAL_NAMES
    return sorted(name for name in names if theirs.get(name) != ours.get(name))


def _check_place(request: dict[str, Any], bundle: str) -> None:
    """Decline unless the caller's folder, bundle and environment are the server's."""
    try:
        here = os.getcwd()
    except OSError as exc:
        raise TrialDeclined(f"the server's folder is gone: {exc}") from None
    if request["here"] != here:
        raise TrialDeclined(f"the server runs in {here}, not {request['here']}")
    if os.path.realpath(request["bundle"]) != bundle:
        raise TrialDeclined(f"this server judges with {bundle}, not {request['bundle']}")
    differ = _differences(request["environ"], os.environ)
    if differ:
        shown = ", ".join(differ[:5]) + (", ..." if len(differ) > 5 else "")
        raise TrialDeclined(f"the server's environment differs: {shown}")


def served_test(bundle: str) -> Trial:
    """The trial of the server for ``bundle``: it judges with that bundle only."""
    served = os.path.realpath(bundle)

    async def trial(raw: bytes) -> RelayAnswer:
        request = _request(raw)
        _check_place(request, served)
        return await _judged(request)

    _watching()
    return trial


async def _judged(request: dict[str, Any]) -> RelayAnswer:
    """What ``test`` prints and exits with for ``request`` (`TrialDeclined` when judging
    it here could differ from judging it in the caller's process)."""
    from amplifier_hooks.cli import test

    try:
        screen = screen_of(request.get("screen"), request["environ"])
    except ValueError as exc:
        raise TrialDeclined(str(exc)) from None
    args = argparse.Namespace(
        command="test",
        verbose=0,
        words=request["words"],
        json=request["json"],
        **{name: request.get(name) for name in _TEXT},
    )
    out, err = io.StringIO(), io.StringIO()
    noted: list[str] = []

    def loaded() -> None:  # logs count from here, as the process shows them from here
        _warnings.set(noted)

    try:
        code = await test.judge(args, out, loaded, environ=request["environ"], screen=screen)
    except Exception as exc:
        if not input_error(exc):
            raise TrialDeclined(f"the trial failed: {type(exc).__name__}: {exc}") from exc
        out, err = io.StringIO(), io.StringIO()
        code = report_input_error(args, exc, out, err)
    finally:
        _warnings.set(None)
    if noted:
        raise TrialDeclined(f"judging logged {len(noted)} warning(s): {noted[0][:200]}")
    return RelayAnswer(None, code, err.getvalue(), stdout=out.getvalue())
