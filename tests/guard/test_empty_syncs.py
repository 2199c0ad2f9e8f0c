"""rsync --delete from a source that sends nothing deletes everything under its
destination: denied outside the workspace, over the workspace as a whole and on another
machine (``rsync-empties-folder``, ``rsync-empties-remote``). A source that may hold files,
a dry run, a backup of what is deleted and scratch space keep their verdicts.
"""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.emptysyncs import empties

from .conftest import decided

DENIED = [
    ("mkdir -p /tmp/empty && rsync -a --delete /tmp/empty/ ~/datasets/", "rsync-empties-folder"),
    ("mkdir -p /tmp/e && rsync -a --delete-after /tmp/e/ /media/dev/Backup/home/",
     "rsync-empties-folder"),
    ("mkdir -p /tmp/e && rsync -avz --del /tmp/e/ /mnt/data/", "rsync-empties-folder"),
    ("mkdir -p /tmp/e && rsync -a --delete /tmp/e/ /home/dev/project/", "rsync-empties-folder"),
    ("cd /tmp && mkdir -p empty && rsync -a --delete empty/ ~/datasets/", "rsync-empties-folder"),
    ("rsync -avh --delete-excluded --exclude='*' ~/ /media/dev/Backup/dev/",
     "rsync-empties-folder"),
    ("rsync -a --delete-excluded --exclude '**' src/ ~/mirror/", "rsync-empties-folder"),
    ("mkdir -p /tmp/empty && rsync -r --delete /tmp/empty/ hpc:/scratch/dev/runs/",
     "rsync-empties-remote"),
    ("mkdir -p /tmp/e && rsync -e ssh -a --delete /tmp/e/ deploy@web1:/srv/app/",
     "rsync-empties-remote"),
    ("mkdir -p /tmp/e && rsync -a --delete -- /tmp/e/ ~/datasets/", "rsync-empties-folder"),
    # a source that may hold files, aimed at a drive's root: all else on it goes
    ("rsync -a --delete build/ /media/dev/Backup/", "sync-deletes-drive-or-home"),
]  # fmt: skip

UNCHANGED = [
    # a source that may hold files: the copy's own rules
    ("rsync -a --delete ~/project/ /media/dev/Backup/dev/project/", "ask"),
    ("mkdir -p dist && npm run build && rsync -a --delete dist/ /var/www/site/", "ask"),
    ("mkdir -p /tmp/e && cp a.txt /tmp/e/ && rsync -a --delete /tmp/e/ ~/datasets/", "ask"),
    ("rsync -a --delete /tmp/empty/ /home/dev/project/", "ask"),  # not made here
    # no delete, a dry run, a backup of each deleted file, a filter that keeps some
    ("mkdir -p /tmp/empty && rsync -a /tmp/empty/ ~/datasets/", "ask"),
    ("rsync -a --exclude='*' ~/ /media/dev/Backup/dev/", "ask"),
    ("mkdir -p /tmp/empty && rsync -a --delete --backup-dir=/tmp/bk /tmp/empty/ ~/datasets/",
     "ask"),
    ("mkdir -p /tmp/e && rsync -a --delete --include='*.csv' /tmp/e/ ~/datasets/", "ask"),
    ("mkdir -p /tmp/e && rsync -a --delete --max-delete=10 /tmp/e/ ~/datasets/", "ask"),
    ("mkdir -p /tmp/empty && rsync -avn --delete /tmp/empty/ ~/datasets/", None),
    ("mkdir -p /tmp/empty && rsync -a --dry-run --delete /tmp/empty/ ~/datasets/", None),
    # scratch space, and below the workspace's root (git's facts judge those losses)
    ("mkdir -p /tmp/empty && rsync -a --delete /tmp/empty/ /tmp/build/", None),
    ("mkdir -p /tmp/empty && rsync -a --delete /tmp/empty/ node_modules/", None),
]  # fmt: skip


@pytest.mark.parametrize(("line", "rule"), DENIED)
def test_sync_from_nothing_denied(line: str, rule: str) -> None:
    assert decided(line) == ("deny", rule)


@pytest.mark.parametrize(("line", "decision"), UNCHANGED)
def test_sync_that_may_send_files_unchanged(line: str, decision: str | None) -> None:
    assert decided(line)[0] == decision


def test_reading_rsync_options() -> None:
    made = frozenset({"/tmp/e"})
    assert empties(("-a", "--delete", "/tmp/e/", "/x/"), made)
    assert empties(("-ar", "--delete", "/tmp/e", "/x"), made)
    assert not empties(("-a", "--delete", "/tmp/e/", "/x/"))  # not made here
    assert not empties(("-a", "--delete", "/tmp/e/"), made)  # no destination
    assert not empties(("-a", "--delete", "/", "/x/"), made)  # the root is no made folder
    assert not empties(("-a", "--delete", "/tmp/e/", "other/", "/x/"), made)  # one sends
    assert not empties(("-avn", "--delete", "/tmp/e/", "/x/"), made)  # -n in a cluster
    assert not empties(("-a", "--delete", "-b", "/tmp/e/", "/x/"), made)
    assert not empties(("--exclude", "*", "-a", "src/", "/x/"), made)  # nothing deleted
    assert empties(("--exclude", "*", "--delete-excluded", "src/", "/x/"))
    assert not empties(("--exclude=*.log", "--delete-excluded", "src/", "/x/"))
    assert not empties(("-e",), made)  # a value with no word after it
