"""Whether a path is a project's test code or its test runs' settings: they run against the
project's own fixtures and deploy nothing, so what an edit of them weakens or points
elsewhere reaches no user."""

from __future__ import annotations

import re

__all__ = ["test_code", "test_settings"]

_TESTS = re.compile(
    r"(?:^|/)(?:tests?|__tests__|specs?|testdata)/|(?:^|/)test_[^/]*$|[._-](?:test|spec)\.\w+$"
    r"|(?:^|/)[\w.-]*\.(?:Unit|Integration)?Tests?/|\wTests?\.(?:cs|java|kt|fs|vb)$"
)


def test_code(path: str) -> bool:
    """Whether ``path`` is in a tests folder or named as a test (``test_*.py``,
    ``*.spec.ts``, ``*_test.go``, a .NET test project's ``Api.Tests/OrderTests.cs``)."""
    return _TESTS.search(path) is not None


_SETTINGS = re.compile(
    r"(?:^|/)(?:appsettings\.Test\.json|(?:config/)?(?:environments/)?test(?:\.\w+)+)$"
)


def test_settings(path: str) -> bool:
    """Whether ``path`` holds a framework's settings for its test runs (Rails'
    ``config/environments/test.rb``, .NET's ``appsettings.Test.json``): checks a test run
    does not need, such as forgery protection, are off there by design."""
    return _SETTINGS.search(path) is not None
