"""The approver's console in a browser (``amplifier-hooks approve --web``).

- `app`: the aiohttp application (the page, its files, the live feed, the answers).
- `feed`: one reader of the queue per server, pushed to every open browser.
- `views`: the display-safe records the page is sent.
- `guard`: security headers, and the checks that keep other sites from answering.
"""

from __future__ import annotations

from amplifier_hooks.web.approver.app import COOKIE, ApproverSettings, make_approver_app
from amplifier_hooks.web.approver.feed import QueueFeed
from amplifier_hooks.web.approver.guard import CSRF_HEADER, csrf_token
from amplifier_hooks.web.approver.views import request_view

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "ApproverSettings",
    "QueueFeed",
    "csrf_token",
    "make_approver_app",
    "request_view",
]
