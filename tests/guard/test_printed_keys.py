"""A new private key whose only way out is the transcript is denied
(`credential-print-new-key`, guard/keyprints.py); one written to a file, or fed to a
program that prints its public half, is judged as before."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.keyprints import new_key_out
from amplifier_hooks.guard.model import Piece
from tests.guard.conftest import Judge

RULE = "credential-print-new-key"


@pytest.mark.parametrize(
    "command",
    ["wg genkey", "wg genpsk", "wg genkey | tee /dev/stderr | wg pubkey",
     "wg genkey | tee /dev/stderr | wg pubkey > wg/public.key",
     "openssl genrsa 2048", "openssl genpkey -algorithm ed25519",
     "openssl genrsa -out /dev/stdout 2048", "openssl ecparam -genkey -name prime256v1",
     "openssl req -x509 -newkey rsa:2048 -nodes -keyout /dev/stdout -out cert.pem",
     "age-keygen", "rage-keygen", "ssh-keygen -t ed25519 -N '' -f /dev/stdout",
     "step crypto keypair pub.json /dev/stdout --no-password --insecure",
     "wg genkey | base64", "openssl genrsa 2048 | tee /dev/tty",
     "wg genkey > /tmp/k; cat /tmp/k",
     "ssh-keygen -t ed25519 -N '' -f /tmp/k && cat /tmp/k"],
)  # fmt: skip
def test_a_new_key_printed_is_denied(verdict: Judge, command: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", RULE), command


@pytest.mark.parametrize(
    "command",
    ["wg genkey | wg pubkey", "age-keygen -o /tmp/age-test.txt", "openssl rand -hex 32",
     "openssl genrsa 2048 | openssl rsa -pubout", "ssh-keygen -y -f /tmp/k",
     "age-keygen -y /tmp/key.txt", "wg genkey > /tmp/k; wg pubkey < /tmp/k",
     "ssh-keygen -t ed25519 -N '' -f /tmp/k && cat /tmp/k.pub",
     "step crypto keypair pub.json priv.json --no-password --insecure"],
)  # fmt: skip
def test_a_key_kept_or_only_its_public_half_printed_is_not(verdict: Judge, command: str) -> None:
    assert verdict(command).rule != RULE, command


@pytest.mark.parametrize(
    ("command", "decision"),
    [("wg genkey | tee wg/private.key | wg pubkey > wg/public.key", "deny"),
     ("openssl genrsa -out ~/keys/dev.key 2048", "deny"),  # (a new one in the workspace: free)
     ("wg genkey > wg/private.key", "ask")],
)  # fmt: skip
def test_a_key_written_to_a_file_is_judged_by_the_files_rules(
    verdict: Judge, command: str, decision: str
) -> None:
    found = verdict(command)
    assert found.decision == decision and found.rule != RULE, command


@pytest.mark.parametrize(
    ("program", "args", "out"),
    [("wg", ("genkey",), "(stdout)"), ("wg", ("show",), None), ("wg", ("genkey", "x"), None),
     ("openssl", ("genrsa", "-out", "k.pem"), "k.pem"), ("openssl", ("x509", "-in", "c"), None),
     ("openssl", ("req", "-new", "-key", "k"), None), ("openssl", ("ecparam", "-name", "p"), None),
     ("age-keygen", ("--output=k.txt",), "k.txt"), ("age-keygen", ("-ok.txt",), "k.txt"),
     ("ssh-keygen", ("-t", "rsa"), None), ("ssh-keygen", ("-l", "-f", "/dev/stdout"), None),
     ("ssh-keygen", ("--bogus",), None), ("step", ("crypto", "keypair", "p"), None)],
)  # fmt: skip
def test_where_the_key_goes_is_read_from_the_options(
    program: str, args: tuple[str, ...], out: str | None
) -> None:
    assert new_key_out(Piece(text="", program=program, args=args)) == out


def test_a_key_made_at_run_time_is_not_read() -> None:
    piece = Piece(text="", program="wg", args=("genkey",), dynamic=True)
    assert new_key_out(piece) is None
