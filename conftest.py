"""Fixtures shared by tests/ and the modules' own tests."""

from __future__ import annotations

import os
import select
import shutil
import signal
import socket
import stat
import struct
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, settings

from amplifier_hooks.testing import capture_logs

# The suite runs on busy 2-core machines (CI, a developer's laptop under load): a property
# test must fail on a wrong answer, never because example generation or one example was
# slow. Tests that set their own settings still override these.
settings.register_profile(
    "busy-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("busy-machine")


@pytest.fixture(autouse=True, scope="session")
def _hook_servers_stay_in_the_test_run() -> Iterator[None]:
    """A test that runs ``amplifier-hooks claude-code hook`` starts a per-workspace hook
    server (docs/claude-code.md, "How state lasts"): it must not land in the developer's
    runtime or state directory, nor outlive the run. Every server left is stopped at the end."""
    _sweep_abandoned_runtimes()
    runtime = Path(tempfile.mkdtemp(prefix=RUNTIME_PREFIX, dir="/tmp"))  # short: socket paths
    (runtime / OWNER).write_text(f"{os.getpid()} {_started(os.getpid())}\n")
    # The state folder too (event log, approvals, what install found): a test never
    # writes into the developer's own.
    places = {"XDG_RUNTIME_DIR": str(runtime), "XDG_STATE_HOME": str(runtime / "state")}
    saved = {name: os.environ.get(name) for name in places}
    os.environ.update(places)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
        for path in runtime.rglob("*.sock"):
            _stop_server(path)
        shutil.rmtree(runtime, ignore_errors=True)


RUNTIME_PREFIX = "ah-test-"
OWNER = "owner"
"""The file in a run's runtime folder naming the process that made it: its pid and start
time (a pid alone may be a new process's by now)."""


def _started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot; None if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return fields.rsplit(")", 1)[1].split()[19]  # field 22, after the command's name


def _sweep_abandoned_runtimes() -> None:
    """A run that was killed (a CI limit, SIGKILL) could not clean up: the runtime folder
    of each whose owner is gone is swept here, its hook servers stopped. A folder without
    an owner record, or one another user owns, is not ours to judge and stays."""
    for folder in Path("/tmp").glob(f"{RUNTIME_PREFIX}*"):
        try:
            held = folder.lstat()
            if not stat.S_ISDIR(held.st_mode) or held.st_uid != os.getuid():
                continue  # another user's (or a link): neither read nor touched
            pid, started = (folder / OWNER).read_text().split()
            if _started(int(pid)) == started:
                continue  # that run is still going
            for path in folder.rglob("*.sock"):
                _stop_server(path)
        except (OSError, ValueError):  # not a record, or another worker swept it first
            continue
        shutil.rmtree(folder, ignore_errors=True)


def _stop_server(path: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return
        raw = probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid = struct.unpack("3i", raw)[0]
    os.kill(pid, signal.SIGTERM)
    fd = os.pidfd_open(pid)
    try:
        select.select([fd], [], [], 60.0)
    finally:
        os.close(fd)


REAL_PROGRAMS = frozenset(
    {
        "claude_binary",
        "cline_binary",
        "codex_binary",
        "copilot_binary",
        "gemini_binary",
        "openclaw_binary",
        "opencode_binary",
        "filesystem_server",
        "pg_server",
        "browsers",
    }
)
"""Fixtures of a real agent CLI, server or browser: the tests that use one take seconds
to a minute each, where most take milliseconds."""


def _expected_length(item: pytest.Item) -> tuple[float, bool]:
    """How long ``item`` says it takes: the time limit it declares beyond the suite's,
    and whether it drives a real program (`REAL_PROGRAMS`)."""
    marker = item.get_closest_marker("timeout")
    declared = float(marker.args[0]) if marker is not None and marker.args else 0.0
    return declared, not REAL_PROGRAMS.isdisjoint(getattr(item, "fixturenames", ()))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (the longest declared limit, then those that drive a real
    program), each group in collection order. The workers of ``pytest -n`` take tests in
    this order, so the run ends on short ones instead of one worker finishing a
    minute-long test while the other has nothing left."""
    lengths = {id(item): _expected_length(item) for item in items}
    items.sort(key=lambda item: tuple(-x for x in lengths[id(item)]))


@pytest.fixture(autouse=True)
def _no_store_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``$AMPLIFIER_HOOKS_STORE`` comes before a bundle's approval store, so a value in
    the developer's shell would send every test's approvals there: tests set it
    themselves when they mean to."""
    monkeypatch.delenv("AMPLIFIER_HOOKS_STORE", raising=False)


@pytest.fixture
def logs() -> Iterator[list[dict[str, Any]]]:
    """Structured log records emitted during the test (structlog's capture)."""
    with capture_logs() as captured:
        yield captured


class ManualClock:
    """A monotonic clock that moves only when told to.

    Passed as ``clock=`` to a `HookRegistry` or `ContributionChannels`, it lets a test make a
    handler "take" any time without sleeping (``clock.advance(0.35)`` inside the handler is a
    handler that blocked the loop for 0.35 s), so the outcome cannot depend on how busy the
    machine is.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> ManualClock:
    """A `ManualClock` (see there)."""
    return ManualClock()


@pytest.fixture(params=[30.0, None], ids=["with-timeout", "no-timeout"])
def registry(request: pytest.FixtureRequest) -> Any:
    """A `HookRegistry` with and without a default timeout: a handler that suspends is
    driven on under a timer in the one case, without one in the other."""
    from amplifier_hooks import HookRegistry

    return HookRegistry(default_timeout=request.param)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client for the scripted model stand-ins (tests/test_*_api.py), talking to
    them over loopback as an agent CLI would."""
    async with aiohttp.ClientSession() as session:
        yield session
