"""Environment variables set for a command: which are harmless, which run code.

A variable given to a program (``VAR=x cmd``, ``env VAR=x cmd``, ``export VAR=x``) can make
it run anything: ``GIT_EXTERNAL_DIFF='rm -rf .claude #' git diff`` deletes a folder. The
value of a variable that names a command is judged like any command (`commands_of`: the
parser reads it and every rule meets its pieces); one that loads code (``LD_PRELOAD``,
``BASH_ENV``, ``NODE_OPTIONS``) is judged as running that code. A program given any
variable but the harmless ones (`SAFE`) and pagers whose value is itself granted is never
granted (`doubt_of`).
"""

from __future__ import annotations

import re
import shlex
from enum import IntEnum

from amplifier_hooks.guard.jvmoptions import JVM_OPTION_VARIABLES, agent_commands

__all__ = ["VALUED_SAFE", "Kind", "commands_of", "doubt_of", "kind_of", "split"]


class Kind(IntEnum):
    SAFE = 0
    """Changes how a program prints or what it records, never what it runs or where."""
    PAGER = 1
    """A command the program pipes its output into, with no arguments of its own: its
    value is judged, and a granted value keeps the call grantable."""
    COMMAND = 2
    """A command the program runs with arguments the guard cannot see (an editor, an
    external diff, an askpass or ssh program): judged, never granted."""
    CODE = 3
    """Names code the program (or its shell, or its loader) loads and runs."""
    GIT_CONFIG = 4
    """git configuration given in the environment: judged as ``git -c KEY=VALUE``."""
    UNKNOWN = 5


SAFE = frozenset(
    {"LANG", "LANGUAGE", "TZ", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR",
     "CLICOLOR_FORCE", "COLUMNS", "LINES", "CI", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
     "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
     "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS", "GIT_MERGE_AUTOEDIT", "PYTHONUNBUFFERED",
     "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONHASHSEED", "PYTHONUTF8",
     "RUST_BACKTRACE", "RUST_LOG", "NODE_ENV", "DEBUG", "VERBOSE", "GREP_COLOR",
     "GREP_COLORS", "LS_COLORS", "TIME_STYLE", "QUOTING_STYLE", "SOURCE_DATE_EPOCH",
     "POSIXLY_CORRECT", "TQDM_DISABLE", "PY_COLORS", "NPM_CONFIG_COLOR", "BAT_STYLE",
     "BAT_THEME"}
)  # fmt: skip
"""Variables that only change how a program prints, or the names it records."""
_SAFE_PREFIXES = ("LC_",)
VALUED_SAFE = {"MPLBACKEND": frozenset({"agg", "pdf", "svg", "ps", "cairo", "template"})}
"""Variables harmless with these values only: matplotlib's backend drawing into memory or
a file (``MPLBACKEND=module://x`` imports ``x``)."""

PAGERS = frozenset({"PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "BAT_PAGER"})
COMMANDS = frozenset(
    {"GIT_EXTERNAL_DIFF", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
     "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_PROXY_COMMAND", "EDITOR", "VISUAL",
     "LESSOPEN", "LESSCLOSE", "PROMPT_COMMAND", "BROWSER", "FCEDIT", "DIFFTOOL",
     "GIT_DIFF_OPTS", "RSYNC_RSH", "RSYNC_CONNECT_PROG", "CVS_RSH", "TAR_OPTIONS",
     "HGEDITOR", "HGMERGE", "P4EDITOR", "P4DIFF", "P4MERGE", "SVN_EDITOR", "SVN_SSH",
     "JJ_EDITOR", "BZR_EDITOR", "BZR_SSH", "SUDO_EDITOR", "KUBE_EDITOR", "SYSTEMD_EDITOR"}
)  # fmt: skip
"""Variables whose value is a command some program runs (git's, Mercurial's, Perforce's,
Subversion's, Jujutsu's and Bazaar's editors, diff and merge tools and ssh programs among
them)."""
_SOURCED = frozenset({"BASH_ENV", "ENV", "PYTHONSTARTUP", "LD_PRELOAD", "LD_AUDIT",
                      "DYLD_INSERT_LIBRARIES"})  # fmt: skip
"""Variables naming a file whose code is run or loaded (judged as ``source FILE``)."""
_OPTIONS = {"NODE_OPTIONS": "node", "PERL5OPT": "perl", "RUBYOPT": "ruby"}
"""Variables holding an interpreter's options (judged as that interpreter given them)."""
_PLAIN_NODE_OPTIONS = frozenset(
    {"--max-old-space-size", "--max-semi-space-size", "--max-http-header-size",
     "--stack-size", "--enable-source-maps", "--no-warnings", "--no-deprecation",
     "--trace-warnings", "--trace-deprecation", "--trace-uncaught", "--pending-deprecation",
     "--throw-deprecation", "--unhandled-rejections", "--dns-result-order",
     "--preserve-symlinks", "--preserve-symlinks-main", "--experimental-vm-modules",
     "--openssl-legacy-provider", "--use-openssl-ca", "--use-bundled-ca", "--expose-gc",
     "--abort-on-uncaught-exception", "--no-experimental-fetch", "--title"}
)  # fmt: skip
"""``NODE_OPTIONS`` that size, trace or warn and load no code (unlike ``--require``,
``--import``, ``--loader``, ``--inspect``, ``--openssl-config``): a value of only these is
no program for the rules to judge (the variable still keeps the call ungranted)."""
CODE = frozenset(
    {*_SOURCED, *_OPTIONS, "PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PYTHONPATH",
     "PYTHONHOME", "PYTHONWARNINGS", "PYTHONBREAKPOINT", "PERL5LIB", "PERLLIB", "RUBYLIB",
     "NODE_PATH", *JVM_OPTION_VARIABLES, "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR",
     "GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
     "GIT_CONFIG_NOSYSTEM", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "HOME",
     "XDG_CONFIG_HOME", "ZDOTDIR", "INPUTRC", "SHELLOPTS", "BASHOPTS", "IFS", "CDPATH",
     "LESS", "LESSKEY", "LESSKEYIN", "MANOPT", "RIPGREP_CONFIG_PATH", "SHELL", "TMPDIR"}
)  # fmt: skip
"""Variables that decide which code runs or which files a program takes for its own."""
_GIT_CONFIG = re.compile(r"^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS)$")


def kind_of(name: str, value: str | None = None) -> Kind:
    """What setting variable ``name`` (to ``value``, where its value decides) does."""
    if value is not None and value.lower() in VALUED_SAFE.get(name, frozenset()):
        return Kind.SAFE
    if name in SAFE or name.startswith(_SAFE_PREFIXES):
        return Kind.SAFE
    if name in PAGERS:
        return Kind.PAGER
    if name in COMMANDS:
        return Kind.COMMAND
    if _GIT_CONFIG.match(name):
        return Kind.GIT_CONFIG
    if name in CODE:
        return Kind.CODE
    return Kind.UNKNOWN


def split(assignment: str) -> tuple[str, str]:
    name, _, value = assignment.partition("=")
    return name, value


def commands_of(assignments: tuple[str, ...]) -> tuple[str, ...]:
    """Shell commands standing for what ``assignments`` make a program run, for the
    parser to read and the rules to judge."""
    found: list[str] = []
    values = dict(split(a) for a in assignments)
    for name, value in values.items():
        kind = kind_of(name)
        if kind == Kind.PAGER and value:
            # the program's output is the pager's input: `GIT_PAGER=sh git log` is
            # `git log | sh`, the log's text run as a program
            found.append(f"cat | {value}")
        elif kind == Kind.COMMAND and value:
            if name in ("LESSOPEN", "LESSCLOSE"):
                value = value.lstrip("|-")
            found.append(value)
        elif name in _SOURCED and value:
            # `BASH_ENV=<(curl URL)`: the shell sources what the substitution prints
            sourced = value if value.startswith("<(") and value.endswith(")") else None
            found.append(f"source {sourced or shlex.quote(value)}")
        elif name in _OPTIONS and value and not _plain_options(name, value):
            found.append(f"{_OPTIONS[name]} {_words(value)}")
        elif name in JVM_OPTION_VARIABLES and value:  # an agent: code every JVM runs
            found.extend(agent_commands(value))
        elif name.startswith("GIT_CONFIG_KEY_"):
            setting = values.get("GIT_CONFIG_VALUE_" + name.rsplit("_", 1)[1], "")
            found.append(f"git -c {shlex.quote(value + '=' + setting)}")
        elif name == "GIT_CONFIG_PARAMETERS" and value:
            found.append(f"git -c {value}")
    return tuple(found)


_OPTION_WORD = re.compile(r'(?:"(?:[^"\\]|\\.)*"|[^\s"])+')


def _words(value: str) -> str:
    """The options as the interpreter splits them (on blanks; Node also keeps a
    double-quoted stretch whole, and a single quote is only a character), each quoted for
    the shell that reads the command (``f=>f.x('y')`` holds no redirection, no quote)."""
    words = [re.sub(r'"((?:[^"\\]|\\.)*)"', lambda m: re.sub(r"\\(.)", r"\1", m[1]), w)
             for w in _OPTION_WORD.findall(value)]  # fmt: skip
    return shlex.join(words)


def _plain_options(name: str, value: str) -> bool:
    """Whether each of the interpreter options in ``value`` is one that loads no code."""
    if name != "NODE_OPTIONS":
        return False
    try:
        words = shlex.split(value)
    except ValueError:
        return False
    return all(w.split("=", 1)[0] in _PLAIN_NODE_OPTIONS or w.isdigit() for w in words)


def doubt_of(assignments: tuple[str, ...]) -> str | None:
    """Why a program given ``assignments`` is not granted (None: each is harmless, or a
    pager judged on its own)."""
    for assignment in assignments:
        name, value = split(assignment)
        kind = kind_of(name, value)
        if kind in (Kind.SAFE, Kind.PAGER):
            continue
        if kind == Kind.UNKNOWN:
            return f"{name} is an environment variable the guard does not know"
        return f"{name} makes the program run code the guard does not read in full"
    return None
