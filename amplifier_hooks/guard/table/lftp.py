"""lftp's commands (``lftp -e "mirror -R build/ /www; bye" sftp://u@h``, ``lftp -c "open
h; put x"``), spelled as the shell commands that do the same, so the rules on uploads,
remote deletes and local commands meet them: ``mirror -R`` and ``put``/``mput`` upload
local paths as ``rsync``/``scp`` do (``--delete`` deletes on the other side as rsync's
does), ``mirror`` and ``get`` download into local paths, ``rm``/``rmdir``/``mrm`` delete
there as ``ssh HOST rm`` does, ``!CMD`` runs CMD here, ``lcd`` moves here. Other commands
(``open``, ``cd``, ``ls``, ``set``, ``bye``) change nothing either side of note.
"""

from __future__ import annotations

import shlex

__all__ = ["lftp_commands"]

_VALUED = frozenset({"-e", "-c", "-f", "-u", "-p", "--user", "--password"})
"""lftp's options that take the next word (its commands, a script, user, port)."""
_SEPARATORS = frozenset({";", "&&", "||", "&"})
_SITE = "lftp-site"
"""The host put in a remote path when the call names none (an ``open`` the guard missed)."""
_DELETES = frozenset({"rm", "rmdir", "mrm"})
_MIRROR_FLAGS = frozenset({"-R", "--reverse"})
_MIRROR_DELETES = frozenset({"-e", "--delete", "--delete-first", "--Remove-source-files",
                             "--Move"})  # fmt: skip
_MIRROR_VALUED = frozenset({"-P", "--parallel", "-x", "-X", "-i", "-I", "--exclude",
                            "--include", "--exclude-glob", "--include-glob", "-O",
                            "--target-directory", "-N", "--newer-than", "--older-than",
                            "--log", "--script", "--use-pget-n", "--loop"})  # fmt: skip


def lftp_commands(args: tuple[str, ...]) -> tuple[str, ...]:
    """The shell command doing what lftp's ``-e``/``-c`` commands do, one line (``lcd``
    carries to the commands after it); () when none of them reaches a path here or
    deletes there."""
    scripts: list[str] = []
    site = _SITE
    taking: str | None = None
    for arg in args:
        if taking is not None:
            if taking in ("-e", "-c"):
                scripts.append(arg)
            taking = None
        elif arg in _VALUED:
            taking = arg
        elif arg.startswith("--") and "=" in arg:
            continue
        elif not arg.startswith("-"):
            site = _host(arg)
    steps: list[str] = []
    for script in scripts:
        for command in _split(script):
            if command[0] == "open" and len(command) > 1:
                site = _host(command[-1])
                continue
            step = _step(command, site)
            if step is not None:
                steps.append(step)
    if not any(not s.startswith("cd ") for s in steps):
        return ()
    return (" && ".join(steps),)


def _host(url: str) -> str:
    """``user@host`` of an lftp site (``sftp://user:pass@host:22/dir``: no password, port
    or folder), as ssh and rsync name it."""
    rest = url.partition("://")[2] or url
    rest = rest.split("/", 1)[0]
    user, at, host = rest.rpartition("@")
    host = host.split(":", 1)[0]
    user = user.split(":", 1)[0]
    return (f"{user}@{host}" if at and user else host) or _SITE


def _split(script: str) -> list[list[str]]:
    """lftp's commands in ``script``, each its words (quoted as a shell quotes); a
    script lftp could not read either is none."""
    lexer = shlex.shlex(script, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    commands: list[list[str]] = [[]]
    try:
        for token in lexer:
            if token in _SEPARATORS:
                commands.append([])
            else:
                commands[-1].append(token)
    except ValueError:
        return []
    return [c for c in commands if c]


def _step(command: list[str], site: str) -> str | None:
    """The shell command doing what one lftp command does; None: nothing of note."""
    name, args = command[0], command[1:]
    if name.startswith("!"):  # `!ls -la`: a command of the local shell
        return shlex.join([name[1:], *args] if name[1:] else args) or None
    if name == "lcd" and args:
        return f"cd -- {shlex.quote(args[0])}"
    if name in ("glob", "command") and args:  # (`glob rm -r dir*`: the same command)
        return _step(args, site)
    if name in _DELETES:
        return shlex.join(["ssh", site, "rm", "-r", "--", *_operands(args, frozenset())])
    if name == "mirror":
        return _mirror(args, site)
    if name in ("put", "mput", "reput"):
        local = _operands(args, frozenset({"-o", "-O"}))
        return shlex.join(["scp", "-r", "--", *local, f"{site}:"]) if local else None
    if name in ("get", "mget", "pget", "reget"):
        where = _value(args, ("-o", "-O")) or "."
        remote = [f"{site}:{p}" for p in _operands(args, frozenset({"-o", "-O", "-n"}))]
        return shlex.join(["scp", "-r", "--", *remote, where]) if remote else None
    return None


def _mirror(args: list[str], site: str) -> str | None:
    """``mirror [-R] [--delete] SOURCE [TARGET]`` as rsync: -R uploads the local SOURCE,
    without it the remote SOURCE is downloaded into the local TARGET."""
    flags = {a for a in args if a.startswith("--")}
    for arg in args:  # (short flags together: `mirror -Rev`)
        if arg[:1] == "-" and arg[1:2] not in ("-", "") and arg not in _MIRROR_VALUED:
            flags.update(f"-{letter}" for letter in arg[1:])
    paths = _operands(args, _MIRROR_VALUED)
    if not paths:
        return None
    delete = ["--delete"] if flags & _MIRROR_DELETES else []
    source, target = paths[0], paths[1] if len(paths) > 1 else "."
    if flags & _MIRROR_FLAGS:
        return shlex.join(["rsync", "-r", *delete, "--", source, f"{site}:{target}"])
    local = _value(args, ("-O", "--target-directory")) or target
    return shlex.join(["rsync", "-r", *delete, "--", f"{site}:{source}", local])


def _operands(args: list[str], valued: frozenset[str]) -> list[str]:
    """The words of ``args`` that are not options nor an option's value."""
    found: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in valued:
            skip = True
        elif not arg.startswith("-"):  # (`--` ends nothing here: lftp reads no options past it)
            found.append(arg)
    return found


def _value(args: list[str], names: tuple[str, ...]) -> str | None:
    """The value of the last of ``names`` in ``args`` (``-o FILE``), or None."""
    found = None
    for index, arg in enumerate(args[:-1]):
        if arg in names:
            found = args[index + 1]
    return found
