"""A minimal agent process for the multi-process tests and the benchmark: it asks
``count`` questions through a gate whose provider is the shared queue, and prints one
JSON line per decision (with the moment it woke up) on stdout.

    python -m tests.shared_approvals.agent STORE NAME COUNT [TIMEOUT]
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import structlog

from amplifier_hooks.approvals import ApprovalGate, QueueApprovalProvider, open_store
from amplifier_hooks.engine.resolution import ApprovalAsk


async def main(store: str, name: str, count: int, timeout: float) -> None:
    structlog.configure(logger_factory=structlog.PrintLoggerFactory(sys.stderr))
    backend = open_store(store)
    provider = QueueApprovalProvider(backend, session_id=name, host="test-host")
    gate = ApprovalGate(provider, backend, workspace=f"/work/{name}")
    for index in range(count):
        ask = ApprovalAsk(
            source="guard",
            prompt=f"{name} step {index}?",
            options=["Allow", "Deny"],
            timeout=timeout,
            default="deny",
        )
        decision = await gate.decide(ask, "tool:pre", {"command": f"step {index}"})
        record = {
            "agent": name,
            "index": index,
            "id": provider.last_id,
            "allowed": decision.allowed,
            "via": decision.via,
            "choice": decision.choice,
            "reason": decision.reason,
            "seen": provider.last_seen,
            "decided": time.time(),
        }
        print(json.dumps(record), flush=True)
    await gate.aclose()
    await backend.aclose()


if __name__ == "__main__":
    timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 120.0
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), timeout))
