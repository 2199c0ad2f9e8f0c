"""Tests of amplifier_hooks.engine."""
