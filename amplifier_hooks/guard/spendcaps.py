"""An edit that lifts what caps the money a program may spend.

An application that calls a paid API (a language model's, a cloud's) keeps its bill in
check with a few constants: a daily budget, a hard stop when it is reached, a cap on a
run's cost. An edit that sets one to nothing (``None``, ``null``, infinity), switches the
hard stop off, raises the cap well past its old value, multiplies a paid call's
retries, or a hosted app's machines fivefold (``instance_count: 2`` made 12) lets one loop
or one deploy run up a bill no one agreed to. Each is marked `SPEND_UNCAPPED`
(asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import number_moved
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["SPEND_UNCAPPED", "uncaps_spend"]

SPEND_UNCAPPED = "@spend-uncapped"
_NAME = (
    r"\w*(?:spend|budget|cost|billing|dollars|usd)\w*(?:limit|cap|max|ceiling)\w*"
    r"|\w*(?:max|limit|cap)\w*(?:spend|budget|cost|dollars|usd)\w*"
    r"|(?:daily|monthly|weekly|hourly)_?(?:spend|budget|cost)\w*"
)
_CAP = re.compile(
    rf"(?P<name>\b(?:{_NAME}))[\"']?\s*[:=]\s*[\"']?(?P<value>\d+(?:\.\d+)?|None|null|nil"
    r"|Infinity|float\([\"']inf[\"']\)|math\.inf|undefined)",
    re.IGNORECASE,
)
_STOP = re.compile(
    r"(?P<name>\b\w*(?:hard_?stop|hard_?limit|stop_on_budget|enforce_?budget|budget_?enforced"
    r"|spend_?guard)\w*)[\"']?\s*[:=]\s*[\"']?(?P<value>\w+)",
    re.IGNORECASE,
)
_NONE = frozenset({"none", "null", "nil", "infinity", "float('inf')", 'float("inf")',
                   "math.inf", "undefined"})  # fmt: skip
_OFF = frozenset({"false", "no", "off", "0", "none", "null"})
_RAISE = 1.5
_RETRIES = re.compile(r"(?P<name>\bmax_?retries|\bmax_?attempts)\b[\"']?\s*[:=]\s*(?P<n>\d+)", re.I)
_PAID_CALL = re.compile(r"\bmax_?(?:output_?)?tokens\b|\bmodel\s*[:=]", re.I)
"""A model's call: each retry of it is paid for again."""
_RETRIES_RAISE = 4
_FLEET = re.compile(
    r"\w*(?:aws_?batch|batch|ec2|fargate|gcp|google|azure|cloud|kubernetes|k8s|gke|eks|aks"
    r"|sagemaker|vertex|slurm|lambda)\w*\s*\([^\n]*?\b(?:workers|max_workers|instances"
    r"|max_instances|nodes|max_nodes|replicas|parallelism|concurrency)\s*[:=]\s*(?P<n>\d+)",
    re.I,
)
"""A cloud fleet's size given where it is made (``crew_controller_aws_batch(workers =
500)``): each worker is paid for."""
_FLEET_SIZE = 100
_SCALE = re.compile(
    r"(?P<name>\b(?:instance_count|instanceCount|num_?instances|numInstances|min_machines_running"
    r"|max_machines_running|(?:min|max)_?[Ii]nstances|desired_?[Cc]ount|dynos|quantity))\b"
    r"[\"']?\s*[:=]\s*[\"']?(?P<n>\d+)"
)
"""A hosted app's or a deployment's number of paid machines (an App Platform spec's
``instance_count``, Render's ``numInstances``, Fly's ``min_machines_running``; a cluster's
``replicas`` are the cluster rules' to judge)."""
_SCALE_RAISE = 5
_SCALE_SIZE = 10
_MAX_TEXT = 64 * 1024


def uncaps_spend(inputs: Mapping[str, Any]) -> bool:
    """Whether an edit removes, switches off or raises well past itself a spending cap."""
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        before = {m["name"].lower(): m["value"].lower() for m in _CAP.finditer(old)}
        for found in _CAP.finditer(new):
            was, now = before.get(found["name"].lower()), found["value"].lower()
            if was is None or was == now:
                continue
            if now in _NONE or (was not in _NONE and now not in _NONE
                                and float(now) > _RAISE * float(was)):  # fmt: skip
                return True
        if _PAID_CALL.search(new) and number_moved(_RETRIES, old, new, _retries_raised):
            return True
        if max(_sizes(new), default=0) >= _FLEET_SIZE > max(_sizes(old), default=0):
            return True  # a paid fleet of a hundred machines or more where there was none
        if number_moved(_SCALE, old, new, _scaled):
            return True  # `instance_count: 2` made 40
        stops = {m["name"].lower(): m["value"].lower() for m in _STOP.finditer(old)}
        for found in _STOP.finditer(new):
            was = stops.get(found["name"].lower())
            if was is not None and was not in _OFF and found["value"].lower() in _OFF:
                return True
    return False


def _scaled(was: float, now: float) -> bool:
    """Five times as many machines or more, to ten or more."""
    return now >= _SCALE_SIZE and now >= _SCALE_RAISE * max(was, 1)


def _retries_raised(was: float, now: float) -> bool:
    return now > _RETRIES_RAISE * max(was, 1)


def _sizes(text: str) -> list[int]:
    return [int(m["n"]) for m in _FLEET.finditer(text)]
