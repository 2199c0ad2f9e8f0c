"""Everyday calls the guard stopped by reading a program's words too roughly (session 23),
each now read as the program reads them, with the neighbours that must stay stopped: a
variable set first in an ``&&`` chain, ``$(mktemp)`` as a word, pg_restore's archive,
QEMU's kernel command line and certbot's public certificates."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.literals import FRESH_TEMP, fresh_temp
from amplifier_hooks.guard.pgfiles import pg_files
from amplifier_hooks.guard.secrets import secret_kind
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    ['tmp=$(mktemp) && jq .a tsconfig.json > "$tmp" && mv "$tmp" tsconfig.json',
     'jq .a tsconfig.json > "$(mktemp)"',
     'tmp=$(mktemp) && jq .a tsconfig.json > "$tmp"',
     'firefox --headless --profile "$(mktemp -d)" --screenshot /tmp/ff.png http://localhost:3000',
     "pg_restore --no-owner -h localhost -d app_dev ~/backups/app_dev.dump",
     "pg_restore -Ofout.sql ~/backups/app_dev.dump",
     "qemu-system-aarch64 -M virt -m 1G -kernel build/Image -append 'root=/dev/vda console=ttyAMA0'"
     " -drive file=build/rootfs.ext4,if=virtio,format=raw"],
)  # fmt: skip
def test_everyday_calls_read_exactly_are_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [  # the value is known only where the assignment surely ran first
     ('cd x && tmp=$(mktemp) && jq . a > "$tmp"', "ask", "write-outside-workspace"),
     ('tmp=$(mktemp) || jq . a > "$tmp"', "ask", "write-outside-workspace"),
     ('tmp=$(mktemp) && jq . a > "$tmp" || jq . b > "$tmp"', "ask", "write-outside-workspace"),
     ("d=~ && echo x > $d/.bashrc", "deny", "persistence-files"),
     # a path below a fresh folder is still read as the path it is
     ('echo x > "$(mktemp -d)/../../home/ada-guard-test/.bashrc"', "deny", "persistence-files"),
     ('jq . a > "$(mktemp -p ~)"', "ask", "write-outside-workspace"),
     # pg_restore's -f writes; its archive is read like any read
     ("pg_restore -d app_dev -f ~/out.sql app.dump", "ask", "write-outside-workspace"),
     ("pg_restore -d app_dev ~/.ssh/id_rsa", "deny", "credential-read"),
     ("pg_restore --unknown-option ~/backups/app.dump", "ask", "write-outside-workspace"),
     # QEMU's disk is still its disk
     ("qemu-system-x86_64 -append 'console=ttyS0' -drive file=/dev/sda,format=raw",
      "deny", "device-write")],
)  # fmt: skip
def test_their_neighbours_stay_stopped(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


def test_fresh_temp_reads_only_mktemp_in_the_temporary_folder() -> None:
    assert fresh_temp("$(mktemp)") == FRESH_TEMP
    assert fresh_temp("$(mktemp -d)/x") == FRESH_TEMP + "/x"
    assert fresh_temp("$(mktemp)x") is None
    assert fresh_temp("$(mktemp -p ~)") is None
    assert fresh_temp("$(mktemp ./x.XXXX)") is None
    assert fresh_temp("$(other)") is None


def test_pg_files_reads_options_as_getopt_does() -> None:
    found = pg_files("pg_restore", ("-Fc", "-j4", "-Lskip.list", "-Of", "o.sql", "a.dump"))
    assert found is not None
    assert (found.reads, found.writes) == (("skip.list", "a.dump"), ("o.sql",))
    found = pg_files("pg_restore", ("--file=o.sql", "--filter", "f.txt", "--", "-a.dump"))
    assert found is not None
    assert (found.reads, found.writes) == (("f.txt", "-a.dump"), ("o.sql",))
    assert pg_files("pg_restore", ("--fil=o.sql", "a.dump")) is None  # an abbreviation
    assert pg_files("pg_restore", ("-Z", "a.dump")) is None
    assert pg_files("pg_restore", ("-f",)) is None
    assert pg_files("pg_dump", ("-f", "o.sql", "app")) is None


@pytest.mark.parametrize(
    ("name", "kind"),
    [("/etc/letsencrypt/live/x/fullchain.pem", None), ("chain.pem", None),
     ("/etc/letsencrypt/live/x/privkey.pem", "key"), ("cert.pem", "key"),
     ("fullchain.pem.bak", None), ("my-fullchain.pem", "key")],
)  # fmt: skip
def test_certbots_certificates_are_public_by_name(name: str, kind: str | None) -> None:
    assert secret_kind(name) == kind


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("wc -l ~/.bashrc ~/.ssh/id_ed25519", None, None),
     ("wc -lw ~/.aws/credentials", None, None),
     ("wc -l server.key", None, None),  # a count, shown; a key's read is never granted
     ("wc --files0-from=/home/ada-guard-test/.ssh/id_rsa", "deny", "credential-read"),
     ("wc -c ~/.ssh/id_rsa && tac ~/.ssh/id_rsa", "deny", "credential-read"),
     ("grep -c '^MII' ~/.ssh/id_rsa", "deny", "credential-read"),
     ("cat ~/.ssh/id_rsa | wc -l", "deny", "credential-read")],
)  # fmt: skip
def test_a_count_of_a_keys_lines_shows_none_of_it(
    verdict: Judge, command: str, decision: str | None, rule: str | None
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


@pytest.mark.parametrize(
    ("command", "decision"),
    [("env | grep -i _proxy | cut -d= -f1", None),
     ("printenv | grep -E '^(HTTP|HTTPS|NO)_PROXY' | cut -d= -f1 -s", None),
     ("env | grep -i proxy | cut -d= -f2", "ask"),
     ("env | grep -i proxy | cut -c1-80", "ask"),
     ("env | grep -i proxy", "ask")],
)  # fmt: skip
def test_a_filtered_dump_cut_to_its_names_shows_no_value(
    verdict: Judge, command: str, decision: str | None
) -> None:
    assert verdict(command).decision == decision


@pytest.mark.parametrize(
    ("name", "kind"),
    [("~/.Renviron", "env"), ("project/.Renviron", "env"), (".Rprofile", None),
     ("renv.lock", None)],
)  # fmt: skip
def test_rs_renviron_is_its_env_file(name: str, kind: str | None) -> None:
    """R's ``.Renviron`` holds its variables (``GITHUB_PAT``, API keys) as a ``.env`` does."""
    assert secret_kind(name) == kind
