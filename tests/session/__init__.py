"""Tests of amplifier_hooks.session."""
