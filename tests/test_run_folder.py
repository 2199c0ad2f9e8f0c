"""The test run's own folder (conftest.py): this process's ``TMPDIR`` is in it, private,
and a folder a killed run left is swept with every process still running in it -- only
this user's, and only that run's."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import OWNER, RUNTIME_PREFIX, _started, _sweep_abandoned_runtimes

WAIT = 120.0  # a hang, not a timing check
SLEEPS = [sys.executable, "-c", "import time; time.sleep(600)"]


@pytest.fixture
def sleepers() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes the test starts; any still running at the end is killed."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        process.kill()
        process.wait()


def test_the_runs_temporary_files_are_in_its_private_folder() -> None:
    scratch = Path(tempfile.gettempdir())
    assert os.environ["TMPDIR"] == str(scratch)
    run = scratch.parent
    assert run.name.startswith(RUNTIME_PREFIX)
    assert stat.S_IMODE(run.stat().st_mode) == 0o700
    assert stat.S_IMODE(scratch.stat().st_mode) == 0o700
    pid, started = (run / OWNER).read_text().split()
    assert (int(pid), started) == (os.getpid(), _started(os.getpid()))


def test_a_killed_runs_folder_is_swept_with_its_processes_and_no_other(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()
    abandoned = tmp_path / f"{RUNTIME_PREFIX}abandoned"
    (abandoned / "tmp").mkdir(parents=True)
    (abandoned / OWNER).write_text(f"{gone.pid} 1\n")
    live = tmp_path / f"{RUNTIME_PREFIX}live"
    (live / "tmp").mkdir(parents=True)
    (live / OWNER).write_text(f"{os.getpid()} {_started(os.getpid())}\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def start(cwd: Path, tmpdir: Path) -> subprocess.Popen[bytes]:
        sleepers.append(
            subprocess.Popen(SLEEPS, cwd=cwd, env={**os.environ, "TMPDIR": str(tmpdir)})
        )
        return sleepers[-1]

    by_environment = start(elsewhere, abandoned / "tmp")
    by_directory = start(abandoned / "tmp", elsewhere)
    of_the_live_run = start(live / "tmp", live / "tmp")
    unrelated = start(elsewhere, elsewhere)

    _sweep_abandoned_runtimes(tmp_path)

    assert by_environment.wait(WAIT) is not None
    assert by_directory.wait(WAIT) is not None
    assert not abandoned.exists()
    assert live.is_dir() and of_the_live_run.poll() is None
    assert unrelated.poll() is None
