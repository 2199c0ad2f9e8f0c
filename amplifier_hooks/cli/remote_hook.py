"""``amplifier-hooks HOST hook --url URL``: one hook call answered by a running ``serve``.

For a host whose hooks run where our own server cannot be started for them, or should not
be (Cline runs hooks in its hub daemon: ``cline install --url`` writes this), the call is
posted to the server's ``/<host>`` route with the bearer token from
``$AMPLIFIER_HOOKS_TOKEN``, else the server's token file. Whatever goes wrong -- no
token, the server down, a status that is not 200, an answer that is not a JSON object --
is the host's fail-closed answer with the reason, never an allow.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from amplifier_hooks.hosts import HostAdapter, HostAnswer
from amplifier_hooks.hosts.base import refuse_payload
from amplifier_hooks.transports.relay.wire import MAX_HOOK_BYTES
from amplifier_hooks.web.tokens import TOKEN_ENV, default_token_path

__all__ = ["answer_over_http"]

ROOM = 15
"""Seconds between our wait for the server and the host's for us (its kill, or the
fail-closed wrapper's)."""


def _token() -> str:
    given = os.environ.get(TOKEN_ENV, "").strip()
    if given:
        return given
    path = default_token_path()
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ValueError(f"no token: ${TOKEN_ENV} is not set and {path} cannot be read") from exc


def answer_over_http(adapter: HostAdapter, url: str, raw: bytes) -> HostAnswer:
    """The server's answer at ``url`` to the hook input ``raw`` (never raises)."""
    try:
        payload: object = json.loads(raw)
    except ValueError:
        payload = None
    timeouts = adapter.profile.timeouts
    wait = max(1.0, timeouts.seconds(timeouts.ours) - ROOM)
    try:
        headers = {"Authorization": f"Bearer {_token()}", "Content-Type": "application/json"}
        request = urllib.request.Request(url, data=raw, headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=wait) as response:
            body = response.read(MAX_HOOK_BYTES + 1)
        answer = json.loads(body)
    except urllib.error.HTTPError as exc:
        return refuse_payload(adapter, payload, f"the hook server at {url} answered {exc.code}")
    except (OSError, ValueError) as exc:
        return refuse_payload(adapter, payload, f"the hook server at {url} failed: {exc}")
    if not isinstance(answer, dict):
        return refuse_payload(adapter, payload, f"the hook server at {url} sent no JSON object")
    return HostAnswer(answer or None)
