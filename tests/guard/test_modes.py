"""A chmod that only takes permissions away from group and others (``chmod 600
~/.ssh/id_ed25519``) loses nothing: it is free. Opening a key to others (``644``,
``777``), taking the owner's read away, or any other mode stays denied; the guard's own
places and the files that run code stay judged by their rules."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.modes import tightens
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "args",
    ["600 k", "0600 k", "400 k", "700 k", "go-rwx k", "g-w,o-r k", "og= k", "-v 600 k",
     "--changes go-rwx a b", "-- 600 k"],
)  # fmt: skip
def test_modes_that_only_tighten(args: str) -> None:
    assert tightens(tuple(args.split()))


@pytest.mark.parametrize(
    "args",
    ["644 k", "777 k", "640 k", "604 k", "4600 k", "000 k", "200 k", "u-r k", "a-w k",
     "+x k", "go+r k", "o=r k", "u=rw,go= k", "-R 600 d", "600 -R d", "600", "--reference=r k",
     "go-rwx", "g-w,o+r k"],
)  # fmt: skip
def test_other_modes_do_not(args: str) -> None:
    assert not tightens(tuple(args.split()))


@pytest.mark.parametrize(
    "command",
    [
        "chmod 600 ~/.ssh/id_ed25519",
        "chmod 600 ~/.ssh/id_ed25519 && ls -l ~/.ssh/id_ed25519",
        "chmod go-rwx ~/.aws/credentials",
        "chmod 400 ~/.ssh/deploy_key",
    ],
)
def test_tightening_a_keys_mode_is_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None, command


@pytest.mark.parametrize(
    ("command", "rule"),
    [("chmod 644 ~/.ssh/id_ed25519", "credential-change"),
     ("chmod 777 ~/.ssh/id_rsa", "credential-change"),
     ("chmod 000 ~/.ssh/id_rsa", "credential-change"),
     ("chmod o+r ~/.aws/credentials", "credential-change"),
     ("chmod 600 ~/.claude/settings.json", "self-protect-hook-settings"),
     ("chmod 600 /etc/shadow", "chmod-chown-system"),
     ("chmod 700 ~/.bashrc", "persistence-files")],
)  # fmt: skip
def test_any_other_change_stays_denied(verdict: Judge, command: str, rule: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", rule), command


def test_tightening_elsewhere_is_no_grant(verdict: Judge) -> None:
    """Free means the host decides: a tightening chmod outside the workspace is not
    granted (the guard says nothing); any other is asked, and a system file's denied."""
    assert verdict("chmod 600 ~/notes/plan.txt").decision is None
    assert verdict("chmod 644 ~/notes/plan.txt").decision == "ask"
    assert verdict("chmod 600 /srv/app/secret.txt").rule == "chmod-chown-system"


@pytest.mark.parametrize(
    "command",
    ["chmod -R 775 -L vendor/", "chmod -RL 755 packages", "chmod --recursive -L 700 vendor",
     "chmod -R -L -P 755 vendor"],
)  # fmt: skip
def test_a_recursive_change_that_follows_links_is_not_granted(verdict: Judge, command: str) -> None:
    """``-R -L`` follows every link met below (an `npm link`ed package, a vendored
    checkout) to wherever it leads, which the command's words do not say: no grant."""
    found = verdict(command)
    assert found.decision is None and "follows every link" in (found.reason or ""), command


@pytest.mark.parametrize(
    "command", ["chmod -R 755 vendor/", "chmod -L 644 x", "chmod -R -H 755 vendor"]
)
def test_the_same_change_without_following_stays_granted(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "allow", command


def test_chown_and_chgrp_are_never_granted(verdict: Judge) -> None:
    """Their reading refuses ``-R -L`` too, but they are not granted in the first place."""
    for command in ["chown -R -L dev vendor", "chgrp --recursive -L staff vendor", "chown dev x"]:
        assert verdict(command).decision is None, command
