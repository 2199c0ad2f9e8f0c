"""``adb shell CMD`` is read as the device's shell reads CMD, as ssh's is: a command that
loses the device is denied (guard/remotelosses.py)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.remotelosses import device_command
from tests.guard.conftest import decided

WIPES = "dd if=/dev/zero of=/dev/block/by-name/userdata"


@pytest.mark.parametrize(
    "command",
    [
        f"adb shell 'su -c \"{WIPES}\"'",
        f"adb shell su -c '{WIPES}'",  # adb joins the words; Android's su joins -c's words
        f"adb -s emulator-5554 shell -t '{WIPES}'",
        "adb exec-out su 0 -c 'rm -rf /data'",
        "adb shell 'mkfs.ext4 /dev/block/mmcblk0p1'",
    ],
)
def test_a_command_that_loses_the_device_is_denied(command: str) -> None:
    assert decided(command) == ("deny", "device-remote-loss")


@pytest.mark.parametrize(
    "command",
    ["adb shell pm list packages", "adb shell 'getprop ro.build.version.sdk'",
     "adb shell input keyevent 26", "adb shell 'su -c \"reboot\"'",
     "adb shell dumpsys battery"],
)  # fmt: skip
def test_everyday_device_commands_are_not_denied(command: str) -> None:
    assert decided(command)[1] != "device-remote-loss"


def test_device_command() -> None:
    assert device_command(("-s", "X", "shell", "ls", "-l")) == "ls -l"
    assert device_command(("shell", "-x", "--", "id")) == "id"
    assert device_command(("push", "a", "/sdcard/")) is None
    assert device_command(("shell",)) is None
