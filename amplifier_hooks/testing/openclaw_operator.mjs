// An OpenClaw gateway operator for tests: a person's client on the gateway's WebSocket.
//
//   node openclaw_operator.mjs WS_URL            (the gateway's shared token in $OPENCLAW_GATEWAY_TOKEN)
//
// It makes a device identity of its own (Ed25519; the gateway pairs a loopback device
// at once), answers the gateway's connect challenge with the scopes in $OPERATOR_SCOPES
// (comma-separated; default operator.read,operator.write,operator.approvals) and the
// capabilities in $OPERATOR_CAPS (default `plugin-approvals`: the gateway sends such a
// client its plugin approvals), retrying while the gateway is still starting; then it
// relays, one JSON object a line:
//   stdin  {"id": ID, "method": M, "params": P}    -> a request to the gateway
//   stdout {"hello": PAYLOAD}                       once connected
//          {"res": ID, "ok": B, "payload": P, "error": E}
//          {"event": NAME, "payload": P}            every event the gateway pushes
//          {"closed": CODE, "reason": R}            and exits 0 when the gateway closes
// Nothing here is OpenClaw's code: the frames are those of its protocol docs
// (docs/gateway/protocol/handshake.md, auth.md).
import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { createInterface } from "node:readline";

const url = process.argv[2];
const token = process.env.OPENCLAW_GATEWAY_TOKEN || "";
const scopes = (process.env.OPERATOR_SCOPES || "operator.read,operator.write,operator.approvals")
  .split(",")
  .filter(Boolean);
const caps = (process.env.OPERATOR_CAPS ?? "plugin-approvals").split(",").filter(Boolean);
const CLIENT = { id: "test", mode: "test", version: "1.0.0", platform: "linux" };

const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const raw = publicKey.export({ type: "spki", format: "der" }).subarray(-32);
const deviceId = createHash("sha256").update(raw).digest("hex");

function say(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function connectParams(nonce, signedAt) {
  const payload = ["v3", deviceId, CLIENT.id, CLIENT.mode, "operator", scopes.join(","), String(signedAt), token, nonce, CLIENT.platform, ""].join("|");
  return {
    minProtocol: 4,
    maxProtocol: 4,
    client: CLIENT,
    role: "operator",
    scopes,
    caps,
    commands: [],
    permissions: {},
    auth: { token },
    locale: "en-US",
    userAgent: "amplifier-hooks-test-operator/1.0",
    device: {
      id: deviceId,
      publicKey: Buffer.from(raw).toString("base64url"),
      signature: sign(null, Buffer.from(payload, "utf8"), privateKey).toString("base64url"),
      signedAt,
      nonce,
    },
  };
}

const deadline = Date.now() + Number(process.env.OPERATOR_CONNECT_MS || 300000);
let lines = null;

// One connection attempt; a gateway still starting ("retryable") is asked again.
function open() {
  const ws = new WebSocket(url);
  let connectId = null;
  let retrying = false;
  ws.addEventListener("message", (message) => {
    const frame = JSON.parse(String(message.data));
    if (frame.type === "event" && frame.event === "connect.challenge" && connectId === null) {
      connectId = randomUUID();
      const { nonce, ts } = frame.payload;
      ws.send(JSON.stringify({ type: "req", id: connectId, method: "connect", params: connectParams(nonce, ts) }));
      return;
    }
    if (frame.type === "res" && frame.id === connectId) {
      if (!frame.ok) {
        if (frame.error?.retryable && Date.now() < deadline) {
          retrying = true;
          ws.close();
          setTimeout(open, Math.min(Number(frame.error.retryAfterMs) || 500, 2000));
          return;
        }
        say({ refused: frame.error });
        process.exit(3);
      }
      say({ hello: frame.payload });
      lines = createInterface({ input: process.stdin });
      lines.on("line", (line) => {
        if (!line.trim()) return;
        const { id, method, params } = JSON.parse(line);
        ws.send(JSON.stringify({ type: "req", id, method, params }));
      });
      lines.on("close", () => ws.close(1000, "operator done"));
      return;
    }
    if (frame.type === "res") {
      say({ res: frame.id, ok: frame.ok, payload: frame.payload ?? null, error: frame.error ?? null });
      return;
    }
    if (frame.type === "event") say({ event: frame.event, payload: frame.payload ?? null });
  });
  ws.addEventListener("close", (event) => {
    if (retrying) return;
    say({ closed: event.code, reason: event.reason });
    process.exit(0);
  });
  ws.addEventListener("error", (event) => {
    if (retrying) return;
    say({ error: String(event.message || event.type) });
    process.exit(2);
  });
}

open();
