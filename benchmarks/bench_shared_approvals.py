"""Many agents, one approver: how fast an answer reaches the agent that asked.

``python -m benchmarks.bench_shared_approvals`` starts a throwaway PostgreSQL server (as
the tests do), then runs AGENTS agent processes that each ask QUESTIONS questions through
the queue provider, while a scripted approver in this process answers every request as it
appears. It checks that nothing was lost (every question decided by the approver's
answer, one audit row each, nothing left pending) and reports, per backend:

- answer → seen: from the approver's answer (``answered_at``) to the agent's provider
  reading it (LISTEN/NOTIFY on PostgreSQL; polling every 50 ms on SQLite);
- answer → decided: to the gate returning the decision (audit row written);
- queued → answered: how long the approver took to see and answer a request.

Options: ``--agents N --questions N --backend postgres|sqlite|both --store URL`` (an
existing PostgreSQL instead of a throwaway one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from amplifier_hooks.approvals import ApprovalBackend, open_store
from benchmarks._stores import postgres_url
from benchmarks._targets import add_smoke, no_target

ROOT = Path(__file__).resolve().parents[1]


def _spawn(store: str, agents: int, questions: int) -> list[subprocess.Popen[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return [
        subprocess.Popen(
            [sys.executable, "-m", "tests.shared_approvals.agent", store, f"agent{n:02}",
             str(questions), "600"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
        )
        for n in range(agents)
    ]  # fmt: skip


async def _approve(backend: ApprovalBackend, total: int) -> dict[int, float]:
    """Answer every request until ``total`` have been answered; queued→answered delays."""
    answered: dict[int, float] = {}
    while len(answered) < total:
        rows = await backend.list_pending()
        for row in rows:
            if row.id in answered:
                continue
            result = await backend.answer(row.id, "Allow", "bench@approver")
            if not result.won:
                raise RuntimeError(f"request {row.id}: {result.explain()}")
            answered[row.id] = time.time() - row.created_at.timestamp()
        if not rows:
            await backend.wait_for_change(None, 1.0)
    return answered


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run_one(label: str, store: str, agents: int, questions: int) -> dict[str, object]:
    total = agents * questions
    backend = open_store(store)
    await backend.list_pending()  # schema in place before the agents start
    started = time.perf_counter()
    procs = _spawn(store, agents, questions)
    try:
        queued_to_answer = await _approve(backend, total)
        outputs = await asyncio.gather(
            *(asyncio.to_thread(p.communicate, timeout=600) for p in procs)
        )
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    elapsed = time.perf_counter() - started
    results = [json.loads(line) for out, _ in outputs for line in out.splitlines()]
    done = await backend.list_pending(include_done=True, limit=total + 1)
    rows = {r.id: r for r in done}
    audit = await backend.audit_log(limit=None)
    await backend.aclose()
    lost = [r for r in results if not (r["allowed"] and r["via"] == "person")]
    if (
        len(results) != total
        or lost
        or len(audit) != total
        or any(r.status != "answered" or r.outcome != "applied" for r in rows.values())
    ):
        raise RuntimeError(f"{label}: lost or wrong decisions: {len(results)}/{total}, {lost[:3]}")
    seen = [(r["seen"] - rows[r["id"]].answered_at.timestamp()) * 1000 for r in results]
    decided = [(r["decided"] - rows[r["id"]].answered_at.timestamp()) * 1000 for r in results]
    approver = [v * 1000 for v in queued_to_answer.values()]
    return {
        "backend": label,
        "questions": total,
        "elapsed_s": round(elapsed, 2),
        "seen_p50_ms": round(statistics.median(seen), 1),
        "seen_p95_ms": round(_pct(seen, 0.95), 1),
        "decided_p50_ms": round(statistics.median(decided), 1),
        "decided_p95_ms": round(_pct(decided, 0.95), 1),
        "answered_p50_ms": round(statistics.median(approver), 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--backend", choices=["postgres", "sqlite", "both"], default="both")
    parser.add_argument("--store", help="an existing PostgreSQL URL (default: a throwaway one)")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.agents, args.questions = 2, 2
    reports = []
    if args.backend in ("postgres", "both"):
        with postgres_url(args.store) as url:
            reports.append(asyncio.run(run_one("postgres", url, args.agents, args.questions)))
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "approvals.db")
            reports.append(asyncio.run(run_one("sqlite", path, args.agents, args.questions)))
    print(f"shared approvals: {args.agents} agents x {args.questions} questions, nothing lost")
    header = "backend   answer->seen p50/p95   answer->decided p50/p95   approver p50   total"
    print(header)
    for r in reports:
        print(
            f"{r['backend']:<9} {r['seen_p50_ms']:>7} / {r['seen_p95_ms']:<7} ms "
            f"{r['decided_p50_ms']:>9} / {r['decided_p95_ms']:<7} ms "
            f"{r['answered_p50_ms']:>10} ms  {r['elapsed_s']:>6} s"
        )
    no_target(
        "latencies are reported, not bounded; the run fails unless every question was "
        "decided by the approver's answer (met: nothing lost)"
    )


if __name__ == "__main__":
    main()
