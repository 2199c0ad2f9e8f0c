"""An edit that weakens what a firmware build locks down on the devices it ships to.

A device's security is a handful of build options: ESP-IDF's secure boot and flash
encryption (``sdkconfig``), MCUboot's and U-Boot's signature checks (``CONFIG_BOOT_
SIGNATURE_TYPE_*``, ``CONFIG_FIT_SIGNATURE``, a key node's ``required = "conf"``), Zephyr's
authenticated management transport, an AVR's fuses. An edit that turns such an option
off (``# CONFIG_X is not set``, ``=n``, the line removed), turns on one that opens the
device (``CONFIG_SECURE_BOOT_INSECURE``, ``..._ALLOW_JTAG``, ``..._ALLOW_DL_MODE``, a remote
shell), switches flash encryption to release mode (it burns eFuses at first boot: no way
back), signs with a published development key (MCUboot's ``root-ec-p256.pem``), changes a
fuse or moves a partition of the flash table to another offset (an update built for the
new layout lands on devices with the old) reaches every device flashed from the next
build, where no update may undo it. Each is marked `FIRMWARE_WEAKENED` (asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["FIRMWARE_WEAKENED", "weakens_firmware"]

FIRMWARE_WEAKENED = "@firmware-weakened"
_OPTION = re.compile(r"^\s*(?:SB_)?CONFIG_(?P<name>\w+)=(?P<value>\S+)", re.M)
_OFF = re.compile(r"^\s*#\s*(?:SB_)?CONFIG_(?P<name>\w+) is not set", re.M)
_GUARDS = re.compile(
    r"SECURE|ENCRYPT|SIGNATURE|SIGNED|VERIFY|AUTHEN|STACK_PROTECTOR|HARDEN|FORTIFY|LOCKDOWN"
    r"|WDT|WATCHDOG|BROWNOUT"
    r"|ROLLBACK|ANTI_ROLLBACK|MEMPROT|PERM_RW_AUTHEN|DISABLE_ROM_DL|DISABLE_JTAG"
)
"""An option that locks the device down (on: protected)."""
_OPENERS = re.compile(
    r"INSECURE|ALLOW_JTAG|ALLOW_DL_MODE|ALLOW_DEC|SIGNATURE_TYPE_NONE|UART_BOOTLOADER_ALLOW"
    r"|DEBUG_ALLOW|GRP_SHELL|SHELL_BACKEND_DUMMY|_PERM_RW$|DISABLE_\w*(?:SECURE|SIGN|VERIF)"
)
"""An option that opens the device (on: weakened)."""
_RELEASE_MODE = "SECURE_FLASH_ENCRYPTION_MODE_RELEASE"
_DEV_KEY = re.compile(
    r"(?:SIGNATURE_KEY_FILE|KEY_FILE|key-file|--key)\W+[^\n]*?"
    r"\broot-(?:ec-p256|ec-p384|rsa-2048|rsa-3072|ed25519|x25519)\.pem"
)
"""A signing key named as MCUboot's published development keys (anyone can sign with them)."""
_REQUIRED = re.compile(r"^\s*required\s*=\s*\"(?:conf|image)\"", re.M)
_FUSES = re.compile(
    r"\bboard_fuses\.\w+\s*=\s*(\S+)|-U\s*[hle]?fuse:w:(\S+)|\block_bits\s*=\s*(\S+)"
)
_PARTITION = re.compile(
    r"^\s*(?P<name>\w+)\s*,\s*(?:app|data|0x[0-9a-fA-F]+)\s*,\s*\w+\s*,"
    r"\s*(?P<offset>0x[0-9a-fA-F]+|\d+[KkMm]?)?\s*,\s*(?P<size>0x[0-9a-fA-F]+|\d+[KkMm]?)",
    re.M,
)
"""A row of an ESP-IDF partition table (``nvs, data, nvs, 0x9000, 0x6000,``)."""
_NAMED = re.compile(r"CONFIG_|fuse|lock_bits|required|\.pem|, *(?:app|data) *,")
"""Text naming none of these sets no option here (nearly every edit: one search)."""
_MAX_TEXT = 64 * 1024


def weakens_firmware(inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit weakens a firmware build's locks (see the module)."""
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT or not _NAMED.search(old + new):
            continue
        before, after = _options(old), _options(new)
        for name, value in after.items():
            if before.get(name) == value:
                continue
            if value == "y" and (_OPENERS.search(name) or name == _RELEASE_MODE):
                return True
            if value == "n" and before.get(name) == "y" and _GUARDS.search(name):
                return True
        if old and any(
            _GUARDS.search(name) and value == "y" and name not in after
            for name, value in before.items()
        ):
            return True
        if more(_DEV_KEY, old, new):
            return True
        if len(_REQUIRED.findall(new)) < len(_REQUIRED.findall(old)):
            return True
        if old and set(_FUSES.findall(new)) - set(_FUSES.findall(old)):
            return True
        if old and _moved(_PARTITION, old, new):
            return True
    return False


def _moved(pattern: re.Pattern[str], old: str, new: str) -> bool:
    """A partition of the old table at another offset in the new (a size alone may
    change: the app's partition grows with the app)."""
    before = {m["name"]: m["offset"] for m in pattern.finditer(old) if m["offset"]}
    return any(
        m["offset"] and before.get(m["name"], m["offset"]) != m["offset"]
        for m in pattern.finditer(new)
    )


def _options(text: str) -> dict[str, str]:
    """The Kconfig options ``text`` sets (``# CONFIG_X is not set`` is ``n``)."""
    found = {m["name"]: m["value"].strip("\"'") for m in _OPTION.finditer(text)}
    found.update({m["name"]: "n" for m in _OFF.finditer(text)})
    return found
