"""The commands a setting makes a program run, given on its command line (git's options
read by its table entries, `table.git`).

``git -c core.fsmonitor='rm -rf ~; false' status`` runs ``rm -rf ~``; so does
``git config core.sshCommand 'rm -rf ~'`` at the next fetch,
``git -c alias.st='!rm -rf ~' st`` at once, and ``npm pkg set scripts.postinstall=CMD``
(or ``composer config scripts.post-install-cmd CMD``) at the next install. An alias
without ``!`` runs git itself (``alias.sync='reset --hard'`` is ``git reset --hard``),
and ``--config-env=KEY=VAR`` runs whatever ``$VAR`` holds. A remote ``ext::CMD`` (cloned,
fetched, or added for later) runs CMD.
Asking about such a setting is not enough: the command it names is judged like any other,
so a destructive one is denied outright.
"""

from __future__ import annotations

import re
import shlex

from amplifier_hooks.guard.table.git import git_read

__all__ = ["setting_commands"]

_RUNS = re.compile(
    r"^(core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|sequence\.editor"
    r"|pager\.[^=]+|diff\.external|diff\.[^=]+\.(textconv|command)|merge\.[^=]+\.driver"
    r"|filter\.[^=]+\.(clean|smudge|process)|gpg(\.[^=]+)?\.program|interactive\.difffilter"
    r"|uploadpack\.packobjectshook|credential(\.[^=]+)?\.helper|alias\.[^=]+"
    r"|web\.browser|browser\.[^=]+\.cmd|man\.[^=]+\.cmd|sendemail\.[^=]+cmd"
    r"|submodule\.[^=]+\.update|remote\.[^=]+\.(uploadpack|receivepack))$",
    re.IGNORECASE,
)
"""Keys whose value git runs as a shell command (a credential helper only when its value
starts with ``!``; an alias runs a shell command then, and git's own subcommand else; a
submodule's update only a ``!`` command: ``rebase``, ``merge`` are git's own; a remote's
upload-pack or receive-pack is the program git runs, over ssh or here, at a fetch or push)."""
_BANG = ("alias.", "credential", "submodule.")
_NOT_COMMANDS = frozenset({"", "true", "false", "yes", "no", "on", "off", "1", "0"})


def setting_commands(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The shell commands ``PROGRAM ARGS`` sets it to run (git and the node package
    managers; none for any other program)."""
    if program == "git":
        return _git(args)
    if program in ("npm", "pnpm", "yarn"):
        return _scripts(args)
    if program == "composer":
        return _composer_scripts(args)
    return ()


def _composer_scripts(args: tuple[str, ...]) -> tuple[str, ...]:
    """``composer config scripts.EVENT CMD [CMD...]``: the commands set (a value naming
    a PHP callback, ``Vendor\\Class::method``, or another script, ``@name``, is no
    shell command: composer runs those itself)."""
    operands = [a for a in args if not a.startswith("-")]
    if operands[:1] != ["config"] or len(operands) < 3 or not operands[1].startswith("scripts."):
        return ()
    return tuple(v for v in operands[2:] if v and not v.startswith("@") and "::" not in v)


def _scripts(args: tuple[str, ...]) -> tuple[str, ...]:
    """``npm pkg set scripts.NAME=CMD``, ``npm set-script NAME CMD``: the commands set."""
    operands = [a for a in args if not a.startswith("-")]
    if operands[:1] == ["set-script"] and len(operands) >= 3:
        return (operands[2],)
    if operands[:2] != ["pkg", "set"]:
        return ()
    return tuple(value for key, equals, value in (o.partition("=") for o in operands[2:])
                 if equals and key.startswith("scripts.") and value)  # fmt: skip


def _git(args: tuple[str, ...]) -> tuple[str, ...]:
    """git's ``-c KEY=VALUE`` global options and, for ``git config [--global ...] [set]
    KEY VALUE``, the value set: as git reads its options (`table.git`)."""
    top, subcommand, read, rest = git_read(args)
    found: list[str] = []
    settings: list[tuple[str, str]] = []
    for given in top.given:
        if given.value is None:
            continue
        if given.opt.does == "config":
            key, _, value = given.value.partition("=")
            settings.append((key, value))
            found.extend(_command(key, value))
        elif given.opt.names[0] == "--config-env":
            key, _, variable = given.value.partition("=")
            if _RUNS.match(key):  # the value is only known when git runs: a variable's
                found.append(f'"${variable}"' if variable else '"$GIT_CONFIG_ENV"')
    found.extend(_ext_command(a[5:]) for a in args if a.startswith("ext::"))
    if subcommand == "config" and read is not None:
        found.extend(_config(read.operands))
    elif subcommand is not None and (run := _run_alias(settings, subcommand)) is not None:
        found.append(shlex.join((*shlex.split(run), *rest)))
    return tuple(found)


_EXT_ESCAPES = {"% ": " ", "%%": "%", "%s": "git-upload-pack", "%S": "git-upload-pack"}
"""git's ``ext::`` escapes: a space inside a word, a percent sign, the service's name
(either of its two, the one a clone runs)."""
_EXT_DROPPED = frozenset({"%G", "%V"})
"""A word starting so is git's own (the repository or host it names), not the command's."""


def _ext_command(text: str) -> str:
    """The command an ``ext::CMD`` remote runs (git's transport that starts a program
    and speaks to it): its words split on spaces, each ``%`` escape read as git does."""
    raw: list[list[str]] = [[]]
    for part in re.findall(r"%.|%$|[^% ]+| ", text):
        if part == " ":
            raw.append([])
        else:
            raw[-1].append(part)
    words = ["".join(_EXT_ESCAPES.get(p, p) for p in parts) for parts in raw
             if parts and parts[0] not in _EXT_DROPPED]  # fmt: skip
    return shlex.join(words)


def _run_alias(settings: list[tuple[str, str]], name: str) -> str | None:
    """The git command that ``-c alias.NAME=VALUE`` among ``settings`` makes the
    subcommand ``NAME`` run now, with its arguments after it (None: not such an alias,
    or a value the shell's quoting cannot split)."""
    found = None
    for key, value in settings:
        if key.lower() == f"alias.{name.lower()}":
            found = value  # the last setting wins, as in git
    if found is None or found.startswith("!"):
        return None
    try:
        return shlex.join(("git", *shlex.split(found)))
    except ValueError:
        return None


def _config(operands: tuple[str, ...]) -> list[str]:
    """``git config [set] KEY VALUE``'s command, its options read by the table."""
    if operands[:1] == ("set",):
        operands = operands[1:]
    if len(operands) < 2:
        return []
    return _command(operands[0], operands[1])


def _command(key: str, value: str) -> list[str]:
    if not _RUNS.match(key) or value.strip().lower() in _NOT_COMMANDS:
        return []
    if key.lower().startswith("alias.") and not value.startswith("!"):
        return [f"git {value}"]
    if key.lower().startswith(_BANG):
        return [value[1:]] if value.startswith("!") and value[1:].strip() else []
    return [value]
