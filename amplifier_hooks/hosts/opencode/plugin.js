// amplifier-hooks: this OpenCode plugin guards every tool call with an amplifier-hooks bundle.
// Written by `amplifier-hooks opencode install`, taken out by `amplifier-hooks opencode uninstall`;
// install writes it again, so edit the bundle, not this file.
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

const CONFIG = /*CONFIG*/ {}

const BLOCKED = "amplifier-hooks could not check this call, so it is blocked: "

// The per-workspace hook server a command hook starts: the same socket the relay uses
// (amplifier_hooks/transports/relay/place.py), so a warm call is one request on it.
function runtimeDir(env) {
  const runtime = env.XDG_RUNTIME_DIR || ""
  if (path.isAbsolute(runtime)) return path.join(runtime, "amplifier-hooks")
  let state = env.XDG_STATE_HOME || ""
  if (!path.isAbsolute(state)) state = path.join(env.HOME || os.homedir(), ".local", "state")
  return path.join(state, "amplifier-hooks", "run")
}

function real(name) {
  try {
    return fs.realpathSync(name)
  } catch {
    return path.resolve(name)
  }
}

function socketPath(workspace, env) {
  const parts = [real(CONFIG.bundle), real(workspace), CONFIG.python, CONFIG.protocol]
  const key = createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 24)
  const name = path.join(runtimeDir(env), key + ".sock")
  if (Buffer.byteLength(name) <= 100) return name
  return path.join("/tmp", `amplifier-hooks-${process.getuid()}`, key + ".sock")
}

// A folder another user made or can enter may hold their server: never connect there.
function privateDir(directory) {
  let info
  try {
    info = fs.lstatSync(directory)
  } catch {
    return false
  }
  if (!info.isDirectory()) throw new Error(`${directory} is not a directory (a symlink?)`)
  if (info.uid !== process.getuid()) throw new Error(`${directory} belongs to another user`)
  if (info.mode & 0o077) throw new Error(`${directory} can be entered by other users`)
  return true
}

async function read(response, where) {
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${where} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

async function overHttp(body, signal) {
  const token = process.env[CONFIG.tokenEnv] || readToken()
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` }
  const response = await fetch(CONFIG.url, { method: "POST", body, headers, signal })
  return read(response, CONFIG.url)
}

function readToken() {
  try {
    return fs.readFileSync(CONFIG.tokenFile, "utf8").trim()
  } catch (error) {
    throw new Error(`no token: $${CONFIG.tokenEnv} is not set and ${CONFIG.tokenFile} cannot be read`)
  }
}

// The installed command hook answers the first call: it starts the workspace's server.
function throughCommand(body, directory, signal) {
  const argv = ["-S", "-P", CONFIG.script, "opencode", "hook", "--bundle", CONFIG.bundle]
  const env = { ...process.env, CLAUDE_PROJECT_DIR: directory }
  return new Promise((resolve, reject) => {
    const child = spawn(CONFIG.python, argv, { cwd: directory, env, stdio: ["pipe", "pipe", "pipe"] })
    const out = []
    const err = []
    const stop = () => child.kill("SIGKILL")
    signal.addEventListener("abort", stop, { once: true })
    child.stdout.on("data", (chunk) => out.push(chunk))
    child.stderr.on("data", (chunk) => err.push(chunk))
    child.on("error", (error) => reject(new Error(`cannot start ${CONFIG.python}: ${error.message}`)))
    child.on("close", (code, killed) => {
      signal.removeEventListener("abort", stop)
      const text = Buffer.concat(out).toString("utf8").trim()
      const said = Buffer.concat(err).toString("utf8").trim().slice(-300)
      if (signal.aborted) return reject(signal.reason)
      if (code !== 0) return reject(new Error(`the hook command failed (${killed || `exit ${code}`}): ${said}`))
      try {
        resolve(text ? JSON.parse(text) : {})
      } catch {
        reject(new Error(`the hook command's answer is not JSON: ${text.slice(0, 200)}`))
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(body)
  })
}

async function ask(payload, directory) {
  const body = JSON.stringify(payload)
  const signal = AbortSignal.timeout(CONFIG.waitSeconds * 1000)
  if (CONFIG.url) return overHttp(body, signal)
  const socket = socketPath(directory, process.env)
  if (privateDir(path.dirname(socket)) && fs.existsSync(socket)) {
    let response
    try {
      const headers = { "content-type": "application/json" }
      response = await fetch("http://localhost/opencode", { method: "POST", body, headers, unix: socket, signal })
    } catch (error) {
      if (signal.aborted) throw error
      response = null // no server on the socket (a stale one): the command starts one
    }
    if (response) return read(response, socket)
  }
  return throughCommand(body, directory, signal)
}

async function check(payload, directory) {
  let answer
  try {
    answer = await ask(payload, directory)
  } catch (error) {
    const why = error && error.name === "TimeoutError" ? `no answer within ${CONFIG.waitSeconds} s` : String(error && error.message || error)
    throw new Error(BLOCKED + why)
  }
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) throw new Error(BLOCKED + "its answer is not a JSON object")
  return answer
}

function rewrite(args, wanted) {
  for (const key of Object.keys(args)) if (!(key in wanted)) delete args[key]
  Object.assign(args, wanted)
}

export const AmplifierHooks = async ({ directory }) => {
  const context = new Map()
  const hooks = {
    "tool.execute.before": async (input, output) => {
      const payload = { hook_event_name: "tool.execute.before", directory, ...input, args: output.args }
      const answer = await check(payload, directory)
      if (answer.decision === "deny") throw new Error(answer.reason || "denied by amplifier-hooks")
      if (answer.args && typeof answer.args === "object") rewrite(output.args, answer.args)
      if (answer.context) context.set(input.callID, String(answer.context))
    },
  }
  hooks["tool.execute.after"] = async (input, output) => {
    const texts = []
    if (context.has(input.callID)) texts.push(context.get(input.callID))
    context.delete(input.callID)
    if (CONFIG.after) {
      const { args, ...rest } = input
      const payload = { hook_event_name: "tool.execute.after", directory, ...rest, args, output: output.output, title: output.title }
      try {
        const answer = await check(payload, directory)
        if (answer.context) texts.push(String(answer.context))
      } catch {
        // nothing to stop after the tool ran; the server logs its own failures
      }
    }
    if (texts.length) output.output = [output.output, ...texts].join("\n\n")
  }
  return hooks
}
