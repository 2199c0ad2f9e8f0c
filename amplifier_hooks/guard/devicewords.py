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
"""

from __future__ import annotations

__all__ = ["DEVICE_NAMERS", "guest_words", "is_emulator"]

DEVICE_NAMERS = frozenset({"umount", "udisksctl", "eject"})
"""Programs whose words name devices or mount points they unmount, mount or power off."""

_EMULATOR_PREFIX = "qemu-system-"
_GUEST_ONLY = frozenset({"-append"})
"""qemu's options whose value is read by the guest, never opened here."""


def is_emulator(program: str) -> bool:
    """``qemu-system-ARCH`` (any architecture)."""
    return program.startswith(_EMULATOR_PREFIX)


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
