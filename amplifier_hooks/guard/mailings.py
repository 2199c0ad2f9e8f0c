r"""An edit that makes the application mail every address on a list.

A pipeline's new step that walks the participants' addresses and sends each a message
(``purrr::walk(participants$email, \(to) smtp_send(...))``), a script's loop over the
customers calling ``send_mail``: from its next run on, each run writes to every person on
the list, and no message can be called back. Text a write or edit adds that sends mail
inside a loop or a map over addresses is marked `MAIL_TO_MANY` (asked); a send to one
fixed address, or a test's file, is not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["MAIL_TO_MANY", "mails_many"]

MAIL_TO_MANY = "@mail-to-many"
_EACH = (
    r"\b(?:walk|walk2|pwalk|map|lapply|sapply|for|forEach|each|foreach|map_async|gather)\b"
    r"[^\n]{0,120}?\b\w*(?:emails?|recipients|addresses|subscribers|participants|customers"
    r"|users|members|contacts)\b"
)
_MAILED = re.compile(
    _EACH + r"[\s\S]{0,400}?\b(?:smtp_send|send_mail|send_mass_mail|send_email|sendMail"
    r"|sendEmail|send_message|sendmail|mail\.send|messages\.create|emails\.send|sendgrid"
    r"|ses\.send_email|send_raw_email|SendEmail|deliver_now|deliver_later)\b",
    re.I,
)
_MAX_TEXT = 64 * 1024


def mails_many(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit adds a loop that mails each address on a list."""
    if paths and all(test_code(p) for p in paths):
        return False
    return any(
        more(_MAILED, old, new)
        for old, new in change_pairs(inputs)
        if len(old) + len(new) <= _MAX_TEXT
    )
