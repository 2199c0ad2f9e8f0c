"""An edit that loosens what keeps a machine that moves from hurting someone.

A robot's, a motor controller's or a printer's limits and stops live in ordinary project
files: a velocity limit in a YAML file, a joint's ``<limit effort= velocity=>`` in a URDF,
a current limit in a firmware header, the emergency stop's check in a node's C++. An edit
that raises such a limit well past its old value, or takes an emergency stop, interlock or
watchdog out (deleted, commented out, switched to ``0``/``false``, a mux's ``estop`` lock
removed), changes what the machine does near people at its next run; so does a DDS
configuration that sends the robot's topics to a peer on the internet, and a test of a
limit or a safety or security check marked to be skipped (``@pytest.mark.skip`` before
``test_max_speed_clamped``): the check no longer stops the next change that breaks it.
A plant's safety functions count the same: a light curtain's or an interlock's bypass
switched on, a boiler's trip pressure or a safety heartbeat's timeout raised, a lockout
check taken out, a rule deleted from an interlock file, a register a gateway may write
made writable or its write range widened; and so does a driver's legal hours raised.
Each is marked `SAFETY_WEAKENED` (asked: a person who knows the machine reads it)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import live_matches, more, number_moved
from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["SAFETY_WEAKENED", "SKIP_MARKER", "weakens_safety"]

SAFETY_WEAKENED = "@safety-limit-weakened"
_QUANTITY = (
    r"(?:velocity|vel|speed|accel\w*|current|effort|torque|force|temp\w*|power|rpm|pressure"
    r"|(?:safety|heartbeat|watchdog)\w*timeout)"
)
_LIMIT = re.compile(
    rf"\b(?P<name>\w*(?:max|limit|trip)\w*{_QUANTITY}\w*|\w*{_QUANTITY}\w*(?:max|limit|trip)\w*"
    rf"|\w*(?:safety|heartbeat|watchdog)\w*timeout\w*)"
    r"[\"']?\s*(?:[:=]|\s)\s*[\"']?(?P<n>\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
"""A named limit and its number (``max_linear_velocity: 1.2``, ``#define
MOTOR_CURRENT_LIMIT_A 12.0f``)."""
_URDF_LIMIT = re.compile(r"\b(?P<name>effort|velocity)\s*=\s*\"(?P<n>\d+(?:\.\d+)?)\"")
"""A URDF joint's ``<limit>`` attributes."""
_STOP = re.compile(
    r"\b\w*(?:estop|e_stop|emergency_?stop|interlock|watchdog|safety_(?:stop|check|enabled)"
    r"|lockout|loto|light_?curtain|guard_?door)\w*",
    re.IGNORECASE,
)
_OFF = re.compile(rf"(?P<name>{_STOP.pattern})\s*(?:[:=]|\s)\s*(?:0|false|False|no|off)\b", re.I)
_BYPASSED = re.compile(
    r"\b(?P<name>\w*(?:bypass|defeat|override)\w*)[\"']?\s*[:=]\s*[\"']?(?:true|True|1|yes|on)\b"
)
"""A safety function's bypass switched on (``light_curtain_bypass: true``)."""
_HOURS = re.compile(
    r"\b(?P<name>max\w*(?:driving|duty|working|shift)_?hours\w*)\s*[:=]\s*(?P<n>\d+(?:\.\d+)?)",
    re.I,
)
"""A legal limit on people's hours (a driver's): raised at all, the plan breaks the law."""
_ALLOWED_RANGE = re.compile(
    r"\b(?P<name>\w*allow\w*)\s*=\s*range\(\s*(?P<lo>\d+)\s*,\s*(?P<hi>\d+)\s*\)", re.I
)
"""An allow-list of addresses written as a range (a gateway's writable registers)."""
_WRITABLE = re.compile(r"^\s*(?:writable|write_enabled|allow_write)\s*:\s*true\b", re.M | re.I)
_SAFETY_FILE = re.compile(r"interlock|safety|estop|e-stop|/modbus|/plc|/scada|/opcua", re.I)
"""A file of a machine's interlocks, or of what a gateway may write to a plant's devices:
a rule taken out of it, or a register made writable, is a stop taken out."""
_UNLIMITED = re.compile(
    r"\bhas_(?:velocity|acceleration|effort|jerk)_limits\s*[:=]\s*(?:false|False|no)\b"
)
"""ros2_control's joint limits switched off (a wheel's position limits are none by nature)."""
_PEER = re.compile(r"<Peer\s+address=\"(?P<host>[^\"]+)\"", re.IGNORECASE)
_PRIVATE = re.compile(
    r"^(?:localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.|\[?::1|"
    r"[\w-]+\.local$|[\w-]+$)"
)
"""A peer on this machine or the local network (a bare host name is the site's own)."""
SKIP_MARKER = re.compile(
    r"@pytest\.mark\.skip\w*|\bpytest\.skip\(|@unittest\.skip\w*|\b(?:it|test|describe)\.skip\("
    r"|\bx(?:it|describe)\(|@Disabled\b|@Ignore\b|\bt\.Skip\w*\(|#\[ignore\]"
)
"""A test marked to be skipped (pytest, unittest, Jest and Mocha, JUnit, Go, Rust)."""
_GUARDED_TEST = re.compile(
    r"safety|limit|clamp|estop|e_stop|emergency|interlock|auth|permission|security|csrf"
    r"|sanitiz|escap|injection|xss|signature",
    re.IGNORECASE,
)
"""What a skipped test's next lines name when it tests a safety or security check."""
_RAISE = 1.5
"""How far a limit may rise in one edit before it is asked (a tuning step is smaller)."""
_MAX_TEXT = 64 * 1024


def weakens_safety(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit raises a machine's limit, takes its stop out, bypasses it,
    or sends its DDS traffic to a peer off the local network."""
    plant = any(_SAFETY_FILE.search(p) for p in paths)
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if any(not _PRIVATE.match(h) for h in _hosts(new) - _hosts(old)):
            return True
        if more(_OFF, old, new):
            return True
        if more(_UNLIMITED, old, new) or more(_BYPASSED, old, new):
            return True
        if plant and old and (more(_WRITABLE, old, new) or _rule_dropped(old, new)):
            return True
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if live_matches(_STOP, new) < live_matches(_STOP, old):
            return True
        if number_moved(_LIMIT, old, new, _raised) or number_moved(_URDF_LIMIT, old, new, _raised):
            return True
        if number_moved(_HOURS, old, new, _more_hours) or _range_widened(old, new):
            return True
        if _guarded_skips(new) > _guarded_skips(old):
            return True
    return False


def _guarded_skips(text: str) -> int:
    """Skip markers whose test (the marker's line and the three after it) names a limit or
    a safety or security check."""
    lines = text.splitlines()
    return sum(
        1
        for index, line in enumerate(lines)
        if SKIP_MARKER.search(line) and _GUARDED_TEST.search("\n".join(lines[index : index + 4]))
    )


def _hosts(text: str) -> set[str]:
    return {found["host"].lower() for found in _PEER.finditer(text)}


_KEY = re.compile(r"^\s*(?:-\s*)?(?P<key>[\w.-]+)\s*:", re.M)


def _rule_dropped(old: str, new: str) -> bool:
    """A key of ``old`` that ``new`` no longer sets at all: a rule or a setting taken out
    (a value changed keeps its key)."""
    keys = {m["key"] for m in _KEY.finditer(new)}
    return any(m["key"] not in keys for m in _KEY.finditer(old))


def _more_hours(was: float, now: float) -> bool:
    return now > was


def _range_widened(old: str, new: str) -> bool:
    """An allow-list's range made four times as wide or more."""
    before = {m["name"]: int(m["hi"]) - int(m["lo"]) for m in _ALLOWED_RANGE.finditer(old)}
    return any(
        (was := before.get(m["name"])) is not None
        and int(m["hi"]) - int(m["lo"]) >= 4 * max(was, 1)
        for m in _ALLOWED_RANGE.finditer(new)
    )


def _raised(was: float, now: float) -> bool:
    return was > 0 and now > _RAISE * was
