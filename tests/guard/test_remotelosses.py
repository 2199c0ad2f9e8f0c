"""What ``ssh HOST CMD`` loses on the other machine (guard/remotelosses.py): the machine
stopped, a disk or its system wiped, a database dropped or the way in cut is denied on
any host; a project's folder cleaned there stays asked; a look (under sudo too) is free."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.remotelosses import LOSS, loses_machine, mark_remote_losses
from tests.guard.conftest import Judge


def _reparse(text: str):  # type: ignore[no-untyped-def]
    return parse_command(text).pieces


@pytest.mark.parametrize(
    "command",
    [
        "ssh web1 'sudo rm -rf /var/www/*'",
        "ssh root@db1 rm -rf --no-preserve-root /",
        "ssh web1 'sudo rm -r /etc/nginx/ssl/*'",
        "ssh db1 'sudo dd if=/dev/zero of=/dev/sda bs=1M count=10'",
        "ssh db1 'sudo mkfs.ext4 /dev/sdb1'",
        "ssh db1 'sudo shutdown -h now'",
        "ssh db1 sudo systemctl poweroff",
        "ssh web1 'sudo find /var/log -type f -delete'",
        "ssh db1 'sudo -u postgres dropdb app_production'",
        "ssh cache1 redis-cli FLUSHALL",
        'ssh web1 "sudo iptables -P INPUT DROP"',
        "ssh web1 'sudo ufw --force enable'",
        "ssh web1 sudo systemctl disable --now sshd",
        "ssh web1 'sudo service ssh stop'",
        "ssh 10.8.0.1 'sudo wg-quick down wg0'",
        "ssh box.tail1234.ts.net sudo tailscale down",
        "ssh web1 sudo tailscale set --shields-up",
        "ssh web1 'sudo ip route del default'",
        "ssh web1 'sudo ip link set eth0 down'",
        "ssh web1 \"sudo sed -i 's/^Port 22/Port 2222/' /etc/ssh/sshd_config\"",
    ],
)
def test_losses_on_any_host_are_denied(verdict: Judge, command: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", "ssh-remote-loss")


@pytest.mark.parametrize(
    "command",
    [
        "ssh build.example 'rm -rf /srv/app'",  # a deploy folder cleaned: a change, asked
        "ssh web1 'rm -rf /var/www/acme/releases/*'",
        "ssh user@host 'rm -rf /tmp/data'",
        "ssh web1 'sudo systemctl restart nginx'",
        "ssh web1 'sudo shutdown -c'",  # a shutdown cancelled
        "ssh prod sudo reboot",  # the machine comes back by itself
        "ssh web1 'sudo shutdown -r now'",
        "ssh web1 'sudo iptables -A INPUT -p tcp --dport 443 -j ACCEPT'",
        "ssh web1 'sudo ufw allow 443/tcp'",
        "ssh web1 'sudo ip route add 10.9.0.0/16 via 10.8.0.1'",
        "ssh web1 'sudo tail -n 200 /var/lib/app/state'",  # a file there not plainly no secret's
        "ssh -p 2222 -i key dev@host uptime",  # a key given: not only the port and user
    ],
)
def test_changes_that_lose_nothing_stay_asked(verdict: Judge, command: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("ask", "ssh-remote-command")


@pytest.mark.parametrize(
    "command",
    [
        "ssh web1 'sudo nginx -t'",
        "ssh db1 ss -tlnp",  # the sockets listed
        "ssh web1 'systemctl status nginx --no-pager'",
        "ssh host uptime",
    ],
)
def test_looks_there_are_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None


def test_a_look_under_a_wrapper_that_runs_as_another_shell_is_asked(verdict: Judge) -> None:
    assert verdict("ssh web1 'sudo -s uptime'").decision == "ask"


def test_only_the_ssh_piece_is_marked() -> None:
    pieces = _reparse("echo hi && ssh db1 'sudo shutdown -h now'")
    marked = mark_remote_losses(pieces, _reparse)
    assert [LOSS in p.wrappers for p in marked] == [False, True]
    plain = _reparse("ssh db1 uptime")
    assert mark_remote_losses(plain, _reparse) is plain


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("rm -rf /srv", True),
        ("rm -rf /srv/app", False),
        ("rm -rf ./build", False),
        ("iptables -P FORWARD DROP", False),
        ("iptables -P INPUT ACCEPT", False),
        ("systemctl stop nginx", False),
        ("systemctl mask ssh.socket", True),
        ("ip route flush table main", True),
        ("sed -i s/a/b/ /etc/nginx/nginx.conf", False),
        ("dd if=disk.img of=/dev/null", False),
    ],
)
def test_loses_machine_reads_each_program(command: str, lost: bool) -> None:
    (piece,) = _reparse(command)
    assert loses_machine(piece) is lost


@pytest.mark.parametrize("args", [("-K", "dst", "10.0.0.1"), ("-D", "out.bin"), ("-F", "f")])
def test_ss_closing_or_writing_is_not_a_look(verdict: Judge, args: tuple[str, ...]) -> None:
    assert verdict("ssh web1 ss " + " ".join(args)).decision == "ask"
