"""Photograph the browser approver on a phone-sized screen: docs/web-approver.png.

    .venv/bin/python scripts/screenshot_web_approver.py [output.png]

Real pieces only: a SQLite store in a temporary directory, two agents asking through
`ApprovalGate` + `QueueApprovalProvider`, one earlier question answered in the store,
the approver server (`make_approver_app`) on a free loopback port, and Debian's headless
Chromium (/usr/bin/chromium) emulating a 390x844 phone, logged in with the token URL.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from amplifier_hooks.approvals import ApprovalGate, QueueApprovalProvider, open_store  # noqa: E402
from amplifier_hooks.engine.resolution import ApprovalAsk  # noqa: E402
from tests.shared_approvals.browser import TOKEN, approver, chromium, missing  # noqa: E402

OUTPUT = ROOT / "docs" / "web-approver.png"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}

ASKS = [
    ("ci-nightly", "runner-12", "/builds/shop", "Run a shell command?",
     "git fetch origin\ngit reset --hard origin/main\n./scripts/migrate.sh --prod"),
    ("alice-laptop", "alice-mbp", "/home/alice/site", "Allow write to a protected file?",
     None),
]  # fmt: skip


async def main(output: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "approvals.db")
        backend = open_store(store)
        await backend.list_pending()  # the schema in place before the agents ask
        gates, asking = [], []
        for session, host, workspace, prompt, command in ASKS:
            provider = QueueApprovalProvider(
                backend, session_id=session, host=host, workspace=workspace
            )
            gate = ApprovalGate(provider, backend, workspace=workspace)
            gates.append(gate)
            if command is None:
                data = {"tool_name": "write_file",
                        "tool_input": {"file_path": f"{workspace}/.env.production"}}  # fmt: skip
            else:
                data = {"tool_name": "bash", "tool_input": {"command": command}}
            ask = ApprovalAsk(
                source="production_guard", prompt=prompt, timeout=900 if command else 240,
                options=["Allow once", "Allow always", "Deny"], default="deny",
            )  # fmt: skip
            asking.append(asyncio.ensure_future(gate.decide(ask, "tool:pre", data)))
            while provider.last_id is None:
                await backend.wait_for_change(None, 0.05)
        # One question already answered, for the history.
        done = QueueApprovalProvider(backend, session_id="ci-nightly", host="runner-12")
        ask = ApprovalAsk(
            source="guard", prompt="Install dependencies?", options=["Allow", "Deny"],
            timeout=300, default="deny",
        )  # fmt: skip
        answered = asyncio.ensure_future(
            ApprovalGate(done, backend, workspace="/builds/shop").decide(
                ask, "tool:pre", {"tool_name": "bash", "command": "npm ci"}
            )
        )
        while done.last_id is None:
            await backend.wait_for_change(None, 0.05)
        await backend.answer(done.last_id, "Allow", "bob (web)")
        await answered
        async with approver(store, approver="alice@laptop") as address:
            driver = await asyncio.to_thread(chromium, Path(tmp) / "profile")
            try:
                await asyncio.to_thread(
                    driver.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride", PHONE
                )
                await asyncio.to_thread(driver.get, f"{address}/?token={TOKEN}")
                wait = WebDriverWait(driver, 30, poll_frequency=0.05)
                await asyncio.to_thread(
                    wait.until, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".request")) == 2
                )
                await asyncio.to_thread(
                    driver.execute_script,
                    "const n = document.getElementById('name'); n.value = 'alice';",
                )
                # Past the tap guard, so the buttons are drawn enabled.
                await asyncio.to_thread(
                    wait.until,
                    lambda d: all(
                        b.is_enabled() for b in d.find_elements(By.CSS_SELECTOR, ".option")
                    ),
                )
                await asyncio.to_thread(driver.save_screenshot, str(output))
            finally:
                await asyncio.to_thread(driver.quit)
        for task in asking:
            task.cancel()
        await asyncio.gather(*asking, return_exceptions=True)
        for gate in gates:
            await gate.aclose()
        await backend.aclose()
    print(f"wrote {output}")


if __name__ == "__main__":
    reason = missing()
    if reason is not None:
        raise SystemExit(reason)
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT))
