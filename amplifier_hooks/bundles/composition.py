"""Composing a bundle: a file, everything it includes, folded into one `Bundle`.

A bundle is plain YAML or Markdown with YAML front matter. `load_bundle` reads a bundle
and everything it includes, expands ``${VAR}`` references, validates every file on its own
(so each error points at a line of the file that has it) and folds the files into one
`Bundle`: includes left to right, the including file last.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from amplifier_hooks.approvals.store.location import StoreLocationError, check_location
from amplifier_hooks.bundles.amplifier_format import AmplifierParts, adapt_document
from amplifier_hooks.bundles.env import expand_env
from amplifier_hooks.bundles.format import (
    MEMORY_STORE,
    STATE_STORE,
    Bundle,
    BundleFile,
    HookEntry,
)
from amplifier_hooks.bundles.messages import translate
from amplifier_hooks.bundles.reading import (
    BundleError,
    Document,
    KeyPath,
    Problem,
    Written,
    display_path,
    read_document,
    render_key_path,
)
from amplifier_hooks.bundles.safe_yaml import LIMITS
from amplifier_hooks.logs import get_logger

__all__ = ["deep_merge", "load_bundle"]

logger = get_logger()


# -- loading -----------------------------------------------------------------------------


def load_bundle(
    path: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None
) -> Bundle:
    """Parse, validate and compose the bundle at ``path`` (and what it includes).

    ``environ`` replaces ``os.environ`` for ``${VAR}`` expansion. Raises `BundleError`.
    """
    try:
        root = Path(path).expanduser().absolute()
    except (RuntimeError, ValueError, OSError) as exc:  # `~nobody/x`: no such user
        raise BundleError(Problem(f"cannot use this path: {exc}", Path(path))) from None
    layers: list[tuple[BundleFile, Document]] = []
    _collect(root, (root,), {}, layers, environ)
    return _fold(root, layers)


def _collect(
    path: Path,
    chain: tuple[Path, ...],
    cache: dict[Path, tuple[BundleFile, Document]],
    layers: list[tuple[BundleFile, Document]],
    environ: Mapping[str, str] | None,
) -> None:
    """Append the layers of ``path`` in composition order: its includes, then itself."""
    if path not in cache:
        cache[path] = _read_layer(path, environ)
    layer, doc = cache[path]
    for index, include in enumerate(layer.includes):
        where: KeyPath = ("includes", index)
        target = _relative_to(path, include, doc, where)
        if target in chain:
            cycle = " -> ".join(display_path(p) for p in (*chain[chain.index(target) :], target))
            raise BundleError(doc.problem(where, f"include cycle: {cycle}"))
        _check_include(target, doc, where, str(include), path)
        if len(layers) + len(chain) >= LIMITS.max_included_files:
            # A file included twice is applied twice: doubling includes grow exponentially.
            raise BundleError(
                doc.problem(
                    where,
                    f"the includes apply more than {LIMITS.max_included_files} files, the "
                    "limit (a file included twice counts twice; see 'Limits' in "
                    "docs/bundles.md)",
                )
            )
        _collect(target, (*chain, target), cache, layers, environ)
    layers.append((layer, doc))


def _read_layer(path: Path, environ: Mapping[str, str] | None) -> tuple[BundleFile, Document]:
    doc = read_document(path)
    expand_env(doc, environ)
    amplifier = adapt_document(doc)  # Amplifier's sections, include mappings, git sources
    try:
        layer = BundleFile.model_validate(doc.data)
    except ValidationError as exc:
        raise BundleError(translate(exc, BundleFile, doc.problem)) from None
    layer._amplifier = amplifier
    first: dict[str, int] = {}
    for index, entry in enumerate(layer.hooks):
        if entry.key in first:
            raise BundleError(
                doc.problem(
                    ("hooks", index),
                    f"a second entry for {entry.key!r} (the first is hooks[{first[entry.key]}]); "
                    "give one of them an id",
                )
            )
        first[entry.key] = index
        if entry.source is not None:
            entry.source = str(_relative_to(path, entry.source, doc, ("hooks", index, "source")))
    store = layer.session.approvals.store
    if store is not None and store not in (MEMORY_STORE, STATE_STORE) and "://" not in store:
        where = ("session", "approvals", "store")
        layer.session.approvals.store = store = str(_relative_to(path, store, doc, where))
    if store is not None and store != STATE_STORE:
        try:
            check_location(store)
        except StoreLocationError as exc:
            raise BundleError(doc.problem(("session", "approvals", "store"), exc.problem)) from None
    return layer, doc


def _relative_to(bundle_file: Path, target: str, doc: Document, where: KeyPath) -> Path:
    """``target`` (``~`` expanded) relative to the bundle file's directory, or a
    `BundleError` at ``where`` for a path the system cannot use."""
    try:
        return (bundle_file.parent / Path(target).expanduser()).resolve()
    except (RuntimeError, ValueError, OSError) as exc:  # `~nobody/x`, a NUL, a loop
        raise BundleError(doc.problem(where, f"cannot use the path {target!r}: {exc}")) from None


SHIPPED_BUNDLES = Path(__file__).resolve().parents[2] / "bundles"
"""The bundles that come with the source checkout (bundles/default.md, ...)."""


def _check_include(
    target: Path, doc: Document, where: KeyPath, written: str, including: Path
) -> None:
    try:
        if target.is_file():
            return
        what = "is a directory" if target.is_dir() else "not found"
    except (ValueError, OSError) as exc:  # a name too long, say
        what = f"cannot be read ({getattr(exc, 'strerror', None) or exc})"
    message = f"included file {what}: {display_path(target)}"
    if what == "not found" and not Path(written).expanduser().is_absolute():
        message += (
            f" (a relative include is relative to the including file's folder, {including.parent})"
        )
        shipped = SHIPPED_BUNDLES / Path(written).name
        if Path(written).parent.name == "bundles" and shipped.is_file():
            message += f"; the shipped {Path(written).name} is {shipped}"
    raise BundleError(doc.problem(where, message))


@dataclass
class _Fold:
    strict: bool | None = None
    compat: list[str] = field(default_factory=list)
    session: dict[str, Any] = field(default_factory=dict)
    hooks: dict[str, dict[str, Any]] = field(default_factory=dict)
    written: dict[str, Written] = field(default_factory=dict)
    config_written: dict[str, dict[KeyPath, Written]] = field(default_factory=dict)
    disabled: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    other: dict[str, Any] = field(default_factory=dict)

    def add(self, layer: BundleFile, doc: Document) -> None:
        if doc.path not in self.files:
            self.files.append(doc.path)
            amplifier: AmplifierParts = layer._amplifier
            self.ignored.extend(amplifier.ignored)
            self.other = deep_merge(self.other, amplifier.other)
        if layer.strict is not None:
            self.strict = layer.strict
        self.compat.extend(c for c in layer.compat if c not in self.compat)
        if "session" in layer.model_fields_set:
            self.session = deep_merge(self.session, layer.session.model_dump(exclude_unset=True))
        for index, entry in enumerate(layer.hooks):
            self._add_entry(entry, doc, ("hooks", index))

    def _add_entry(self, entry: HookEntry, doc: Document, where: KeyPath) -> None:
        key = entry.key
        if entry.enabled is False:
            if key not in self.hooks:
                # Most likely a typo: the entry meant to be removed stays mounted.
                close = difflib.get_close_matches(key, list(self.hooks), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                line = doc.line_for(where)
                self.warnings.append(
                    f"{display_path(doc.path)}{f':{line}' if line else ''}: "
                    f"{_dotted_where(where)}: 'enabled: false' for {key!r}, which nothing "
                    f"before it enables{hint}"
                )
                logger.warning(
                    "bundle disables a hook entry that nothing before it enables",
                    entry=key,
                    file=display_path(doc.path),
                    line=line,
                )
            self.hooks.pop(key, None)
            self.written.pop(key, None)
            self.config_written.pop(key, None)
            if key not in self.disabled:
                self.disabled.append(key)
            return
        raw = entry.model_dump(exclude_unset=True, exclude={"enabled"})
        base = self.hooks.get(key)
        config_written: dict[KeyPath, Written] = {}
        if base is not None and raw.get("module", base.get("module")) == base.get("module"):
            raw = deep_merge(base, raw)
            config_written = self.config_written.get(key, {})
        elif raw.get("module") is None:
            raise BundleError(
                doc.problem(
                    where,
                    f"entry {key!r} has no module, and no included bundle defines an entry "
                    f"{key!r} for it to change",
                )
            )
        # A different module under the same key replaces the entry: merging one module's
        # config into another's would produce settings neither author wrote.
        self.hooks[key] = raw
        here = Written(doc, where)
        self.written[key] = here
        if "config" in entry.model_fields_set:
            _note_written(entry.config, (), here, config_written)
        self.config_written[key] = config_written
        if key in self.disabled:
            self.disabled.remove(key)


def _fold(root: Path, layers: list[tuple[BundleFile, Document]]) -> Bundle:
    acc = _Fold()
    for layer, doc in layers:
        acc.add(layer, doc)
    own, own_doc = layers[-1]
    meta = own.bundle
    data = {
        "name": meta.name or root.stem,
        "version": meta.version,
        "description": meta.description,
        "strict": bool(acc.strict),
        "compat": acc.compat,
        "session": acc.session,
        "hooks": list(acc.hooks.values()),
        "path": root,
        "files": acc.files,
        "disabled": acc.disabled,
        "warnings": acc.warnings,
        "ignored": acc.ignored,
        "other_sections": acc.other,
        "body": own_doc.body,
    }
    try:
        bundle = Bundle.model_validate(data)
    except ValidationError as exc:
        raise BundleError(
            translate(exc, Bundle, lambda where, msg: _at(root, where, msg))
        ) from None
    for entry in bundle.hooks:
        entry._written = acc.written.get(entry.key)
        entry._config_written = acc.config_written.get(entry.key, {})
    return bundle


def _note_written(
    config: Mapping[str, Any], path: KeyPath, here: Written, written: dict[KeyPath, Written]
) -> None:
    """Record that ``here`` wrote ``config`` at ``path``, following `deep_merge`: a
    mapping merges key by key, anything else replaces what was below it."""
    written[path] = here
    for key, value in config.items():
        below = (*path, key)
        if isinstance(value, Mapping):
            _note_written(value, below, here, written)
            continue
        for old in [p for p in written if len(p) > len(below) and p[: len(below)] == below]:
            del written[old]
        written[below] = here


def _at(file: Path, where: KeyPath, message: str) -> Problem:
    return Problem(message, file, None, render_key_path(where))


def deep_merge(base: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """``new`` over ``base``: mappings merge key by key, anything else (lists included)
    is replaced."""
    merged = dict(base)
    for key, value in new.items():
        current = merged.get(key)
        if isinstance(value, Mapping) and isinstance(current, Mapping):
            merged[key] = deep_merge(current, value)
        else:
            merged[key] = value
    return merged


def _dotted_where(where: KeyPath) -> str:
    """``("hooks", 2)`` as ``hooks[2]``."""
    text = ""
    for part in where:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
