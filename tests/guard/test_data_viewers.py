"""netCDF and HDF5 viewers (``ncdump``, ``h5ls``) only print a file's header or layout:
reading a data file outside the project stays free, while a redirect of their output and a
secret given to them are judged as for ``cat``."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "ncdump -h /archive/lab/raw/cmip6_tas.nc",
        "ncdump -v time data/run.nc",
        "h5ls -r /archive/lab/raw/run_0421.h5",
        "h5ls data/run.h5",
    ],
)
def test_viewing_a_data_file_changes_nothing(verdict: Judge, command: str) -> None:
    result = verdict(command)
    assert result.decision in (None, "allow"), result.pieces


@pytest.mark.parametrize(
    "command",
    [
        "ncdump -h x.nc > ~/.bashrc",
        "h5ls -r x.h5 > ~/.claude/settings.json",
        "ncdump -h ~/.aws/credentials",
        "h5ls -r ~/.ssh/id_rsa",
    ],
)
def test_their_output_and_secrets_are_still_judged(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("ask", "deny")
