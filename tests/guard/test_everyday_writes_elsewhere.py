"""Writes outside the workspace that are fully understood: a new file in ``/tmp`` named by
the folder alone (``aws s3 cp s3://b/k /tmp/``). /tmp itself moved or removed stays
judged; buck2 given a tool from /tmp (``--config cxx.cxx=/tmp/w``) stays asked."""

from __future__ import annotations

from pathlib import Path

import pytest

import amplifier_hooks

from .conftest import decided

_GUARD = Path(amplifier_hooks.__file__).resolve().parent
# A checkout under /tmp (a CI's clone) puts the guard's own files below /tmp, and a write
# naming that folder is then the guard's to refuse (self-protect-guard-files): the
# scratch folder tested is one that does not hold them.
_SCRATCH = next(d for d in ("/tmp", "/var/tmp", "/dev/shm") if not _GUARD.is_relative_to(d))


@pytest.mark.parametrize(
    "command",
    [f"aws s3 cp s3://acme-build-artifacts/app/app-1.4.1.zip {_SCRATCH}/",
     f"cp dist/app.zip {_SCRATCH}/"],
)  # fmt: skip
def test_understood_writes_are_free(command: str) -> None:
    assert decided(command)[0] is None


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
