"""The kit for hook-module authors (see `amplifier_hooks.kit.host` and the modules here)."""
