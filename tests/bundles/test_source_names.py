"""A ``source:`` folder named like another module does not replace it (issue 26, finding
7): a package folder called ``smtplib`` mounts under a private name, and the standard
library's ``smtplib`` is still the one every other import gets."""

from __future__ import annotations

import sys
from pathlib import Path

from amplifier_hooks.bundles.finding import resolve_module

MODULE = """
NAME = "the bundle's own"


def mount(coordinator, config=None):
    return None
"""


def test_a_folder_named_like_a_stdlib_module_does_not_shadow_it(tmp_path: Path) -> None:
    folder = tmp_path / "smtplib"
    folder.mkdir()
    (folder / "__init__.py").write_text(MODULE)
    before = sys.modules.get("smtplib")
    try:
        resolved = resolve_module("mailer", "smtplib", tmp_path)
        assert resolved.target.NAME == "the bundle's own"
        assert resolved.target.__name__ != "smtplib"
        import smtplib

        assert hasattr(smtplib, "SMTP")  # still the standard library's
    finally:
        if before is not None:
            sys.modules["smtplib"] = before
        elif sys.modules.get("smtplib") is not None and not hasattr(sys.modules["smtplib"], "SMTP"):
            del sys.modules["smtplib"]


def test_a_folder_with_a_free_name_keeps_it_for_its_own_imports(tmp_path: Path) -> None:
    folder = tmp_path / "ah_test_free_name_guard"
    folder.mkdir()
    (folder / "rules.py").write_text("WORD = 'kept'\n")
    (folder / "__init__.py").write_text("from ah_test_free_name_guard.rules import WORD\n" + MODULE)
    try:
        resolved = resolve_module("guard", folder.name, tmp_path)
        assert resolved.target.WORD == "kept"
    finally:
        for key in [k for k in sys.modules if k.startswith("ah_test_free_name_guard")]:
            del sys.modules[key]
