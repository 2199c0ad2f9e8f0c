"""The hook server: a bundle answering agent CLI hooks over HTTP, one coordinator per
host session, so module state lasts the session (CONTRACT §11).

- `app`: the aiohttp application (``POST /claude-code`` for HTTP hooks, ``/relay/...``
  for command hooks relayed by `amplifier_hooks.transports.relay`), failing closed on every error.
- `source`: the sessions, from a bundle file reloaded when it changes.
- `activity`: calls in flight, idle time, and giving up on calls at shutdown.
- `peer`: on a Unix socket, only its owner's processes are answered.
- `server`: running it on TCP (token, loopback) or a Unix socket, until stopped or idle.

The shared HTTP parts (token, bind checks, running until SIGTERM) are `amplifier_hooks.web`.
"""

from __future__ import annotations

from amplifier_hooks.transports.http.activity import Activity
from amplifier_hooks.transports.http.app import hook_app, http_body, relay_body
from amplifier_hooks.transports.http.server import (
    DEFAULT_MAX_BODY,
    DEFAULT_PORT,
    HookServerConfig,
    ServeError,
    serve_hooks,
)
from amplifier_hooks.transports.http.source import BundleSessions

__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_PORT",
    "Activity",
    "BundleSessions",
    "HookServerConfig",
    "ServeError",
    "hook_app",
    "http_body",
    "relay_body",
    "serve_hooks",
]
