"""Whether the ``mcp`` SDK is installed: the proxy's one optional dependency.

The core never imports it, so that a plain install does not pull in the SDK's web stack;
the proxy checks for it first and says, in one line, which extra brings it.
"""

from __future__ import annotations

__all__ = ["EXTRA_MISSING", "McpUnavailable", "require_sdk"]

EXTRA_MISSING = (
    "amplifier-hooks mcp needs the MCP SDK, which is the 'mcp' extra: "
    "pip install 'amplifier-hooks[mcp]'"
)


class McpUnavailable(RuntimeError):
    """The ``mcp`` SDK is not installed; the message names the extra."""


def require_sdk() -> None:
    """Raise `McpUnavailable` unless the ``mcp`` SDK can be imported."""
    try:
        import mcp.client.session  # noqa: F401
    except ImportError:
        raise McpUnavailable(EXTRA_MISSING) from None
