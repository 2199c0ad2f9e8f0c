"""The commands build files spell out with literal words, found by their shapes.

A build file the guard has no grammar for (Gradle, Maven's ``pom.xml``, a ``build.rs``,
``pyproject.toml``) still names the programs it runs with literal words: Gradle's
``commandLine``, Maven's exec plugin, Rust's ``Command::new``. A JSON manifest's scripts
(``package.json``, ``composer.json``) are read as JSON, or, for an edit's fragment, as every
quoted value. `buildfiles.planted_code` judges what these give as shell command lines.
"""

from __future__ import annotations

import html
import json
import re
import shlex

from amplifier_hooks.guard.langcalls import process_calls

__all__ = ["app_command", "backend_commands", "hcl_commands", "manifest_scripts", "spelled"]

_PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)"')
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PAIR_LIST = re.compile(r'"(?:[^"\\]|\\.)*"\s*:\s*\[((?:\s*"(?:[^"\\]|\\.)*"\s*,?)+)\s*\]')
"""A key whose value is a list of strings (composer's scripts may be lists)."""
_STRING = r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*" """.strip()
_QUOTED = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)" """.strip())
_COMMAND_LINE = re.compile(rf"\bcommandLine\s*[(=]?\s*((?:\s*(?:{_STRING})\s*,?)+)")
"""Gradle's ``commandLine 'sh', '-c', '...'`` (Groovy) or ``commandLine("sh", ...)``."""
_EXECUTABLE = re.compile(
    r"<executable>([^<]+)</executable>\s*"
    r"(?:<arguments>((?:\s*<argument>[^<]*</argument>)*))?"
)
"""Maven's exec plugin: its ``<executable>`` and ``<argument>`` words."""
_ARGUMENT = re.compile(r"<argument>([^<]*)</argument>")
_RUST_STRING = r'"(?:[^"\\]|\\.)*"'
_RUST_COMMAND = re.compile(
    rf"Command::new\(\s*({_RUST_STRING})\s*\)"
    rf"((?:\s*\.args?\(\s*(?:{_RUST_STRING}|&?\[(?:\s*{_RUST_STRING}\s*,?)*\s*\])\s*\))*)"
)
"""Rust's ``Command::new("sh").arg("-c").arg("...")`` (a ``build.rs``), its literal words."""
_RUST_WORD = re.compile(_RUST_STRING)


def spelled(text: str) -> list[str]:
    """The programs a build file the guard does not read spells out with literal words
    (Gradle's ``commandLine``, Maven's exec plugin, a ``build.rs``'s ``Command::new``), as
    command lines."""
    found: list[list[str]] = []
    for match in _COMMAND_LINE.finditer(text):
        found.append([a or b for a, b in _QUOTED.findall(match.group(1))])
    for match in _EXECUTABLE.finditer(text):
        words = [match.group(1).strip(), *_ARGUMENT.findall(match.group(2) or "")]
        found.append([html.unescape(w) for w in words])
    for match in _RUST_COMMAND.finditer(text):
        literals = [match.group(1), *_RUST_WORD.findall(match.group(2))]
        found.append([_rust_text(w) for w in literals])
    lines = [shlex.join(words) for words in found if words and all(words)]
    return lines + process_calls(text)  # the other languages' process calls (`langcalls`)


def _rust_text(literal: str) -> str:
    """A Rust string literal's text (its common escapes read)."""
    return _unescaped(literal[1:-1])


def _unescaped(body: str) -> str:
    """A string literal's body (Rust's, HCL's) with its common escapes read."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def manifest_scripts(text: str, keys: tuple[str, ...] = ("scripts",)) -> list[str]:
    """A manifest's scripts: its ``keys`` mappings (of lines, or lists of them) when the
    text is the whole file, or every quoted value of a fragment (an edit's lines: which
    mapping they land in is not in them)."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        mappings = [data.get(key) for key in keys]
        values = [v for m in mappings if isinstance(m, dict) for v in m.values()
                  if isinstance(v, (str, list))]  # fmt: skip
        return [w for v in values for w in ([v] if isinstance(v, str) else v)
                if isinstance(w, str)]  # fmt: skip
    found: list[str] = []
    pairs: list[str] = [value for _, value in _PAIR.findall(text)]
    for listed in _PAIR_LIST.findall(text):  # composer's `"post-install-cmd": ["..."]`
        pairs.extend(_JSON_STRING.findall(listed))
    for value in pairs:
        try:
            found.append(json.loads(f'"{value}"'))
        except ValueError:
            found.append(value)
    return found


_BACKEND = re.compile(r"""^\s*build-backend\s*=\s*["']([\w.:]+)["']""", re.MULTILINE)
_BACKEND_PATH = re.compile(r"^\s*backend-path\s*=\s*\[([^\]]*)\]", re.MULTILINE)


def backend_commands(text: str) -> list[str]:
    """A ``pyproject.toml``'s in-tree build backend: every build (``pip install .``,
    ``python -m build``, ``uv build``) imports the ``build-backend`` module from the
    folders ``backend-path`` lists, as ``PYTHONPATH=FOLDER python3 -m MODULE`` would (a
    folder outside the project is code nobody there reviewed)."""
    found = _BACKEND_PATH.search(text)
    if found is None:
        return []
    backend = _BACKEND.search(text)
    module = backend.group(1).split(":")[0] if backend else "backend"
    folders = [a or b for a, b in _QUOTED.findall(found.group(1))]
    return [f"PYTHONPATH={shlex.quote(f)} python3 -m {module}" for f in folders if f]


_HCL_COMMAND = re.compile(r'(?m)^\s*(?:command|interpreter_command)\s*=\s*"((?:[^"\\]|\\.)*)"')
_HCL_HEREDOC = re.compile(r"(?ms)^\s*command\s*=\s*<<-?\s*(\w+)\s*$(.*?)^\s*\1\s*$")
_HCL_ARGV = re.compile(r"(?m)^\s*(?:program|execute|interpreter)\s*=\s*\[([^\]]*)\]")


def hcl_commands(text: str) -> list[str]:
    """What Terraform or Terragrunt text runs on this machine: a ``local-exec``
    provisioner's ``command`` (a string or a heredoc), an ``external`` data source's
    ``program`` and a Terragrunt hook's ``execute`` (lists of words)."""
    found = [_unescaped(m.group(1)) for m in _HCL_COMMAND.finditer(text)]
    found.extend(m.group(2).strip() for m in _HCL_HEREDOC.finditer(text))
    for match in _HCL_ARGV.finditer(text):
        words = [_unescaped(w) for w in _JSON_STRING.findall(match.group(1))]
        if words:
            found.append(shlex.join(words))
    return found


def app_command(text: str) -> list[str]:
    """The command ``cdk.json``'s ``app`` runs (the whole file), or every quoted value of
    a fragment (an edit's lines)."""
    try:
        data = json.loads(text)
    except ValueError:
        return manifest_scripts(text)
    app = data.get("app") if isinstance(data, dict) else None
    return [app] if isinstance(app, str) else []
