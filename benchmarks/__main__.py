"""Run every benchmark: ``python -m benchmarks`` (or ``make bench``)."""

from __future__ import annotations

from benchmarks import (
    bench_bundles,
    bench_claude_code,
    bench_dispatch,
    bench_emit,
    bench_hook_calls,
    bench_import,
    bench_injection,
    bench_plain_calls,
    bench_web_approvals,
)

if __name__ == "__main__":
    bench_emit.main([])
    print()
    bench_injection.main([])
    print()
    bench_dispatch.main([])
    print()
    bench_import.main([])
    print()
    bench_bundles.main([])
    print()
    bench_web_approvals.main([])
    print()
    bench_hook_calls.main([])
    print()
    bench_plain_calls.main([])
    print()
    bench_claude_code.main([])
