"""``mcp wrap`` and ``mcp unwrap``: client configs rewritten, and restored byte for byte.

`wrap_config` rewrites one config so that each of its servers runs through the proxy and
keeps a `WrapRecord` of it: the file's bytes before and a digest of the bytes it wrote,
and each server's entry before and after. `unwrap_config` puts the old bytes back when
the file is still as wrap left it; when something else changed it since, it puts back
only the entries that are still as wrap wrote them (CONTRACT §11: uninstall removes only
what install changed) and leaves the rest of the file as it is now.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

from amplifier_hooks.private import make_dirs
from amplifier_hooks.transports.mcp.clients import ClientConfig, is_wrapped, wrap_entry
from amplifier_hooks.transports.mcp.toml_tables import TomlEditError, edit_table

__all__ = [
    "ConfigError",
    "Outcome",
    "WrapRecord",
    "load_records",
    "records_path",
    "save_records",
    "unwrap_config",
    "wrap_config",
    "wrapped_servers",
]


class ConfigError(ValueError):
    """A config that cannot be read or written; the message names the file."""


class WrapRecord(NamedTuple):
    """What wrap changed in one file."""

    original: str
    written: str
    """The SHA-256 of the text wrap wrote."""
    servers: dict[str, tuple[Any, Any]]
    """Server name -> its entry before and after (a TOML table's text)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "original": self.original,
            "written": self.written,
            "servers": {k: list(v) for k, v in self.servers.items()},
        }

    @classmethod
    def from_json(cls, data: Any) -> WrapRecord:
        servers = {k: (v[0], v[1]) for k, v in dict(data["servers"]).items()}
        return cls(str(data["original"]), str(data["written"]), servers)


class Outcome(NamedTuple):
    """What wrap or unwrap did to one file, for the person's report."""

    path: Path
    changed: list[str]
    skipped: list[tuple[str, str]]


def records_path() -> Path:
    """``$XDG_STATE_HOME/amplifier-hooks/mcp-wrapped.json``: what wrap changed."""
    state = os.environ.get("XDG_STATE_HOME") or ""
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "amplifier-hooks" / "mcp-wrapped.json"


def load_records(path: Path) -> dict[str, WrapRecord]:
    """The records kept at ``path`` (none if it does not exist)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {k: WrapRecord.from_json(v) for k, v in data.items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise ConfigError(f"cannot read the wrap records at {path}: {exc}") from None


def save_records(path: Path, records: dict[str, WrapRecord]) -> None:
    """Keep ``records`` at ``path`` (readable by this user only)."""
    make_dirs(path.parent)
    text = json.dumps({k: v.to_json() for k, v in records.items()}, indent=1)
    _write(path, text, mode=0o600)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _write(path: Path, text: str, mode: int | None = None) -> None:
    """Write ``text`` to ``path`` in one step (a temporary file renamed over it), keeping
    the file's permissions."""
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o600
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _read(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None


def _servers(config: ClientConfig, path: Path, text: str) -> tuple[Any, dict[str, Any]]:
    """The parsed file and its servers' table."""
    try:
        data = tomllib.loads(text) if config.format == "toml" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path} is not valid {config.format.upper()}: {exc}") from None
    servers = data.get(config.key) if isinstance(data, dict) else None
    if servers is None:
        return data, {}
    if not isinstance(servers, dict):
        raise ConfigError(f"{path}: {config.key} is not a table of servers")
    return data, servers


def _indent(text: str) -> int | str:
    found = re.search(r"\n([ \t]+)\S", text)
    if found is None:
        return 2
    space = found.group(1)
    return space if "\t" in space else len(space)


def _dump(data: Any, like: str) -> str:
    out = json.dumps(data, indent=_indent(like), ensure_ascii=False)
    return out + "\n" if like.endswith("\n") else out


def wrap_config(
    config: ClientConfig, path: Path, proxy: str, bundle: str
) -> tuple[Outcome, WrapRecord | None]:
    """Wrap every server of ``config`` at ``path``; the record of what changed (None when
    nothing did)."""
    text = _read(path)
    data, servers = _servers(config, path, text)
    changed: dict[str, tuple[Any, Any]] = {}
    skipped: list[tuple[str, str]] = []
    new_text = text
    for name, entry in servers.items():
        wrapped = wrap_entry(config, name, entry, proxy, bundle)
        if wrapped.entry is None:
            skipped.append((name, wrapped.why_not))
            continue
        if config.format == "toml":
            try:
                edit = edit_table(new_text, name, wrapped.entry)
            except (TomlEditError, tomllib.TOMLDecodeError) as exc:
                skipped.append((name, str(exc)))
                continue
            new_text = edit.text
            changed[name] = (edit.before, edit.after)
        else:
            servers[name] = wrapped.entry
            changed[name] = (entry, wrapped.entry)
    if not changed:
        return Outcome(path, [], skipped), None
    if config.format == "json":
        new_text = _dump(data, text)
    _write(path, new_text)
    return Outcome(path, sorted(changed), skipped), WrapRecord(text, _digest(new_text), changed)


def unwrap_config(config: ClientConfig, path: Path, record: WrapRecord) -> Outcome:
    """Undo ``record`` at ``path`` (see the module docstring)."""
    try:
        text = _read(path)
    except ConfigError:
        if not path.exists():
            return Outcome(path, [], [(n, "the file is gone") for n in record.servers])
        raise
    if _digest(text) == record.written:
        _write(path, record.original)
        return Outcome(path, sorted(record.servers), [])
    restored: list[str] = []
    skipped: list[tuple[str, str]] = []
    if config.format == "toml":
        for name, (before, after) in record.servers.items():
            if isinstance(after, str) and after in text:
                text = text.replace(after, before, 1)
                restored.append(name)
            else:
                skipped.append((name, "changed since it was wrapped"))
    else:
        data, servers = _servers(config, path, text)
        for name, (before, after) in record.servers.items():
            if servers.get(name) == after:
                servers[name] = before
                restored.append(name)
            else:
                skipped.append((name, "changed since it was wrapped"))
        text = _dump(data, text)
    if restored:
        _write(path, text)
    return Outcome(path, sorted(restored), skipped)


def wrapped_servers(config: ClientConfig, path: Path) -> list[tuple[str, str]]:
    """The servers of ``config`` at ``path`` that run through the proxy, each with the
    bundle it names (for doctor); none when the file cannot be read."""
    try:
        _, servers = _servers(config, path, _read(path))
    except ConfigError:
        return []
    found = []
    for name, entry in sorted(servers.items()):
        if isinstance(entry, dict) and is_wrapped(entry):
            args = entry["args"]
            at = args.index("--bundle") + 1 if "--bundle" in args else len(args)
            found.append((name, args[at] if at < len(args) else ""))
    return found
