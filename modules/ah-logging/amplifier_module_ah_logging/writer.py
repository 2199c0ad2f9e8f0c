"""The JSONL file, written directly: one JSON encoding and one unbuffered write per record.

Not through structlog: global logging configuration belongs to the application, and the
event log must keep its schema whatever the application's console logging looks like
(tests that capture structlog output do not swallow it either). Nor through a logger of
its own: its processor chain cost more per event than the record's own encoding.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from io import FileIO
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

from amplifier_hooks.engine.registry import utc_timestamp
from amplifier_hooks.logs import get_logger
from amplifier_hooks.private import private_file

SCHEMA = "amplifier-hooks.event/2"
"""Version of the record layout; bump it when a field changes meaning or goes away."""

# outcome before data: it is short, and what an audit reader scans for.
_FIELDS = ("schema", "ts", "event", "session_id", "outcome", "withheld", "data")
_GIVEN = _FIELDS[3:]  # the fields a caller gives

logger = get_logger()


def _shape(event: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The record, its fields in their documented order (readers scan left to right)."""
    shaped = {"schema": SCHEMA, "ts": _utc_now(), "event": event}
    for key in _GIVEN:
        if key in fields:
            shaped[key] = fields[key]
    if len(shaped) - 3 < len(fields):  # fields of other names follow, as they came
        shaped.update((k, v) for k, v in fields.items() if k not in shaped)
    return shaped


def _utc_now() -> str:
    """The current UTC time as ``datetime.now(UTC).isoformat()`` writes it, with ``Z``
    for ``+00:00``: the registry's stamp (formatted once a second, as every event is
    stamped), in the record's own form."""
    stamp = utc_timestamp()[:-6]
    return f"{stamp[:-7]}Z" if stamp.endswith(".000000") else f"{stamp}Z"


# allow_nan=False: NaN is not JSON; the sanitizer has already turned it into text, so a
# failure here is a bug worth seeing rather than a file other tools cannot read. One
# encoder for every record: `json.dumps` with options builds a new one per call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))

# `JSONEncoder.encode` makes a C encoder (and its cycle-marker dict) on every call; the
# one made here serves every record. It keeps no cycle markers, so it holds no state
# between calls (none of a session, none of a thread): a record is the sanitizer's
# fresh or plain-JSON copy, which has no cycle, and one that had one would end in
# RecursionError, a failed write like the ValueError the markers would raise.
_C_ENCODE: Callable[[Any, int], Any] | None = (
    None
    if c_make_encoder is None
    # markers, default, encoder, indent, key and item separators, sort_keys, skipkeys,
    # allow_nan: `_ENCODER`'s own options
    else c_make_encoder(
        None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, False
    )
)


def _dumps(obj: Any) -> str:
    """``obj`` as `_ENCODER` writes it (the same text, by the same C code when present)."""
    if _C_ENCODE is None or type(obj) is not dict:
        return _ENCODER.encode(obj)
    return "".join(_C_ENCODE(obj, 0))


def _open(path: Path) -> FileIO:
    # Unbuffered: each record is one write of its whole line (O_APPEND), with no text
    # layer or buffer in between to flush, and none holding a failed line to retry later.
    # The log says what the agent did and read: private from its creation (a device
    # such as /dev/null is written to as it is, never changed).
    return open(private_file(path), "ab", buffering=0)


def _check_creatable(path: Path) -> None:
    """Raise the `OSError` that making ``path`` would raise, where it can be told now:
    its nearest existing folder is a file, or is not ours to write in."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write in {folder}")


def _line(record: str) -> bytes:
    """The record's line as text mode wrote it: UTF-8, its end the platform's; a lone
    surrogate in some payload is backslash-escaped, so it cannot make a record unwritable
    (the escape still decodes as JSON)."""
    return (record + _NEWLINE).encode("utf-8", "backslashreplace")


_NEWLINE = os.linesep


class JsonlWriter:
    """Appends one JSON record per call to ``path``; I/O errors are logged once, not raised."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # A log that exists is opened now; a missing one (and its folder, made private)
        # only with its first record, so that mounting a bundle to read it (`check`,
        # `install`) leaves nothing behind. Whether it can be made is checked now.
        self._file: FileIO | None = None
        if path.exists():
            self._file = _open(path)
        else:
            _check_creatable(path)
        self._closed = False
        self.written = 0
        self.dropped = 0
        self._failing = False

    @property
    def closed(self) -> bool:
        return self._closed

    def write(self, event: str, **fields: Any) -> bool:
        """Write one record; False if it could not be written (the first failure is logged)."""
        if self._closed:
            self.dropped += 1
            return False
        try:
            if self._file is None:
                self._file = _open(self.path)
            line = _line(_dumps(_shape(event, fields)))
            # One write of the whole line: a reader (or another handle on the file)
            # sees whole lines. A short write (a full disk) goes on with the rest.
            written = self._file.write(line)
            while written is not None and written < len(line):
                line = line[written:]
                written = self._file.write(line)
        except (OSError, ValueError, TypeError, RecursionError) as exc:
            self.dropped += 1
            if not self._failing:
                self._failing = True
                logger.error(
                    "event log write failed; further failures are counted, not logged",
                    path=str(self.path),
                    hook_event=event,
                    error=f"{type(exc).__name__}: {exc}",
                )
            return False
        if self._failing:
            self._failing = False
            logger.info("event log writable again", path=str(self.path), dropped=self.dropped)
        self.written += 1
        return True

    def close(self) -> None:
        """Close the file (idempotent); reports how many records were lost, if any."""
        if self._closed:
            return
        self._closed = True
        if self._file is None:
            return
        try:
            self._file.close()
        except OSError as exc:
            logger.error("event log close failed", path=str(self.path), error=repr(exc))
        if self.dropped:
            logger.warning("event log records lost", path=str(self.path), dropped=self.dropped)
