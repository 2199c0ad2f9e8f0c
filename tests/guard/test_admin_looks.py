"""An administrator's looks at disks, packages, users and tunnels (`table.disks`): the
modes that only print are read in full, so the rules that speak for the program by name
(`disk-format`) or for every call of a kind (`privilege`) keep off them, and a file they
are given is read, never written. Every other mode of the same programs stays caught."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.table import Does, read_call
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "sudo blkid",
        "sudo blkid -o value -s UUID",
        "sudo parted -l",
        "parted -s disk.img print",
        "sudo lvs && sudo vgs",
        "sudo pvs -o pv_name,vg_name --units g",
        "diskutil list",
        "diskutil info disk0",
        "lsattr /etc/resolv.conf",
        "lsattr -d ~/project",
        "sudo dmesg --level=err,warn | tail -30",
        "sudo dmesg -T",
        "sudo nft list ruleset | head -60",
        "sudo nft -a list table inet filter",
        "sudo wg show wg0 latest-handshakes",
        "sudo wg show",
        "wg show all endpoints",
        "getent passwd dev",
        "echo $SHELL; getent passwd $USER | cut -d: -f7",
        "getent group docker",
        "dpkg -S /usr/bin/convert",
        "dpkg -L jq | head",
        "dpkg-query -l 'python3*'",
        "zgrep -h install /var/log/dpkg.log.2.gz",
    ],
)
def test_an_admin_look_is_free(verdict: Judge, command: str) -> None:
    got = verdict(command)
    assert got.decision in (None, "allow"), (command, got)


@pytest.mark.parametrize(
    "command",
    [
        "sudo fdisk /dev/sdb",
        "fdisk /dev/sdb",
        "sudo sfdisk /dev/sdb < layout.txt",
        "sudo parted /dev/sdb mklabel gpt",
        "sudo parted -s /dev/sdb rm 1",
        "diskutil eraseDisk JHFS+ X disk2",
        "diskutil list; diskutil partitionDisk disk2 GPT JHFS+ X 0b",
        "sudo smartctl -t long /dev/sda",
        "sudo smartctl -s off /dev/sda",
        "sudo blkid -g",
        "sudo dmesg -c",
        "sudo dmesg -C",
        "sudo dmesg -n 1",
        "sudo nft flush ruleset",
        "sudo nft add rule inet filter input tcp dport 22 drop",
        "sudo nft -f /tmp/rules.nft",
        "sudo wg showconf wg0",
        "sudo wg show wg0 private-key",
        "sudo wg show wg0 dump",
        "sudo wg set wg0 peer abc= remove",
        "sudo getent shadow dev root",
        "sudo dpkg --purge --force-all coreutils",
        "sudo dpkg -i ./pkg.deb",
        "sudo lvremove -f vg0/data",
    ],
)
def test_the_same_programs_changing_or_printing_secrets_stay_caught(
    verdict: Judge, command: str
) -> None:
    assert verdict(command).decision in ("ask", "deny"), command


@pytest.mark.parametrize(
    "command",
    [
        "fdisk /dev/sdb",
        "parted /dev/sdb mklabel gpt",
        "diskutil eraseDisk JHFS+ X disk2",
        "fdisk -l; fdisk /dev/sdb",
    ],
)
def test_repartitioning_stays_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "deny", command


@pytest.mark.parametrize(
    "command",
    [
        "systemctl poweroff --force --force",
        "systemctl --user reboot",
        "loginctl poweroff",
        "nmcli --show-secrets connection show office | grep psk",
        "nmcli -s connection show office",
        "nmcli device wifi show-password",
        "sudo wg showconf wg0",
        "sudo wg show wg0 private-key",
        "sudo cat /etc/openvpn/client/auth.txt",
        "sudo cat /etc/NetworkManager/system-connections/office.nmconnection",
        "cat /etc/wireguard/wg0.conf",
    ],
)
def test_power_and_tunnel_secrets_are_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "deny", command


@pytest.mark.parametrize(
    "command",
    [
        "systemctl status nginx",
        "loginctl list-sessions",
        "nmcli connection show",
        "nmcli device status",
        "sudo ls /etc/wireguard",
        "cat /etc/openvpn/client/client.conf",
    ],
)
def test_their_neighbours_that_only_look_are_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in (None, "allow"), command


@pytest.mark.parametrize(
    ("program", "args"),
    [
        ("fdisk", ("-l", "/dev/sda")),
        ("smartctl", ("-H", "/dev/nvme0n1")),
        ("lsattr", ("/etc/resolv.conf",)),
        ("blkid", ("/dev/sda1",)),
    ],
)
def test_a_device_or_file_they_are_given_is_read(program: str, args: tuple[str, ...]) -> None:
    reading = read_call(program, args)
    assert reading.doubt is None
    assert [act.does for act in reading.acts] == [Does.READ]


@pytest.mark.parametrize(
    ("program", "args"),
    [
        ("fdisk", ("/dev/sda",)),
        ("parted", ("/dev/sda", "mkpart", "p", "0%", "100%")),
        ("diskutil", ("unmountDisk", "disk2")),
        ("smartctl", ("-t", "short", "/dev/sda")),
        ("dmesg", ("--clear",)),
        ("nft", ("delete", "table", "inet", "filter")),
        ("wg", ("showconf", "wg0")),
        ("wg", ("show", "wg0", "preshared-keys")),
        ("getent", ("gshadow",)),
        ("dpkg", ("-S", "x", "--purge", "y")),
        ("dpkg", ("--configure", "-a")),
        ("lvs", ("--unknown-option",)),
    ],
)
def test_a_mode_that_changes_or_prints_a_key_is_doubtful(
    program: str, args: tuple[str, ...]
) -> None:
    assert read_call(program, args).doubt is not None, (program, args)
