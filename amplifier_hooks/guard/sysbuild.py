"""The commands systems build files make their tools run: CMake, Meson, Cargo and Bazel
(a ``build.rs``: `buildrs`).

CMake runs ``execute_process(COMMAND ...)`` when it configures and a target's
``add_custom_command``/``add_custom_target`` ``COMMAND`` lines when it builds; Meson runs
``run_command(...)`` when it configures and a ``custom_target``'s or ``run_target``'s
``command:`` when it builds; cargo runs ``build.rs`` before it compiles a crate, and a
``.cargo/config.toml`` names the programs cargo runs in place of rustc and the linker, the
runner of ``cargo run``/``cargo test``, and the variables every build script, compiler and
test gets; ``.bazelrc`` gives every ``bazel`` call options, some of which run a command
(``--run_under``, ``--workspace_status_command``) or set variables for every action
(``--action_env``). None of it is shown to the person before it runs. CMake's
``file(WRITE|APPEND ...)`` writes its file when it configures, and a program installed
setuid (CMake's ``PERMISSIONS ... SETUID``, Meson's ``install_mode: ['rwsr-xr-x']``) is
the ``chmod u+s`` it amounts to: both are read as those commands.

Each reader gives the shell command lines the text spells out with literal words, for
`planted` to judge as commands (a variable the guard does not know makes its word
dynamic, so that command is never granted). The file formats are not grammars the guard
has: literals are found by their shapes, and a file of these kinds is never granted
either way (`buildfiles.runs_later`).
"""

from __future__ import annotations

import re
import shlex
import tomllib
from typing import Any

__all__ = ["bazelrc_code", "cargo_config_code", "cmake_code", "meson_code"]

# -- CMake -------------------------------------------------------------------------------------

_CMAKE_CALL = re.compile(
    r"\b(execute_process|add_custom_command|add_custom_target)\s*\(", re.IGNORECASE
)
_CMAKE_WORD = re.compile(r'"((?:[^"\\]|\\.)*)"|\[(=*)\[(.*?)\]\2\]|([^\s()"#]+)', re.DOTALL)
_CMAKE_KEYWORDS = frozenset(
    {"COMMAND", "WORKING_DIRECTORY", "OUTPUT", "OUTPUTS", "DEPENDS", "BYPRODUCTS", "COMMENT",
     "VERBATIM", "USES_TERMINAL", "TIMEOUT", "RESULT_VARIABLE", "RESULTS_VARIABLE",
     "OUTPUT_VARIABLE", "ERROR_VARIABLE", "INPUT_FILE", "OUTPUT_FILE", "ERROR_FILE",
     "OUTPUT_QUIET", "ERROR_QUIET", "OUTPUT_STRIP_TRAILING_WHITESPACE",
     "ERROR_STRIP_TRAILING_WHITESPACE", "ECHO_OUTPUT_VARIABLE", "ECHO_ERROR_VARIABLE",
     "COMMAND_ECHO", "ENCODING", "COMMAND_ERROR_IS_FATAL", "MAIN_DEPENDENCY",
     "IMPLICIT_DEPENDS", "DEPFILE", "JOB_POOL", "JOB_SERVER_AWARE", "APPEND",
     "COMMAND_EXPAND_LISTS", "SOURCES", "TARGET", "PRE_BUILD", "PRE_LINK", "POST_BUILD",
     "ALL", "CODEGEN", "DEPENDS_EXPLICIT_ONLY"}
)  # fmt: skip
"""The keywords that end a ``COMMAND``'s words in CMake's commands that run programs."""
_CMAKE_ENV = re.compile(r"\$ENV\{(\w+)\}")
_CMAKE_ESCAPE = re.compile(r"\\(.)")
_MAX_COMMANDS = 64


def cmake_code(text: str) -> list[str]:
    """The command lines of a CMake text's ``execute_process`` and custom commands and
    targets, and the files it writes (``$ENV{HOME}`` is the shell's ``$HOME``; ``${VAR}``
    stays unknown)."""
    found: list[str] = []
    for match in _CMAKE_CALL.finditer(text):
        words = _cmake_words(text, match.end())
        found.extend(_cmake_commands(words))
        if len(found) >= _MAX_COMMANDS:
            break
    found.extend(_SETUID_INSTALL for _ in _CMAKE_SETUID.finditer(text))
    return (found + _cmake_file_writes(text) + _cmake_included_downloads(text))[:_MAX_COMMANDS]


_CMAKE_SETUID = re.compile(r"\binstall\s*\([^)]*\bPERMISSIONS\b[^)]*\bSET[UG]ID\b", re.I)
"""CMake's ``install(... PERMISSIONS ... SETUID)``: the program installed setuid."""


def _cmake_file_writes(text: str) -> list[str]:
    """``file(WRITE PATH TEXT)`` and ``file(APPEND ...)``: CMake writes the file when it
    configures, as ``printf '%s' TEXT > PATH`` (or ``>>``) would (``$ENV{HOME}/.bashrc``)."""
    found: list[str] = []
    for match in _CMAKE_FILE.finditer(text):
        words = _cmake_words(text, match.end())
        # (a path CMake computes, `${CMAKE_BINARY_DIR}/version.h`, is its build's own)
        if len(words) >= 2 and words[0].upper() in ("WRITE", "APPEND") and "${" not in words[1]:
            into = ">>" if words[0].upper() == "APPEND" else ">"
            text_written = shlex.quote("".join(words[2:]))  # its text is data, never expanded
            found.append(f"printf %s {text_written} {into} {_joined([words[1]])}")
    return found


_CMAKE_FILE = re.compile(r"\bfile\s*\(", re.IGNORECASE)
_CMAKE_INCLUDE = re.compile(r"\binclude\s*\(", re.IGNORECASE)
_CMAKE_PINNED = frozenset({"EXPECTED_HASH", "EXPECTED_MD5"})


def _cmake_included_downloads(text: str) -> list[str]:
    """``file(DOWNLOAD URL PATH)`` of a file the text then ``include()``s: CMake runs what
    the URL served as its own code when it configures, as ``curl -o PATH URL && cmake -P
    PATH`` would. A download pinned by its hash (``EXPECTED_HASH``: CPM.cmake's way) is
    the file its author checked, and is not read so."""
    downloads: dict[str, str] = {}
    for match in _CMAKE_FILE.finditer(text):
        words = _cmake_words(text, match.end())
        if len(words) >= 3 and words[0].upper() == "DOWNLOAD" and _CMAKE_PINNED.isdisjoint(words):
            downloads[words[2]] = words[1]
    if not downloads:
        return []
    found: list[str] = []
    for match in _CMAKE_INCLUDE.finditer(text):
        words = _cmake_words(text, match.end())
        url = downloads.get(words[0]) if words else None
        if url is not None:
            found.append(f"curl -fsSL -o {_joined([words[0]])} {_joined([url])} && "
                         f"cmake -P {_joined([words[0]])}")  # fmt: skip
    return found


def _cmake_words(text: str, start: int) -> list[str]:
    """The arguments of the call whose ``(`` ends at ``start``, up to its ``)``."""
    words: list[str] = []
    position, depth = start, 1
    while position < len(text):
        char = text[position]
        if char.isspace():
            position += 1
        elif char == "#":  # a comment, to the end of the line
            end = text.find("\n", position)
            position = len(text) if end < 0 else end
        elif char in "()":
            depth += 1 if char == "(" else -1
            if depth == 0:
                break
            position += 1
        else:
            match = _CMAKE_WORD.match(text, position)
            if match is None:
                position += 1
                continue
            quoted, _, bracketed, plain = match.groups()
            if quoted is not None:
                word = _CMAKE_ESCAPE.sub(_cmake_escape, quoted)
            else:
                word = bracketed if bracketed is not None else plain or ""
            words.append(_CMAKE_ENV.sub(r"$\1", word))
            position = match.end()
    return words


def _cmake_escape(match: re.Match[str]) -> str:
    return "\n" if match.group(1) == "n" else match.group(1)


def _cmake_commands(words: list[str]) -> list[str]:
    """Each ``COMMAND``'s words, up to the next keyword, as a shell command line
    (``add_custom_target(NAME cmd args...)`` runs its words after the name too)."""
    found: list[str] = []
    current: list[str] | None = None
    for word in words:
        if word == "COMMAND":
            if current:
                found.append(_joined(current))
            current = []
        elif word in _CMAKE_KEYWORDS:
            if current:
                found.append(_joined(current))
            current = None
        elif current is not None:
            current.append(word)
    if current:
        found.append(_joined(current))
    return found


def _joined(words: list[str]) -> str:
    """A program and its words as a shell line; a word with ``$NAME`` keeps it expanded."""
    return " ".join(w if re.fullmatch(r"[\w./:=@%+,-]*", w) else _quoted(w) for w in words)


def _quoted(word: str) -> str:
    """``word`` in double quotes, so ``$HOME`` in it is still the home folder."""
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`")
    return f'"{escaped}"'


# -- Meson -------------------------------------------------------------------------------------

_MESON_RUN = re.compile(r"\brun_command\s*\(")
_MESON_COMMAND = re.compile(r"\bcommand\s*:\s*\[")
_MESON_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'")


def meson_code(text: str) -> list[str]:
    """The command lines of a Meson text's ``run_command(...)`` calls and ``command: [...]``
    lists (its literal strings, up to the first keyword argument or the list's end)."""
    found: list[str] = []
    for match in _MESON_RUN.finditer(text):
        found.append(_meson_words(text, match.end()))
    for match in _MESON_COMMAND.finditer(text):
        found.append(_meson_words(text, match.end()))
    found.extend(_SETUID_INSTALL for _ in _MESON_SETUID.finditer(text))
    return [line for line in found if line][:_MAX_COMMANDS]


_MESON_SETUID = re.compile(
    r"\binstall_mode\s*:\s*\[?\s*'[r-][w-][sS][r-][w-][xsS-]|"
    r"\binstall_mode\s*:\s*\[?\s*'[r-][w-][x-][r-][w-][sS]"
)
"""Meson's ``install_mode: ['rwsr-xr-x', ...]``: installed setuid or setgid."""
_SETUID_INSTALL = "chmod u+s installed-program"
"""What installing a program setuid does, as the command that does it."""


def _meson_words(text: str, start: int) -> str:
    """The literal strings from ``start`` on, up to the first word that is not one."""
    words: list[str] = []
    position = start
    while position < len(text):
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        string = _MESON_STRING.match(text, position)
        if string is None:
            break  # a keyword argument, a variable, or the end: the literal words end here
        words.append(string.group(1).replace("\\'", "'").replace("\\\\", "\\"))
        position = string.end()
    return shlex.join(words) if words else ""


# -- .cargo/config.toml ------------------------------------------------------------------------

_CARGO_PROGRAMS = {"rustc-wrapper": "RUSTC_WRAPPER", "rustc-workspace-wrapper":
                   "RUSTC_WORKSPACE_WRAPPER", "rustc": "RUSTC", "rustdoc": "RUSTDOC",
                   "linker": "CARGO_TARGET_LINKER", "runner": "CARGO_TARGET_RUNNER",
                   "credential-provider": "CARGO_CREDENTIAL_PROVIDER"}  # fmt: skip
"""Keys whose value is a program cargo runs, and the variable that sets it otherwise."""
_TOML_PAIR = re.compile(r"""^\s*([\w.-]+)\s*=\s*(".*"|'.*'|\[.*\])\s*$""", re.MULTILINE)
_TOML_SECTION = re.compile(r"^\s*\[([^\]]+)\]\s*$", re.MULTILINE)


def cargo_config_code(text: str) -> list[str]:
    """The commands a cargo configuration makes cargo run: each program key's value as
    the command it runs (``runner = "probe-rs run --chip X"``), given to ``cargo build``
    in the variable that sets it otherwise (``RUSTC_WRAPPER=/tmp/w cargo build``), and
    each ``[env]`` variable given to ``cargo build`` (``LD_PRELOAD=... cargo build``)."""
    found: list[str] = []
    for section, key, value in _cargo_pairs(text):
        last = key.rsplit(".", 1)[-1]
        words = value if isinstance(value, list) else None
        line = value if isinstance(value, str) else None
        if isinstance(value, dict):  # `[env] K = { value = "..", force = true }`
            line = value.get("value") if isinstance(value.get("value"), str) else None
        if words is not None and all(isinstance(w, str) for w in words):
            line = shlex.join(words)
        if line is None:
            continue
        if section == "env" or key.startswith("env."):
            name = key.removeprefix("env.")
            if re.fullmatch(r"[A-Za-z_]\w*", name):
                found.append(f"{name}={shlex.quote(line)} cargo build")
        elif last in _CARGO_PROGRAMS:
            program = line.split()[0] if line.split() else ""
            found.append(line)
            if program:
                found.append(f"{_CARGO_PROGRAMS[last]}={shlex.quote(program)} cargo build")
    return found[:_MAX_COMMANDS]


def _cargo_pairs(text: str) -> list[tuple[str, str, Any]]:
    """(section, key, value) of a TOML text; a fragment that is not TOML (an edit's new
    lines) is read line by line, each ``key = value`` under the section above it."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return _toml_lines(text)
    pairs: list[tuple[str, str, Any]] = []
    _flatten("", data, pairs)
    return pairs


def _flatten(prefix: str, data: dict[str, Any], pairs: list[tuple[str, str, Any]]) -> None:
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else key
        section = dotted.split(".", 1)[0]
        if isinstance(value, dict) and not (section == "env" and prefix == "env"):
            _flatten(dotted, value, pairs)
        else:
            pairs.append((section, dotted, value))


def _toml_lines(text: str) -> list[tuple[str, str, Any]]:
    pairs: list[tuple[str, str, Any]] = []
    sections = [(m.start(), m.group(1).strip()) for m in _TOML_SECTION.finditer(text)]
    for match in _TOML_PAIR.finditer(text):
        section = next((name for start, name in reversed(sections) if start < match.start()), "")
        try:
            value = tomllib.loads(f"v = {match.group(2)}")["v"]
        except (tomllib.TOMLDecodeError, ValueError):
            value = match.group(2).strip("\"'")
        key = f"{section}.{match.group(1)}" if section else match.group(1)
        pairs.append((section.split(".", 1)[0] if section else match.group(1), key, value))
    return pairs


# -- .bazelrc ----------------------------------------------------------------------------------

_BAZEL_COMMANDS = ("--run_under=", "--workspace_status_command=", "--script_path=")
"""Options whose value is a command bazel runs (``--run_under`` before each test or run)."""
_BAZEL_ENVS = ("--action_env=", "--host_action_env=", "--test_env=", "--repo_env=",
               "--test_arg=")  # fmt: skip
"""Options that set a variable for every action, test or repository rule."""


def bazelrc_code(text: str) -> list[str]:
    """The commands a ``.bazelrc``'s options make bazel run: a command option's value as
    a command, and each variable set for actions given to ``bazel build``."""
    found: list[str] = []
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            words = line.split()
        for index, word in enumerate(words):
            spaced = word in {o[:-1] for o in _BAZEL_COMMANDS + _BAZEL_ENVS}
            if spaced and index + 1 < len(words):
                word = f"{word}={words[index + 1]}"
            if word.startswith(_BAZEL_COMMANDS):
                found.append(word.split("=", 1)[1])
            elif word.startswith(_BAZEL_ENVS[:4]):
                pair = word.split("=", 1)[1]
                if "=" in pair and re.fullmatch(r"[A-Za-z_]\w*", pair.split("=", 1)[0]):
                    name, value = pair.split("=", 1)
                    found.append(f"{name}={shlex.quote(value)} bazel build")
    return [line for line in found if line][:_MAX_COMMANDS]
