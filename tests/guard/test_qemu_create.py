"""``qemu-img create`` read as it reads its words: the image is written, a backing image
(``-b``) only read, the size is no path; ``-o`` (an external data file) stays doubtful."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.table import read_call
from amplifier_hooks.guard.table.acts import Act, Does
from tests.guard.conftest import decided


def test_an_overlay_reads_its_backing_image_and_writes_its_own() -> None:
    reading = read_call("qemu-img", ("create", "-f", "qcow2", "-F", "qcow2", "-b",
                                     "~/VMs/base.qcow2", "build/over.qcow2"))  # fmt: skip
    assert reading.doubt is None
    assert set(reading.acts) == {Act(Does.READ, "~/VMs/base.qcow2"),
                                 Act(Does.WRITE, "build/over.qcow2")}  # fmt: skip


def test_the_size_is_no_path() -> None:
    reading = read_call("qemu-img", ("create", "-f", "qcow2", "build/disk.qcow2", "10G"))
    assert reading.acts == (Act(Does.WRITE, "build/disk.qcow2"),)


@pytest.mark.parametrize(
    "args",
    [
        ("create", "-f", "qcow2", "-o", "data_file=/srv/x", "build/a.qcow2", "1G"),
        ("create", "build/a.qcow2", "1G", "extra"),
        ("create",),
        ("convert", "-O", "qcow2", "a.img", "b.qcow2"),
    ],
)
def test_other_shapes_stay_doubtful(args: tuple[str, ...]) -> None:
    assert read_call("qemu-img", args).doubt is not None


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("qemu-img create -f qcow2 -F qcow2 -b ~/VMs/ubuntu.qcow2 build/test-overlay.qcow2",
         (None, None)),
        ("qemu-img create -f qcow2 ~/VMs/new.qcow2 10G", ("ask", "write-outside-workspace")),
        ("qemu-img create -f qcow2 -b build/base.qcow2 ~/.bashrc", ("deny", "persistence-files")),
        ("qemu-img create -f raw -b ~/.ssh/id_rsa build/x.img", ("deny", "credential-read")),
    ],
)  # fmt: skip
def test_judged_by_what_it_writes(command: str, expected: tuple[str | None, ...]) -> None:
    assert decided(command) == expected
