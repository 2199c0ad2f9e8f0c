"""Code a tool loads at every run because its configuration names it, read from the text a
write or an edit puts into that configuration.

- pytest's ``-p NAME`` in ``addopts`` (``pyproject.toml``'s ``[tool.pytest.ini_options]``,
  ``pytest.ini``, ``setup.cfg``, ``tox.ini``) imports the module NAME as a plugin at every
  test run, whoever runs the tests (`TEST_PLUGIN`); ``-p no:NAME`` only switches one off.
- A Gemfile (``gems.rb``) that evaluates text fetched from the network (``eval_gemfile``,
  ``eval``, ``instance_eval`` of a URL) runs it at every ``bundle`` command (`GEM_EVAL`);
  ``eval_gemfile "Gemfile.local"`` evaluates a file of the project, as the Gemfile is.
"""

from __future__ import annotations

import re

__all__ = ["GEM_EVAL", "TEST_PLUGIN", "loaded_code_marks"]

TEST_PLUGIN = "@test-plugin-added"
GEM_EVAL = "@gemfile-eval-fetched"

_PYTEST_FILES = frozenset({"pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini"})
_ADDOPTS = re.compile(r"^[ \t]*addopts[ \t]*=(.*(?:\n[ \t]+\S.*)*)", re.MULTILINE)
"""An ``addopts`` value with its continuation lines (indented, as INI files and TOML
arrays spread them)."""
_WORD = re.compile(r"[^\s\"',\[\]]+")
_EVAL = re.compile(r"\b(?:eval_gemfile|instance_eval|module_eval|class_eval|eval)\b")
_FETCHED = re.compile(r"://|\bURI\b|Net::HTTP|\bopen-uri\b|`")


def loaded_code_marks(name: str, text: str) -> tuple[str, ...]:
    """The marks of writing ``text`` into a file named ``name``."""
    if name in _PYTEST_FILES and _plugin_named(text):
        return (TEST_PLUGIN,)
    if name in ("Gemfile", "gems.rb") and _fetched_eval(text):
        return (GEM_EVAL,)
    return ()


def _plugin_named(text: str) -> bool:
    """Whether an ``addopts`` value loads a plugin (``-p NAME``, ``-pNAME``)."""
    for match in _ADDOPTS.finditer(text):
        words = _WORD.findall(match.group(1))
        for index, word in enumerate(words):
            if word == "-p":
                value = words[index + 1] if index + 1 < len(words) else ""
            elif word.startswith("-p") and not word.startswith("--"):
                value = word[2:].removeprefix("=")
            else:
                continue
            if not value.startswith("no:"):
                return True
    return False


def _fetched_eval(text: str) -> bool:
    return any(_EVAL.search(line) and _FETCHED.search(line) for line in text.splitlines())
