"""What a write or an edit changes in where a project's code comes from.

Read from the text a file tool writes (and, for an edit, the text it replaces), by the
file's name:

- a lock file's resolved URLs, sources, registry hosts and hashes (`LOCK_CHANGE`, denied:
  the package manager writes them, and every later install trusts them unchecked); a
  hash-pinned ``requirements*.txt`` counts as one;
- an index or source a package manager is pointed at (`SOURCE_CHANGE`): a requirements
  file's ``--extra-index-url``/``-i``/``--trusted-host``/``-f`` or a URL requirement,
  ``bunfig.toml``'s ``registry``, ``pyproject.toml``'s git and URL sources and indexes,
  a conda environment file's channel or ``pip:`` line by URL,
  a Gemfile's ``source`` other than rubygems.org or a gem from git, a NuGet.Config's
  package sources other than nuget.org; the other ecosystems' git sources, forks and
  registries (`langsources`: ``cabal.project``, ``stack.yaml``, ``Package.swift``,
  ``mix.exs``, ``go.mod``'s ``replace``, ...);
- pnpm's ``dangerouslyAllowAllBuilds: true`` (`ALL_SCRIPTS`): every dependency's install
  scripts run;
- a Maven build extension, a pre-commit hook repository on a moving branch, a Lambda
  layer from an account the edit's old text never names (`PLUGIN_ADDED`): code fetched
  and run at every build, commit or invocation;
- an image swapped to ``:latest`` or stripped of its digest, an ``ADD`` of a URL
  (`IMAGE_UNPINNED`);
- code a tool loads at every run: pytest's ``-p PLUGIN``, a Gemfile's evaluation of a
  fetched file (`loadedcode`).

Everyday edits (a dependency line, a version bump, a pinned hook repository, an image with
a version tag) carry no mark. Verification removed or made to pass is `supplyverify`'s.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from urllib.parse import urlsplit

from amplifier_hooks.guard.langsources import lang_source_changed
from amplifier_hooks.guard.loadedcode import loaded_code_marks
from amplifier_hooks.guard.supplyfiles import lock_file

__all__ = [
    "ALL_SCRIPTS",
    "IMAGE_UNPINNED",
    "LOCK_CHANGE",
    "PLUGIN_ADDED",
    "SOURCE_CHANGE",
    "lock_tokens",
    "supply_marks",
]

LOCK_CHANGE = "@lockfile-source-change"
SOURCE_CHANGE = "@package-source-file"
ALL_SCRIPTS = "@install-scripts-all"
PLUGIN_ADDED = "@build-plugin-added"
IMAGE_UNPINNED = "@image-unpinned"

_LOCK_TOKEN = re.compile(
    r"(?:git\+|registry\+|sparse\+)?https?://[^\s\"',}\]]+"
    r"|\bsha(?:1|224|256|384|512)[-:=][A-Za-z0-9+/=_-]{8,}"
    r"|\bh1:[A-Za-z0-9+/=]{8,}"
    r"|\b(?:checksum|integrity|resolved|tarball|remote|source|url)\b\s*[:=]\s*\"?[^\s\"',}]*"
)
"""What a lock file vouches for: a URL or source, a hash, and the keys that hold them."""
_REQUIREMENTS = re.compile(r"^(?:[\w.-]*requirements[\w.-]*|constraints[\w.-]*)\.(?:txt|in)$")
_INDEX_OPTIONS = frozenset(
    {"-i", "--index-url", "--extra-index-url", "--trusted-host", "-f", "--find-links",
     "--index", "--no-index"}
)  # fmt: skip
_URL = re.compile(r"\b(?:git\+)?(?:https?|ssh|file)://\S+")
_TOML_SOURCE = re.compile(
    r"\b(?:git|url|index-url|extra-index-url|index)\s*=\s*[\"']"
    r"|^\s*\[\[?tool\.(?:poetry\.source|uv\.index|pdm\.source)\]\]?",
    re.MULTILINE,
)
"""pyproject's git and URL sources (``[tool.uv.sources]``), and its extra indexes."""
_BUN_SOURCE = re.compile(r"^\s*(?:registry|url)\s*=|https?://", re.MULTILINE)
_GEM_SOURCE = re.compile(r"""^\s*source\s*\(?\s*["']([^"']+)["']""", re.MULTILINE)
_GEM_GIT = re.compile(r"""^\s*(?:gem|git)\b.*\b(?:git|github|source):\s*|^\s*git\s+["']""",
                      re.MULTILINE)  # fmt: skip
_CONDA_ENVIRONMENT = re.compile(r"^(?:[\w.-]*environment[\w.-]*|conda[\w.-]*|env)\.ya?ml$")
"""A conda environment file (``environment.yml``, ``conda-env.yaml``); its ``channels``
and its ``pip:`` lines say where every package comes from."""
_RUBYGEMS = frozenset({"https://rubygems.org", "https://rubygems.org/"})
_NUGET_VALUE = re.compile(r"""\bvalue\s*=\s*["']([^"']+)["']""")
_NUGET_HOSTS = frozenset({"api.nuget.org", "www.nuget.org", "nuget.org"})
_ALL_BUILDS = re.compile(r"^\s*dangerouslyAllowAllBuilds\s*:\s*true\b", re.MULTILINE)
_EXTENSION = re.compile(r"<extension>", re.IGNORECASE)
_HOOK_REPO = re.compile(r"^\s*-?\s*repo:\s*(\S+)\s*$", re.MULTILINE)
_REV = re.compile(r"^\s*rev:\s*['\"]?([^'\"\s#]+)", re.MULTILINE)
_VERSIONED = re.compile(r"\d")
"""A hook repository's ``rev`` with a digit is a tag or a commit; ``main`` moves."""
_FROM = re.compile(r"^\s*FROM\s+(?:--\S+\s+)*(\S+)", re.MULTILINE | re.IGNORECASE)
_IMAGE = re.compile(r"^\s*-?\s*image:\s*['\"]?([^'\"\s#]+)", re.MULTILINE)
_ADD_URL = re.compile(r"^\s*ADD\s+(?:--\S+\s+)*(https?://\S+)", re.MULTILINE | re.IGNORECASE)
_ADD_CHECKED = re.compile(r"^\s*ADD\s+.*--checksum=", re.MULTILINE | re.IGNORECASE)
_DOCKERFILE = re.compile(r"^(?:(?:Docker|Container)file(?:\.[\w.-]+)?|[\w.-]+\.[Dd]ockerfile)$")
_COMPOSE = re.compile(r"^(?:docker-)?compose(?:\.[\w.-]+)?\.ya?ml$")


def lock_tokens(text: str) -> set[str]:
    """The URLs, sources and hashes ``text`` of a lock file holds."""
    return {m.group(0).rstrip(".") for m in _LOCK_TOKEN.finditer(text)}


def supply_marks(path: str, new: str, old: str | None,
                 workspace: str | None = None) -> tuple[str, ...]:  # fmt: skip
    """The marks of writing ``new`` into the file at ``path`` (``old``: the text an edit
    replaces; None: a whole file written) in the project at ``workspace``."""
    folder, name = posixpath.split(path)
    marks: list[str] = []
    if _lock_changed(path, name, new, old):
        marks.append(LOCK_CHANGE)
    if _source_changed(name, new) or lang_source_changed(path, new, old, workspace):
        marks.append(SOURCE_CHANGE)
    if name in ("pnpm-workspace.yaml", "pnpm-workspace.yml") and _ALL_BUILDS.search(new):
        marks.append(ALL_SCRIPTS)
    if _plugin_added(folder, name, new, whole=old is None) or _layer_added(new, old):
        marks.append(PLUGIN_ADDED)
    if _image_unpinned(name, new, old):
        marks.append(IMAGE_UNPINNED)
    marks.extend(loaded_code_marks(name, new))  # pytest's -p plugin, a fetched eval_gemfile
    return tuple(marks)


def _lock_changed(path: str, name: str, new: str, old: str | None) -> bool:
    """A lock file's URLs, sources or hashes added, changed or removed by hand."""
    hashed = _REQUIREMENTS.match(name) and "--hash=" in f"{new}{old or ''}"
    if lock_file(path) is None and not hashed:
        return False
    if hashed and old is not None and old.count("--hash") > new.count("--hash"):
        return True  # a pin dropped (`sed -i '/--hash=sha256:/d'`): pip then takes any file
    added = lock_tokens(new)
    return bool(added ^ lock_tokens(old)) if old is not None else bool(added)


def _source_changed(name: str, new: str) -> bool:
    if _REQUIREMENTS.match(name):
        return any(_index_line(line) for line in new.splitlines())
    if name == "bunfig.toml":
        return _BUN_SOURCE.search(new) is not None
    if name == "pyproject.toml":
        return _TOML_SOURCE.search(new) is not None or _direct_reference(new)
    if name in ("Gemfile", "gems.rb"):
        sources = _GEM_SOURCE.findall(new)
        return any(s not in _RUBYGEMS for s in sources) or _GEM_GIT.search(new) is not None
    if _CONDA_ENVIRONMENT.match(name):
        return any(_conda_source(line) for line in new.splitlines())
    if name.lower() == "nuget.config":
        hosts = [urlsplit(v) for v in _NUGET_VALUE.findall(new) if "://" in v]
        insecure = "allowinsecureconnections" in new.lower()
        return insecure or any(u.scheme != "https" or u.hostname not in _NUGET_HOSTS for u in hosts)
    return False


def _index_line(line: str) -> bool:
    """A requirements line that points pip at another index, host or archive."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return False
    for word in words:
        option = word.partition("=")[0]
        if option in _INDEX_OPTIONS or _URL.match(word):
            return True
    return False


def _conda_source(line: str) -> bool:
    """An environment file's list item naming a channel or package by URL (``- http://
    host/main``, ``- git+https://...`` under ``pip:``) or an index option for pip."""
    item = line.strip()
    if not item.startswith("-"):
        return False
    item = item[1:].strip().strip("\"'")
    return _URL.match(item) is not None or _index_line(item)


def _direct_reference(text: str) -> bool:
    """A PEP 508 requirement from a URL (``"pkg @ git+https://..."``)."""
    return any(" @ " in line and _URL.search(line) for line in text.splitlines())


def _plugin_added(folder: str, name: str, new: str, whole: bool) -> bool:
    """A Maven build extension; a pre-commit hook repository whose ``rev`` is a branch,
    or (in a whole file: an edit's may be in the lines it keeps) missing."""
    if name == "extensions.xml" and posixpath.basename(folder) == ".mvn":
        return _EXTENSION.search(new) is not None
    if name != ".pre-commit-config.yaml":
        return False
    repos = [m for m in _HOOK_REPO.finditer(new) if m.group(1) not in ("local", "meta")]
    for index, repo in enumerate(repos):
        end = repos[index + 1].start() if index + 1 < len(repos) else len(new)
        rev = _REV.search(new, repo.end(), end)
        if (rev is None and whole) or (rev is not None and not _VERSIONED.search(rev.group(1))):
            return True
    return False


_LAYER = re.compile(r"\barn:aws[\w-]*:lambda:[\w-]+:(\d{12}):layer:[\w-]+")


def _layer_added(new: str, old: str | None) -> bool:
    """A Lambda layer from an AWS account the replaced text never names: code that runs
    inside every invocation of the function, from whoever owns that account."""
    known = (
        set()
        if old is None
        else {m.group(1) for m in _LAYER.finditer(old)} | set(re.findall(r"\b\d{12}\b", old))
    )
    return any(m.group(1) not in known for m in _LAYER.finditer(new))


def _image_unpinned(name: str, new: str, old: str | None) -> bool:
    """An image on ``:latest`` or with its digest dropped; a URL added to an image."""
    if _DOCKERFILE.match(name):
        images = _FROM.findall(new)
        if _ADD_URL.search(new) and not _ADD_CHECKED.search(new):
            return True
    elif _COMPOSE.match(name):
        images = _IMAGE.findall(new)
    else:
        return False
    if any(i.endswith(":latest") for i in images):
        return True
    pinned_before = old is not None and "@sha256:" in old
    return pinned_before and bool(images) and not any("@sha256:" in i for i in images)
