"""The places a path that starts with a command substitution can be, where the command is
one whose output is a known kind of place: ``"$(git rev-parse --git-path hooks)"/pre-push``
is a file of the repository's hooks folder, ``"$(getent passwd dev | cut -d: -f6)"/.bashrc``
is ``~dev/.bashrc``.

The guard does not run the command, so such a path stays unknown (never granted); these
are the places it *can* be, for the deny and ask rules on hooks, start-up files and the
like to meet, as `vardefaults` does for a variable's default. The substitution's command is
read as its program reads its words (git's ``-C`` and ``rev-parse`` options, getent's
database and key, cut's field), never by patterns over the text.
"""

from __future__ import annotations

import re
import shlex

__all__ = ["computed_heads", "named_below"]

_GIT_FOLDER_OPTIONS = frozenset({"--git-dir", "--git-common-dir", "--absolute-git-dir"})
"""rev-parse options that print the repository's git folder (``.git`` at the top of a
checkout; a linked worktree's common one is its main checkout's, a ``.git`` too)."""
_GIT_QUIET = frozenset({"--path-format=absolute", "--path-format=relative", "-q", "--quiet"})
"""rev-parse options that change how a path is printed, not which."""
_HOME_FIELD = (("-d:", "-f6"), ("-d", ":", "-f", "6"), ("-d:", "-f", "6"), ("-d", ":", "-f6"),
               ("-f6", "-d:"))  # fmt: skip
"""cut's spellings of "the sixth colon-separated field" (a passwd entry's home folder)."""
_PYTHONS = frozenset({"python", "python3"})
_SITE_WORDS = ["-m", "site", "--user-site"]
_USER_SITE = "~/.local/lib/python3/site-packages"
"""Where ``python3 -m site --user-site`` points (its version folder is left out: a glob of
the pack on ``**/site-packages/...`` meets it as well)."""


def computed_heads(raw: str) -> tuple[str, ...]:
    """The paths ``raw`` can be, when it starts with ``$(COMMAND)`` whose output is a known
    kind of place, followed by nothing or by ``/``; () for anything else."""
    if not raw.startswith("$("):
        return ()
    close = raw.find(")")
    inner, rest = raw[2:close], raw[close + 1 :]
    if close < 0 or "(" in inner or "$" in inner or "`" in inner:
        return ()
    if rest and not rest.startswith("/"):
        return ()
    head = _printed_place(inner)
    return () if head is None else (head.rstrip("/") + rest,)


def _printed_place(command: str) -> str | None:
    stages = command.split("|")
    try:
        words = [shlex.split(stage) for stage in stages]
    except ValueError:
        return None
    if any(not w for w in words) or any(c in command for c in ";&<>\n"):
        return None
    if len(words) == 1 and words[0][0] == "git":
        return _git_place(words[0][1:])
    if len(words) == 1 and words[0][0] in _PYTHONS and words[0][1:] == _SITE_WORDS:
        return _USER_SITE
    if len(words) == 2 and words[0][:2] == ["getent", "passwd"] and len(words[0]) == 3:
        user = words[0][2]
        if words[1][0] == "cut" and tuple(words[1][1:]) in _HOME_FIELD and _is_name(user):
            return "~" + user
    return None


def _git_place(args: list[str]) -> str | None:
    """Where ``git [-C DIR]... rev-parse OPTION`` prints: DIR's ``.git`` folder, or a
    path in it (``--git-path NAME``)."""
    folders: list[str] = []
    while len(args) >= 2 and args[0] == "-C":
        folders = [args[1]] if args[1].startswith(("/", "~")) else [*folders, args[1]]
        args = args[2:]
    if not args or args[0] != "rev-parse":
        return None
    options = [a for a in args[1:] if a not in _GIT_QUIET]
    base = "/".join([*folders, ".git"]) if folders else ".git"
    if len(options) == 1 and options[0] in _GIT_FOLDER_OPTIONS:
        return base
    if len(options) == 1 and options[0].startswith("--git-path="):
        named = options[0].partition("=")[2]
    elif len(options) == 2 and options[0] == "--git-path":
        named = options[1]
    else:
        return None
    if not named or named.startswith(("/", "-")) or ".." in named.split("/"):
        return None
    return f"{base}/{named}"


def _is_name(user: str) -> bool:
    """A user name as passwd holds it (no path, no option, no pattern)."""
    return bool(user) and user[0] != "-" and all(c.isalnum() or c in "._-" for c in user)


_NAMED_BELOW = re.compile(
    r"((?:[\w.-]+/)+)\$\(basename\s[^;&|<>()`\n]*\)([^/$`\\*?\[{~]*[^/$`\\*?\[{~.][^/$`\\*?\[{~]*)"
)
"""``dist/img/$(basename "${f%.png}").webp``: a literal relative folder, then one name
``basename`` prints (never a ``/`` but for ``/`` itself) and a literal ending that is not
only dots; basename's words hold no other command (no ``;``, ``|``, ``&``, ``(``)."""


def named_below(raw: str) -> tuple[str, str] | None:
    """``(folder, ending)`` when ``raw`` names a file directly in a literal relative folder
    through basename (``dist/img/$(basename "$f").webp``): whatever the name, it cannot
    leave that folder (`paths` places it as the pattern ``folder/*ending``); None else."""
    found = _NAMED_BELOW.fullmatch(raw)
    if found is None or ".." in found.group(1).split("/"):
        return None
    return found.group(1).rstrip("/"), found.group(2)
