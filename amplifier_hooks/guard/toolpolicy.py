"""A project's settings that open a document tool's own sandbox: what its builds may run
or read outside the workspace, written into the files it reads at every build.

- Hugo's ``security`` settings (``hugo.toml``, ``hugo.yaml``, ``hugo.json``, the older
  ``config.*``, ``config/_default/security.*``): ``exec.allow`` lists the programs its
  templates and content may run (asciidoctor, pandoc, postcss by default), ``funcs.getenv``
  the variables a template may read into the built site, ``http.urls`` what
  ``resources.GetRemote`` may fetch. Any key set there widens what a build does
  (`POLICY_OPENED`).
- TeX's ``texmf.cnf`` in the project (``TEXMFCNF=.`` reads it): ``shell_escape = t``
  lets every document run commands, ``openin_any``/``openout_any = a`` read and write
  any file.

The text is read line by line (TOML's tables and keys, YAML's indented keys), since an
edit's lines are rarely a whole file. Everyday settings (``baseURL``, ``[markup]``) are
not marked.
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["POLICY_OPENED", "policy_marks"]

POLICY_OPENED = "@tool-policy-opened"

_HUGO_NAMES = frozenset({"hugo", "config", "security"})
_HUGO_ENDINGS = (".toml", ".yaml", ".yml", ".json")
_SANDBOXED = frozenset({"exec", "funcs", "http"})
"""Hugo's ``security`` tables whose settings say what a build may run, read or fetch."""
_TOML_TABLE = re.compile(r"^\s*\[+\s*([\w.\"' -]+?)\s*\]+\s*(?:#.*)?$")
_TOML_KEY = re.compile(r"^\s*([\w.\"'-]+)\s*=")
_YAML_KEY = re.compile(r"^(\s*)[\"']?([\w.-]+)[\"']?\s*:")
_JSON_KEY = re.compile(r"\"(security|exec|funcs|http)\"\s*:")
_TEXMF = re.compile(r"^\s*(shell_escape|openin_any|openout_any|shell_escape_commands)"
                    r"(?:\.\w+)?\s*=?\s*(\S*)", re.MULTILINE)  # fmt: skip


def policy_marks(path: str, text: str) -> tuple[str, ...]:
    """`POLICY_OPENED` when ``text`` written into ``path`` opens a document tool's
    sandbox; empty otherwise."""
    folder, name = posixpath.split(path)
    stem, _, ending = name.partition(".")
    if name == "texmf.cnf":
        return (POLICY_OPENED,) if _texmf_opened(text) else ()
    if stem not in _HUGO_NAMES or "." + ending not in _HUGO_ENDINGS:
        return ()
    if stem == "security" and posixpath.basename(posixpath.dirname(folder)) != "config":
        return ()
    sandbox = stem == "security"  # config/_default/security.toml: its keys are the tables
    return (POLICY_OPENED,) if _hugo_opened(text, sandbox) else ()


def _texmf_opened(text: str) -> bool:
    for key, value in _TEXMF.findall(text):
        value = value.lstrip("=").strip().lower()
        if key == "shell_escape_commands" or value in ("t", "1", "y", "a", "true"):
            return True
    return False


def _hugo_opened(text: str, sandbox: bool) -> bool:
    """Whether a line sets a key inside ``security.exec``, ``.funcs`` or ``.http``."""
    if _JSON_KEY.search(text) and "security" in text and ("exec" in text or "funcs" in text):
        return True
    table: tuple[str, ...] = ()
    indents: list[tuple[int, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        header = _TOML_TABLE.match(line)
        if header is not None:
            table = _dotted(header[1])
            continue
        key = _TOML_KEY.match(line)
        if key is not None:
            keys = (*table, *_dotted(key[1]))
            if _sandboxed(keys, sandbox) or _inline_opened(keys, line[key.end() :], sandbox):
                return True
            continue
        yaml_key = _YAML_KEY.match(line)
        if yaml_key is None:
            continue
        depth = len(yaml_key[1])
        indents = [(d, k) for d, k in indents if d < depth]
        indents.append((depth, yaml_key[2]))
        keys = tuple(k for _, k in indents)
        if len(keys) >= 3 - sandbox and _sandboxed(keys, sandbox):
            return True
        if _inline_opened(keys, line[yaml_key.end() :], sandbox):
            return True
    return False


_INLINE_KEY = re.compile(r"[{,]\s*[\"']?([\w.-]+)[\"']?\s*[:=]")
"""A key of a TOML inline table or a YAML flow mapping (``{exec = {allow = [...]}}``)."""


def _inline_opened(keys: tuple[str, ...], value: str, sandbox: bool) -> bool:
    """Whether a key's inline table (``security: {exec: {allow: ['.*']}}``) sets something
    inside a sandboxed table: one of them named below ``security`` (or in a security file)."""
    if "{" not in value:
        return False
    names = (*keys, *(part for n in _INLINE_KEY.findall(value) for part in _dotted(n)))
    if not sandbox:
        if "security" not in names:
            return False
        names = names[names.index("security") + 1 :]
    return any(n in _SANDBOXED for n in names)


def _dotted(name: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in name.split("."))


def _sandboxed(keys: tuple[str, ...], sandbox: bool) -> bool:
    """Whether ``keys`` (tables then key) set something inside a sandboxed table."""
    if not sandbox:
        if len(keys) < 3 or keys[0] != "security":
            return False
        keys = keys[1:]
    return len(keys) >= 2 and keys[0] in _SANDBOXED
