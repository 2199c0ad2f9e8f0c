"""The command of every agent CLI host we answer for (``amplifier-hooks <command> hook``).

Standard library only, importing nothing: a hook process checks its first argument
against this list before anything else is imported. `amplifier_hooks.hosts.HOSTS` holds
one adapter per name here, in this order (checked when it is imported).
"""

HOST_COMMANDS = ("claude-code", "codex", "gemini")
