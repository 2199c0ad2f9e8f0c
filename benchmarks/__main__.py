"""Run every benchmark: ``python -m benchmarks`` (or ``make bench``); ``--smoke`` runs each
at tiny sizes, only to show that it runs and prints its ratios and target lines (``make
test`` does, through tests/test_benchmarks_smoke.py)."""

from __future__ import annotations

import sys

from benchmarks import (
    bench_bundles,
    bench_claude_code,
    bench_dispatch,
    bench_emit,
    bench_guard,
    bench_hook_calls,
    bench_import,
    bench_injection,
    bench_mcp_proxy,
    bench_openclaw_plugin,
    bench_opencode_plugin,
    bench_plain_calls,
    bench_serve_load,
    bench_shared_approvals,
    bench_startup,
    bench_web_approvals,
)

BENCHMARKS = {
    "emit": bench_emit.main,
    "injection": bench_injection.main,
    "dispatch": bench_dispatch.main,
    "import": bench_import.main,
    "startup": bench_startup.main,
    "bundles": bench_bundles.main,
    "shared_approvals": bench_shared_approvals.main,
    "web_approvals": bench_web_approvals.main,
    "hook_calls": bench_hook_calls.main,
    "opencode_plugin": bench_opencode_plugin.main,
    "plain_calls": bench_plain_calls.main,
    "mcp_proxy": bench_mcp_proxy.main,
    "guard": bench_guard.main,
    "claude_code": bench_claude_code.main,
    "openclaw_plugin": bench_openclaw_plugin.main,
    "serve_load": bench_serve_load.cli,
}
"""Every benchmark by name, in the order ``python -m benchmarks`` runs them."""


def main(argv: list[str]) -> None:
    smoke = ["--smoke"] if "--smoke" in argv else []
    if set(argv) - {"--smoke"}:
        raise SystemExit(f"usage: python -m benchmarks [--smoke]; got {' '.join(argv)}")
    for number, (name, run) in enumerate(BENCHMARKS.items()):
        if number:
            print()
        print(f"## {name}")
        # The approval benchmarks' smoke runs stay on SQLite: no PostgreSQL to start.
        extra = ["--backend", "sqlite"] if smoke and name.endswith("approvals") else []
        run([*smoke, *extra])


if __name__ == "__main__":
    main(sys.argv[1:])
