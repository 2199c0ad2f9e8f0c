"""A look told apart by the table: a rule on a whole kind of call (``sudo``, ``git config``
with a key that runs code) keeps off the calls of that kind the table reads as only
looking, and a program the table reads in full writes only what it says. Each freed
class beside the attacks next to it, which stay caught."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.readsonly import reads_only
from amplifier_hooks.guard.table import read_call
from amplifier_hooks.guard.table.python import module_writes
from tests.guard.conftest import Judge

# -- sudo ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "sudo iptables -L -n -v",
        "sudo iptables -t nat -nvL PREROUTING",
        "sudo ufw status verbose",
        "sudo nginx -t",
        "sudo journalctl -u nginx -n 100 --no-pager",
        "sudo tail -n 20 /var/log/syslog",
        "sudo -n cat /etc/nginx/nginx.conf",
        "sudo -u www-data ls /srv/app",
        "sudo lsof -nP -iTCP:443 -sTCP:LISTEN",
    ],
)
def test_a_look_under_sudo_is_left_to_the_host(verdict: Judge, command: str) -> None:
    got = verdict(command)
    assert got.decision is None, (command, got)  # never a grant: sudo's is the person's


@pytest.mark.parametrize(
    "command",
    [
        "sudo iptables -F",
        "sudo iptables -A INPUT -p tcp --dport 22 -j DROP",
        "sudo iptables -L -Z",
        "sudo ufw disable",
        "sudo ufw allow 22/tcp",
        "sudo nginx",
        "sudo nginx -s reload",
        "sudo nginx -t -c /tmp/evil.conf",
        "sudo journalctl --vacuum-size=1M",
        "sudo journalctl --rotate",
        "sudo tee /etc/hosts",
        "sudo cat /var/log/syslog > /tmp/x",
        "sudo -e /etc/hosts",
        "sudo -s cat notes.txt",
        "sudo -i cat notes.txt",
        "sudo -D /root cat notes.txt",
        "sudo --chdir=/root cat notes.txt",
        "sudo -A cat /var/log/syslog",
        "sudo env -C /root cat notes.txt",
        "sudo sh -c 'cat /var/log/syslog'",
        "sudo xargs cat",
        "sudo cat $F",
        "sudo cat /root/.bash_history",
        "sudo cat /home/alice/notes.txt",
        "sudo cat ~/notes.txt",
        "sudo cat /etc/wireguard/wg0.conf",
        "sudo head -c 512 /dev/sda",
        "sudo ls /var/lib/postgresql",
        "sudo find /var/log -delete",
        "sudo find /var/log -exec rm {} +",
        "sudo lsof -r 1",
        "sudo systemctl status nginx",
        "sudo PAGER=/tmp/x journalctl -u nginx",
    ],
)
def test_what_sudo_changes_or_reads_privately_stays_caught(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("ask", "deny"), command


_RISKY_SUDO = st.sampled_from(
    ["-e", "-s", "-i", "-D /root", "--chdir=/root", "-R /mnt", "-A", "-l", "-h host", "-U bob",
     "--login", "--shell", "--edit", "--askpass"]
)  # fmt: skip
_LOOKS = st.sampled_from(["cat notes.txt", "iptables -L", "ls", "ufw status", "head README.md"])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(risky=_RISKY_SUDO, safe=st.sampled_from(["", "-n ", "-u root ", "-E "]), look=_LOOKS)
def test_a_sudo_option_that_changes_what_runs_or_where_keeps_it_asked(
    verdict: Judge, risky: str, safe: str, look: str
) -> None:
    for command in (f"sudo {safe}{risky} {look}", f"sudo {risky} {safe}{look}"):
        assert verdict(command).decision in ("ask", "deny"), command


# -- git config ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "git config --get core.hooksPath",
        "git config --get-all core.fsmonitor",
        "git config core.sshCommand",
        "git config get core.pager",
        "git config --global --get alias.co",
    ],
)
def test_git_config_printing_a_key_that_runs_code_is_granted(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "allow", command


@pytest.mark.parametrize(
    "command",
    [
        "git config core.hooksPath .hooks",
        "git config set core.hooksPath .hooks",
        "git config --add core.fsmonitor ./x",
        "git config --replace-all core.pager 'sh -c id'",
        "git config --global alias.co '!sh x'",
        "git -c core.hooksPath=/tmp/h config --get user.name",
        "git -c core.pager=./x log",
        "git config --get --add core.hooksPath /tmp/h",
    ],
)
def test_git_config_setting_a_key_that_runs_code_is_asked(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("ask", "deny"), command


# -- programs the table reads in full write only what it says ------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "lsof +D ~/.local/state/amplifier-hooks",
        "lsof .claude/settings.json",
        "python3 -m json.tool .claude/settings.json",
        "python3 -m json.tool --indent 2 .mcp.json",
        "python3 -m json.tool ~/.gemini/settings.json > /dev/null",
    ],
)
def test_a_reader_given_a_protected_place_is_not_a_change(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("ask", "deny"), command


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m json.tool in.json .claude/settings.json",
        "python3 -m json.tool --indent=2 in.json ~/.codex/hooks.json",
        "python3 -m json.tool --weird .claude/settings.json",
        "python3 -m jsonfix .claude/settings.json",
        "lsof -Z .claude/settings.json",
        "lsof +D . > .claude/settings.json",
        "dos2unix .claude/settings.json",
    ],
)
def test_what_writes_a_protected_place_stays_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "deny", command


def test_json_tool_writes_only_its_second_operand() -> None:
    assert module_writes(("-m", "json.tool", "a.json")) == ()
    assert module_writes(("-m", "json.tool", "a.json", "b.json")) == ("b.json",)
    assert module_writes(("-m", "json.tool", "--indent", "4", "a.json", "-")) == ()
    assert module_writes(("-m", "json.tool", "--bogus", "a.json")) is None
    assert module_writes(("-m", "json.tool", "a", "b", "c")) is None
    assert module_writes(("-m", "other", "a.json")) is None
    assert module_writes(("script.py", "a.json")) is None


@pytest.mark.parametrize(
    ("words", "looks"),
    [
        ("iptables -L", True),
        ("iptables -S INPUT", True),
        ("iptables -D INPUT 1", False),
        ("iptables -L -P INPUT DROP", False),
        ("ip6tables -nL", True),
        ("ufw status", True),
        ("ufw show added", True),
        ("ufw reset", False),
        ("ufw delete 1", False),
        ("nginx -V", True),
        ("nginx -g daemon\\ off;", False),
        ("journalctl -b -1", False),  # -b takes its value attached only
        ("journalctl -k -p err", True),
        ("journalctl --flush", False),
        ("journalctl --setup-keys", False),
        ("lsof -i :8000", True),
        ("lsof -c python3 -a -d cwd", True),
        ("lsof -Du", False),
    ],
)
def test_the_system_family_reads_only_its_looking_modes(words: str, looks: bool) -> None:
    program, *args = words.split(" ")
    assert (read_call(program, tuple(args)).doubt is None) is looks, words


def test_reads_only_needs_every_piece_understood() -> None:
    assert reads_only(Piece("cat a", "cat", ("a",)))
    assert reads_only(Piece("sudo cat a", "cat", ("a",), wrappers=("sudo",),
                            doubt="sudo runs it as another user"))  # fmt: skip
    assert not reads_only(Piece("sudo -e a", "cat", ("a",), wrappers=("sudo",),
                                doubt="sudo -e is an option the guard does not know"))  # fmt: skip
    assert not reads_only(Piece("cat a > b", "cat", ("a",), writes=("b",)))
    assert reads_only(Piece("cat a 2>/dev/null", "cat", ("a",), writes=("/dev/null",)))
    assert not reads_only(Piece("cat $a", "cat", ("$a",), dynamic=True))
    assert not reads_only(Piece("LD_PRELOAD=x cat a", "cat", ("a",), env=("LD_PRELOAD=x",)))
    assert not reads_only(Piece("bash -c 'cat a'", "cat", ("a",), wrappers=("bash",)))
    assert not reads_only(Piece("tee a", "tee", ("a",)))
    assert not reads_only(Piece("x a", "x-unknown", ("a",)))
    assert not reads_only(Piece("cat a", "cat", ("a",), tool="read_file"))


# -- ssh ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "ssh deploy@web-1 uptime",
        "ssh -p 2222 -l deploy web-1 'journalctl -u api -n 50 --no-pager'",
        "ssh web-1 'df -h && free -m'",
        "ssh -T web-1 hostname",
        # (its words, quoted or not, are the other machine's: /var/log is no path here)
        "ssh web-1 tail -n 100 /var/log/nginx/error.log",
    ],
)
def test_a_remote_look_is_left_to_the_host(verdict: Judge, command: str) -> None:
    got = verdict(command)
    assert got.decision is None, (command, got)


@pytest.mark.parametrize(
    "command",
    [
        "ssh web-1 'uptime; rm -rf /srv/app'",
        "ssh web-1 'uptime > /etc/motd'",
        "ssh web-1 'echo $(reboot)'",
        "ssh web-1 env",
        "ssh web-1 cat ~/.bash_history",  # a dot-named file there (a look at notes.txt: free)
        "ssh web-1 sudo journalctl --vacuum-time=1s",
        "ssh web-1 ssh db-1 uptime",
        "ssh -o ProxyCommand='sh -c id' web-1 uptime",
        "ssh -o PermitLocalCommand=yes -o LocalCommand='touch x' web-1 uptime",
        "ssh -F ./cfg web-1 uptime",
        "ssh -A web-1 uptime",
        "ssh -R 8080:localhost:80 web-1 uptime",
        "ssh -J bastion web-1 rm -rf /srv/app",  # (`-J bastion ... uptime`: a look, free)
        "sudo ssh web-1 uptime",
        "ssh web-1 bash -s",
        "ssh web-1 systemctl restart api",
    ],
)
def test_what_a_remote_command_may_change_stays_asked(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("ask", "deny"), command


# -- inline code and links ----------------------------------------------------------------


def test_csv_read_by_inline_python_is_quiet_and_a_write_stays_asked(verdict: Judge) -> None:
    read = "python -c \"import csv; print(sum(1 for _ in csv.reader(open('data/u.csv'))))\""
    assert verdict(read).decision is None
    write = "python -c \"import csv; csv.writer(open('data/u.csv', 'w')).writerow([1])\""
    assert verdict(write).decision == "ask"
    dump = "python3 -c \"import json; json.dump(d, open('tests/e.json', 'w'))\""
    assert verdict(dump).decision == "ask"  # (data the code computes: not read whole)
    # literal data to a literal path is read whole (`pywrites`): judged as `> tests/e.json`
    literal = "python3 -c \"import json; json.dump({}, open('tests/e.json', 'w'))\""
    assert verdict(literal).decision is None


def test_what_inline_code_changes_is_judged_through_links_made_before(verdict: Judge) -> None:
    got = verdict("ln -s ~/.claude cc && python3 -c \"import os; os.remove('cc/settings.json')\"")
    assert got.decision == "deny", got
