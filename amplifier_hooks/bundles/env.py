"""``${VAR}`` and ``${VAR:-default}`` in bundle values, expanded from the environment.

Expansion happens per file, after parsing and before validation, so a bad reference is
reported at the key that holds it. The text it may add is bounded: a file that repeats a
reference to a long variable thousands of times must not fill the memory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from amplifier_hooks.bundles.reading import BundleError, Document, KeyPath, Problem
from amplifier_hooks.bundles.safe_yaml import LIMITS

__all__ = ["expand_env", "expand_string"]

_MAX_DEPTH = LIMITS.max_depth

_REFERENCE = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{")


def expand_env(doc: Document, environ: Mapping[str, str] | None = None) -> None:
    """Replace ``${VAR}`` and ``${VAR:-default}`` in every string value of ``doc``.

    ``$${`` stands for a literal ``${``. An unset variable without a default, or a
    malformed reference, is a `BundleError` at its key. Keys are never expanded. The text
    expansion may add is bounded (`LIMITS.max_expanded_chars`): a file that repeats a
    reference to a long variable thousands of times would otherwise fill the memory.
    """
    env = os.environ if environ is None else environ
    doc.data = _Expansion(doc, env).value(doc.data, (), 0)


@dataclass
class _Expansion:
    doc: Document
    env: Mapping[str, str]
    added: int = 0

    def value(self, value: Any, path: KeyPath, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            return value
        if isinstance(value, str):
            return self.text(value, path)
        if isinstance(value, dict):
            return {k: self.value(v, (*path, str(k)), depth + 1) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v, (*path, i), depth + 1) for i, v in enumerate(value)]
        return value

    def text(self, value: str, path: KeyPath) -> str:
        expanded = expand_string(value, self.env, lambda msg: self.doc.problem(path, msg))
        self.added += max(0, len(expanded) - len(value))
        if self.added > LIMITS.max_expanded_chars:
            raise BundleError(
                self.doc.problem(
                    path,
                    f"${{VAR}} expansion adds more than {LIMITS.max_expanded_chars:,} "
                    "characters to this file, the limit (see 'Limits' in docs/bundles.md)",
                )
            )
        return expanded


def expand_string(
    text: str, env: Mapping[str, str], locate: Callable[[str], Problem] = Problem
) -> str:
    """Expand the references in one string; ``locate(message)`` builds the `Problem`."""
    if "$" not in text:
        return text

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "$${":
            return "${"
        name, default = match.group(1), match.group(2)
        if name is None:
            raise BundleError(
                locate(
                    "malformed variable reference: expected ${NAME} or ${NAME:-default} "
                    "(write $${ for a literal ${)"
                )
            )
        if default is not None and "${" in default:
            raise BundleError(
                locate(f"nested reference in the default of ${{{name}}} is not supported")
            )
        found = env.get(name)
        if found is None or (found == "" and default is not None):
            if default is None:
                raise BundleError(
                    locate(
                        f"environment variable {name} is not set "
                        f"(write ${{{name}:-default}} to give a default)"
                    )
                )
            return default
        return found

    return _REFERENCE.sub(replace, text)
