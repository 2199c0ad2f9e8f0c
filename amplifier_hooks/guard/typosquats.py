"""Package names one slip away from a well-known one: ``npm i lodahs``, ``pip install
reqeusts``, ``cargo add serde_jsn``, ``go get github.com/sirupsen/logruss``.

A typosquat is published under the name a hurried person (or a model) types for a popular
package, and its install scripts or import run its own code. The registry serves it as
asked and a lock file records it as asked, so nothing downstream tells the two apart. A
name that is not itself well known (``packs/wellknown.yaml``: a few hundred names per
ecosystem) and is one slip from a well-known name of the same ecosystem is asked (rule
``package-name-lookalike``): one character added, dropped, changed, or two neighbours
swapped (Damerau distance 1, which also covers a separator dropped or added:
``crossenv``, ``cross-env``), any separators changed (``-``, ``_``, ``.``), or a Python
prefix (``python-``, ``python3-``, ``py``) added, dropped or changed
(``python3-dateutil``). Names shorter than five characters are not compared: too many real
packages sit one character apart. A well-known name is never asked for being near another.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import yaml

__all__ = ["ECOSYSTEMS", "lookalike", "registry_name", "well_known"]

ECOSYSTEMS = ("npm", "pypi", "crates", "gems", "go")
"""The registries ``packs/wellknown.yaml`` lists names of."""
MIN_LENGTH = 5
_SEPARATORS = re.compile(r"[-_.]+")
_PY_PREFIX = re.compile(r"^(?:python3?|py3?)[-_.]?")
"""The prefixes Python packages are published with, or typed with by mistake."""
_PY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_GO_NAME = re.compile(r"[a-z0-9.-]+\.[a-z]{2,}(?:/[A-Za-z0-9._~-]+)+")


def _canonical(ecosystem: str, name: str) -> str:
    """The name as its registry compares names: PyPI folds case and runs of ``-_.``
    (PEP 503), crates.io folds case and ``_`` into ``-``, npm names are lower case; gems
    and Go module paths are compared as written."""
    if ecosystem == "pypi":
        return _SEPARATORS.sub("-", name.lower())
    if ecosystem == "crates":
        return name.lower().replace("_", "-")
    return name.lower() if ecosystem == "npm" else name


@lru_cache(maxsize=1)
def _known() -> dict[str, frozenset[str]]:
    text = resources.files("amplifier_hooks.guard").joinpath("packs/wellknown.yaml")
    data = yaml.safe_load(text.read_text(encoding="utf-8"))
    return {
        eco: frozenset(_canonical(eco, str(n)) for n in data.get(eco, ())) for eco in ECOSYSTEMS
    }


def well_known(ecosystem: str, name: str) -> bool:
    """Whether ``name`` is one of the well-known packages of ``ecosystem``."""
    return _canonical(ecosystem, name) in _known().get(ecosystem, frozenset())


def lookalike(ecosystem: str, name: str) -> str | None:
    """The well-known package of ``ecosystem`` that ``name`` is one slip away from
    (None: it is well known itself, too short to compare, or near none); of several, the
    first in sorted order."""
    typed = _canonical(ecosystem, name)
    if len(typed) < MIN_LENGTH or typed in _known().get(ecosystem, frozenset()):
        return None
    near, bares, cores = _compared(ecosystem)
    found = [other for key in (typed, *_dropped(typed)) for other in near.get(key, ())
             if _one_slip(typed, other)]  # fmt: skip
    found += bares.get(_SEPARATORS.sub("", typed), ())
    core = _bare_python(typed) if ecosystem == "pypi" else None
    if core is not None and len(core) >= MIN_LENGTH - 1:
        found += cores.get(core, ())
    return min(found) if found else None


_Names = dict[str, tuple[str, ...]]


@lru_cache(maxsize=len(ECOSYSTEMS))
def _compared(ecosystem: str) -> tuple[_Names, _Names, _Names]:
    """The well-known names of ``ecosystem`` that `lookalike` compares (five characters
    or more): by each of themselves and the texts one character dropped leaves of them,
    by the name without its separators and by the name without its Python prefixes. A
    name one slip from another shares one of those texts with it (a change or a swap at
    `i`: both less `i`; a character added: the shorter one), so `lookalike` tells only
    the few names a lookup finds, not each of hundreds (one `_one_slip` and two regexes
    per name: about 1 ms a call, the slowest part of ``npm i PKG``)."""
    near: dict[str, list[str]] = {}
    bares: dict[str, list[str]] = {}
    cores: dict[str, list[str]] = {}
    for other in sorted(_known().get(ecosystem, frozenset())):
        if len(other) < MIN_LENGTH:
            continue
        for key in dict.fromkeys((other, *_dropped(other))):
            near.setdefault(key, []).append(other)
        bares.setdefault(_SEPARATORS.sub("", other), []).append(other)
        cores.setdefault(_bare_python(other), []).append(other)
    return _frozen(near), _frozen(bares), _frozen(cores)


def _frozen(found: dict[str, list[str]]) -> _Names:
    return {key: tuple(names) for key, names in found.items()}


def _dropped(name: str) -> list[str]:
    """``name`` less each one of its characters."""
    return [name[:i] + name[i + 1 :] for i in range(len(name))]


def registry_name(kind: str, operand: str) -> str | None:
    """The registry name ``operand`` asks for (its version left out); None: a folder,
    an archive, a URL, a git source or an alias, which are not registry names."""
    if "://" in operand or operand.startswith((".", "/", "~", "$")) or "\\" in operand:
        return None
    if kind == "npm":
        if ":" in operand or operand.endswith((".tgz", ".tar.gz", ".tar")):
            return None
        scoped = operand.startswith("@")
        name = ("@" if scoped else "") + operand[1 if scoped else 0 :].split("@", 1)[0]
        return None if not scoped and "/" in name else name
    if kind == "go":
        found = _GO_NAME.fullmatch(operand.split("@", 1)[0])
        return found.group(0) if found else None
    if kind == "crates":
        operand = operand.split("@", 1)[0]
    found = _PY_NAME.match(operand)
    return found.group(0) if found and not operand.endswith((".whl", ".zip", ".gz")) else None


def _bare_python(name: str) -> str:
    """``name`` without its Python prefixes (``python-pyyaml``: ``yaml``)."""
    return _PY_PREFIX.sub("", _PY_PREFIX.sub("", name, count=1), count=1)


def _one_slip(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one insertion, deletion, substitution or swap of
    two neighbouring characters (Damerau distance exactly 1)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    at = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[at:] == long[at + 1 :]
