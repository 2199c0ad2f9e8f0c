// amplifier-hooks for OpenClaw: each hook this plugin registers is a question to an
// amplifier-hooks server, and OpenClaw gets the server's answer as its own hook result.
//
// Written by `amplifier-hooks openclaw install`; its settings arrive as api.pluginConfig.
// Where the answer comes from:
//   - `url` set: that `amplifier-hooks serve` (Bearer token from $AMPLIFIER_HOOKS_TOKEN,
//     else from `tokenFile`);
//   - else the workspace's own server on a Unix socket (the one command hooks relay to),
//     started by running our hook command once when none answers.
// Nothing here fails open: every failure of ours -- no server, an unreadable answer, no
// answer before OpenClaw's budget for the hook runs out -- is a block whose reason the
// model reads. (A throw would block too, but the model would read only "hook failed".)
import { spawn } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";

const ID = "amplifier-hooks";
const BLOCKED = "amplifier-hooks could not check this call, so it is blocked: ";
const MARGIN_MS = 2000; // our own answer comes this long before OpenClaw gives up on us
const MAX_ANSWER_BYTES = 1 << 20;
const GUARDING = new Set(["before_tool_call"]);
const QUIET_MS = 10000; // most a hook that cannot block waits for us

function workspaceOf(config) {
  const configured = config?.agents?.defaults?.workspace;
  const raw = typeof configured === "string" && configured ? configured : "~/.openclaw/workspace";
  const home = process.env.HOME || os.homedir();
  const full = raw.startsWith("~/") ? path.join(home, raw.slice(2)) : path.resolve(raw);
  // Not made yet (OpenClaw makes it on its first run): the home folder stands in.
  return realpathSync(existsSync(full) ? full : home);
}

function fail(why) {
  return new Error(why);
}

// One HTTP POST; resolves with the parsed JSON answer, rejects with a readable reason.
function post(options, body, signal, secure) {
  return new Promise((resolve, reject) => {
    const send = secure ? https.request : http.request;
    const req = send({ ...options, method: "POST", signal }, (res) => {
      const chunks = [];
      let size = 0;
      res.on("data", (chunk) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          req.destroy(fail(`the answer is over ${MAX_ANSWER_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (res.statusCode !== 200) {
          reject(fail(`the hook server answered HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(fail(`the hook server's answer is not JSON: ${text.slice(0, 200)}`));
        }
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

// Runs `python -S -P hook_start.py openclaw ARGS...`, stdin `input`; resolves with stdout.
function run(cfg, args, input, cwd, env, signal) {
  return new Promise((resolve, reject) => {
    const child = spawn(cfg.python, ["-S", "-P", cfg.script, "openclaw", ...args], {
      cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      signal,
      killSignal: "SIGKILL",
    });
    const out = [];
    const err = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => err.push(c));
    child.on("error", (e) => reject(fail(`cannot run ${cfg.python}: ${e.message}`)));
    child.on("close", (code) => {
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8").trim();
      if (code !== 0) {
        reject(fail(`amplifier-hooks exited ${code}: ${stderr.slice(-300) || stdout.slice(0, 300)}`));
        return;
      }
      resolve(stdout);
    });
    child.stdin.on("error", () => {}); // a child that exits before reading: its code says why
    child.stdin.end(input);
  });
}

function readToken(cfg) {
  const given = (process.env.AMPLIFIER_HOOKS_TOKEN || "").trim();
  if (given) return given;
  if (!cfg.tokenFile) throw fail("no token: set $AMPLIFIER_HOOKS_TOKEN for OpenClaw");
  try {
    return readFileSync(cfg.tokenFile, "utf8").trim();
  } catch (e) {
    throw fail(`no token: $AMPLIFIER_HOOKS_TOKEN is unset and ${cfg.tokenFile} cannot be read (${e.code || e.message})`);
  }
}

class Server {
  constructor(cfg, workspace) {
    this.cfg = cfg;
    this.workspace = workspace;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    this.socket = null; // the workspace server's socket path, once known
  }

  async ask(payload, entrypoint, signal) {
    const body = JSON.stringify(payload);
    const headers = {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      "X-Claude-Code-Entrypoint": entrypoint,
    };
    if (this.cfg.url) return this.askUrl(body, headers, signal);
    return this.askSocket(body, headers, signal, entrypoint);
  }

  async askUrl(body, headers, signal) {
    const url = new URL(this.cfg.url);
    headers.Authorization = `Bearer ${readToken(this.cfg)}`;
    const secure = url.protocol === "https:";
    const options = { hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers };
    if (!secure) options.agent = this.agent;
    try {
      return await post(options, body, signal, secure);
    } catch (e) {
      if (signal.aborted || !e.code) throw e; // no code: the answer was wrong, and says how
      throw fail(`the hook server at ${this.cfg.url} cannot be reached: ${e.code}`);
    }
  }

  async askSocket(body, headers, signal, entrypoint) {
    if (this.socket === null) {
      const where = await run(this.cfg, ["socket", "--bundle", this.cfg.bundle, "--workspace", this.workspace], "", this.workspace, process.env, signal);
      this.socket = where.trim();
    }
    try {
      return await post({ socketPath: this.socket, path: "/openclaw", headers, agent: this.agent }, body, signal, false);
    } catch (e) {
      if (signal.aborted || !["ENOENT", "ECONNREFUSED", "ECONNRESET"].includes(e.code)) throw e;
    }
    // No server yet (or it went idle): our hook command starts it and answers this call.
    const env = { ...process.env, CLAUDE_CODE_ENTRYPOINT: entrypoint };
    delete env.CLAUDE_PROJECT_DIR; // the server is the workspace's: the command's cwd
    const out = await run(this.cfg, ["hook", "--bundle", this.cfg.bundle], body, this.workspace, env, signal);
    try {
      return out.trim() ? JSON.parse(out) : {};
    } catch {
      throw fail(`our hook command's answer is not JSON: ${out.slice(0, 200)}`);
    }
  }
}

// The server's answer as OpenClaw's hook result; a shape we do not know is refused.
function result(answer) {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    throw fail("the hook server's answer is not a JSON object");
  }
  const out = {};
  if (answer.block === true) {
    return { block: true, blockReason: String(answer.blockReason || "denied by amplifier-hooks") };
  }
  if (answer.params !== undefined) {
    if (answer.params === null || typeof answer.params !== "object" || Array.isArray(answer.params)) {
      throw fail("the hook server's params are not an object");
    }
    out.params = answer.params;
  }
  if (answer.requireApproval !== undefined) {
    const asked = answer.requireApproval;
    if (asked === null || typeof asked !== "object" || typeof asked.description !== "string") {
      throw fail("the hook server's approval request is malformed");
    }
    out.requireApproval = { ...asked, pluginId: ID };
  }
  if (typeof answer.prependContext === "string") out.prependContext = answer.prependContext;
  return Object.keys(out).length ? out : undefined;
}

function payloadOf(name, event, ctx, workspace) {
  const payload = { hook_event_name: name, cwd: workspace };
  for (const key of ["toolName", "params", "toolCallId", "runId", "derivedPaths", "prompt", "result", "error", "durationMs"]) {
    if (event && event[key] !== undefined) payload[key] = event[key];
  }
  for (const key of ["sessionId", "sessionKey", "agentId", "channelId", "runId"]) {
    if (ctx && typeof ctx[key] === "string" && ctx[key] && payload[key] === undefined) payload[key] = ctx[key];
  }
  if (!payload.sessionId && !payload.sessionKey) payload.sessionKey = "openclaw";
  return payload;
}

export default {
  id: ID,
  name: "amplifier-hooks",
  description: "Guards OpenClaw's tool calls with an amplifier-hooks bundle",
  register(api) {
    const cfg = api.pluginConfig || {};
    const budget = Number.isFinite(cfg.budgetMs) ? cfg.budgetMs : 15000;
    const wait = Math.max(1000, budget - MARGIN_MS);
    const events = Array.isArray(cfg.events) && cfg.events.length ? cfg.events : ["before_tool_call"];
    const configured = typeof cfg.bundle === "string" && typeof cfg.python === "string" && typeof cfg.script === "string";
    const server = configured ? new Server(cfg, workspaceOf(api.config)) : null;

    for (const name of events) {
      const guarding = GUARDING.has(name);
      const limit = guarding ? wait : Math.min(wait, QUIET_MS);
      api.on(
        name,
        async (event, ctx) => {
          try {
            if (server === null) throw fail("the plugin has no settings: run `amplifier-hooks openclaw install`");
            const timer = AbortSignal.timeout(limit);
            const signal = ctx?.abortSignal ? AbortSignal.any([timer, ctx.abortSignal]) : timer;
            // A channel started the run: the server may leave a question to OpenClaw's
            // requireApproval. Whether a client that takes approvals is connected, no
            // hook can see; without one OpenClaw denies it at once (docs/hosts.md).
            const entrypoint = ctx?.channelId ? "channel" : "local";
            const payload = payloadOf(name, event, ctx, server.workspace);
            let answer;
            try {
              answer = await server.ask(payload, entrypoint, signal);
            } catch (e) {
              if (timer.aborted) throw fail(`no answer within ${limit / 1000} s (OpenClaw's budget for this hook is ${budget / 1000} s)`);
              throw e;
            }
            return guarding ? result(answer) : typeof answer?.prependContext === "string" ? { prependContext: answer.prependContext } : undefined;
          } catch (e) {
            const why = e?.message || String(e);
            if (guarding) return { block: true, blockReason: BLOCKED + why };
            api.logger?.warn?.(`amplifier-hooks could not check ${name}: ${why}`);
            return undefined;
          }
        },
        { priority: 1000, timeoutMs: budget },
      );
    }
  },
};
