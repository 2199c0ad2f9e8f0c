"""What stands between a change and the branch, the deploy or the scan that checks it: an
edit that takes one of these away is a protection switched off (`switchedoff`).

A CODEOWNERS rule losing an owner (the review a protected branch required of them is
gone), a protected branch's force pushes or deletion allowed (its history rewritten past
every review), a workflow job's ``environment:`` taken away (its required reviewers go
with it), GitLab's security templates switched off by a CI variable
(``SAST_DISABLED: "true"``), and a pipeline step's command made to pass whatever it finds
(``|| true`` after it, a scanner's ``--soft-fail``).
"""

from __future__ import annotations

import re

__all__ = ["opens_gate"]

_SETTING = r"[\"']?(?P<key>[\w.-]*?allows?[_-]?(?:force[_-]?push(?:es)?|deletions))[\"']?"
_KEPT_BACK = re.compile(_SETTING + r"[ \t]*[:=][ \t]*[\"']?(?:false|no|0)\b", re.I)
_LET_THROUGH = re.compile(_SETTING + r"[ \t]*[:=][ \t]*[\"']?(?:true|yes|1)\b", re.I)
"""A protected branch's ``allow_force_pushes``/``allow_deletions``, from false to true."""
_SCANS_OFF = re.compile(
    r"\b(?:SECRET_DETECTION|SAST|DAST|DEPENDENCY_SCANNING|CONTAINER_SCANNING|LICENSE_SCANNING"
    r"|IAC_SCANNING|CODE_QUALITY)_DISABLED[\"']?\s*[:=]\s*[\"']?(?:true|1|yes)\b",
    re.I,
)
"""GitLab's security templates switched off by a CI variable (``SAST_DISABLED: "true"``)."""
_GATE = re.compile(r"^\s*environment:\s*\S")
"""A GitHub Actions job's environment: its protection rules (required reviewers, a wait,
its branches) stand between the job and the environment's secrets."""
_SOFTENED = re.compile(
    r"(?:\|\|\s*(?:true|exit\s+0|:)|--soft-fail|--exit-zero|--no-fail)\s*[\"']?\s*$", re.M
)
"""A step's command made to pass whatever it finds (a job's own ``continue-on-error`` and
``allow_failure`` are `cichecks`')."""


def opens_gate(owners: bool, workflow: bool, old: str, new: str) -> bool:
    """Whether an edit from ``old`` to ``new`` takes a review or a check away (``owners``:
    the file is a CODEOWNERS; ``workflow``: a CI pipeline's file)."""
    if _SCANS_OFF.search(new) and not _SCANS_OFF.search(old):
        return True
    if workflow and (_gate_dropped(old, new) or _softened(old, new)):
        return True
    if owners and _owners_dropped(old, new):
        return True
    kept_back = {m.group("key").lower() for m in _KEPT_BACK.finditer(old)}
    return bool(kept_back) and not kept_back.isdisjoint(
        m.group("key").lower() for m in _LET_THROUGH.finditer(new)
    )


def _owners_dropped(old: str, new: str) -> bool:
    """Whether a CODEOWNERS rule of ``old`` (a path and its owners) loses an owner in
    ``new``, or is gone or commented out: a protected branch then merges that path's
    changes without the review those owners gave."""
    kept: dict[str, set[str]] = {}
    for line in new.splitlines():
        pattern, *names = line.split() or ("#",)
        if not pattern.startswith("#"):
            kept.setdefault(pattern, set()).update(names)
    for line in old.splitlines():
        pattern, *names = line.split() or ("#",)
        if not pattern.startswith("#") and names and not kept.get(pattern, set()).issuperset(names):
            return True
    return False


def _gate_dropped(old: str, new: str) -> bool:
    """Whether a job's ``environment:`` line of ``old`` is gone from ``new``."""
    kept = {line.strip() for line in new.splitlines()}
    return any(_GATE.match(line) and line.strip() not in kept for line in old.splitlines())


def _softened(old: str, new: str) -> bool:
    """Whether ``new`` has a line that lets a step fail which ``old`` did not have."""
    before = {line.strip() for line in old.splitlines()}
    return any(_SOFTENED.search(line) and line.strip() not in before for line in new.splitlines())
