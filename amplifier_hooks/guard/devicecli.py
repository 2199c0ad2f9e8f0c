"""A network device's own command line, read for whether a command only looks.

``ssh core-rtr1 'show ip bgp summary'`` runs on a router's CLI, not a shell: Cisco's,
Arista's, Juniper's and Huawei's operational commands that look start with ``show`` or
``display`` (Junos's through its shell: ``cli -c 'show route'``), MikroTik's end their
menu path with ``print`` (``/ip route print where ...``). Their output filters follow a
``|`` (``| include``, ``| no-more``). Anything else (``configure``, ``write erase``,
``request system zeroize``, ``/system reset-configuration``) changes the device, and so
does a text a shell there would read otherwise: a substitution, a redirection, a second
command, a bracket MikroTik evaluates (``[find]``), or a secret shown
(``show running-config`` lists its password hashes and keys only by their names here, so
a look that names a key or password is not one).
"""

from __future__ import annotations

import re
import shlex

__all__ = ["device_looks"]

_LOOKS = frozenset({"show", "display"})
"""(Not Cisco's ``sh``: on a machine with a shell, ``sh run`` runs a file.)"""
_FILTERS = frozenset({"include", "i", "inc", "exclude", "e", "ex", "begin", "b", "section",
                      "s", "sec", "count", "no-more", "last", "match", "except", "find",
                      "trim", "display", "json", "xml", "head", "tail"})  # fmt: skip
"""Words an output filter after ``|`` starts with on the devices' CLIs."""
_SHELL_SIGNS = re.compile(r"[;&<>`$\\\n(){}\[\]]")
_SECRETS = re.compile(r"secret|passw|key|community|token|credential|tech-support", re.I)
_PRINTS = frozenset({"print", "monitor"})
_MENU_VERBS = frozenset({"add", "remove", "set", "unset", "enable", "disable", "edit",
                         "export", "import", "run", "reset", "reset-configuration", "reboot",
                         "shutdown", "move", "comment", "upgrade", "install", "uninstall",
                         "save", "load", "flush", "cancel", "make-static", "release",
                         "renew", "send", "fetch", "ping", "print", "monitor", "get",
                         "find"})  # fmt: skip


_SESSION = frozenset({"terminal length 0", "terminal pager 0", "set cli screen-length 0",
                      "screen-length 0 temporary", "exit", "end"})  # fmt: skip
"""Lines a session fed on its input sets its paging with or leaves by (no change)."""


def device_looks(text: str) -> bool:
    """Whether ``text``, run on a network device's CLI, only looks (module doc); a text of
    lines (a session fed on ssh's input) looks when each line does."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        return bool(lines) and all(line in _SESSION or device_looks(line) for line in lines)
    text = lines[0]
    if _SHELL_SIGNS.search(text) or _SECRETS.search(text):
        return False
    try:
        words = shlex.split(text)
    except ValueError:
        return False
    if words[:2] == ["cli", "-c"] and len(words) == 3:  # Junos's shell: its CLI's command
        return device_looks(words[2])
    if not words:
        return False
    if words[0].startswith("/"):
        return _menu_prints(words)
    segments = " ".join(words).split("|")
    first = segments[0].split()
    if not first or first[0] not in _LOOKS:
        return False
    return all(s.split()[:1] and s.split()[0] in _FILTERS for s in segments[1:])


def _menu_prints(words: list[str]) -> bool:
    """A MikroTik command (``/ip route print where ...``): its first verb prints."""
    verb = next((w for w in words if w in _MENU_VERBS), None)
    return verb in _PRINTS
