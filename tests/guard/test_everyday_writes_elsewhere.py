"""Writes outside the workspace that are fully understood: a new file in ``/tmp`` named by
the folder alone (``aws s3 cp s3://b/k /tmp/``). /tmp itself moved or removed stays
judged; buck2 given a tool from /tmp (``--config cxx.cxx=/tmp/w``) stays asked."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.ownplaces import installed_guard

from .conftest import decided


def _scratch() -> str:
    """A shared scratch folder that holds none of the guard's files as this process runs:
    a checkout under /tmp (a CI's clone), or a hook module an earlier test loaded from a
    temporary folder, makes a write into that folder the guard's to refuse
    (self-protect-guard-files)."""
    guard = installed_guard()
    return next(
        d for d in ("/tmp", "/var/tmp", "/dev/shm")
        if not any(g == d or g.startswith(d + "/") for g in guard)
    )  # fmt: skip


@pytest.mark.parametrize(
    "command",
    ["aws s3 cp s3://acme-build-artifacts/app/app-1.4.1.zip {scratch}/",
     "cp dist/app.zip {scratch}/"],
)  # fmt: skip
def test_understood_writes_are_free(command: str) -> None:
    assert decided(command.format(scratch=_scratch()))[0] is None


@pytest.mark.parametrize(
    "command",
    [
        "mv /tmp /tmp2",
        "rm -rf /tmp",
        "cp dist/app.zip ~/other/",
        "aws s3 cp s3://b/k ~/.ssh/",
        "buck2 build //... --config cxx.cxx=/tmp/cxx-wrapper",
    ],
)
def test_tmp_itself_and_home_folders_stay_asked(command: str) -> None:
    assert decided(command)[0] in ("ask", "deny")


def test_a_buck2_option_naming_a_start_up_file_is_denied() -> None:
    assert decided("buck2 build //app:server --out ~/.bashrc")[0] == "deny"
