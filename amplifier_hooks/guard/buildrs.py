"""A ``build.rs``'s commands and the files below the home folder it reads or writes: cargo
runs a crate's build script before it compiles the crate, unseen (`sysbuild` has the other
systems build files). Rust is not a grammar the guard has: literals are found by their
shapes, and a word the script computes is unknown until it runs.
"""

from __future__ import annotations

import re
import shlex

__all__ = ["build_rs_code"]

_MAX_COMMANDS = 64


_RS_COMMAND = re.compile(r"Command::new\(\s*\"((?:[^\"\\]|\\.)*)\"\s*\)")
_RS_ARG = re.compile(r"\s*\.\s*(arg|args)\s*\(\s*(\[|&\[|vec!\[)?")
_RS_STRING = re.compile(r"\s*,?\s*\"((?:[^\"\\]|\\.)*)\"")
_RS_HOME_PATH = re.compile(
    r"(?:var|var_os|home_dir)\s*\(\s*(?:\"HOME\"\s*)?\)[^;]{0,200}?\"(/[^\"]+)\""
)
"""A path built on the home folder: ``env::var("HOME").unwrap() + "/.bashrc"``."""
_RS_WRITES = re.compile(r"\b(?:OpenOptions|File::create|fs::write|fs::copy|fs::rename)\b")
_RS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": ""}


def build_rs_code(text: str) -> list[str]:
    """The command lines a build script's ``Command::new("prog").arg(..).args([..])``
    chains spell out (a value that is not a literal string is a word known only when it
    runs), a ``cat`` of each file below the home folder it reads (``fs::read_to_string``)
    and an append to each it writes (``OpenOptions``, ``fs::write``), named by ``$HOME``."""
    found: list[str] = []
    env = dict(_RS_ENV_NAME.findall(text))  # `let t = env::var("TOKEN")`: t is $TOKEN
    for match in _RS_COMMAND.finditer(text):
        words = [shlex.quote(_rs_string(match.group(1)))]
        position = match.end()
        while (arg := _RS_ARG.match(text, position)) is not None:
            position = arg.end()
            closing = _rs_closing(text, position, "]" if arg.group(2) else ")")
            for value in _rs_values(text[position:closing]):
                words.append(_rs_word(value, env))
            position = text.find(")", closing) + 1
            if position <= 0:
                break
        found.append(" ".join(words))
    homes = _rs_home_paths(text)
    if _RS_READS.search(text):
        found.extend(f"cat ~{path}" for path in homes)
    if _RS_WRITES.search(text):
        found.extend(f": >> ~{path}" for path in homes)
    return found[:_MAX_COMMANDS]


_RS_UNKNOWN = '"$BUILD_RS_VALUE"'
"""A word the build script computes (``&token``, ``format!(..)``): unknown until it runs."""
_RS_ENV_NAME = re.compile(r'let\s+(?:mut\s+)?(\w+)[^=;]*=[^;]*?\bvar(?:_os)?\s*\(\s*"(\w+)"')
"""A variable bound to the value of an environment variable (``let t = env::var("T")``)."""
_RS_FORMAT = re.compile(r'&?\s*format!\s*\(\s*"((?:[^"\\{}]|\\.|\{\w+(?::[^}]*)?\})*)"\s*\)')
"""``format!("...{name}...")`` with names inline only (a positional ``{}`` is unknown)."""
_RS_NAME_USE = re.compile(r"&?\s*(\w+)(?:\.(?:as_str|clone|to_string)\(\))?")


def _rs_word(value: str, env: dict[str, str]) -> str:
    """A shell word for an argument's expression: its literal text, ``"$NAME"`` for a
    variable bound to the environment variable NAME, otherwise a word unknown until it runs."""
    if not value.startswith("\0"):
        return shlex.quote(value)
    formatted = _RS_FORMAT.fullmatch(value[1:])
    if formatted is not None:  # `&format!("f=@{home}/.netrc")`: its literal parts kept
        parts = re.split(r"\{(\w*)(?::[^}]*)?\}", _rs_string(formatted.group(1)))
        return "".join(shlex.quote(p) if i % 2 == 0 else
                       f'"${env[p]}"' if p in env else _RS_UNKNOWN
                       for i, p in enumerate(parts) if p or i % 2)  # fmt: skip
    use = _RS_NAME_USE.fullmatch(value[1:])
    if use is not None and use.group(1) in env and env[use.group(1)] != "HOME":
        return f'"${env[use.group(1)]}"'
    return _RS_UNKNOWN


_RS_READS = re.compile(r"\b(?:read_to_string|fs::read|File::open|read_dir)\b")
_RS_HOME_NAME = re.compile(
    r"let\s+(?:mut\s+)?(\w+)[^=;]*=[^;]*?(?:\bvar(?:_os)?\s*\(\s*\"HOME\"|home_dir\s*\()"
)
"""A variable bound to the home folder: ``let home = std::env::var("HOME").unwrap();``."""
_RS_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _rs_home_paths(text: str) -> list[str]:
    """The paths below the home folder a build script names: a literal after a ``$HOME``
    lookup in one statement, or ``"{home}/.ssh/id_rsa"`` with ``home`` bound to it."""
    paths = list(_RS_HOME_PATH.findall(text))
    for name in set(_RS_HOME_NAME.findall(text)):
        paths += re.findall(r'"\{' + re.escape(name) + r'\}(/[^"{}]*)"', text)
    return list(dict.fromkeys(_rs_string(p) for p in paths))


def _rs_closing(text: str, start: int, closer: str) -> int:
    """Where the argument list from ``start`` ends: its ``closer`` outside strings."""
    position = start
    while position < len(text):
        char = text[position]
        if char == '"':
            literal = _RS_LITERAL.match(text, position)
            position = literal.end() if literal else position + 1
            continue
        if char == closer:
            return position
        position += 1
    return len(text)


def _rs_values(text: str) -> list[str]:
    """The comma-separated values of an argument list: a literal's text, or any other
    expression's after a NUL (which no literal word of a command line holds)."""
    values: list[str] = []
    for part in _rs_split(text):
        part = part.strip()
        if not part:
            continue
        literal = _RS_LITERAL.fullmatch(part)
        values.append(_rs_string(literal.group(1)) if literal else "\0" + part)
    return values


def _rs_split(text: str) -> list[str]:
    """``text`` split at its top-level commas (not inside strings or brackets)."""
    parts, depth, start, position = [], 0, 0, 0
    while position < len(text):
        char = text[position]
        if char == '"':
            literal = _RS_LITERAL.match(text, position)
            position = literal.end() if literal else position + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:position])
            start = position + 1
        position += 1
    parts.append(text[start:])
    return parts


def _rs_string(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _RS_ESCAPES.get(m.group(1), m.group(1)), text)
