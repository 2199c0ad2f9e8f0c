"""Tests of amplifier_hooks.modules (the module-author API)."""
