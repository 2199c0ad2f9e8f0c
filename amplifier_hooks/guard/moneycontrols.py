"""An edit that loosens a control on money the application moves.

A payout cap, a dual approval's threshold, a reconciliation's tolerance, the amount below
which an identity check is skipped, a card-testing velocity limit: each is a number in a
file of the payments, fraud or compliance code, and each is what stands between a bug or
a fraudster and real money. ``MAX_SINGLE_PAYOUT_CENTS`` raised four hundredfold,
``REQUIRE_DUAL_APPROVAL_ABOVE_CENTS = None``, ``AMOUNT_TOLERANCE_CENTS = 0`` made 50,000,
or a fraud check's timeout made to approve where it declined (failing open), reads as a
one-line change. In such a file, an edit that raises a named limit fourfold or more, sets
one to nothing, or turns a declining ``return`` into an approving one, is marked
`MONEY_CONTROL_LOOSENED` (asked), and so is a billing task scheduled every minute in any
file (a beat schedule's ``crontab()``: customers charged each minute). Tests are not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import added, dropped, more, number_moved
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["MONEY_CONTROL_LOOSENED", "loosens_money_control"]

MONEY_CONTROL_LOOSENED = "@money-control-loosened"
_MONEY_FILE = re.compile(
    r"payout|payment|fraud|kyc|aml|recon|risk|ledger|billing|transfer|withdraw|velocity"
    r"|treasury|compliance|settlement|disburse",
    re.I,
)
_LIMIT = (
    r"(?P<name>\b[\w.-]*(?:max|limit|toleran\w*|threshold|below|above|cap|ceiling|velocity)"
    r"[\w.-]*)[\"']?\s*[:=]\s*"
)
_NUMBERED = re.compile(_LIMIT + r"(?P<n>\d[\d_]*(?:\.\d+)?)\b", re.I)
_NONE = re.compile(
    _LIMIT + r"(?:None|null|nil|~|Infinity|float\([\"']inf[\"']\)|math\.inf)\b", re.I
)
_RAISE = 4
_DECLINES = re.compile(r"\breturn\s+[\w.]*\b(?:DECLINE|DENY|REJECT|BLOCK|FAIL)\w*", re.I)
_APPROVES = re.compile(r"\breturn\s+[\w.]*\b(?:APPROVE|ALLOW|ACCEPT|PASS)\w*", re.I)
_EVERY_MINUTE = re.compile(
    r"crontab\(\s*\)|[\"']\*(?:\s+\*){4}[\"']|->everyMinute\(\)|\bschedule[\"']?\s*[:=]\s*(?:1|1\.0|60|60\.0)\s*[,}\n]"
)
"""A scheduler told to run a task every minute (Celery's ``crontab()``, a cron ``* * * * *``)."""
_PAID_TASK = re.compile(r"charge|bill|payment|invoice|payout|refund|subscription", re.I)
_MAX_TEXT = 64 * 1024


def loosens_money_control(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a payments, fraud or compliance file among ``paths`` loosens
    one of its limits."""
    pairs = change_pairs(inputs)
    paid = any(_PAID_TASK.search(p.rpartition("/")[2]) for p in paths)
    if any(_every_minute(old, new, paid) for old, new in pairs):
        return True  # a billing task's beat schedule made `crontab()`: charged every minute
    if not any(_MONEY_FILE.search(p) and not test_code(p) for p in paths):
        return False
    for old, new in pairs:
        if not old or len(old) + len(new) > _MAX_TEXT:
            continue
        if number_moved(_NUMBERED, old, new, _raised) or _unset(old, new):
            return True
        if dropped(_DECLINES, old, new) and added(_APPROVES, old, new):
            return True
    return False


def _every_minute(old: str, new: str, paid: bool) -> bool:
    """A billing task's schedule made every minute where the old text's was not (``paid``:
    the file is named for billing: ``cronjobs/monthly-invoices.yaml``)."""
    if len(old) + len(new) > _MAX_TEXT:
        return False
    return more(_EVERY_MINUTE, old, new) and (paid or _PAID_TASK.search(new) is not None)


def _raised(was: float, now: float) -> bool:
    return now >= _RAISE * max(was, 1)


def _unset(old: str, new: str) -> bool:
    """A limit that had a number and now has none (``= None``): no limit."""
    numbered = {m["name"].lower() for m in _NUMBERED.finditer(old)}
    return any(m["name"].lower() in numbered for m in _NONE.finditer(new))
