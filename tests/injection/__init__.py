"""Tests of amplifier_hooks.injection."""
