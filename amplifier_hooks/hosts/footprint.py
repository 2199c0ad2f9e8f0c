"""What ``install`` found, so that ``uninstall`` gives it back byte for byte.

Install remembers, for each file it writes, the text the file had (or that there was no
file), the folders it made for it, and a digest of the text it left. Uninstall then:

- restores the text install found exactly, when the file is still what install left
  (the user's own formatting included), deleting a file install created;
- otherwise (the user edited it since) writes the file without our entries, and deletes
  it when nothing else is left in a file install created (or, without a record, when it
  holds nothing at all: a ``{}`` does nothing but show up in ``git status``);
- removes the folders install made once they hold nothing.

The records live in one private file of the state folder (``installs.json``); each goes
with its uninstall, and the file (with the folders made for it) with the last one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import NamedTuple

from amplifier_hooks.private import FILE_MODE, make_dirs, private_dir, state_home

__all__ = [
    "Footprint",
    "install_text",
    "records_file",
    "uninstall_text",
    "write_text",
]

MADE = "made for this file"
"""The key of the folders made to hold the records file."""


class Footprint(NamedTuple):
    """One file's install: what was there, what install made, what it left."""

    created: bool
    """Install made the file."""
    before: str | None
    """The text install found, to restore (None: created, or not known)."""
    made: tuple[str, ...]
    """Folders install made for the file or for this record, innermost first."""
    after: str
    """sha256 of the text install left."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def records_file() -> Path:
    """Where installs are remembered: one private file for all."""
    return Path(state_home()) / "installs.json"


def _missing(folder: Path) -> list[str]:
    """``folder`` and its ancestors that do not exist, innermost first."""
    missing: list[str] = []
    current = Path(os.path.abspath(folder))
    while not current.exists() and current != current.parent:
        missing.append(str(current))
        current = current.parent
    return missing


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def _records() -> dict[str, object]:
    try:
        data = json.loads(records_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_records(records: dict[str, object]) -> None:
    """Keep ``records``; without any, the file goes, and the folders made for it."""
    where = records_file()
    files = {k: v for k, v in records.items() if k != MADE}
    if not files:
        with contextlib.suppress(FileNotFoundError):
            where.unlink()
        _remove_empty(_strings(records.get(MADE)))
        return
    if MADE not in records:
        records = {**records, MADE: _missing(where.parent)}
    private_dir(where.parent)
    fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        json.dump(records, stream, indent=1)


def _strings(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def _load(records: dict[str, object], path: Path) -> Footprint | None:
    data = records.get(os.path.abspath(path))
    if not isinstance(data, dict):
        return None
    before = data.get("before")
    return Footprint(
        bool(data.get("created")),
        before if isinstance(before, str) else None,
        _strings(data.get("made")),
        str(data.get("after")),
    )


def install_text(path: Path, text: str) -> None:
    """Write install's ``text`` to ``path``, remembering what was there first. A second
    install keeps the first one's record while the file is still what it left."""
    found = _read(path)
    records = _records()
    old = _load(records, path)
    if old is not None and found is not None and _digest(found) == old.after:
        footprint = old._replace(after=_digest(text))
    elif old is not None:  # changed since: what it was before install is no longer known
        footprint = Footprint(old.created, None, old.made, _digest(text))
    else:
        footprint = Footprint(found is None, found, tuple(_missing(path.parent)), _digest(text))
    write_text(path, text)
    records[os.path.abspath(path)] = footprint._asdict()
    with contextlib.suppress(OSError):
        # A record that cannot be kept costs the exact restore, not the install.
        _write_records(records)


def uninstall_text(path: Path, text: str | None) -> bool:
    """Give ``path`` back: ``text`` is the file without our entries (None: nothing else
    is in it). False if nothing changed."""
    found = _read(path)
    records = _records()
    footprint = _load(records, path)
    changed = False
    if found is not None:
        restored = _given_back(found, text, footprint)
        if restored is None:
            path.unlink()
            changed = True
        elif restored != found:
            write_text(path, restored)
            changed = True
    if footprint is not None:
        _remove_empty(footprint.made)
        del records[os.path.abspath(path)]
        _hand_over(records, [f for f in footprint.made if os.path.isdir(f)])
        with contextlib.suppress(OSError):
            _write_records(records)
    return changed


def _given_back(found: str, text: str | None, footprint: Footprint | None) -> str | None:
    """The file's text after uninstall (None: no file)."""
    if footprint is None:
        return text
    if _digest(found) == footprint.after:  # untouched since install: exactly as found
        return (
            None
            if footprint.created
            else (footprint.before if footprint.before is not None else text)
        )
    return None if footprint.created and text is None else text


def _hand_over(records: dict[str, object], folders: list[str]) -> None:
    """Folders install made that still hold another file install wrote (Codex's
    hooks.json and config.toml share one): that file's record removes them in its turn."""
    for name, data in records.items():
        if name == MADE or not isinstance(data, dict):
            continue
        inside = [f for f in folders if name.startswith(f + os.sep)]
        if inside:
            made = {*_strings(data.get("made")), *inside}
            data["made"] = sorted(made, key=lambda f: f.count(os.sep), reverse=True)


def _remove_empty(folders: tuple[str, ...]) -> None:
    """Remove each of ``folders`` (innermost first) that holds nothing."""
    for folder in folders:
        with contextlib.suppress(OSError):  # not empty: someone else's now too
            os.rmdir(folder)


def write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (a reader sees the old file or the
    new one, never half of it); the file's permissions are kept, a new one is 0600 (in
    folders made 0700)."""
    make_dirs(path.parent)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
