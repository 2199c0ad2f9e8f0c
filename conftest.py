"""Fixtures shared by tests/ and the modules' own tests."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import socket
import stat
import struct
import tempfile
import time
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


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Each pytest process of a run (the main one and each ``-n`` worker) gets a private
    folder, ``/tmp/ah-test-*`` (0700): its ``TMPDIR`` is in it, so ``tmp_path`` and every
    temporary file of the tests and of the programs they start land there, and it goes
    at the end (`pytest_unconfigure`; a killed run's is swept by the next run)."""
    _sweep_abandoned_runtimes()
    run = Path(tempfile.mkdtemp(prefix=RUNTIME_PREFIX, dir="/tmp"))  # short: socket paths
    (run / OWNER).write_text(f"{os.getpid()} {_started(os.getpid())}\n")
    (run / "tmp").mkdir(mode=0o700)
    config.stash[_RUN] = run, os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(run / "tmp")
    tempfile.tempdir = None  # Python's cached answer is read again from TMPDIR


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's folder goes, with every server and process still running in it."""
    run, tmpdir = config.stash.get(_RUN, (None, None))
    if run is None:
        return
    if tmpdir is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = tmpdir
    tempfile.tempdir = None
    _clear(run)


@pytest.fixture(autouse=True, scope="session")
def _hook_servers_stay_in_the_test_run(pytestconfig: pytest.Config) -> Iterator[None]:
    """A test that runs ``amplifier-hooks claude-code hook`` starts a per-workspace hook
    server (docs/claude-code.md, "How state lasts"): it must not land in the developer's
    runtime or state directory, nor outlive the run (`pytest_unconfigure` stops it)."""
    runtime = pytestconfig.stash[_RUN][0]
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


RUNTIME_PREFIX = "ah-test-"
OWNER = "owner"
"""The file in a run's runtime folder naming the process that made it: its pid and start
time (a pid alone may be a new process's by now)."""
_RUN = pytest.StashKey[tuple[Path, "str | None"]]()
"""This process's run folder, and the ``TMPDIR`` it had before."""


def _started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot; None if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return fields.rsplit(")", 1)[1].split()[19]  # field 22, after the command's name


def _sweep_abandoned_runtimes(root: Path = Path("/tmp")) -> None:
    """A run that was killed (a CI limit, SIGKILL) could not clean up: the run folder (in
    ``root``) of each whose owner is gone is swept here, its hook servers and other
    processes stopped (`_clear`). A folder without an owner record, or one another user
    owns, is not ours to judge and stays."""
    for folder in root.glob(f"{RUNTIME_PREFIX}*"):
        try:
            held = folder.lstat()
            if not stat.S_ISDIR(held.st_mode) or held.st_uid != os.getuid():
                continue  # another user's (or a link): neither read nor touched
            pid, started = (folder / OWNER).read_text().split()
            if _started(int(pid)) == started:
                continue  # that run is still going
        except (OSError, ValueError):  # not a record, or another worker swept it first
            continue
        _clear(folder)


def _clear(folder: Path) -> None:
    """Stop the hook servers and the other processes of a run's ``folder``, then remove
    it."""
    with contextlib.suppress(OSError):  # another worker is sweeping it too
        for path in folder.rglob("*.sock"):
            _stop_server(path)
    _stop_processes_in(folder)
    shutil.rmtree(folder, ignore_errors=True)


def _stop_processes_in(folder: Path, within: float = 60.0) -> None:
    """Stop this user's processes whose working directory or environment is in
    ``folder``: every agent CLI a test starts has its HOME and TMPDIR in the run's folder,
    so an OpenClaw gateway, a Cline hub or an agent a killed test could not stop is found
    by it. SIGTERM, then SIGKILL for any still there after ``within`` seconds. Another
    user's processes are neither read nor signalled."""
    inside = os.fsencode(folder) + b"/"
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            # Held first: a signal through it reaches this process or none, never a new
            # one given the same pid after it ended.
            fd = os.pidfd_open(int(entry.name))
        except OSError:
            continue
        try:
            if entry.stat().st_uid == os.getuid():
                places = [os.fsencode(os.readlink(entry / "cwd"))]
                places += [
                    v.partition(b"=")[2] for v in (entry / "environ").read_bytes().split(b"\0")
                ]
                if any((place + b"/").startswith(inside) for place in places):
                    found.append(fd)
                    continue
        except OSError:  # it ended while we looked
            pass
        os.close(fd)
    for fd in found:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(fd, signal.SIGTERM)
    deadline = time.monotonic() + within
    for fd in found:
        try:
            if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                signal.pidfd_send_signal(fd, signal.SIGKILL)
        except ProcessLookupError:
            pass
        finally:
            os.close(fd)


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
