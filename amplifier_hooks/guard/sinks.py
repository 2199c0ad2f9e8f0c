"""Where a service's logs, metrics, traces and alerts go: a new destination written into a
telemetry pipeline's configuration.

A log shipper's ``[OUTPUT]``, a collector's exporter, a sink of Vector's or a receiver of
Alertmanager's names a host; every record the pipeline carries (request headers, tokens
in logs, customers' data, the alerts about an incident) goes there from the next deploy
on, and the diff reads as a small change. A write or an edit of such a configuration
(found by its file's or folder's name: ``fluent-bit.conf``, ``deploy/otel/collector.yaml``,
``vector.toml``, ``alertmanager.yml``) that names a host outside the network its text
already named, and that the edit's old text does not, is marked `SINK_ADDED` (asked). A
host of this machine or of the private network (``localhost``, ``loki:3100``,
``*.internal``, ``*.svc.cluster.local``, a private address) is the pipeline's own.
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.urlhosts import address_of, in_private_network

__all__ = ["SINK_ADDED", "sink_marks"]

SINK_ADDED = "@telemetry-sink-added"
_PIPELINE = re.compile(
    r"(?i)fluent[-_]?bit|fluentd|td-agent|otel|opentelemetry|collector|vector|alertmanager"
    r"|promtail|logstash|filebeat|metricbeat|telegraf|datadog|prometheus|loki|grafana-agent"
    r"|alloy|rsyslog|syslog-ng"
)
"""Names of the tools that carry a service's telemetry, in a file's or a folder's name."""
_CONFIG = (".conf", ".yaml", ".yml", ".toml", ".json", ".river", ".alloy", ".hcl")
_URL_HOST = re.compile(r"\b[a-z][a-z0-9+.-]*://(?:[^@/\s]*@)?([A-Za-z0-9.-]+)", re.I)
_KEYED_HOST = re.compile(
    r"(?im)^[\s\"'-]*(?:host|hosts|endpoint|address|addr|server|url)[\"']?\s*[:=]?\s*"
    r"[\[\"']*([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"
)
"""``Host logs.example.net`` (Fluent Bit), ``endpoint: otel.example.net:4317``."""


def sink_marks(path: str, new: str, old: str | None) -> tuple[str, ...]:
    """`SINK_ADDED` when ``new`` (written to the telemetry configuration at ``path``;
    ``old``: the text an edit replaces, None for a whole file) names a host outside the
    private network that ``old`` does not."""
    folder, name = posixpath.split(path)
    if not name.lower().endswith(_CONFIG) or not _PIPELINE.search(
        f"{posixpath.basename(folder)}/{name}"
    ):
        return ()
    before = _hosts(old or "")
    added = {h for h in _hosts(new) - before if _outside(h)}
    return (SINK_ADDED,) if added else ()


def _hosts(text: str) -> set[str]:
    found = {m.group(1).lower().rstrip(".") for m in _URL_HOST.finditer(text)}
    found.update(m.group(1).lower().rstrip(".") for m in _KEYED_HOST.finditer(text))
    return found


def _outside(host: str) -> bool:
    """Whether ``host`` is a name or address outside this machine and the private network
    (a single-label name, ``loki``, is a service's in the cluster; ``1.2.3`` a version)."""
    if "." not in host or (host.rpartition(".")[2].isdigit() and address_of(host) is None):
        return False
    return not in_private_network(host)
