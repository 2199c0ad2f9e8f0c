"""Reading bundle files written for Amplifier.

An Amplifier bundle configures a whole agent: besides ``hooks`` it has ``tools``,
``providers``, ``agents``, ``session.orchestrator``, ``session.context`` and more. This
project mounts hook modules only, so those sections are taken out before validation,
kept (for ``coordinator.config``) and reported by ``check`` as ignored, never rejected.
Its ``includes`` items may be mappings (``- bundle: <uri>``), and URIs in ``includes``
and ``source`` may be ``git+...`` (fetched into the cache, see `git_sources`) or
``file://``; they are replaced by local paths here, so the rest of the loader only ever
sees files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from amplifier_hooks.bundles.git_sources import GitSourceError, fetch_git_source, is_git_source
from amplifier_hooks.bundles.reading import BundleError, Document, KeyPath, display_path

OTHER_SECTIONS = ("tools", "providers", "agents", "context", "spawn", "orchestrator", "ui")
"""Top-level sections of an Amplifier bundle that configure other kinds of module."""
OTHER_SESSION_KEYS = ("orchestrator", "context", "orchestrator_source", "context_source")
"""Keys of ``session:`` that configure the orchestrator and context manager."""
BUNDLE_FILES = ("bundle.md", "bundle.yaml", "bundle.yml")
"""What a directory given as an include is read as, in this order."""


@dataclass
class AmplifierParts:
    """What `adapt_document` took out of one file."""

    other: dict[str, Any] = field(default_factory=dict)
    """The sections for other kinds of module, as written (``session`` holds the
    session keys)."""
    ignored: list[str] = field(default_factory=list)
    """One line per ignored section: ``file:line: key: not hook modules: ignored (...)``."""


def adapt_document(doc: Document) -> AmplifierParts:
    """Take Amplifier-only sections out of ``doc.data`` and turn include and source URIs
    into local paths, in place. Raises `BundleError` at the item that cannot be resolved."""
    parts = AmplifierParts()
    data = doc.data
    if not isinstance(data, dict):
        return parts  # validation reports what is wrong with it
    for key in OTHER_SECTIONS:
        if key in data:
            parts.ignored.append(_note(doc, (key,), data[key]))
            parts.other[key] = data.pop(key)
    session = data.get("session")
    if isinstance(session, dict):
        for key in OTHER_SESSION_KEYS:
            if key in session:
                parts.ignored.append(_note(doc, ("session", key), session[key]))
                parts.other.setdefault("session", {})[key] = session.pop(key)
    includes = data.get("includes")
    if isinstance(includes, list):
        data["includes"] = [_include(doc, index, item) for index, item in enumerate(includes)]
    elif isinstance(includes, str | dict):
        data["includes"] = [_include(doc, 0, includes)]
    hooks = data.get("hooks")
    if isinstance(hooks, list):
        for index, entry in enumerate(hooks):
            source = entry.get("source") if isinstance(entry, dict) else None
            if isinstance(source, str):
                _no_nul(doc, ("hooks", index, "source"), source)
            if isinstance(source, str) and _is_uri(source):
                entry["source"] = str(_local(doc, ("hooks", index, "source"), source))
    return parts


def _include(doc: Document, index: int, item: Any) -> Any:
    where: KeyPath = ("includes", index)
    if isinstance(item, dict):
        if set(item) != {"bundle"} or not isinstance(item["bundle"], str):
            return item  # not Amplifier's shape: validation says what is expected
        where, item = (*where, "bundle"), item["bundle"]
    if not isinstance(item, str):
        return item
    _no_nul(doc, where, item)
    if _is_uri(item):
        return str(_bundle_file(doc, where, _local(doc, where, item)))
    try:
        relative = (doc.path.parent / Path(item).expanduser()).resolve()
        is_dir = relative.is_dir()
    except (RuntimeError, ValueError, OSError):
        # `~nobody/x`, a name too long: composition reports the path at its key.
        is_dir = False
    if is_dir:
        return str(_bundle_file(doc, where, relative))
    if _is_registry_name(item):
        raise BundleError(
            doc.problem(
                where,
                f"{item!r} names a bundle in Amplifier's registry, which is not available "
                "here; give a path, a file:// URI or a git+ URI instead",
            )
        )
    return item


def _no_nul(doc: Document, where: KeyPath, text: str) -> None:
    if "\x00" in text:  # no file system accepts it; Path would raise ValueError
        raise BundleError(doc.problem(where, "a path or URI must not contain a NUL character"))


def _local(doc: Document, where: KeyPath, uri: str) -> Path:
    if is_git_source(uri):
        try:
            return fetch_git_source(uri)
        except GitSourceError as exc:
            raise BundleError(doc.problem(where, str(exc))) from None
        except OSError as exc:  # the cache directory cannot be written, say
            raise BundleError(doc.problem(where, f"cannot fetch {uri!r}: {exc}")) from None
    try:
        parts = urlsplit(uri)
    except ValueError as exc:
        raise BundleError(doc.problem(where, f"malformed URI {uri!r}: {exc}")) from None
    if parts.netloc not in ("", "localhost"):
        raise BundleError(doc.problem(where, f"file URI on another host: {uri!r}"))
    return Path(unquote(parts.path))


def _bundle_file(doc: Document, where: KeyPath, path: Path) -> Path:
    if not path.is_dir():
        return path
    for name in BUNDLE_FILES:
        if (path / name).is_file():
            return path / name
    raise BundleError(
        doc.problem(where, f"{display_path(path)} holds no {' / '.join(BUNDLE_FILES)}")
    )


def _is_uri(text: str) -> bool:
    return is_git_source(text) or text.startswith("file://")


def _is_registry_name(text: str) -> bool:
    """``foundation`` style names are paths here; ``foundation:behaviors/x`` is not."""
    head, sep, _ = text.partition(":")
    return bool(sep) and "/" not in head and "\\" not in head and len(head) > 1


def _note(doc: Document, where: KeyPath, value: Any) -> str:
    line = doc.line_for(where)
    key = ".".join(str(part) for part in where)
    return (
        f"{display_path(doc.path)}{f':{line}' if line else ''}: {key}: "
        f"not hook modules: ignored{_summary(value)}"
    )


def _summary(value: Any) -> str:
    names: list[str] = []
    if isinstance(value, list):
        for item in value:
            module = item.get("module") if isinstance(item, Mapping) else item
            names.append(str(module))
    elif isinstance(value, Mapping):
        module = value.get("module")
        names = [str(module)] if module is not None else [str(k) for k in value]
    elif isinstance(value, str):
        names = [value]
    return f" ({', '.join(names)})" if names else ""


def mount_plan(bundle: Any) -> dict[str, Any]:
    """The bundle as the reference's session configuration (``coordinator.config``): its
    ``session`` and ``hooks``, with the sections for other kinds of module as written."""
    other = dict(bundle.other_sections)
    session = {**bundle.session.model_dump(mode="json"), **other.pop("session", {})}
    hooks = [entry.model_dump(mode="json", exclude_none=True) for entry in bundle.hooks]
    return {**other, "session": session, "hooks": hooks}
