"""Whether a piece only reads, as the program table reads it: the test a rule's
``reads_only`` makes.

Some rules speak for a whole kind of call because most of its calls change something
(``sudo``: anything as root; ``git config`` with a key that runs code). The same kind of
call made only to look (``sudo iptables -L``, ``git config --get core.hooksPath``) is told
apart by the table, never by its name: the program, every option and operand it is given
and every variable set for it are read, and every act is a read. A wrapper that never
grants (sudo, doas) keeps the piece understood; an option of it that changes what runs or
where (``sudo -e``, ``-s``, ``-D``: `table.wrapping`) does not.

``ssh HOST COMMAND`` only looks when ssh is given only options that change nothing it
runs here (no ``-o``, no config file, no forwarding) and COMMAND, read with the same
grammar as the remote shell reads it, is pieces that each only look and name no file
(``uptime``, ``df -h``, ``journalctl -u api``): the other machine's files are not places
the guard knows; a file read there is a look when its name is plainly not a secret's (no
dot-named part such as ``.ssh`` or ``.env``, no key's or password's name, under the user's
folders or ``/var/log``: ``tail -n 200 /var/log/nginx/error.log``). ``-J HOST`` only goes
there through another host. ``kubectl exec POD -- COMMAND`` (``oc``) is read the same way:
its command's words, run in the pod. A network device's command that only looks
(``show ip bgp summary``, ``/ip route print``: `devicecli`) is a look there too.
"""

from __future__ import annotations

import re
import shlex
from functools import lru_cache

from amplifier_hooks.guard.devicecli import device_looks
from amplifier_hooks.guard.envs import doubt_of
from amplifier_hooks.guard.fleetruns import FLEET_TOOLS, looked_command
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.paths import QUIET_DEVICES
from amplifier_hooks.guard.secrets import secret_kind
from amplifier_hooks.guard.table import Does, read_call
from amplifier_hooks.guard.table.network import SSH
from amplifier_hooks.guard.table.options import read_options
from amplifier_hooks.guard.table.wrapping import WRAPPING
from amplifier_hooks.guard.wrappers import UNGRANTED_WHY

__all__ = ["reads_only"]

_UNDERSTOOD = frozenset({"sudo", "doas", *WRAPPING})
"""Wrappers a piece that only reads may run under: those whose options the table reads."""


@lru_cache(maxsize=1024)  # pure on the piece; asked once per rule that names it
def reads_only(piece: Piece) -> bool:
    """``piece`` is a shell command the table reads in full and finds only reading: no
    write, delete, command run, network or link, no redirection into a file, no variable
    that runs code, no argument known only at run time."""
    program = piece.program
    if piece.tool != "bash" or program is None or piece.opaque is not None:
        return False
    if piece.dynamic or piece.function or piece.feeds_code or piece.fed is not None:
        return False
    if piece.doubt is not None and piece.doubt not in UNGRANTED_WHY:
        return False
    if not _UNDERSTOOD.issuperset(piece.wrappers):
        return False
    if any(w not in QUIET_DEVICES for w in piece.writes):
        return False
    if piece.env and doubt_of(piece.env) is not None:
        return False
    if program == "ssh":
        return not piece.wrappers and _remote_looks(piece.args)
    if program in ("kubectl", "oc") and "--" in piece.args:
        return not piece.wrappers and _pod_looks(piece.args)
    if program in FLEET_TOOLS:  # `ansible web -a 'df -h'`: a look on each machine
        command = looked_command(program, piece.args)
        return not piece.wrappers and command is not None and _command_looks(command)
    reading = read_call(program, piece.args)
    return reading.doubt is None and all(act.does == Does.READ for act in reading.acts)


_SSH_PLAIN = frozenset({"-4", "-6", "-C", "-n", "-q", "-T", "-t", "-v", "-x", "-p", "-l",
                        "-J"})  # fmt: skip
"""ssh's options that change nothing it runs or reaches but the host's port and user, or
the host it goes through (``-J bastion``)."""
_REMOTE_WRAPPERS = frozenset({"sudo", "doas"})
"""Wrappers a look run there may be under: a look as root names no file (the module doc)
and `reads_only` reads the wrapper's options as it does here (``sudo nginx -t``)."""


_SSH_SETTINGS = frozenset({"batchmode", "connecttimeout", "connectionattempts",
                           "serveraliveinterval", "serveralivecountmax", "loglevel",
                           "stricthostkeychecking", "identitiesonly", "port", "user",
                           "compression", "addressfamily"})  # fmt: skip
"""``-o`` settings that change how ssh connects, never what it runs or forwards (no
``ProxyCommand``, ``LocalCommand``, ``RemoteCommand``, forwarding or config file)."""


def _plain_setting(value: str) -> bool:
    name, _, setting = value.partition("=")
    if name.lower() == "stricthostkeychecking":  # `no` takes any host key: not plain
        return setting.lower() in ("yes", "accept-new", "ask")
    return name.lower() in _SSH_SETTINGS


def _remote_looks(args: tuple[str, ...]) -> bool:
    """``ssh ARGS`` runs a command on another machine that only looks (module doc)."""
    read = read_options(SSH, args)
    if read.doubt is not None or len(read.operands) < 2:
        return False
    for given in read.given:
        name = given.opt.names[0]
        if name not in _SSH_PLAIN and not (name == "-o" and _plain_setting(given.value or "")):
            return False
    command = " ".join(read.operands[1:])
    return _command_looks(command) or device_looks(command)


_POD_PLAIN = re.compile(r"-n|--namespace(=.+)?|-c|--container(=.+)?|--context(=.+)?|-[it]+")
"""kubectl exec's options that say which pod and container, or give it a terminal."""
_POD_VALUED = frozenset({"-n", "--namespace", "-c", "--container", "--context"})


def _pod_looks(args: tuple[str, ...]) -> bool:
    """``kubectl exec [OPTIONS] POD -- COMMAND`` runs a command in a pod that only looks
    (its words are the program's own, no shell's: quoted back for the grammar)."""
    end = args.index("--")
    head, command = args[:end], args[end + 1 :]
    if not head or head[0] != "exec" or not command:
        return False
    operands, skip = 0, False
    for arg in head[1:]:
        if skip:
            skip = False
        elif arg.startswith("-"):
            if _POD_PLAIN.fullmatch(arg) is None:
                return False
            skip = arg in _POD_VALUED
        else:
            operands += 1
    return operands == 1 and _command_looks(shlex.join(command))


def _command_looks(text: str) -> bool:
    """``text``, read as the other machine's shell reads it, is pieces that each only
    look, reading no file but plainly not a secret's (`_plain_there`)."""
    parsed = parse_command(text)
    if parsed.problem is not None or not parsed.pieces:
        return False
    for piece in parsed.pieces:
        if piece.program in ("ssh", "kubectl", "oc"):
            return False
        named = next((w for w in piece.text.split() if "=" not in w), "")
        if "/" in named and not named.startswith(_BINS):
            return False  # `/file remove ..`: a device's command, not the `file` program
        if not _REMOTE_WRAPPERS.issuperset(piece.wrappers) or not reads_only(piece):
            return False
        acts = read_call(piece.program or "", piece.args).acts
        if not all(act.does == Does.READ and _plain_there(act.target) for act in acts):
            return False
    return True


_BINS = ("/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/")
"""Where a program named by its path is the one its name says."""
_THERE = ("~/", "/var/log/", "/app/", "/srv/", "/home/")
"""Folders of another machine whose files are its users' and its logs."""
_SECRET_WORDS = re.compile(r"secret|passw|token|credential|private|shadow|key", re.IGNORECASE)


def _plain_there(path: str) -> bool:
    """``path`` on another machine is plainly no secret's: relative or in `_THERE`, no
    dot-named part (``.ssh``, ``.env``, ``.aws``), no ``..``, no secret's name."""
    if path.startswith("/") and not path.startswith(_THERE) and path not in ("/app", "/srv"):
        return False
    parts = path.split("/")
    if any(part.startswith(".") and part not in (".", "~") for part in parts):
        return False
    if "$" in path or "`" in path:
        return False
    return _SECRET_WORDS.search(path) is None and secret_kind(path) is None
