"""A person's data outside the project (a drive mounted under /mnt, /media or /Volumes, a
file in the home folder outside the workspace) deleted or emptied is lost beyond recovery:
denied, however the delete is spelled. Reading it, writing new files next to it, a
workspace on such a drive and scratch files stay as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from tests.guard.conftest import HOME, Judge


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("rm -rf /mnt/data/imagenet", "rm-mounted-drive"),
        ("sudo rm -r --force /media/dev/EXT4TB/raw_scans", "rm-mounted-drive"),
        ("rm /mnt/usb/survey.csv", "rm-mounted-drive"),
        ("rm -rf /Volumes/Backup/photos", "rm-mounted-drive"),
        ("rm -rf /mnt/*/cache", "rm-mounted-drive"),
        ("find /mnt/nas/experiments -type f -name '*.csv' -exec rm {} +", "rm-mounted-drive"),
        ("cd /mnt/data && find . -mindepth 1 -delete", "rm-mounted-drive"),
        ('bash -c "rm -rf /mnt/scratch/features_v2"', "rm-mounted-drive"),
        ("timeout 600 nice -n 19 rm -rf /mnt/nas/experiments", "rm-mounted-drive"),
        ("truncate -s 0 /mnt/data/train.parquet", "truncate-mounted-drive"),
        (": > /media/ada/usb/labels.csv", "empty-mounted-drive-shell"),
        ("truncate -s 0 ~/datasets/warehouse.sqlite", "truncate-under-home"),
        ("truncate --size=0 ~/other-project/data.db", "truncate-under-home"),
        (": > ~/datasets/labels.csv", "empty-under-home-shell"),
        ("> ~/datasets/labels.csv", "empty-under-home-shell"),
        # a database file's tables dropped
        ('sqlite3 ~/datasets/warehouse.sqlite "DROP TABLE events;"', "database-file-wipe-outside"),
        ('sqlite3 ~/other/app.db "DELETE FROM orders; VACUUM;"', "database-file-wipe-outside"),
        ('duckdb /mnt/d/a.duckdb -c "DROP SCHEMA raw CASCADE"', "database-file-wipe-mounted"),
        ("sqlite3 /media/ada/usb/logs.db 'truncate table hits'", "database-file-wipe-mounted"),
    ],
)  # fmt: skip
def test_a_persons_data_deleted_or_emptied_is_denied(
    verdict: Judge, command: str, rule: str
) -> None:
    judged = verdict(command)
    assert judged.decision == "deny", (command, judged)
    assert judged.rule == rule


def _write(pack: Policy, places: Places, path: str, content: str) -> str | None:
    data = {"file_path": path, "content": content}
    return judge({"tool_name": "Write", "tool_input": data}, pack, places).decision


def test_a_file_tool_emptying_a_persons_data_is_denied(pack: Policy, places: Places) -> None:
    assert _write(pack, places, f"{HOME}/datasets/annotations.csv", "") == "deny"
    assert _write(pack, places, "/mnt/data/train/labels.csv", "") == "deny"
    # with text, a write outside the workspace is still only asked
    assert _write(pack, places, f"{HOME}/datasets/annotations.csv", "a,b\n") == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "ls -lah /mnt/data/",
        "du -sh /media/dev/EXT4TB/raw_scans",
        "truncate -s 0 build.log",
        ": > outputs/metrics.csv",
        "rm -rf /tmp/ds_scratch",
    ],
)
def test_reading_and_workspace_changes_stay_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("allow", None), command


@pytest.mark.parametrize(
    "command",
    [
        "truncate -s 10G /mnt/data/disk.img",  # grows the file: nothing is lost
        ": > ~/.cache/pip/log.txt",
        "trash-put /mnt/data/old_run",  # the trash gives it back
        "truncate -s 0 ~/old-project/server.log",
        # a database file read, or changed narrowly
        'sqlite3 data/app.db "DROP TABLE events;"',  # the project's own: asked, not denied
        'sqlite3 ~/datasets/warehouse.sqlite "DELETE FROM orders WHERE id = 7;"',
        'duckdb -readonly /mnt/data/analytics.duckdb -c "SHOW TABLES"',
        'sqlite3 ~/datasets/warehouse.sqlite "SELECT count(*) FROM events"',
    ],
)
def test_what_loses_nothing_for_good_is_not_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision != "deny", command


def test_a_workspace_on_a_mounted_drive_is_still_the_workspace(pack: Policy) -> None:
    places = Places.of(Path("/mnt/data/project"), home=HOME)
    call = {"tool_name": "bash", "tool_input": {"command": "rm -rf build"}}
    assert judge(call, pack, places).decision in ("allow", None)
    call = {"tool_name": "bash", "tool_input": {"command": "rm -rf /mnt/data/imagenet"}}
    assert judge(call, pack, places).rule == "rm-mounted-drive"
