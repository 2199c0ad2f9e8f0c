"""The code in files that decide where a project's code comes from, as `planted` reads it.

Vendored code (`supplyfiles.vendored_language`) is read in its language: JavaScript,
Python, Ruby, Perl and PHP with the guard's readers, Go's ``exec.Command("sh", "-c",
"...")`` as the program and literal words it names. A patch-package patch
(``patches/lodash+4.17.21.patch``) is the lines it adds, read in the language of the file
it patches. MSBuild's ``<Exec Command="...">`` in ``Directory.Build.props``/``.targets``
runs in every build of every project below it; a Maven wrapper's properties name the
Maven every ``./mvnw`` downloads and runs (Apache's own hosts over https, or it is code
fetched from elsewhere: `mobilebuild.FETCHED_SCRIPT`).
"""

from __future__ import annotations

import html
import posixpath
import re
import shlex
from urllib.parse import urlsplit

from amplifier_hooks.guard.codecalls import shell_commands
from amplifier_hooks.guard.codereaders import code_reader
from amplifier_hooks.guard.mobilebuild import FETCHED_SCRIPT
from amplifier_hooks.guard.supplyfiles import vendored_language

__all__ = ["VENDORED_REACH", "is_script", "maven_wrapper_code", "msbuild_code", "vendored_code"]

VENDORED_REACH = "vendored-reach"
"""The language of a vendored file's act of running a program or reaching the network:
the dependency's own code does so on the project's behalf, unreviewed (`planted` marks it
``@vendored-reach``)."""

Code = list[tuple[str, str]]

_GO_STRING = r'"(?:[^"\\]|\\.)*"|`[^`]*`'
_GO_COMMAND = re.compile(
    rf"\bexec\.Command(?:Context)?\(\s*(?:ctx\s*,\s*)?((?:(?:{_GO_STRING})\s*,?\s*)+)\)"
)
"""Go's ``exec.Command("sh", "-c", "...")``: a program and its literal words."""
_GO_WORD = re.compile(_GO_STRING)
_PATCHED = re.compile(r"^\+\+\+ (?:b/)?(\S+)", re.MULTILINE)
_EXEC = re.compile(r"<Exec\b[^>]*?\bCommand\s*=\s*(\"[^\"]*\"|'[^']*')", re.IGNORECASE)
_WRAPPER_URL = re.compile(r"^\s*(?:distributionUrl|wrapperUrl)\s*[=:]\s*(\S+)", re.MULTILINE)
_MAVEN_HOSTS = frozenset({"repo.maven.apache.org", "repo1.maven.org"})


def vendored_code(language: str, text: str) -> Code:
    """The code ``text`` holds, written into a vendored file read as ``language``."""
    if language == "patch":
        return _patch_code(text)
    if language == "go-code":
        return [("shell", c) for c in _go_commands(text)]
    if language == "shell":
        return [("shell", text)]
    if not language:  # a language the guard does not read: the commands it spells out
        if text.startswith("#!") and _SHELLS.search(text.partition("\n")[0]):
            return [("shell", text)]  # a script run by its shebang (node_modules/.bin/x)
        return [("shell", c) for c in (*shell_commands("sh", text), *_go_commands(text))]
    return [*_reaches(language, text), (language, text)]


_SHELLS = re.compile(r"\b(?:ba|da|z|k)?sh\b")
_PROGRAMS = {"javascript": "node"}
_CLOSERS = {"javascript": "}", "ruby": "end", "php": "}", "perl": "}"}
"""What closes the blocks an edit's lines open (``function f() {``): more is read."""
_MAX_OPEN = 3


def _reaches(language: str, text: str) -> Code:
    """A `VENDORED_REACH` for each program the vendored code runs and each host it
    reaches (an edit's open blocks closed for the reading)."""
    reader = code_reader(_PROGRAMS.get(language, language))
    if reader is None:
        return []
    reading, closed = reader(text), text
    for _ in range(_MAX_OPEN if not reading.parsed else 0):
        closed += "\n" + _CLOSERS.get(language, "}")
        reading = reader(closed)
        if reading.parsed:
            break
    if not reading.parsed:
        return []
    return [(VENDORED_REACH, f"{a.does} {a.target}") for a in reading.acts
            if a.does in ("network", "run") and a.target]  # fmt: skip


def _go_commands(text: str) -> list[str]:
    found: list[str] = []
    for match in _GO_COMMAND.finditer(text):
        words = [_go_text(w) for w in _GO_WORD.findall(match.group(1))]
        found.append(shlex.join(words))
    return found


def _go_text(literal: str) -> str:
    body = literal[1:-1]
    if literal.startswith("`"):
        return body
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _patch_code(text: str) -> Code:
    """The lines a unified diff adds, each file's in the language of the file it patches."""
    found: Code = []
    target: str | None = None
    added: list[str] = []

    def close() -> None:
        if target is not None and added:
            language = vendored_language(target if "/" in target else f"vendor/{target}")
            found.extend(vendored_code(language or "", "\n".join(added) + "\n"))

    for line in text.splitlines():
        header = _PATCHED.match(line)
        if header is not None:
            close()
            target, added = header.group(1), []
        elif line.startswith("+") and not line.startswith("+++"):
            added.append(line[1:])
    close()
    return found


def msbuild_code(text: str) -> Code:
    """The commands of MSBuild's ``<Exec Command="...">`` tasks (a build runs them)."""
    return [("shell", html.unescape(m.group(1)[1:-1])) for m in _EXEC.finditer(text)]


_ENTRYPOINTS = frozenset({"entrypoint", "docker-entrypoint"})
"""Scripts a container runs at its start, named without an ending."""
_DATA_FOLDERS = frozenset({"fixtures", "testdata", "test-data", "__fixtures__", "samples"})
"""Folders of data a test reads: a script there is read, not run."""


def is_script(path: str) -> bool:
    """``path`` is a shell script someone runs later (``scripts/fetch-tools.sh``,
    ``docker/entrypoint.sh``): what it fetches and runs is judged (``curl ... | sh`` added
    to it runs at its next start), the rest left to whoever reads it."""
    folder, name = posixpath.split(path)
    if not _DATA_FOLDERS.isdisjoint(folder.split("/")):
        return False
    return name.endswith((".sh", ".bash")) or name in _ENTRYPOINTS


def maven_wrapper_code(text: str) -> Code:
    """The Maven (or wrapper jar) ``./mvnw`` downloads and runs, when it is not from
    Apache's own repository over https."""
    found: Code = []
    for raw in _WRAPPER_URL.findall(text):
        url = raw.replace("\\", "")
        parts = urlsplit(url)
        if parts.scheme != "https" or (parts.hostname or "") not in _MAVEN_HOSTS:
            found.append((FETCHED_SCRIPT, url))
    return found
