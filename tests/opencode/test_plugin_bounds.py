"""Our OpenCode plugin bounds its own wait (OpenCode would wait forever) and blocks on a
server that never answers -- loaded and called in OpenCode's own runtime, as ``doctor``
does, without a model run."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from amplifier_hooks.hosts.opencode.doctor import load_and_probe
from amplifier_hooks.hosts.opencode.install import OpenCodePlan
from tests.claude_code.guards import DENY_RM, POLICY_SESSION, write_bundle


def test_a_server_that_never_answers_is_a_deny_once_the_wait_is_over(
    opencode_binary: Path, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # takes the connection, never reads or answers it
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/opencode"
        plan = OpenCodePlan(bundle, "relay-2", "AMPLIFIER_HOOKS_TOKEN", "/nowhere", url=url, wait=1)
        plugin = tmp_path / "amplifier-hooks.js"
        plugin.write_text(plan.render())
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)}
        env["AMPLIFIER_HOOKS_TOKEN"] = "t" * 32
        failure, probe = load_and_probe(str(opencode_binary), plugin, tmp_path, env)

    assert failure is None, failure
    assert probe.ok and probe.reading == (
        "denied: amplifier-hooks could not check this call, so it is blocked: no answer within 1 s"
    ), probe
