"""The programs a pattern in a command's program path can run: ``/bin/r? -rf ~`` is
``/bin/rm`` wherever that exists, and ``/???/?m`` is too.

bash expands the pattern against the disk; the guard matches it against a known list of
program names in the folders programs live in (`PROGRAM_FOLDERS`), each matched segment by
segment as bash does (a ``?`` or ``*`` never takes a ``/``, nor a leading dot). Every
match is judged (`evaluate`); a program the list lacks stays unknown (the parse's ask).
"""

from __future__ import annotations

import re
from functools import lru_cache

from amplifier_hooks.guard.globregex import glob_regex
from amplifier_hooks.guard.programs import NETWORK, READ_ONLY, SHELLS

__all__ = ["MAX_MATCHES", "PROGRAM_FOLDERS", "PROGRAM_NAMES", "program_matches"]

MAX_MATCHES = 8
PROGRAM_FOLDERS = ("/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin",
                   "/usr/local/sbin", "/opt/homebrew/bin")  # fmt: skip
PROGRAM_NAMES = frozenset(
    {
        "rm", "rmdir", "shred", "unlink", "dd", "mkfs", "wipefs", "truncate", "mv", "cp",
        "ln", "chmod", "chown", "chattr", "install", "tee", "sed", "perl", "python",
        "python3", "node", "ruby", "php", "git", "gh", "kill", "pkill", "killall",
        "shutdown", "reboot", "halt", "poweroff", "systemctl", "launchctl", "crontab",
        "sudo", "su", "doas", "env", "xargs", "find", "docker", "kubectl", "terraform",
        "npm", "npx", "pip", "pip3", "make", "nohup", "setsid", "eval", "srm", "fdisk",
        "parted", "diskutil", "mount", "umount", "iptables", "ufw", "usermod", "passwd",
        "visudo", "security", "base64", "xxd", "gpg", "ssh-keygen", "ssh-add", "zip", "tar",
        *SHELLS, *NETWORK, *READ_ONLY,
    }
)  # fmt: skip
"""Programs a pattern is matched against: those the rules judge, and the tables of
`programs`."""


@lru_cache(maxsize=128)
def program_matches(pattern: str) -> tuple[str, ...]:
    """The program names ``pattern`` (a program path with ``*``, ``?`` or ``[...]``) can
    run, at most `MAX_MATCHES` (their names, as the parse reads a program path)."""
    if "/" not in pattern:
        regex = _segment(pattern)
        found = sorted(n for n in PROGRAM_NAMES if regex.fullmatch(n))
        return tuple(found[:MAX_MATCHES])
    folder, _, name = pattern.rpartition("/")
    names = _segment(name)
    folders = [f for f in PROGRAM_FOLDERS if _path_matches(folder, f)]
    if not folders:
        return ()
    found = sorted(n for n in PROGRAM_NAMES if names.fullmatch(n))
    return tuple(found[:MAX_MATCHES])


def _segment(pattern: str) -> re.Pattern[str]:
    regex = glob_regex(pattern, path=True)
    if not pattern.startswith("."):
        regex = f"(?!\\.){regex}"
    return re.compile(regex)


def _path_matches(pattern: str, folder: str) -> bool:
    parts, names = pattern.split("/"), folder.split("/")
    return len(parts) == len(names) and all(
        _segment(p).fullmatch(n) is not None for p, n in zip(parts, names, strict=True)
    )
