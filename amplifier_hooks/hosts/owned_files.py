"""Files of our own in a host's folders: written whole, found again, taken out with the
folders made for them.

OpenCode's plugin and Cline's hooks are files that only we write, beside the user's. A
file is ours when its text carries our marker. Install records the folders it had to
make in the file itself (``made``), so uninstall removes exactly those -- and only when
they are empty -- leaving the host's folders as install found them, byte for byte.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from amplifier_hooks.hosts.claude_code.install import SettingsError, write_text

__all__ = ["folders_to_make", "read_owned", "remove_folders", "write_owned"]


def folders_to_make(base: Path, folder: Path) -> list[str]:
    """The folders from ``folder`` up to ``base`` that do not exist yet, relative to
    ``base``, deepest first (the order to remove them in)."""
    missing = []
    current = folder
    while current != base and base in current.parents:
        if current.exists():
            break
        missing.append(current.relative_to(base).as_posix())
        current = current.parent
    return missing


def read_owned(path: Path, marker: str) -> str | None:
    """The text of ``path`` if it is ours (carries ``marker``); None when there is no
    such file. `SettingsError` when a file of someone else is in our place."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read: {exc}") from None
    if marker not in text:
        raise SettingsError(f"{path} is not ours (no {marker!r} in it); move it away first")
    return text


def write_owned(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` atomically; False (nothing written) when it is there."""
    with contextlib.suppress(FileNotFoundError, UnicodeDecodeError):
        if path.read_text(encoding="utf-8") == text:
            return False
    write_text(path, text)
    return True


def remove_folders(base: Path, made: Iterable[str]) -> None:
    """Remove the folders install made (relative to ``base``), deepest first, each only
    when empty: whatever the host or the user put there since stays."""
    for relative in sorted(set(made), key=lambda p: p.count("/"), reverse=True):
        folder = base / relative
        if base not in folder.parents:
            continue  # a path that leaves base is not one install wrote
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def unlink_all(paths: Sequence[Path]) -> None:
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
