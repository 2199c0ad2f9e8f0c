"""The browser approver: from an answer to the agent waking, next to the same answer
written straight to the store (what the terminal console and ``approve ID --allow`` do).

``python -m benchmarks.bench_web_approvals`` runs one agent process that asks QUESTIONS
questions one after another through the queue provider, and an approver server
(`make_approver_app`) in this process. A client follows the server's live feed
(``/api/events``, what the page listens to) and answers each question as it appears,
alternating between:

- **web**: the HTTP request the page sends when a button is clicked (``POST /api/answer``
  with the login cookie, ``Origin``, the CSRF header and a JSON body), and
- **store**: ``backend.answer`` called directly (the CLI's path, no HTTP).

Per path: answer sent → agent's provider sees the answer (p50/p95), answer sent → the
gate's decision returned, and the POST's round trip. Both paths run in the same run,
taking turns, so they share the machine's load; the ratio is web / store.

Options: ``--questions N --backend postgres|sqlite|both --store URL``.
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
from typing import Any

import aiohttp

from amplifier_hooks.approvals import open_store
from amplifier_hooks.web import Credentials, ServerOptions, start_site
from amplifier_hooks.web.approver import (
    COOKIE,
    CSRF_HEADER,
    ApproverSettings,
    csrf_token,
    make_approver_app,
)
from benchmarks._stores import postgres_url
from benchmarks._targets import add_smoke, no_target

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-web-approvals-token-0123456789"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _spawn(store: str, questions: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.shared_approvals.agent", store, "web-bench",
         str(questions), "600"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip


async def _events(client: aiohttp.ClientSession, address: str) -> Any:
    async with client.get(f"{address}/api/events") as stream:
        event = None
        async for raw in stream.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "state":
                yield json.loads(line[6:])


async def run_one(label: str, store: str, questions: int) -> dict[str, Any]:
    backend = open_store(store)
    await backend.list_pending()  # the schema in place before the agent starts
    app = make_approver_app(backend, TOKEN, ApproverSettings(approver="bench"))
    runner, address = await start_site(app, ServerOptions(port=0))
    cookie = Credentials(TOKEN, cookie_name=COOKIE).cookie_value()
    headers = {
        "Cookie": f"{COOKIE}={cookie}",
        "Origin": address,
        "Sec-Fetch-Site": "same-origin",
        CSRF_HEADER: csrf_token(TOKEN),
    }
    agent = _spawn(store, questions)
    sent: dict[int, tuple[str, float]] = {}
    round_trips: list[float] = []
    try:
        async with aiohttp.ClientSession(headers=headers) as client:
            async for state in _events(client, address):
                for view in state.get("pending", []):
                    ident = view["id"]
                    if ident in sent:
                        continue
                    path = "web" if len(sent) % 2 == 0 else "store"
                    started = time.time()
                    sent[ident] = (path, started)
                    if path == "web":
                        payload = {"id": ident, "choice": "Allow", "name": "bench"}
                        async with client.post(f"{address}/api/answer", json=payload) as reply:
                            body = await reply.json()
                        round_trips.append((time.time() - started) * 1000)
                        won = body["won"]
                    else:
                        won = (await backend.answer(ident, "Allow", "bench (store)")).won
                    if not won:
                        raise RuntimeError(f"{label}: request {ident} was not answered")
                if len(sent) >= questions and not state.get("pending"):
                    break
        out, _ = await asyncio.to_thread(agent.communicate, timeout=600)
    finally:
        if agent.poll() is None:
            agent.kill()
        await runner.cleanup()
        await backend.aclose()
    results = [json.loads(line) for line in out.splitlines()]
    if len(results) != questions or not all(r["allowed"] and r["via"] == "person" for r in results):
        raise RuntimeError(f"{label}: lost or wrong decisions ({len(results)}/{questions})")
    report: dict[str, Any] = {"backend": label, "questions": questions}
    for path in ("web", "store"):
        mine = [r for r in results if sent[r["id"]][0] == path]
        seen = [(r["seen"] - sent[r["id"]][1]) * 1000 for r in mine]
        decided = [(r["decided"] - sent[r["id"]][1]) * 1000 for r in mine]
        report[path] = {
            "n": len(mine),
            "seen_p50": statistics.median(seen),
            "seen_p95": _pct(seen, 0.95),
            "decided_p50": statistics.median(decided),
            "decided_p95": _pct(decided, 0.95),
        }
    report["post_p50"] = statistics.median(round_trips)
    report["post_p95"] = _pct(round_trips, 0.95)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--backend", choices=["postgres", "sqlite", "both"], default="both")
    parser.add_argument("--store", help="an existing PostgreSQL URL (default: a throwaway one)")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.questions = 4
    reports = []
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "approvals.db")
            reports.append(asyncio.run(run_one("sqlite", path, args.questions)))
    if args.backend in ("postgres", "both"):
        with postgres_url(args.store) as url:
            reports.append(asyncio.run(run_one("postgres", url, args.questions)))
    print(f"web approvals: {args.questions} questions, answers alternating web / store")
    print("backend   path   n    answer->seen p50/p95 ms   answer->decided p50/p95 ms")
    for r in reports:
        for path in ("web", "store"):
            p = r[path]
            print(
                f"{r['backend']:<9} {path:<6} {p['n']:<4} "
                f"{p['seen_p50']:>8.1f} / {p['seen_p95']:<8.1f}     "
                f"{p['decided_p50']:>8.1f} / {p['decided_p95']:<8.1f}"
            )
        ratio = r["web"]["seen_p50"] / r["store"]["seen_p50"]
        print(
            f"{r['backend']:<9} web/store answer->seen p50: {ratio:.2f}x; "
            f"POST round trip p50/p95 {r['post_p50']:.1f} / {r['post_p95']:.1f} ms"
        )
    no_target(
        "web / store is context; the run fails unless every question was decided by the "
        "approver's answer (met: nothing lost)"
    )


if __name__ == "__main__":
    main()
