"""Whether a path is a project's test code: it runs against its own fixtures and deploys
nothing, so what an edit of it weakens or points elsewhere reaches no user."""

from __future__ import annotations

import re

__all__ = ["test_code"]

_TESTS = re.compile(
    r"(?:^|/)(?:tests?|__tests__|spec)/|(?:^|/)test_[^/]*$|[._-](?:test|spec)\.\w+$"
    r"|(?:^|/)[\w.-]*\.(?:Unit|Integration)?Tests?/|\wTests?\.(?:cs|java|kt|fs|vb)$"
)


def test_code(path: str) -> bool:
    """Whether ``path`` is in a tests folder or named as a test (``test_*.py``,
    ``*.spec.ts``, ``*_test.go``, a .NET test project's ``Api.Tests/OrderTests.cs``)."""
    return _TESTS.search(path) is not None
