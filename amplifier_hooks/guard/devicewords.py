"""Programs that name a disk or device without writing what is on it, and an emulator's
kernel command line, which names the guest's devices, not this machine's.

``umount /dev/sdb1``, ``udisksctl unmount -b /dev/sdb1``, ``udisksctl power-off -b
/dev/sdb`` and ``eject /dev/sdb`` mount, unmount or power a device off: no byte of it or
of any file named changes, so none of their words is a path written (`pathwords`). The
rules that speak for them by name still do (`unmount-system`). None is granted: they are
not in the table.

``qemu-system-aarch64 ... -append "root=/dev/vda console=ttyAMA0"`` gives the guest's
kernel its command line: ``/dev/vda`` there is the guest's disk, a word the emulator never
opens. Its other words (``-kernel``, ``-drive file=...``) stay paths, written as before.

``adb pull DEVICE... [LOCAL]`` and ``adb push LOCAL... DEVICE`` copy between this machine
and an Android device: the device's paths (``/sdcard/...``) are not this machine's, so
only LOCAL is a path here, written by a pull (the device file's name in the folder the
command runs in when none is given) and read by a push (`adb_files`); the words of
``adb shell CMD`` are the device's command, none a path here (its redirections are).
"""

from __future__ import annotations

import posixpath
from typing import NamedTuple

__all__ = ["DEVICE_NAMERS", "IMAGE_LOOKERS", "DeviceCopy", "adb_files", "adb_verb_at",
           "guest_words", "image_paths", "is_emulator"]  # fmt: skip

DEVICE_NAMERS = frozenset({"umount", "udisksctl", "eject"})
"""Programs whose words name devices or mount points they unmount, mount or power off."""

_ADB_VALUED = frozenset({"-s", "-t", "-H", "-P", "-L"})
"""adb's global options that take a value (the serial, the transport, the server)."""
_COPY_VALUED = frozenset({"-z"})
"""``adb pull``'s and ``push``'s options that take a value (the compression)."""
_EMULATOR_PREFIX = "qemu-system-"
_GUEST_ONLY = frozenset({"-append"})
"""qemu's options whose value is read by the guest, never opened here."""


def is_emulator(program: str) -> bool:
    """``qemu-system-ARCH`` (any architecture)."""
    return program.startswith(_EMULATOR_PREFIX)


IMAGE_LOOKERS = frozenset({"virt-ls", "virt-cat", "virt-tail", "virt-log", "virt-df",
                           "virt-filesystems", "virt-inspector", "guestfish"})  # fmt: skip
"""libguestfs' tools that read a disk image: the paths they name after it are the guest's
(``virt-cat -a disk.qcow2 /etc/os-release``), none of this machine's."""
_IMAGE_OPTIONS = frozenset({"-a", "--add", "-d", "--domain", "-c", "--connect", "--format",
                            "-m", "--mount"})  # fmt: skip


def image_paths(program: str, args: tuple[str, ...]) -> frozenset[str]:
    """The guest's paths among ``args`` of a libguestfs tool that only reads (guestfish
    only with ``--ro``): every word that is no option and names no image."""
    if program == "guestfish" and "--ro" not in args and "-r" not in args:
        return frozenset()
    found: set[str] = set()
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _IMAGE_OPTIONS:
            skip = True
        elif not arg.startswith("-") and arg.startswith("/"):
            found.add(arg)
    return frozenset(found)


def guest_words(args: tuple[str, ...]) -> frozenset[str]:
    """The words of an emulator's ``args`` that only the guest reads (``-append``'s value,
    or ``--append=VALUE``'s): not paths here."""
    found: set[str] = set()
    for index, arg in enumerate(args):
        name, equals, _ = arg.lstrip("-").partition("=")
        if not arg.startswith("-") or f"-{name}" not in _GUEST_ONLY:
            continue
        if equals:
            found.add(arg)
        elif index + 1 < len(args):
            found.add(args[index + 1])
    return frozenset(found)


class DeviceCopy(NamedTuple):
    """The paths on this machine an ``adb pull`` or ``push`` reads and writes."""

    read: tuple[str, ...]
    written: tuple[str, ...]


def adb_verb_at(args: tuple[str, ...]) -> int:
    """Where adb's command (``shell``, ``pull``, ...) is among ``args``, past its global
    options (``len(args)``: none)."""
    at = 0
    while at < len(args) and args[at].startswith("-"):
        at += 2 if args[at] in _ADB_VALUED else 1
    return at


def adb_files(args: tuple[str, ...]) -> DeviceCopy | None:
    """This machine's paths of ``adb pull`` or ``adb push`` (None: another command)."""
    at = adb_verb_at(args)
    verb = args[at] if at < len(args) else ""
    if verb in ("shell", "exec-out"):  # the device runs it: its words are the device's
        return DeviceCopy((), ())
    if verb not in ("pull", "push"):
        return None
    operands: list[str] = []
    rest = args[at + 1 :]
    index = 0
    while index < len(rest):
        arg = rest[index]
        index += 2 if arg in _COPY_VALUED else 1
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
    if verb == "push":
        return DeviceCopy(tuple(operands[:-1]), ())
    if len(operands) > 1:
        return DeviceCopy((), (operands[-1],))
    named = posixpath.basename(operands[0].rstrip("/")) if operands else ""
    return DeviceCopy((), (named,) if named else ())
