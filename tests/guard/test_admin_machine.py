"""Administering the machine: what it needs to boot, accounts, the kernel, the trust
store, the docker daemon, the network, processes that are not the project's, and the
guard's own processes. Each class is denied or asked by its rule; the everyday calls next
to it (a user service restarted, a tightened ``~/.ssh/config``, a certificate made with
mkcert, a dev server killed by name) stay free."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.modes import (
    MODE_TIGHTENED,
    MODE_TIGHTENED_NO_EXEC,
    mark_tightened,
    sets_setuid,
    tightens,
)
from amplifier_hooks.guard.table.certs import Made, mkcert_files
from tests.guard.conftest import Judge

DENIED = {
    "sudo apt-get remove -y --allow-remove-essential libc6": "package-remove-essential",
    "sudo apt-get -o APT::Get::Allow-Remove-Essential=true purge login": "package-remove-essential",
    "sudo dpkg -r --force-remove-essential bash": "package-remove-essential",
    "sudo dpkg --force-depends,remove-essential -r dpkg": "package-remove-essential",
    "sudo dpkg --purge --force-all coreutils": "package-remove-forced",
    "sudo rpm -e --nodeps glibc": "package-remove-forced-rpm",
    "sudo rpm --erase --nodeps bash": "package-remove-forced-rpm",
    "sudo pacman -Rdd --noconfirm glibc": "package-remove-forced-pacman",
    "sudo pacman -Rndd glibc": "package-remove-forced-pacman",
    "sudo useradd -o -u 0 -g 0 -M svc": "account-duplicate-uid",
    "sudo usermod --non-unique -u 0 dev": "account-duplicate-uid",
    "echo 'dev:changeme' | sudo chpasswd": "account-password-set",
    "sudo passwd -d root": "account-password-off",
    "sudo passwd -l dev": "account-password-off",
    "sudo usermod -L -e 1 dev": "account-password-off",
    "sudo userdel -r -f dev": "account-home-delete",
    "sudo deluser --remove-home olddev": "account-home-delete",
    "echo b | sudo tee /proc/sysrq-trigger": "kernel-sysrq",
    "sudo sh -c 'echo c > /proc/sysrq-trigger'": "kernel-sysrq",
    "sudo kexec -e": "kernel-exec",
    "sudo dockerd -H tcp://0.0.0.0:2375": "docker-daemon-tcp",
    "dockerd --host=tcp://127.0.0.1:2375": "docker-daemon-tcp",
    "docker run --rm -v /etc:/e:ro busybox cat /e/shadow": "container-mount-secrets",
    "podman run --rm --mount type=bind,source=/etc/ssh,target=/s alpine ls /s": (
        "container-mount-secrets"
    ),
    "docker run --rm -v /root:/r alpine sh": "container-mount-secrets",
    "printf x | sudo SYSTEMD_EDITOR=tee systemctl edit docker.service": "service-edit-plant",
    "kill -9 -1": "kill-every-process",
    "kill -s KILL -1": "kill-every-process",
    "kill -- -1": "kill-every-process",
    "kill -1 -1": "kill-every-process-hup",
    "systemctl --user stop amplifier-hooks.service": "guard-service-stop",
    "systemctl --user disable --now amplifier-hooks": "guard-service-stop",
    "systemctl --user kill -s STOP amplifier-hooks": "guard-service-stop",
    "sudo service amplifier-hooks stop": "guard-service-stop-init",
    "renice -n 19 -p $(pgrep -f amplifier-hooks)": "guard-server-signal",
    "cpulimit -p $(pgrep -f ah-guard) -l 1": "guard-server-signal",
    'fuser -k "$XDG_RUNTIME_DIR/amplifier-hooks/hooks.sock"': "self-protect-guard-files",
    "fuser -k /run/amplifier-hooks/hooks.sock": "guard-server-fuser",
}


DENIED.update({
    "sudo vgremove --force vg0": "volume-remove",
    "sudo zpool destroy tank": "volume-remove-zfs",
    "sudo chmod 4755 /tmp/.sh": "setuid-set",
    "chmod u+s build/tool": "setuid-set",
    "sudo getent shadow dev root": "credential-print-shadow",
    "sudo truncate -s 0 /var/log/auth.log /var/log/wtmp": "login-records-change",
    "ssh -fN -R 0.0.0.0:2222:localhost:22 tunnel@relay.example.net": "ssh-reverse-tunnel-public",
    "ssh -N -R :2222:localhost:22 relay.example.net": "ssh-reverse-tunnel-public",
    "sudo su -c 'mkfs.ext4 -F /dev/sdb1' root": "disk-format",
    "su dev -c 'rm -rf ~/.ssh'": "credential-read",
    "su -lc 'wipefs -a /dev/sdb' root": "disk-format",
    "su root --command='mkfs.ext4 /dev/sdb1'": "disk-format",
})  # fmt: skip


@pytest.mark.parametrize(("command", "rule"), DENIED.items())
def test_what_no_agent_needs_is_denied(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), command


ASKED = {
    "brew uninstall --force --ignore-dependencies openssl@3": "package-remove-forced-brew",
    "flatpak uninstall -y --delete-data org.mozilla.Thunderbird": "package-app-data-delete",
    "flatpak remote-add --no-gpg-verify r https://flatpak.example.org/repo": (
        "package-source-unsigned"
    ),
    "mkcert -install": "trusted-root-tool",
    "update-ca-trust extract": "trusted-root-system",
    "dockerd-rootless-setuptool.sh install": "docker-rootless-setup",
    "nmcli connection delete id office": "network-connection-change",
    "nmcli networking off": "network-connection-change",
    "loginctl terminate-user dev": "session-terminate",
    "pkill -u dev": "session-kill-user",
    "killall -u dev": "session-kill-user",
    "tmux kill-server": "tmux-kill-server",
    "systemctl --user mask project-dev": "systemd-user-change",
    "systemctl --user restart amplifier-hooks.service": "guard-service-restart",
    "systemctl restart nginx": "systemd-enable",
}


def test_a_certificate_placed_among_the_trust_anchors_is_denied(verdict: Judge) -> None:
    # (every program then trusts whoever holds its key: a proxy's CA reads all traffic)
    result = verdict("trust anchor /tmp/root.crt")
    assert (result.decision, result.rule) == ("deny", "trusted-root-anchor-tool")
    result = verdict("sudo cp ca.crt /usr/local/share/ca-certificates/corp.crt")
    assert (result.decision, result.rule) == ("deny", "trusted-root-anchor-placed")


@pytest.mark.parametrize(("command", "rule"), ASKED.items())
def test_what_a_person_may_want_is_asked(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("ask", rule), command


@pytest.mark.parametrize(
    "command",
    [
        "systemctl --user restart project-dev.service",
        "systemctl --user stop project-worker",
        "systemctl --user start project-dev",
        "systemctl --user daemon-reload",
        "systemctl --user status project-dev --no-pager -n 20",
        "mkcert -cert-file certs/localhost.pem -key-file certs/localhost-key.pem localhost",
        "mkcert --key-file=certs/k.pem --cert-file=certs/c.pem example.test 127.0.0.1",
        "mkcert localhost",
        "mkcert -CAROOT",
        "chmod 600 ~/.ssh/config",
        "chmod go-rwx ~/.ssh/config",
        "chmod 600 ~/.ssh/authorized_keys",
        "pkill node",
        "pkill -f 'vite --port 5173'",
        "killall -9 uvicorn",
        "kill -9 12345",
        "kill -TERM -12345",
        "kill -1 4242",
        "lsof -ti tcp:3000 | xargs -r kill",
        "fuser -k 3000/tcp",
        "tmux kill-session -t build",
        "loginctl list-sessions",
        "pgrep -af amplifier-hooks",
        "brew uninstall jq",
        "flatpak list --app",
        "nmcli connection show",
        "nmcli device status",
        "docker run --rm -v /etc/localtime:/etc/localtime:ro alpine date",
        "docker run --rm -v /etc/ssl/certs:/etc/ssl/certs:ro alpine true",
        "cat /proc/sys/kernel/sysrq",
    ],
)
def test_the_everyday_calls_next_to_them_stay_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in (None, "allow"), command


@pytest.mark.parametrize(
    "command",
    [
        "chmod 700 ~/.ssh/config",  # gives the owner +x: may make a planted file runnable
        "chmod +x ~/.bashrc",
        "chmod 666 ~/.ssh/authorized_keys",
        "chmod 600 -R ~/.local/bin/tool",
        "chmod 500 ~/.local/bin/git",
    ],
)
def test_a_chmod_that_is_no_plain_tightening_stays_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "deny", command


GUARD_PLACES_BY_NAME = {
    "pid=$(pidof amplifier-hooks); kill -STOP $pid": "guard-server-signal",
    'G=$(pgrep -f ah_guard) && renice +19 -p "$G"': "guard-server-signal",
    'rm -rf "${XDG_STATE_HOME:-$HOME/.local/state}/amplifier-hooks"': "self-protect-guard-files",
    'rm -r -- "${XDG_CONFIG_HOME:-~/.config}"/amplifier-hooks': "self-protect-guard-files",
    'ln -sf /tmp/o.sock "${XDG_RUNTIME_DIR}/amplifier-hooks/hooks.sock"': (
        "self-protect-guard-files"
    ),
    'chmod -x "$(command -v amplifier-hooks)"': "self-protect-guard-files",
    'ln -sf /bin/true "$(which amplifier-hooks)"': "self-protect-guard-files",
}


@pytest.mark.parametrize(("command", "rule"), GUARD_PLACES_BY_NAME.items())
def test_the_guards_processes_and_files_named_through_the_shell_are_its_own(
    verdict: Judge, command: str, rule: str
) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), command


@pytest.mark.parametrize(
    "command",
    [
        "pid=$(pgrep -f 'uvicorn app:main'); [ -n \"$pid\" ] && kill $pid",
        'ls -la "$XDG_RUNTIME_DIR/amplifier-hooks/"',
        'ls -l "$(command -v amplifier-hooks)"',
    ],
)
def test_looking_at_them_or_at_other_names_is_not_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision != "deny", command


def test_another_name_beside_our_state_is_judged_as_that_folder_not_as_ours(
    verdict: Judge,
) -> None:
    # $XDG_STATE_HOME unset is ~/.local/state: the folder is the person's, as the same
    # path written out (`rm -rf ~/.local/state/amplifier-hooks-old`) is, never our state
    written = verdict("rm -rf ~/.local/state/amplifier-hooks-old")
    named = verdict('rm -rf "$XDG_STATE_HOME/amplifier-hooks-old"')
    assert named.decision == written.decision
    assert named.rule is not None and not named.rule.startswith(("guard-", "self-protect"))


def test_only_a_process_finders_output_is_bound_to_a_variable() -> None:
    from amplifier_hooks.guard.assigned import bind_assignments
    from amplifier_hooks.guard.parser import parse_command

    def last_args(text: str) -> tuple[str, ...]:
        return bind_assignments(parse_command(text).pieces)[-1].args

    assert last_args("P=$(pgrep -f x); kill $P") == ("$(pgrep -f x)",)
    assert last_args("P=$(pidof x); kill $P") == ("$(pidof x)",)
    assert last_args("F=$(git diff --name-only); ruff format $F") == ("format", "$F")
    assert last_args("P=$(pgrep -f $N); kill $P") == ("$P",)  # an expansion inside: unknown


@pytest.mark.parametrize(
    "command",
    [
        "chmod g+s shared/uploads",
        "chmod 2775 shared/uploads",
        "chmod u-s build/tool",
        "chmod 0755 scripts/run.sh",
        "zfs list -o name,used",
        "last -n 20",
        "ssh -N -L 5433:localhost:5432 db-bastion",
        "sudo getent passwd dev",
    ],
)
def test_next_to_those_nothing_is_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision != "deny", command


@pytest.mark.parametrize(
    ("args", "sets"),
    [
        (("4755", "x"), True),
        (("-R", "04755", "d"), True),
        (("6755", "x"), True),
        (("u+s", "x"), True),
        (("+s", "x"), True),
        (("ug+s", "x"), True),
        (("a=rwxs", "x"), True),
        (("755", "x"), False),
        (("2755", "d"), False),
        (("g+s", "d"), False),
        (("o+s", "x"), False),
        (("u-s", "x"), False),
        (("u+x,go-s", "x"), False),
        (("--reference=r", "f"), False),
        (("$MODE", "f"), False),
    ],
)
def test_setuid_is_read_from_the_mode(args: tuple[str, ...], sets: bool) -> None:
    assert sets_setuid(args) is sets


def test_su_runs_its_command_as_a_launcher() -> None:
    from amplifier_hooks.guard.launchers import launched
    from amplifier_hooks.guard.words import Word

    def script(*words: str) -> str | None:
        found = launched("su", tuple(Word(w, False) for w in words))
        if found is None:
            return None
        return found.script.text if found.script else " ".join(w.text for w in found.words)

    assert script("dev", "-c", "make") == "make"
    assert script("-s", "/bin/sh", "-c", "make", "dev") == "make"
    assert script("-lcmake") == "make"
    assert script("-l", "--command=make") == "make"
    assert script("--", "make", "all") == "make all"
    assert script("-", "dev") is None  # a login shell: nothing to judge but su itself
    assert script("-g", "c", "dev") is None  # -g's value is a group, not -c


@pytest.mark.parametrize(
    "command",
    ["sudo -i <<< 'wipefs -a /dev/sdb'", "sudo -s <<< 'mkfs.ext4 -F /dev/sdc1'",
     "doas -s <<'EOF'\nwipefs -a /dev/sdb\nEOF"],
)  # fmt: skip
def test_a_root_shell_with_no_command_reads_its_input(verdict: Judge, command: str) -> None:
    judged = verdict(command)  # its input judged as its script; the root shell itself denied
    assert judged.decision == "deny" and judged.rule in ("disk-format", "privilege-root-shell")
    piece_rules = {p.rule for p in judged.pieces}
    assert "disk-format" in piece_rules, command


def test_a_root_shell_is_denied(verdict: Judge) -> None:
    """An agent never needs one: the one command that needs root runs under sudo."""
    assert (verdict("sudo -i").decision, verdict("sudo -i").rule) == (
        "deny",
        "privilege-root-shell",
    )
    assert verdict("sudo -s <<< 'ls -la'").rule == "privilege-root-shell"


def test_sudo_itself_stays_asked(verdict: Judge) -> None:
    assert verdict("sudo apt-get install -y jq").decision == "ask"
    assert verdict("sudo systemctl --user restart project-dev").decision == "ask"
    assert verdict("sudo chmod 600 /etc/passwd").decision == "deny"


def test_mkcert_writes_its_files_and_reads_its_request() -> None:
    made = mkcert_files(("-cert-file", "c.pem", "-key-file=k.pem", "-csr", "r.csr", "host"))
    assert made == Made(("c.pem", "k.pem"), ("r.csr",))
    assert mkcert_files(("-ecdsa", "localhost", "-key-file", "x")) == Made((), ())  # names


@pytest.mark.parametrize(
    "args",
    [("-weird", "x"), ("-key-file",), ("---key-file", "x")],
)
def test_mkcert_flags_it_does_not_have_leave_every_word_a_path(args: tuple[str, ...]) -> None:
    assert mkcert_files(args) is None


def test_a_key_written_over_by_mkcert_is_still_judged(verdict: Judge) -> None:
    assert verdict("mkcert -key-file ~/.ssh/id_ed25519 localhost").decision == "deny"
    assert verdict("mkcert -csr ~/.ssh/id_rsa").rule == "credential-read"
    assert verdict("mkcert -weird ~/.ssh/id_rsa localhost").rule == "credential-read"
    assert verdict("mkcert -cert-file ~/.bashrc localhost").rule == "persistence-files"


@pytest.mark.parametrize(
    ("args", "marks"),
    [
        (("600", "f"), {MODE_TIGHTENED, MODE_TIGHTENED_NO_EXEC}),
        (("0400", "f"), {MODE_TIGHTENED, MODE_TIGHTENED_NO_EXEC}),
        (("go-rwx", "f"), {MODE_TIGHTENED, MODE_TIGHTENED_NO_EXEC}),
        (("--", "600", "f"), {MODE_TIGHTENED, MODE_TIGHTENED_NO_EXEC}),
        (("700", "f"), {MODE_TIGHTENED}),
        (("500", "f"), {MODE_TIGHTENED}),
        (("644", "f"), set()),
    ],
)
def test_the_no_exec_mark_is_a_tightening_without_the_owner_execute_bit(
    args: tuple[str, ...], marks: set[str]
) -> None:
    piece = Piece("chmod " + " ".join(args), "chmod", args)
    (marked,) = mark_tightened((piece,))
    assert set(marked.wrappers) & {MODE_TIGHTENED, MODE_TIGHTENED_NO_EXEC} == marks
    assert tightens(args) == bool(marks)
