"""Files whose delete is no grant even where git can give them back: the project's tests
and its records of what it deployed; and the expected answers its evals and golden tests
compare against, whose every change is no grant.

``git rm -r test/invariant/ && git commit`` loses nothing git cannot restore, yet the
suite that stopped the next broken change is gone from every later run; ``git rm
.openzeppelin/mainnet.json`` leaves the next upgrade of a live contract without the
storage layout it is checked against; a golden file's expected answer rewritten makes the
eval pass whatever the model now says. None is a loss of work (`losses`), so none is
asked; each is left to the host (no grant). A cache below a test folder
(``tests/__pycache__``, ``__snapshots__``) is no test.
"""

from __future__ import annotations

import re

__all__ = ["kept_back"]

_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "spec", "specs", "e2e", "invariant",
                           "invariants", "fuzz", "evals", "testdata"})  # fmt: skip
_TEST_FILE = re.compile(
    r"(?:^test_.*\.py|_test\.(?:py|go)|\.(?:test|spec)\.[cm]?[jt]sx?|\.t\.sol|_spec\.rb"
    r"|Tests?\.(?:java|kt|cs|swift))\Z"
)
_CACHES = frozenset({"__pycache__", ".pytest_cache", "__snapshots__", "node_modules",
                     ".hypothesis", "htmlcov", ".coverage", "coverage", "output",
                     "tmp"})  # fmt: skip
_DEPLOY_RECORDS = frozenset({".openzeppelin", "deployments", "broadcast"})
"""OpenZeppelin's upgrade manifests, hardhat-deploy's and Foundry's records of deploys."""


_GOLDEN = re.compile(
    r"(?:^|/)goldens?(?:/|[-_.])|\.golden(?:\.\w+)?\Z|(?:^|/)(?:experiments?|metrics)/[^/]*\.sql\Z",
    re.I,
)
"""A golden test's or an eval's expected answers (``evals/golden/*.jsonl``, ``x.golden``),
and the SQL of the metrics an experiment is judged by (``analytics/metrics/*.sql``)."""


def kept_back(path: str, workspace: str, deleted: bool) -> str | None:
    """Why changing (``deleted``: deleting) ``path`` inside ``workspace`` is not granted
    (None: it may be)."""
    inner = path[len(workspace) + 1 :] if path.startswith(workspace + "/") else path
    if _GOLDEN.search(inner):
        return f"{path} holds the answers or the metric a test, eval or experiment is judged by"
    if not deleted:
        return None
    names = inner.split("/")
    if not _CACHES.isdisjoint(names) or names[-1].endswith(".pyc"):
        return None
    if not _DEPLOY_RECORDS.isdisjoint(names[:-1]) or names[0] in _DEPLOY_RECORDS:
        return f"{path} records what the project deployed (a live contract's layout, its addresses)"
    if not _TEST_FOLDERS.isdisjoint(names) or _TEST_FILE.search(names[-1]):
        return f"{path} is one of the project's tests, the bar its next change must pass"
    return None
