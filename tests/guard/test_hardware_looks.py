"""The machine's devices read as their programs read them: a look at a disk (``lsblk -f
/dev/sdb``, ``cryptsetup status``, ``btrfs subvolume list``) writes nothing, an unmount
names a device without writing it, the guest's kernel command line is not a path here,
and ``shutdown --show``/``-c`` stop nothing. Their destructive side (a volume shrunk or
switched off, boot entries or Secure Boot keys changed, a board locked for good, the
boot files, snapshots destroyed wholesale) is denied or asked."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.backuprepos import backup_writes
from amplifier_hooks.guard.devicewords import guest_words, is_emulator
from amplifier_hooks.guard.table import Does, read_call

from .conftest import Judge

# -- everyday: free ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "lsblk -f /dev/sdb",
        "lsblk -o NAME,SIZE,MOUNTPOINT -J /dev/nvme0n1",
        "cryptsetup status nvme0n1p3_crypt",
        "cryptsetup luksDump /dev/nvme0n1p3",
        "cryptsetup isLuks /dev/sdb2",
        "btrfs subvolume list -s /",
        "btrfs filesystem df -h /",
        "btrfs device stats /",
        "umount /dev/sdb1",
        "udisksctl unmount -b /dev/sdb1 && udisksctl power-off -b /dev/sdb",
        "eject /dev/sdb",
        "qemu-system-aarch64 -M virt -nographic -kernel build/Image "
        '-append "root=/dev/vda console=ttyAMA0"',
        "qemu-system-x86_64 -kernel build/bzImage --append=root=/dev/sda",
        "shutdown --show",
        "shutdown -c",
        "shutdown -c 'maintenance moved'",
        "make -C /lib/modules/$(uname -r)/build M=$PWD/driver modules",
        "timedatectl status",
        "stress-ng --cpu 4 --timeout 30s --metrics-brief",
        "efibootmgr -v",
        "mokutil --sb-state",
        "fwupdmgr get-devices && fwupdmgr get-updates",
        "picotool info -a",
        "python -m esptool -p /dev/ttyUSB0 chip_id",
        "systemctl status sleep.target --no-pager",
        "zfs list -t snapshot",
        "borg list /media/b/borg | tail -5",
        "borg prune --dry-run --list --keep-daily 7 /media/b/borg",
        "restic -r /media/b/restic snapshots --compact",
        "restic -r /media/b/restic restore latest --target /tmp/restore",
    ],
)
def test_device_looks_are_free(verdict: Judge, command: str) -> None:
    got = verdict(command)
    assert got.decision in (None, "allow"), (command, got.rule, got.reason)


@pytest.mark.parametrize(
    ("program", "args"),
    [
        ("lsblk", ("-f", "/dev/sdb")),
        ("cryptsetup", ("status", "root_crypt")),
        ("cryptsetup", ("luksDump", "/dev/sda3")),
        ("btrfs", ("subvolume", "list", "-s", "/")),
    ],
)
def test_the_table_reads_device_looks(program: str, args: tuple[str, ...]) -> None:
    reading = read_call(program, args)
    assert reading.doubt is None
    assert all(act.does is Does.READ for act in reading.acts)


@pytest.mark.parametrize(
    ("program", "args"),
    [
        ("cryptsetup", ("luksDump", "--dump-volume-key", "/dev/sda3")),
        ("cryptsetup", ("luksDump", "--dump-master-key", "/dev/sda3")),
        ("cryptsetup", ("luksDump", "--volume-key-file", "k", "/dev/sda3")),
        ("cryptsetup", ("luksUUID", "--uuid=0000", "/dev/sda3")),
        ("cryptsetup", ("open", "/dev/sda3", "x")),
        ("cryptsetup", ("status",)),
        ("btrfs", ("subvolume", "delete", "/x")),
        ("btrfs", ("su", "li", "/")),
        ("btrfs", ("device", "stats", "-z", "/")),
        ("btrfs", ("subvolume",)),
        ("btrfs", ()),
        ("lsblk", ("--bogus",)),
    ],
)
def test_the_table_doubts_what_is_not_a_look(program: str, args: tuple[str, ...]) -> None:
    assert read_call(program, args).doubt is not None


def test_only_the_guests_command_line_is_left_out() -> None:
    args = ("-kernel", "Image", "-append", "root=/dev/vda", "-drive", "file=x.img")
    assert guest_words(args) == frozenset({"root=/dev/vda"})
    assert guest_words(("-append",)) == frozenset()
    assert is_emulator("qemu-system-riscv64")
    assert not is_emulator("qemu-img")


# -- the destructive side: denied or asked ------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("cryptsetup luksFormat /dev/sdb", "disk-format"),
        ("cryptsetup luksDump --dump-volume-key /dev/sda3", "disk-format"),
        ("qemu-system-x86_64 -drive file=/dev/sda,format=raw", "device-write"),
        ("shutdown -r now", "system-power-shutdown"),
        ("shutdown -c -h", "system-power-shutdown-mixed"),
        ("shutdown --show --poweroff", "system-power-shutdown-mixed"),
        ("shutdown -ch", "system-power-shutdown"),
        ("sudo lvreduce -f -L 20G vg0/home", "volume-shrink-lvreduce"),
        ("sudo lvresize -L -10G vg0/home", "volume-shrink"),
        ("sudo lvconvert --merge vg0/root-snap", "volume-shrink"),
        ("sudo vgchange -an vg0", "volume-deactivate"),
        ("sudo vgchange -a n vg0", "volume-deactivate-split"),
        ("sudo dmsetup table --showkeys", "device-mapper-keys"),
        ("sudo systemctl isolate rescue.target", "system-target-isolate"),
        ("sudo efibootmgr -b 0000 -B", "host-boot-entries"),
        ("sudo efibootmgr --bootorder 0003,0000", "host-boot-entries"),
        ("sudo mokutil --disable-validation", "host-boot-entries"),
        ("sudo mokutil --import driver/key.der", "host-boot-entries"),
        ("fwupdmgr install --allow-older --force fw.cab", "host-firmware-forced"),
        ("fastboot --disable-verity flash vbmeta vbmeta.img", "device-verified-boot-off"),
        ("STM32_Programmer_CLI -c port=SWD -ob RDP=0xCC", "board-lock-for-good"),
        ("st-flash --area=option write 0xFFAA00CC", "board-option-bytes-rdp2"),
        ("picotool otp set --ecc 0x40 0x1", "board-otp-write"),
        ("sudo zfs rollback -r rpool/home@before", "snapshot-history-destroy"),
        ("sudo timeshift --delete-all --yes", "snapshot-history-destroy"),
        ("sudo snapper -c root delete 1-500", "snapshot-history-destroy"),
        ("borg delete --force /media/b/borg", "backup-repository-delete"),
        ("sudo usermod -aG disk dev", "disk-group-join"),
        ("sudo gpasswd -a dev kmem", "disk-group-join"),
        ("sudo cp driver/x.ko /lib/modules/6.1.0/extra/", "boot-files-change"),
        ("sudo sed -i 's/$/ quiet/' /boot/firmware/cmdline.txt", "boot-files-change"),
        ("sudo grep -r psk= /etc/NetworkManager/system-connections/", "tunnel-secret-read"),
    ],
)
def test_the_destructive_side_is_denied(verdict: Judge, command: str, rule: str) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("deny", rule), (command, got.reason)


def test_boot_files_written_by_a_file_tool_are_denied(verdict: Judge) -> None:
    got = verdict("/boot/grub/grub.cfg", tool="write_file")
    assert (got.decision, got.rule) == ("deny", "boot-files-change")


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("systemctl suspend", "system-sleep"),
        ("timedatectl set-ntp false", "system-clock-set"),
        ("fwupdmgr update -y", "host-firmware-update"),
        ("picotool erase -a", "board-flash-write"),
        (
            "python -m esptool -p /dev/ttyUSB0 erase_region 0x9000 0x6000",
            "board-flash-write-module",
        ),
        ("stress-ng --vm 8 --vm-bytes 100% --timeout 0", "memory-stress-unbounded"),
        ("stress-ng --cpu 8 -t 0", "memory-stress-unbounded-split"),
        ("sudo timeshift --delete --snapshot x", "privilege"),
    ],
)
def test_the_disruptive_side_is_asked(verdict: Judge, command: str, rule: str) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("ask", rule), (command, got.reason)


def test_one_archive_deleted_stays_asked(verdict: Judge) -> None:
    assert verdict("borg delete /media/b/borg::2026-11-01").decision == "ask"


@pytest.mark.parametrize(
    ("program", "args", "written"),
    [
        ("borg", ("list", "R"), ()),
        ("borg", ("prune", "-n", "R"), ()),
        ("borg", ("prune", "R"), ("R",)),
        ("borg", ("check", "--repair", "R"), ("R",)),
        ("borg", ("create", "R::a", "src"), ("R::a", "src")),
        ("restic", ("-r", "R", "snapshots"), ()),
        ("restic", ("-r", "R", "restore", "latest", "--target", "T"), ("T",)),
        ("restic", ("-r", "R", "restore", "latest", "--target=T"), ("T",)),
        ("restic", ("-r", "R", "restore", "latest", "-tT"), ("T",)),
        ("restic", ("-r", "R", "restore", "latest"), ("R",)),
        ("restic", ("--cache-dir", "C", "-r", "R", "snapshots"), ("C", "R")),
        ("restic", ("-r", "R", "forget", "--prune", "--dry-run"), ()),  # (a dry run: nothing)
        ("restic", ("-r", "R", "forget", "--prune"), ("R",)),
        ("duplicity", ("collection-status", "R"), ()),
        ("duplicity", ("remove-older-than", "9D", "R"), ()),
        ("duplicity", ("remove-older-than", "9D", "--force", "R"), ("R",)),
        ("duplicity", ("restore", "R", "T"), ("T",)),
    ],
)
def test_backup_tools_write_only_what_their_command_writes(
    program: str, args: tuple[str, ...], written: tuple[str, ...]
) -> None:
    words = tuple(a for a in args if not a.startswith("-") and a not in ("list", "prune",
                  "check", "create", "snapshots", "restore", "latest", "forget",
                  "collection-status", "remove-older-than", "9D"))  # fmt: skip
    words = tuple(w for w in ("R", "R::a", "src", "T", "C") if w in words or w in written)
    assert set(backup_writes(program, args, words)) == set(written)


@pytest.mark.parametrize(
    "command",
    [
        "restic -r /media/b/restic restore latest --target /home/ada-guard-test/other",
        "restic --cache-dir /home/ada-guard-test/x -r /media/b snapshots",
        "borg prune --keep-daily 7 /media/b/borg",
    ],
)
def test_backup_writes_outside_stay_asked(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "ask", command
