"""An edit that puts a service kept inside a network onto the internet.

A dashboard's Kubernetes Service turned from ``ClusterIP`` to ``LoadBalancer`` with AWS's
``internet-facing`` scheme, a database given ``publicly_accessible = true``, a subnet's
instances given public addresses: after the next deploy anyone can reach what only the
cluster or the VPC could, often with no login of its own (cost dashboards, admin UIs). An
edit whose new text does so where its old text did not is marked `SERVICE_EXPOSED`
(asked). A new file's text is read for the public switches, not for a Service's type (a
new ``LoadBalancer`` is how a local cluster's demo is reached).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["SERVICE_EXPOSED", "exposes_service"]

SERVICE_EXPOSED = "@service-exposed"
_PUBLIC = re.compile(
    r"\binternet-facing\b"
    r"|\b(?:publicly_accessible|associate_public_ip_address|map_public_ip_on_launch)\s*=\s*true\b"
    r"|[\"']?(?:PubliclyAccessible|AssociatePublicIpAddress|MapPublicIpOnLaunch)[\"']?\s*:\s*"
    r"[\"']?true\b"
    r"|\binet_dist_use_interface\s*\{\s*0\s*,\s*0\s*,\s*0\s*,\s*0\s*\}"
    r"|\ballowedHosts\s*:\s*[\"']all[\"']|\bdisableHostCheck\s*:\s*true\b"
    r"|\.run\([^)\n]*host\s*=\s*[\"']0\.0\.0\.0[\"'][^)\n]*debug\s*=\s*True"
    r"|\.run\([^)\n]*debug\s*=\s*True[^)\n]*host\s*=\s*[\"']0\.0\.0\.0[\"']"
    r"|\b(?:FastAPI|Starlette)\([^)\n]*\bdebug\s*=\s*True",
    re.I,
)
"""A load balancer's public scheme, a database or an instance given a public address, an
Erlang node's distribution port on every interface, a dev server's host check switched off
(any site a browser visits may then read it), Flask's debugger (it runs any Python sent to
it) served on every interface, FastAPI's or Starlette's tracebacks served to every caller."""
_INTERNAL_TYPE = re.compile(r"\btype:\s*[\"']?ClusterIP\b")
_OUTSIDE_TYPE = re.compile(r"\btype:\s*[\"']?(?:LoadBalancer|NodePort)\b")
"""A Kubernetes Service reached only in the cluster, and one reached from outside it."""
_SERVED = re.compile(
    r"[\"'](?:/var/www|/srv/shiny-server|/srv/http|/usr/share/nginx/html)/[^\"'\n]*"
    r"\.(?:csv|tsv|xlsx?|json|rds|rda|rdata|parquet|feather|sqlite3?|db|sql|dump|zip|gz)[\"']"
    r"|\bbucket\s*[:=]\s*[\"'][\w.-]*\b(?:public|website|www|static|cdn)\b[\w.-]*[\"']",
    re.I,
)
"""Data written where a web server serves it (a CSV under ``/var/www``), or code's
storage put in a bucket named for the public or a website: anyone with the address reads it."""
_DEBUG_SERVED = re.compile(
    r"\bListenAndServe\(\s*\"(?:0\.0\.0\.0|\[::\])?:\d+\"|\bmiddleware\.Profiler\(\)"
)
"""Go's profiler or variables served on every interface (``ListenAndServe(":6060", nil)``
beside ``net/http/pprof``), or chi's profiler mounted on the application's router: a
heap's dump holds its secrets, and anyone reaching the port reads them."""
_CODE = re.compile(r"\.(?:r|py|js|ts|mjs|cjs|rb|go|qmd|rmd|ipynb|sql)$", re.I)
_MAX_TEXT = 64 * 1024


def exposes_service(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of ``paths`` makes a service reachable from the internet."""
    if paths and all(test_code(p) for p in paths):
        return False
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_PUBLIC, old, new):
            return True
        if _INTERNAL_TYPE.search(old) and more(_OUTSIDE_TYPE, old, new):
            return True
        if ("pprof" in old + new or "expvar" in old + new or "Profiler" in new) and more(
            _DEBUG_SERVED, old, new
        ):
            return True
        if any(_CODE.search(p) for p in paths) and more(_SERVED, old, new):
            return True
    return False
