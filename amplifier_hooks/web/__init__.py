"""What every HTTP server of amplifier-hooks shares: `serve` (agent CLI hooks) and the
browser approver (`approve --web`) run on aiohttp through this package.

- `tokens`: the access token (``$AMPLIFIER_HOOKS_TOKEN``, else one generated and kept in a
  private file).
- `access`: who may talk to a server (bearer header or login cookie, constant-time),
  where it may listen (loopback unless told otherwise), how much it may be sent.
- `running`: starting a site, waiting for SIGTERM/SIGINT, shutting down cleanly.
"""

from __future__ import annotations

from amplifier_hooks.web.access import (
    DEFAULT_MAX_BODY,
    BindPlan,
    Credentials,
    check_bind,
    is_loopback,
    require_token,
)
from amplifier_hooks.web.running import ServerOptions, run_until_stopped, start_site
from amplifier_hooks.web.tokens import TOKEN_ENV, Token, resolve_token

__all__ = [
    "DEFAULT_MAX_BODY",
    "TOKEN_ENV",
    "BindPlan",
    "Credentials",
    "ServerOptions",
    "Token",
    "check_bind",
    "is_loopback",
    "require_token",
    "resolve_token",
    "run_until_stopped",
    "start_site",
]
