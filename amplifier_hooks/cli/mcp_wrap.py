"""``amplifier-hooks mcp wrap|unwrap``: the MCP clients' configs, through the proxy and back.

``wrap`` looks at every client config it knows (`amplifier_hooks.transports.mcp.clients`)
in the project and the home folder, rewrites the ones that have servers, and remembers
what it changed; ``unwrap`` restores exactly that. Neither needs the ``mcp`` SDK: the
proxy that wrapped entries start does, so ``wrap`` says when it is missing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import IO

from amplifier_hooks.transports.mcp.clients import CLIENT_NAMES, ClientConfig, config_paths
from amplifier_hooks.transports.mcp.sdk import McpUnavailable, require_sdk
from amplifier_hooks.transports.mcp.wrapping import (
    ConfigError,
    Outcome,
    WrapRecord,
    load_records,
    records_path,
    save_records,
    unwrap_config,
    wrap_config,
)

__all__ = ["proxy_command", "run_action"]


def proxy_command() -> str:
    """The absolute path of this installation's ``amplifier-hooks`` command."""
    beside = Path(sys.executable).parent / "amplifier-hooks"
    if os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("amplifier-hooks")
    return os.path.abspath(found) if found else "amplifier-hooks"


def run_action(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``wrap`` or ``unwrap``; the exit code (2: a bad config or client name)."""
    clients = tuple(args.client or ())
    unknown = [c for c in clients if c not in CLIENT_NAMES]
    if unknown:
        err.write(f"error: unknown MCP client {unknown[0]!r} (known: {', '.join(CLIENT_NAMES)})\n")
        return 2
    project = Path(args.project or os.getcwd()).absolute()
    found = [(c, p) for c, p in config_paths(project, Path.home(), clients) if p.is_file()]
    where = records_path()
    try:
        records = load_records(where)
        if args.action == "wrap":
            bundle = Path(args.bundle)
            if not bundle.is_file():
                err.write(f"error: no bundle at {bundle}\n")
                return 2
            outcomes = _wrap(found, str(bundle.absolute()), records)
        else:
            outcomes = _unwrap(found, records)
    except ConfigError as exc:
        err.write(f"error: {exc}\n")
        return 2
    finally:
        if records or where.exists():
            save_records(where, records)
    _report(args.action, outcomes, out)
    if args.action == "wrap" and any(o.changed for o in outcomes):
        try:
            require_sdk()
        except McpUnavailable as exc:
            err.write(f"warning: the wrapped servers will not start: {exc}\n")
    return 0


Found = list[tuple[ClientConfig, Path]]


def _wrap(found: Found, bundle: str, records: dict[str, WrapRecord]) -> list[Outcome]:
    outcomes = []
    proxy = proxy_command()
    for config, path in found:
        outcome, record = wrap_config(config, path, proxy, bundle)
        if record is not None:
            key = str(path)
            earlier = records.get(key)
            if earlier is not None:
                # Wrapped again (servers were added since): the bytes before the first
                # wrap would lose them, so unwrap restores entry by entry.
                record = record._replace(written="", servers={**earlier.servers, **record.servers})
            records[key] = record
        outcomes.append(outcome)
    return outcomes


def _unwrap(found: Found, records: dict[str, WrapRecord]) -> list[Outcome]:
    outcomes = []
    for config, path in found:
        record = records.get(str(path))
        if record is None:
            continue
        outcome = unwrap_config(config, path, record)
        if not outcome.skipped:
            del records[str(path)]
        outcomes.append(outcome)
    return outcomes


def _report(action: str, outcomes: list[Outcome], out: IO[str]) -> None:
    done = "wrapped" if action == "wrap" else "restored"
    if not any(o.changed or o.skipped for o in outcomes):
        out.write(f"nothing to {action}: no MCP client config here has servers to {action}\n")
        return
    for outcome in outcomes:
        if outcome.changed:
            out.write(f"{outcome.path}: {done} {', '.join(outcome.changed)}\n")
        for name, why in outcome.skipped:
            out.write(f"{outcome.path}: left {name} as it is: {why}\n")
