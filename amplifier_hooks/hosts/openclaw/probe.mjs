// Loads an installed amplifier-hooks OpenClaw plugin the way OpenClaw does -- its default
// export's register(api) -- and calls one of its hooks, outside OpenClaw.
//
//   node probe.mjs PLUGIN_INDEX_JS < {"pluginConfig", "config", "hook", "event", "ctx", "times"}
//
// Prints {"result": ..., "registered": [...], "ms": [...], "cpuMs": N}: what the hook
// returned (null for nothing), the hooks the plugin registered, each call's milliseconds,
// and this process's CPU milliseconds over all the calls. `doctor` probes with it; the
// benchmark times the plugin with it.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const input = JSON.parse(readFileSync(0, "utf8"));
const plugin = (await import(pathToFileURL(process.argv[2]).href)).default;
const hooks = new Map();
const warnings = [];
plugin.register({
  id: plugin.id,
  pluginConfig: input.pluginConfig,
  config: input.config || {},
  logger: { warn: (m) => warnings.push(m), info() {}, error: (m) => warnings.push(m), debug() {} },
  on(name, handler) {
    hooks.set(name, handler);
  },
});
const handler = hooks.get(input.hook || "before_tool_call");
let result = null;
const ms = [];
const cpu = process.cpuUsage();
if (handler) {
  for (let i = 0; i < (input.times || 1); i++) {
    const ctx = { ...(input.ctx || {}), abortSignal: new AbortController().signal };
    const started = performance.now();
    result = (await handler(input.event, ctx)) ?? null;
    ms.push(performance.now() - started);
  }
}
const used = process.cpuUsage(cpu);
const cpuMs = (used.user + used.system) / 1000;
process.stdout.write(JSON.stringify({ result, registered: [...hooks.keys()], ms, cpuMs, warnings }) + "\n");
process.exit(0);
