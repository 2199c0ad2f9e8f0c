"""The command of every agent CLI host we answer for (``amplifier-hooks <command> hook``).

Standard library only, importing nothing: a hook process checks its first argument
against this list before anything else is imported. `amplifier_hooks.hosts.HOSTS` holds
one adapter per name here, in this order (checked when it is imported).
"""

HOST_COMMANDS = ("claude-code", "codex", "gemini", "copilot", "opencode", "cline", "openclaw")

EVENT_ARGUMENT_HOSTS = ("copilot", "cline")
"""Hosts whose hook input names no event: the installed command passes it as
``--event NAME``, and the hook adds it to the input as ``hook_event_name``."""
