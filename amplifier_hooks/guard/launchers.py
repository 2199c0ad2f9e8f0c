"""Programs that run a command line given to them, often later or elsewhere: ``flock
LOCK CMD...``/``flock LOCK -c 'CMD'``, ``tmux new-session -d 'CMD'``, ``screen -dm
CMD...``, ``coproc CMD``, ``history -s 'CMD'`` (for ``fc -s`` to run: ``fc`` itself runs
what the guard cannot see), ``su USER -c 'CMD'``, ``runuser -u USER -- CMD`` and
``sg GROUP -c 'CMD'`` (as another user or group), ``bundle exec CMD...`` (with the
project's gems), ``cmake -E rm|copy|rename|touch`` (a file operation, as
``rm``/``cp``/``mv``/``touch``: `cmaketool`), ``yadm ARGS`` and ``chezmoi git -- ARGS``
(git on the home folder's dotfiles), and ``trap 'CMD' EXIT``
(at exit, on an error, before each command). What they run is judged as if it ran now; a
launcher is never granted (a detached session runs on after the call, where no one sees it).
"""

from __future__ import annotations

from typing import NamedTuple

from amplifier_hooks.guard.chezmoiwords import chezmoi_command_at
from amplifier_hooks.guard.cmaketool import cmake_operation
from amplifier_hooks.guard.words import Word

__all__ = ["LAUNCHERS", "Launched", "launched", "tmux_writes_nothing", "trap_action"]


class Launched(NamedTuple):
    """What a launcher runs: a script for ``sh -c`` (``script``) or a command's words."""

    script: Word | None
    words: tuple[Word, ...] = ()
    why: str = ""


_FLOCK_VALUES = frozenset({"-w", "--wait", "--timeout", "-E", "--conflict-exit-code"})
_TMUX_RUNS = frozenset({"new-session", "new", "new-window", "neww", "split-window", "splitw",
                        "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell",
                        "run"})  # fmt: skip
_TMUX_VALUES = frozenset("cefFlnstxyLSdT") - {"d"}
"""tmux's one-letter options (global and of the commands above) that take a value."""
_TMUX_GLOBAL_VALUES = frozenset("cfLST")
_SCREEN_VALUES = frozenset({"-S", "-c", "-e", "-h", "-p", "-s", "-t", "-T", "-X"})
_SCREEN_LAST = frozenset("ScehpstT")
"""screen's options that take a value, ending a bundle of them (``-dmS NAME``)."""


def _joined(words: tuple[Word, ...]) -> Word:
    return Word(" ".join(w.text for w in words), any(w.dynamic for w in words))


def _flock(args: tuple[Word, ...]) -> Launched | None:
    index = 0
    while index < len(args) and args[index].text.startswith("-"):
        text = args[index].text
        if text in ("-c", "--command"):
            if index + 2 > len(args):
                return None
            return Launched(args[index + 1], why="flock runs it holding a lock")
        index += 2 if text in _FLOCK_VALUES else 1
    rest = args[index + 1 :]  # after the lock file (or descriptor)
    if rest[:1] and rest[0].text in ("-c", "--command"):
        return Launched(rest[1] if len(rest) > 1 else Word("", True),
                        why="flock runs it holding a lock")  # fmt: skip
    if not rest:
        return None
    return Launched(None, rest, "flock runs it holding a lock")


def _tmux(args: tuple[Word, ...]) -> Launched | None:
    index = 0
    while index < len(args) and args[index].text.startswith("-"):  # global options
        flag = args[index].text
        index += 2 if len(flag) == 2 and flag[1] in _TMUX_GLOBAL_VALUES else 1
    if index < len(args) and args[index].text in _TMUX_SENDS:
        return _typed(args[index + 1 :])
    if index >= len(args) or args[index].text not in _TMUX_RUNS:
        return None
    index += 1
    while index < len(args) and args[index].text.startswith("-") and args[index].text != "--":
        flag = args[index].text
        index += 2 if len(flag) == 2 and flag[1] in _TMUX_VALUES else 1
    if index < len(args) and args[index].text == "--":
        index += 1
    rest = args[index:]
    if not rest:
        return None
    return Launched(_joined(rest), why="tmux runs it in a session of its own, after the call")


_TMUX_SENDS = frozenset({"send-keys", "send"})
_SEND_VALUES = frozenset({"-c", "-N", "-t"})
_KEYS = {"Enter": "\n", "C-m": "\n", "C-j": "\n", "KPEnter": "\n", "Space": " ", "Tab": "\t"}


def _typed(args: tuple[Word, ...]) -> Launched | None:
    """``tmux send-keys -t PANE 'CMD' Enter``: what is typed into the pane's shell, which
    runs it as the person's command (key names other than Enter, Space and Tab type
    nothing: ``C-c``, ``Escape``). ``-X`` sends a copy-mode command, no keys."""
    index = 0
    while index < len(args) and args[index].text.startswith("-") and args[index].text != "--":
        if args[index].text == "-X":
            return None
        index += 2 if args[index].text in _SEND_VALUES else 1
    keys = args[index + 1 :] if index < len(args) and args[index].text == "--" else args[index:]
    text = "".join(_KEYS.get(k.text, "" if _key_name(k.text) else k.text) for k in keys)
    if not text.strip():
        return None
    return Launched(Word(text, any(k.dynamic for k in keys)),
                    why="tmux types it into a pane, whose shell runs it")  # fmt: skip


_NAMED_KEYS = frozenset({"Escape", "Up", "Down", "Left", "Right", "Home", "End", "BSpace", "DC",
                         "IC", "NPage", "PPage", "PageUp", "PageDown", "BTab"})  # fmt: skip


def _key_name(text: str) -> bool:
    """A key tmux names (``C-c``, ``M-x``, ``Escape``, ``Up``, ``F5``), typing no text."""
    if text[:2] in ("C-", "M-", "S-") and len(text) > 2:
        return True
    return text in _NAMED_KEYS or (text[:1] == "F" and text[1:].isdigit())


_TMUX_LOOKS = frozenset({"source-file", "source", "display-message", "display", "show-options",
                         "show", "list-sessions", "ls", "list-windows", "lsw", "list-panes",
                         "lsp", "list-keys", "lsk", "has-session", "has"})  # fmt: skip
"""tmux commands that write no file: ``source-file F`` reads F and runs the tmux commands
in it (the person's own settings, reloaded: not a write of F); the others print."""


def tmux_writes_nothing(args: tuple[str, ...]) -> bool:
    """Whether ``tmux ARGS`` writes no file it names: with no global option but ``-L``
    (``-f``, ``-S`` name files it reads or makes), each of its commands (``\\;`` between
    them) one of `_TMUX_LOOKS` (``tmux source-file ~/.tmux.conf \\; display ok``)."""
    if args[:1] == ("-L",):
        args = args[2:]
    starts = [0] + [i + 1 for i, a in enumerate(args) if a == ";"]
    return bool(args) and all(i < len(args) and args[i] in _TMUX_LOOKS for i in starts)


def _screen(args: tuple[Word, ...]) -> Launched | None:
    index = 0
    while index < len(args) and args[index].text.startswith("-"):
        flag = args[index].text
        if flag in ("-X", "-Q"):  # a command to a running session (`stuff` types keys)
            return Launched(Word(" ".join(w.text for w in args[index:]), True),
                            why="screen sends it to a session")  # fmt: skip
        index += 2 if flag in _SCREEN_VALUES or flag[-1:] in _SCREEN_LAST else 1
    rest = args[index:]
    if not rest:
        return None
    return Launched(None, rest, "screen runs it in a session of its own, after the call")


def _history(args: tuple[Word, ...]) -> Launched | None:
    """``history -s TEXT``: TEXT goes into the history, where ``fc -s`` runs it."""
    if not args or args[0].text != "-s":
        return None
    return Launched(_joined(args[1:]), why="history -s keeps it for fc to run")


def _fc(args: tuple[Word, ...]) -> Launched | None:
    """``fc`` runs a command of the history (``-s``), or what an editor (``-e``) leaves
    of it; ``fc -l`` lists them."""
    if any(a.text.startswith("-") and "l" in a.text[1:] for a in args if a.text != "-e"):
        return None
    return Launched(Word("fc " + _joined(args).text, True),
                    why="fc runs a command from the shell's history")  # fmt: skip


def _coproc(args: tuple[Word, ...]) -> Launched | None:
    """``coproc [NAME] { CMD; }`` or ``coproc CMD``: runs CMD beside the shell."""
    if len(args) > 1 and args[0].text.isidentifier() and args[1].text == "{":
        args = args[2:]
    elif args[:1] and args[0].text == "{":
        args = args[1:]
    if not args:
        return None
    return Launched(None, args, "coproc runs it beside the shell, fed by what follows")


_SU_VALUES = frozenset({"-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w",
                        "--whitelist-environment", "-u", "--user"})  # fmt: skip
_SU_COMMAND = ("-c", "--command", "--session-command")
_SU_LETTERS = frozenset("gGswu")
"""su's and runuser's one-letter options that take a value."""


def _su(args: tuple[Word, ...]) -> Launched | None:
    """``su [USER] -c CMD`` (util-linux reads its options anywhere: ``su dev -c CMD``) runs
    CMD with the user's shell; ``runuser -u USER -- CMD...`` runs CMD's words. ``-s SHELL``
    may name another program, which the guard does not read: the script is still judged,
    and the call never granted."""
    why = "su runs it as another user (root, unless one is named)"
    index = 0
    while index < len(args):
        text = args[index].text
        if text == "--":
            rest = args[index + 1 :]
            return Launched(None, rest, why) if rest else None
        if text in ("--command", "--session-command"):
            return Launched(args[index + 1] if index + 1 < len(args) else Word("", True), why=why)
        name, equals, value = text.partition("=")
        if equals and name in _SU_COMMAND:
            return Launched(Word(value, args[index].dynamic), why=why)
        if text[:1] == "-" and text[1:2] not in ("", "-"):  # a bundle: `-lc CMD`, `-cCMD`
            for at, letter in enumerate(text[1:], 2):
                if letter == "c":
                    glued = Word(text[at:], args[index].dynamic) if text[at:] else None
                    following = args[index + 1] if index + 1 < len(args) else Word("", True)
                    return Launched(glued or following, why=why)
                if letter in _SU_LETTERS:  # the rest, or the next word, is its value
                    index += 0 if text[at:] else 1
                    break
            index += 1
            continue
        index += 2 if text in _SU_VALUES else 1
    return None


def _sg(args: tuple[Word, ...]) -> Launched | None:
    """``sg [-] GROUP [-c] CMD`` runs CMD with /bin/sh as a member of GROUP: the same script
    ``su -c`` would run, judged as such (``sg GROUP`` alone starts a shell: nothing read)."""
    rest = args[1:] if args[:1] and args[0].text == "-" else args
    rest = rest[1:]  # the group
    if rest[:1] and rest[0].text == "-c":
        rest = rest[1:]
    if not rest:
        return None
    return Launched(_joined(rest), why="sg runs it as a member of another group")


def _bundle(args: tuple[Word, ...]) -> Launched | None:
    """``bundle exec [--gemfile=F] CMD...`` runs CMD's words with the project's gems: CMD is
    judged as itself (``bundle exec rake db:reset`` is ``rake db:reset``)."""
    if not args or args[0].text not in ("exec", "ex"):
        return None
    rest = args[1:]
    while rest and rest[0].text.startswith("-"):  # its own options, each one word
        rest = rest[1:]
    if not rest:
        return None
    return Launched(None, rest, "bundle exec runs it with the project's gems, whose code the "
                    "guard does not read")  # fmt: skip


def _cmake(args: tuple[Word, ...]) -> Launched | None:
    """``cmake -E rm|copy|rename|touch ...``: the file operation, as its POSIX twin
    (`cmaketool`); any other cmake call runs nothing read here."""
    found = cmake_operation(args)
    return None if found is None else Launched(None, *found)


_YADM_OWN = frozenset({"clone", "config", "decrypt", "encrypt", "git-crypt", "help", "init",
                       "introspect", "list", "perms", "transcrypt", "upgrade", "version", "alt",
                       "bootstrap"})  # fmt: skip
"""yadm's own commands (the pack reads them as yadm's: ``yadm clone``, ``yadm bootstrap``);
every other word is a git command yadm runs on the home folder."""
_YADM_VALUES = frozenset({"-Y", "--yadm-dir", "--yadm-data", "--yadm-repo", "--yadm-config",
                          "--yadm-encrypt", "--yadm-archive", "--yadm-bootstrap"})  # fmt: skip
_GIT = Word("git", False)


def _yadm(args: tuple[Word, ...]) -> Launched | None:
    """``yadm ARGS`` is ``git ARGS`` with the home folder as the work tree (``yadm push -f``
    force-pushes, ``yadm reset --hard`` throws the dotfiles' changes away), ``yadm
    gitconfig`` is ``git config``, and ``yadm enter CMD`` runs CMD with git's variables set."""
    index = 0
    while index < len(args) and args[index].text in _YADM_VALUES:
        index += 2
    rest = args[index:]
    if not rest or rest[0].text in _YADM_OWN or rest[0].text.startswith("-"):
        return None
    why = "yadm runs git on the home folder's dotfiles repository"
    if rest[0].text == "enter":
        return Launched(None, rest[1:], why) if rest[1:] else None
    if rest[0].text == "gitconfig":
        return Launched(None, (_GIT, Word("config", False), *rest[1:]), why)
    return Launched(None, (_GIT, *rest), why)


def _chezmoi(args: tuple[Word, ...]) -> Launched | None:
    """``chezmoi git [--] ARGS`` runs ``git ARGS`` in chezmoi's source folder, the dotfiles
    repository it applies to the home folder; chezmoi's other commands are its own."""
    index = chezmoi_command_at(tuple(a.text for a in args))
    if index is None or args[index].text != "git":
        return None
    rest = args[index + 1 :]
    if rest[:1] and rest[0].text == "--":
        rest = rest[1:]
    return Launched(None, (_GIT, *rest), "chezmoi git runs git in the dotfiles' source folder")


LAUNCHERS = {
    "yadm": _yadm,
    "chezmoi": _chezmoi,
    "bundle": _bundle,
    "cmake": _cmake,
    "su": _su,
    "runuser": _su,
    "sg": _sg,
    "coproc": _coproc,
    "flock": _flock,
    "tmux": _tmux,
    "screen": _screen,
    "history": _history,
    "fc": _fc,
}
"""The launchers, and how each finds what it runs in its arguments."""


def launched(program: str, args: tuple[Word, ...]) -> Launched | None:
    """What ``program args`` runs, if it is a launcher given a command (None: nothing)."""
    read = LAUNCHERS.get(program)
    return None if read is None else read(args)


_TRAP_LISTS = frozenset({"-l", "-p", "-lp", "-pl"})


def trap_action(args: tuple[Word, ...]) -> Word | None:
    """The action ``trap args`` sets: a script the shell runs later (None: it sets none;
    it lists traps, or resets or ignores signals)."""
    if args[:1] and args[0].text == "--":
        args = args[1:]
    if len(args) < 2 or args[0].text in _TRAP_LISTS or args[0].text in ("", "-"):
        return None
    return args[0]
