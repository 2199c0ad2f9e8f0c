"""Windows programs and cmd.exe's commands (its built-ins' table: `cmdbuiltins`), as the
POSIX commands that do the same, for the readers of both shells (`psreader`, `cmdreader`)
and for a Windows program a POSIX shell tool runs (`windows_pieces`).

A Windows program takes ``/X`` options: written ``-X`` here, so no rule reads ``/s`` as a
path below ``/``. A shell it starts (``cmd /c``, ``pwsh -Command``, ``wsl``) is read as
that shell's text; a change of permissions (``icacls``, ``takeown``, ``attrib``) as the
``chmod``/``chown`` of the same place.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable
from typing import Protocol

from amplifier_hooks.guard.cmdbuiltins import BUILTINS
from amplifier_hooks.guard.winwords import Word, is_option

__all__ = ["SLASH_PROGRAMS", "Shells", "builtin_or_program", "is_windows_program",
           "may_be_windows_program", "native_command"]  # fmt: skip


class Shells(Protocol):
    """The readers of the shells a Windows program may start (``cmd /c``, ``pwsh
    -Command``), given by the reader that met the program (`psreader`): cmd.exe's and
    PowerShell's readers read each other's text, so this module imports neither."""

    @property
    def home_name(self) -> str: ...

    def cmd(self, text: str) -> str: ...

    def powershell(self, code: str) -> str: ...


def _named(text: str) -> frozenset[str]:
    return frozenset(text.split())


SLASH_PROGRAMS = _named(
    "findstr robocopy xcopy icacls cacls takeown reg schtasks sc net net1 format cipher"
    " setx attrib cmdkey systeminfo wevtutil netsh fsutil where subst msbuild shutdown"
    " taskkill tasklist wmic bcdedit vssadmin wbadmin certutil diskpart chkdsk rundll32"
    " regsvr32 mshta cscript wscript sfc dism runas ipconfig whoami tree fc comp more clip"
    " timeout choice powercfg gpupdate gpresult auditpol bitsadmin mountvol label compact"
    " expand makecab msiexec sdelete sort find replace forfiles driverquery mode openfiles"
    " query qprocess logman pnputil secedit ntdsutil esentutl manage-bde wusa nltest klist"
    " dsquery cmd devenv vstest.console nuget csc vbc lib link cl dumpbin ie4uinit"
    " repadmin dcdiag dsget dsmod dsadd dsrm netdom w32tm setspn"
)
"""Programs that take ``/X`` options (any case, without ``.exe``)."""
_POSIX_TOO = _named("sort find more tree expand link timeout label mode comp replace where"
                       " query fc clip choice lib cl tasklist whoami hostname")  # fmt: skip
"""Of those, the names a POSIX system has programs of its own by: a POSIX shell's piece is
read as cmd.exe's only when it names them with ``.exe``."""
_SUFFIX = re.compile(r"\.(?:exe|com)$", re.IGNORECASE)
_EVERYONE = re.compile(r"^(?:everyone|\*s-1-1-0|users|\*s-1-5-32-545|authenticated users)"
                       r"(?::|$)", re.IGNORECASE)  # fmt: skip


def base_name(program: str) -> str:
    """``C:/Windows/System32/cmd.exe`` is ``cmd``."""
    return _SUFFIX.sub("", posixpath.basename(program.replace("\\", "/"))).lower()


_CMD_ONLY = frozenset({"rd", "del", "erase", "ren", "md", "mklink", "xcopy", "copy", "move",
                       "gsudo", "wsl", "pwsh", "powershell"})  # fmt: skip
"""cmd.exe's built-ins and Windows' programs no POSIX system has under the same name."""


_PLAIN_CANDIDATES = (SLASH_PROGRAMS - _POSIX_TOO) | _CMD_ONLY | {"cd", "chdir", "pushd", "dir",
                                                                "type", "rmdir"}  # fmt: skip
"""The only plain (letters and digits) names `is_windows_program` can say yes to."""


def may_be_windows_program(program: str | None) -> bool:
    """False only where `is_windows_program` is False whatever the arguments: a plain name
    (``git``, ``pytest``) outside `_PLAIN_CANDIDATES`. One set test, since every piece of
    every command is screened (`bench_guard`'s fresh row: 2-3 µs a call before)."""
    if not program:
        return False
    return not program.isalnum() or program.lower() in _PLAIN_CANDIDATES


def is_windows_program(program: str | None, args: tuple[str, ...] = ()) -> bool:
    """Whether a POSIX shell's piece runs a Windows program, read better as cmd.exe would
    pass its words (``icacls X /grant ...``, ``cmd /c ...``, ``tar.exe``, ``rd /s /q X``);
    ``dir``, ``type`` and ``rmdir`` only when given a ``/X`` option."""
    if not program:
        return False
    lowered = program.lower()
    if lowered.endswith((".exe", ".com")):
        return True
    base = lowered if lowered.isalnum() else base_name(program)
    if (base in SLASH_PROGRAMS and base not in _POSIX_TOO) or base in _CMD_ONLY:
        return True
    if base in ("cd", "chdir", "pushd"):  # to a drive's folder: `cd C:\\Users\\me\\project`
        return bool(args) and args[-1][1:2] == ":" and args[-1][:1].isalpha()
    return base in ("dir", "type", "rmdir") and any(is_option(a) for a in args)


def native_command(name: str, words: list[str], plain: list[str | None], shells: Shells) -> str:
    """A program PowerShell runs, with its words (shell text) and their plain texts."""
    return _program(name, list(zip(words, plain, strict=True)), shells)


def builtin_or_program(words: list[Word], shells: Shells) -> str:
    """One cmd.exe command (its words: shell text, plain text) as POSIX text."""
    if not words:
        return "true"
    first = (words[0][1] or "").lstrip("@")
    name = first.lower().rstrip(".")
    rest = words[1:]
    builtin = BUILTINS.get(name)
    if builtin is not None:
        return builtin(rest, shells.home_name)
    starter = _STARTERS.get(name)
    if starter is not None:
        return starter(rest, shells)
    if name.startswith("echo"):  # `echo.` `echo:` print a blank line
        return "echo " + " ".join(w for w, _ in rest)
    return _program(first if words[0][1] is not None else words[0][0], rest, shells)


def _program(name: str, rest: list[Word], shells: Shells) -> str:
    base = base_name(name)
    texts = [p if p is not None else w for w, p in rest]
    if base == "cmd":
        after = _after_switch(rest, ("/c", "/k", "/r"))
        return shells.cmd(" ".join(texts[after:])) if after else "sh"
    if base in ("pwsh", "powershell"):
        return _pwsh(rest, shells)
    if base in ("wsl", "bash"):
        return _wsl(rest) if base == "wsl" else _words("bash", rest)
    if base in ("gsudo", "sudo", "runas"):
        n = 0
        while n < len(rest) and (is_option(rest[n][1]) or (rest[n][1] or "").startswith("-")):
            n += 1
        return "sudo " + builtin_or_program(rest[n:], shells)
    special = _PROGRAMS.get(base)
    if special is not None:
        return special(rest)
    program = base if _SUFFIX.search(name) or "/" not in name else name.replace("\\", "/")
    if base in SLASH_PROGRAMS:
        rest = [(shlex.quote("-" + p[1:]), p) if is_option(p) and p else (w, p) for w, p in rest]
    return _words(program, rest)


def _words(program: str, rest: list[Word]) -> str:
    return " ".join([shlex.quote(program), *(w for w, _ in rest)])


def _after_switch(rest: list[Word], switches: tuple[str, ...]) -> int:
    for n, (_, plain) in enumerate(rest):
        if plain is not None and plain.lower() in switches:
            return n + 1
    return 0


def _pwsh(rest: list[Word], shells: Shells) -> str:
    for n, (_, plain) in enumerate(rest):
        option = (plain or "").lower().lstrip("-/")
        if option and "command".startswith(option) and option[:1] == "c":
            code = " ".join(p if p is not None else w for w, p in rest[n + 1 :])
            return shells.powershell(code)
        if option == "file" or option == "f":
            return _words("pwsh", rest)
    return _words("pwsh", rest)


def _wsl(rest: list[Word]) -> str:
    """``wsl [options] [--] command``: the command is a POSIX shell's (``-e``: a program)."""
    n, user, execute = 0, "", False
    while n < len(rest):
        plain = (rest[n][1] or "").lower()
        if plain in ("-d", "--distribution", "-u", "--user", "--cd"):
            user = (
                (rest[n + 1][1] or "") if plain in ("-u", "--user") and n + 1 < len(rest) else user
            )
            n += 2
            continue
        if plain in ("-e", "--exec"):
            execute = True
            n += 1
            break
        if plain == "--":
            n += 1
            break
        if plain.startswith("--") or plain in ("-l", "-s", "-t", "-v"):
            return _words("wsl", rest)  # --unregister, --shutdown, -l (list), -t (terminate)
        break
    words = [w for w, _ in rest[n:]]
    text = " ".join(w if p is None or " " in p or not p else p for w, p in rest[n:])
    said = " ".join(words) if execute else f"sh -c {shlex.quote(text)}"
    return f"sudo {said}" if user == "root" else said


def _if(rest: list[Word], shells: Shells) -> str:
    n = 0
    while n < len(rest) and (rest[n][1] or "").lower() in ("/i", "not"):
        n += 1
    test = (rest[n][1] or "").lower() if n < len(rest) else ""
    n += 2 if test in ("exist", "errorlevel", "defined", "cmdextversion") else 1
    return builtin_or_program(rest[n:], shells)


def _start(rest: list[Word], shells: Shells) -> str:
    n = 0
    if rest and rest[0][1] is not None and rest[0][0].startswith("'") and " " in rest[0][1]:
        n = 1  # a window title
    while n < len(rest) and is_option(rest[n][1]):
        n += 1
    return builtin_or_program(rest[n:], shells)


def _icacls(rest: list[Word]) -> str:
    options = [(p or "").lower() for _, p in rest if is_option(p)]
    paths = [w for w, p in rest if not is_option(p) and ":" not in (p or "")[2:]][:1]
    recurse = " -R" if "/t" in options else ""
    target = paths[0] if paths else '"$PSITEM"'
    if not any(o.partition(":")[0] in _ACL_CHANGES for o in options):
        return f"ls -d -- {target}"
    everyone = any(_EVERYONE.match(p or "") for _, p in rest)
    mode = "777" if everyone else ("000" if "/deny" in options else "u+rw")
    return f"chmod{recurse} {mode} {target}"


_ACL_CHANGES = frozenset(
    {"/grant", "/deny", "/reset", "/setowner", "/remove", "/inheritance", "/restore",
     "/setintegritylevel", "/substitute"}
)  # fmt: skip


def _takeown(rest: list[Word]) -> str:
    n = _after_switch(rest, ("/f",))
    target = rest[n][0] if 0 < n < len(rest) else '"$PSITEM"'
    recurse = " -R" if any((p or "").lower() == "/r" for _, p in rest) else ""
    return f'chown{recurse} "$USER" {target}'


def _attrib(rest: list[Word]) -> str:
    changes = any((p or "")[:1] in ("+", "-") for _, p in rest)
    paths = [w for w, p in rest if (p or "")[:1] not in ("+", "-", "/")]
    return ("chmod u-w -- " if changes else "ls -d -- ") + " ".join(paths or ["."])


def _robocopy(rest: list[Word]) -> str:
    options = [(p or "").lower() for _, p in rest if is_option(p)]
    paths = [w for w, p in rest if not is_option(p)][:2]
    if len(paths) < 2:
        return _words("robocopy", rest)
    if "/mir" in options or "/purge" in options:
        return f"rsync -a --delete -- {paths[0]}/ {paths[1]}/"
    if "/mov" in options or "/move" in options:
        return f"mv -- {paths[0]} {paths[1]}"
    return f"cp -r -- {paths[0]} {paths[1]}"


def _findstr(rest: list[Word]) -> str:
    flags = " -r" if any((p or "").lower() == "/s" for _, p in rest) else ""
    literal = [p[3:] for _, p in rest if p is not None and p.lower().startswith("/c:")]
    words = [w for w, p in rest if not is_option(p)]
    if not literal and words:
        literal, words = [words[0]], words[1:]
    else:
        literal = [shlex.quote(x) for x in literal]
    return f"grep{flags} -e " + " -e ".join(literal or ["''"]) + " -- " + " ".join(words)


_STARTERS: dict[str, Callable[[list[Word], Shells], str]] = {
    "if": _if, "call": _start, "start": _start,
}  # fmt: skip
"""Built-ins that run another command, read as that command is."""
_PROGRAMS: dict[str, Callable[[list[Word]], str]] = {
    "icacls": _icacls, "cacls": _icacls, "takeown": _takeown, "attrib": _attrib,
    "robocopy": _robocopy, "findstr": _findstr,
}  # fmt: skip
