"""Command hooks whose module state lasts the session: the per-workspace hook server.

A command hook is a new process per call, so it cannot keep a module's state itself. It
hands the call to a server for its (bundle, workspace) instead -- started on first use,
exiting when idle, reached over a private Unix socket -- as dmypy and gpg-agent do.

- `place`: where that server's socket lives, and the checks that keep it private.
- `wire`: one HTTP request over the socket, in a few lines of stdlib.
- `client`: the hook's side: relay the call, start the server once (under a lock),
  replace a stale socket, and block a guarded call when none of that works.
- `launch`: starting that server, detached, and waiting until it is ready.

Everything here is stdlib only, and `amplifier_hooks` imports nothing eagerly: the hook's
process must start about as fast as Python itself (docs/performance.md).
"""

from __future__ import annotations

from amplifier_hooks.transports.relay.client import (
    DEFAULT_IDLE_EXIT,
    RelayAnswer,
    RelayError,
    relay,
)
from amplifier_hooks.transports.relay.place import PlaceError, runtime_dir, socket_path

__all__ = [
    "DEFAULT_IDLE_EXIT",
    "PlaceError",
    "RelayAnswer",
    "RelayError",
    "relay",
    "runtime_dir",
    "socket_path",
]
