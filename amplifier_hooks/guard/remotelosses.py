"""What ``ssh HOST CMD`` loses on the other machine, whatever the host is named.

CMD is read with the shell's grammar, each piece as its program reads it (under ``sudo``
too), and the ``ssh`` piece is marked `LOSS` when one of them loses that machine, its data
or the way in to it:

- the machine stopped (``shutdown``, ``poweroff``, ``halt``, ``systemctl poweroff``); a
  restart (``reboot``, ``shutdown -r``) comes back by itself: ssh's own rule asks;
- a disk overwritten (``dd of=/dev/sda``, ``mkfs``, ``wipefs``);
- its system, its config or its services' data deleted (``rm`` or ``find -delete`` of
  ``/``, of a top folder of the system or all it holds, ``/var/www/*``, of anything under
  ``/etc``, ``/boot``, ``/usr``, ``/var/lib``, ``/var/log``); a database dropped there
  (``dropdb``, a FLUSHALL, a DROP statement: `prodruns.production_kind`'s wipes but ``rm``);
- the way in cut: a firewall's policy set to drop (``iptables -P INPUT DROP``), ``ufw
  enable`` (ssh's port may not be allowed), sshd, the firewall or the VPN's service stopped
  or disabled, ``wg-quick down``, ``tailscale down`` or ``--shields-up``, the default route
  deleted, a link set down, sshd's config edited in place.

A project's folder cleaned there (``rm -rf /srv/app``, ``/var/www/acme/releases/*``) is a
change, not a loss: ssh's own rule asks (and `prodruns` denies it on a production host).

``adb shell CMD`` (``exec-out``) runs CMD in the device's shell as ssh runs it, its words
joined by blanks: ``adb shell 'su -c "dd if=/dev/zero of=/dev/block/by-name/userdata"'``
wipes the phone's data partition. It is read the same way and marked `DEVICE_LOSS`.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.devicewords import adb_verb_at
from amplifier_hooks.guard.djangocmds import WIPE
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.prodruns import production_kind
from amplifier_hooks.guard.remote import ssh_remote

__all__ = ["DEVICE_LOSS", "LOSS", "device_command", "loses_machine", "mark_remote_losses"]

Reparse = Callable[[str], tuple[Piece, ...]]

LOSS = "@remote-loss"
"""The mark the pack's ``ssh-remote-loss`` rule names."""
DEVICE_LOSS = "@device-loss"
"""The mark of ``adb shell CMD`` whose CMD loses the device (``device-remote-loss``)."""
_POWER = frozenset({"shutdown", "poweroff", "halt"})
_POWER_VERBS = frozenset({"poweroff", "halt"})
_RESTARTS = frozenset({"-r", "--reboot", "-c"})
"""``shutdown``'s options that restart the machine (or cancel): it comes back by itself."""
_DISKS = frozenset({"mkfs", "wipefs", "sgdisk", "blkdiscard"})
_DELETERS = frozenset({"rm", "rmdir", "shred", "unlink"})
_SYSTEM_TOPS = frozenset({"bin", "boot", "dev", "etc", "home", "lib", "lib64", "opt", "root",
                          "sbin", "srv", "usr", "var", "system", "vendor", "data"})  # fmt: skip
"""Top folders of a system: one of them, or all it holds, deleted is the machine lost
(Android's ``/system``, ``/vendor`` and ``/data``: its system and every app's data)."""
_WHOLE = ("/etc/", "/boot/", "/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/var/lib/",
          "/var/log/", "/root/")  # fmt: skip
"""Folders whose every file is the machine's own (its config, its services' data)."""
_WAY_IN = ("ssh", "sshd", "firewalld", "ufw", "nftables", "iptables", "netfilter-persistent",
           "tailscaled", "wg-quick", "openvpn", "networking", "NetworkManager",
           "systemd-networkd", "zerotier-one")  # fmt: skip
"""Services through which the machine is reached (or which keep it reachable)."""
_SERVICE_OFF = frozenset({"stop", "disable", "mask", "kill"})
_DROPS = frozenset({"DROP", "REJECT"})


def mark_remote_losses(pieces: tuple[Piece, ...], reparse: Reparse) -> tuple[Piece, ...]:
    """``pieces`` with each ``ssh HOST CMD`` whose CMD loses that machine marked `LOSS`;
    the same tuple when none does."""
    out = list(pieces)
    changed = False
    for index, piece in enumerate(pieces):
        found = ssh_remote(piece.args) if piece.program == "ssh" else None
        command = found[1] if found is not None else None
        if piece.program == "adb":
            command = device_command(piece.args)
        if command is None or not any(loses_machine(p) for p in _run_there(command, reparse)):
            continue
        mark = DEVICE_LOSS if piece.program == "adb" else LOSS
        out[index] = piece._replace(wrappers=(*piece.wrappers, mark))
        changed = True
    return tuple(out) if changed else pieces


def _run_there(command: str, reparse: Reparse) -> tuple[Piece, ...]:
    """The pieces of ``command``, and of what an ``su -c WORD...`` among them runs with its
    words joined (Android's su, Magisk's and SuperSU's, joins every word after ``-c``:
    ``adb shell su -c 'dd ...'`` reaches the device as ``su -c dd ...``)."""
    pieces = reparse(command)
    joined = [" ".join(p.args[p.args.index("-c") + 1 :]) for p in pieces
              if p.program == "su" and "-c" in p.args[:-1]]  # fmt: skip
    return tuple(pieces) + tuple(q for text in joined for q in reparse(text))


def device_command(args: tuple[str, ...]) -> str | None:
    """The command ``adb ARGS`` runs in the device's shell (``shell`` or ``exec-out``,
    past adb's options and the shell's own), its words joined as adb joins them; None:
    none (``adb push``, an interactive shell)."""
    at = adb_verb_at(args)
    if at >= len(args) or args[at] not in ("shell", "exec-out"):
        return None
    rest = list(args[at + 1 :])
    while rest and rest[0].startswith("-") and rest[0] != "--":  # `shell -t`, `-x`, `-n`
        rest.pop(0)
    if rest[:1] == ["--"]:
        rest.pop(0)
    return " ".join(rest) if rest else None


def loses_machine(piece: Piece) -> bool:
    """Whether ``piece``, run on a machine, loses it, its data or the way in (module doc)."""
    program, args = piece.program or "", piece.args
    words = [a for a in args if not a.startswith("-")]
    if program in _POWER or (program == "init" and words[:1] == ["0"]):
        return not _RESTARTS.intersection(args)  # (`-c`: a shutdown cancelled)
    if program in ("systemctl", "loginctl") and _POWER_VERBS.intersection(words):
        return True
    if program in _DISKS or program.startswith("mkfs."):
        return True
    if program == "dd":
        return any(a.startswith("of=/dev/") and not a.startswith("of=/dev/null") for a in args)
    if program in _DELETERS:
        return any(_system_path(w) for w in words)
    if program == "find" and "-delete" in args:
        return any(_system_path(w) for w in words if w.startswith("/"))
    if program in ("systemctl", "service"):
        return _way_in_off(program, words)
    if program in ("iptables", "ip6tables"):
        return _policy_drops(args)
    if program == "ufw":
        return words[:1] == ["enable"] or words[:3] == ["default", "deny", "incoming"]
    if program == "wg-quick" or program == "ifdown":
        return words[:1] == ["down"] or program == "ifdown"
    if program == "tailscale":
        return words[:1] == ["down"] or "--shields-up" in args or "--shields-up=true" in args
    if program == "ip":
        return _route_or_link_cut(words)
    if program in ("sed", "perl") and ("-i" in args or any(a.startswith("-i") for a in args)):
        return any(w.startswith("/etc/ssh/sshd_config") for w in words)
    if program != "rm" and program in _DELETERS_OF_DATA:
        return production_kind(piece) == WIPE
    return False


_DELETERS_OF_DATA = frozenset({"dropdb", "redis-cli", "valkey-cli", "keydb-cli", "psql",
                               "mysql", "mariadb", "mongosh", "mongo", "truncate"})  # fmt: skip
"""Programs `prodruns.production_kind` reads for a database's (or a file's) wipe."""


def _system_path(word: str) -> bool:
    """``/``, a top folder of the system or all it holds (``/var/*``, ``/var/www/*``),
    or anything under a folder that is all the machine's own (``/etc/nginx/ssl``)."""
    path = word.rstrip("/") or "/"
    if path in ("/", "/*"):
        return True
    parts = [p for p in path.split("/") if p]
    if not path.startswith("/") or not parts:
        return False
    if len(parts) == 1 or (len(parts) == 2 and parts[1] == "*"):
        return parts[0] in _SYSTEM_TOPS
    if len(parts) <= 3 and parts[-1] == "*" and parts[0] in _SYSTEM_TOPS:
        return True  # everything in a folder of the system: `/var/www/*`, `/srv/data/*`
    return (path + "/").startswith(_WHOLE)


def _way_in_off(program: str, words: list[str]) -> bool:
    """``systemctl stop sshd``, ``service ssh stop``: a service the machine is reached
    through stopped, disabled or masked."""
    if program == "service":
        return len(words) >= 2 and words[1] in _SERVICE_OFF and _reaches(words[0])
    return bool(words) and words[0] in _SERVICE_OFF and any(map(_reaches, words[1:]))


def _reaches(unit: str) -> bool:
    name = unit.removesuffix(".service").removesuffix(".socket").split("@", 1)[0]
    return name in _WAY_IN


def _policy_drops(args: tuple[str, ...]) -> bool:
    """``iptables -P INPUT DROP`` (or ``--policy``): every packet in dropped."""
    for index, arg in enumerate(args):
        if arg in ("-P", "--policy") and index + 2 < len(args):
            return args[index + 1] in ("INPUT", "OUTPUT") and args[index + 2] in _DROPS
    return False


def _route_or_link_cut(words: list[str]) -> bool:
    """``ip route del default``, ``ip route flush``, ``ip link set eth0 down``."""
    if words[:1] in (["route"], ["r"], ["ro"]):
        return (len(words) > 2 and words[1] in ("del", "delete") and words[2] == "default") or (
            len(words) > 1 and words[1] == "flush"
        )
    return words[:1] in (["link"], ["l"]) and "set" in words and words[-1:] == ["down"]
