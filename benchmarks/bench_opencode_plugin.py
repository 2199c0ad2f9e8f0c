"""What our OpenCode plugin adds to a tool call, next to a plugin that answers at once.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_opencode_plugin

Both plugins run in OpenCode's own runtime (the ``opencode`` binary pinned in
tools/opencode, acting as the Bun it is built on: ``BUN_BE_BUN=1``), in one process,
taking turns: ours as ``amplifier-hooks opencode install`` writes it, for
bundles/default.md, asking the workspace's hook server (warm: started by the warm-up
calls, which also build the session), and a bare plugin whose ``tool.execute.before``
returns at once. Each call is ``tool.execute.before`` of ``bash`` running ``ls`` (the
guard lets it through). Target: ours adds at most 2 ms per call (the median of ours
minus the median of the bare one). Beside the wall times, the CPU each call costs
OpenCode's process and our server (its ``/proc/PID/stat``): on a machine whose cores are
all busy a call waits its turn twice (the server, then the plugin), which the wall time
shows and the CPU time does not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from amplifier_hooks.hosts.opencode.install import OpenCodePlan
from amplifier_hooks.testing.servers import stop_hook_servers
from amplifier_hooks.transports.relay.place import RELAY_PROTOCOL
from amplifier_hooks.web.tokens import TOKEN_ENV
from benchmarks._targets import add_smoke, no_target, target

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / "bundles" / "default.md"
OPENCODE = ROOT / ".cache" / "opencode" / "node_modules" / ".bin" / "opencode"

BARE = """\
export const Bare = async () => ({ "tool.execute.before": async (input, output) => {} })
"""

DRIVER = """\
const [ours, bare, project, warm, rounds] = process.argv.slice(2)
const load = async (file) => {
  const module = await import(file)
  const init = Object.values(module)[0]
  return (await init({ directory: project, worktree: project }))["tool.execute.before"]
}
const hooks = { ours: await load(ours), bare: await load(bare) }
const call = async (hook, n) => {
  const output = { args: { command: "ls", description: "list" } }
  const started = performance.now()
  await hook({ tool: "bash", sessionID: "bench", callID: `c${n}` }, output)
  return performance.now() - started
}
for (let n = 0; n < Number(warm); n++) await call(hooks.ours, n)
const fs = await import("node:fs")
const runtime = process.env.XDG_RUNTIME_DIR
const [note] = fs.readdirSync(runtime, { recursive: true }).filter((n) => n.endsWith(".json"))
const server = JSON.parse(fs.readFileSync(`${runtime}/${note}`, "utf8")).pid
const ticks = () => {
  const fields = fs.readFileSync(`/proc/${server}/stat`, "utf8").split(")").at(-1).trim().split(" ")
  return Number(fields[11]) + Number(fields[12])
}
const times = { ours: [], bare: [] }
const cpu = { ours: 0, bare: 0 }
const serverTicks = { ours: 0, bare: 0 }
for (let n = 0; n < Number(rounds); n++) {
  for (const name of ["ours", "bare"]) {
    const ticked = ticks()
    const used = process.cpuUsage()
    times[name].push(await call(hooks[name], n))
    const spent = process.cpuUsage(used)
    serverTicks[name] += ticks() - ticked
    cpu[name] += (spent.user + spent.system) / 1000
  }
}
console.log(JSON.stringify({ times, cpu, serverTicks }))
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300, help="calls per plugin")
    parser.add_argument("--warm", type=int, default=50, help="calls of ours before timing")
    parser.add_argument("--bundle", type=Path, default=BUNDLE, help="the bundle ours answers with")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.rounds, args.warm = 3, 2
    if not os.access(OPENCODE, os.X_OK):
        no_target(f"OpenCode is not installed at {OPENCODE} (run `make opencode`)")
        return
    runtime = Path(tempfile.mkdtemp(prefix="ah-bench-", dir="/tmp"))
    workspace = Path(tempfile.mkdtemp(prefix="ah-bench-oc-"))
    try:
        times, cpu, server_ticks = _run(args, runtime, workspace)
    finally:
        stop_hook_servers(runtime)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(workspace, ignore_errors=True)
    ours, bare = statistics.median(times["ours"]), statistics.median(times["bare"])
    print(f"median of {args.rounds} calls per plugin, taking turns, in OpenCode's runtime")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print()
    print(
        "| `tool.execute.before` of `bash ls` | median ms | min ms | max ms "
        "| OpenCode CPU ms | server CPU ms |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    for name, title in (("bare", "a plugin that answers at once"), ("ours", "ours, warm server")):
        runs = times[name]
        spent, served = cpu[name] / len(runs), server_ticks[name] * tick_ms / len(runs)
        print(
            f"| {title} | {statistics.median(runs):.3f} | {min(runs):.3f} | {max(runs):.3f} "
            f"| {spent:.3f} | {served:.3f} |"
        )
    print()
    print(f"ours adds {ours - bare:.2f} ms per call over the bare plugin")
    target("what our plugin adds per call:", (ours - bare) * 1000, 2000, " µs")


Times = dict[str, list[float]]


def _run(
    args: argparse.Namespace, runtime: Path, workspace: Path
) -> tuple[Times, dict[str, float], dict[str, int]]:
    """Each call's milliseconds per plugin; the CPU milliseconds OpenCode's process
    spent on each plugin's calls; the clock ticks of CPU our server spent in them."""
    plan = OpenCodePlan(args.bundle.absolute(), RELAY_PROTOCOL, TOKEN_ENV, str(runtime / "token"))
    ours = workspace / "ours.mjs"
    ours.write_text(plan.render())
    bare = workspace / "bare.mjs"
    bare.write_text(BARE)
    driver = workspace / "driver.mjs"
    driver.write_text(DRIVER)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(workspace),
        "XDG_RUNTIME_DIR": str(runtime),
        "XDG_STATE_HOME": str(workspace / "state"),
        "AMPLIFIER_HOOKS_LOG": str(workspace / "events.jsonl"),
        "BUN_BE_BUN": "1",
    }
    argv = [str(OPENCODE), str(driver), str(ours), str(bare), str(workspace)]
    done = subprocess.run(
        [*argv, str(args.warm), str(args.rounds)],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"the driver failed ({done.returncode}): {done.stderr[-2000:]}")
    said = json.loads(done.stdout.strip().splitlines()[-1])
    return said["times"], said["cpu"], said["serverTicks"]


if __name__ == "__main__":
    main()
