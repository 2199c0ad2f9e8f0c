// The approver's page. Every piece of text from the queue is attacker-controlled: it is
// only ever put on the page with textContent (never innerHTML), and the
// Content-Security-Policy forbids inline script and anything from another origin.
"use strict";

(() => {
  const GUARD_MS = 600; // after the list moves, taps are ignored: a card may have slid under the finger
  const $ = (id) => document.getElementById(id);
  let session = null;
  let version = -1;
  // The server's clock when the last state was sent, and this page's monotonic clock when
  // it arrived: time left is counted from these, never from this machine's wall clock.
  let serverAt = null;
  let receivedAt = 0;
  let guardUntil = 0;
  let order = localStorage.getItem("approver.order");
  let pending = [];
  const cards = new Map(); // request id -> its card element
  const mine = new Set(); // ids this browser answered

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function serverNow() {
    if (serverAt === null) return Date.now() / 1000;
    return serverAt + (performance.now() - receivedAt) / 1000;
  }

  function remaining(seconds) {
    const whole = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
    const ss = String(s).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
  }

  function ago(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    if (s < 120) return `${s}s ago`;
    if (s < 7200) return `${Math.floor(s / 60)}m ago`;
    return `${Math.floor(s / 3600)}h ago`;
  }

  function clock(epoch) {
    return new Date(epoch * 1000).toLocaleTimeString([], { hour12: false });
  }

  function say(message) {
    const flash = $("flash");
    flash.textContent = message;
    flash.hidden = !message;
  }

  // -- one request -------------------------------------------------------------------

  function definitions(className, rows, valueTag) {
    const list = el("dl", className);
    for (const [name, value] of rows) {
      if (!value) continue;
      list.append(el("dt", null, name));
      const dd = el("dd");
      dd.append(valueTag ? el(valueTag, null, value) : document.createTextNode(value));
      list.append(dd);
    }
    return list;
  }

  function buildCard(view) {
    const card = el("article", "request");
    card.id = `request-${view.id}`;
    card.dataset.id = String(view.id);
    const head = el("header", "request-head");
    head.append(el("span", "req-id", `#${view.id}`), el("span", "event", view.event));
    if (view.tool) head.append(el("span", "tool", view.tool));
    head.append(el("span", "countdown"));
    card.append(head);
    card.append(definitions("meta", [
      ["Agent", view.session], ["Host", view.host], ["Workspace", view.workspace],
      ["Asked by", view.source], ["Asked", " "],
    ]));
    card.querySelector(".meta dd:last-of-type").classList.add("age");
    card.append(el("p", "prompt", view.prompt));
    const details = view.details.filter(([name]) => name.toLowerCase() !== "tool");
    if (details.length) card.append(definitions("details", details, "pre"));
    if (view.reason) card.append(el("p", "reason", view.reason));
    const options = el("div", "options");
    options.setAttribute("role", "group");
    options.setAttribute("aria-label", `Answers to request ${view.id}`);
    for (const option of view.options) {
      const button = el("button", `option kind-${option.kind}`, option.label);
      button.type = "button";
      button.dataset.choice = option.text;
      button.addEventListener("click", () => answer(view, option.text, card));
      options.append(button);
    }
    card.append(options);
    if (view.memory) card.append(el("p", "memory", view.memory));
    card.append(el("p", "default-note", `If nobody answers in time: ${view.default} (the default).`));
    card.append(el("p", "outcome"));
    card._view = view;
    return card;
  }

  function tickCard(card) {
    const view = card._view;
    const now = serverNow();
    card.querySelector(".age").textContent = ago(now - view.created);
    const countdown = card.querySelector(".countdown");
    if (view.deadline === null) {
      countdown.textContent = "no time limit";
      return;
    }
    const left = view.deadline - now;
    card.classList.toggle("urgent", left <= 10);
    if (left > 0) {
      countdown.textContent = `${remaining(left)} left`;
    } else if (!card.classList.contains("done")) {
      countdown.textContent = "expired";
      finish(card, `Expired: the agent applied its default (${view.default}).`);
    }
  }

  function finish(card, message) {
    card.classList.add("done");
    for (const button of card.querySelectorAll("button.option")) button.disabled = true;
    card.querySelector(".outcome").textContent = message;
  }

  function arm() {
    const now = Date.now();
    for (const card of cards.values()) {
      if (card.classList.contains("done") || card.classList.contains("sending")) continue;
      for (const button of card.querySelectorAll("button.option")) button.disabled = now < guardUntil;
    }
  }

  async function answer(view, choice, card) {
    if (Date.now() < guardUntil || card.classList.contains("done")) return;
    card.classList.add("sending");
    for (const button of card.querySelectorAll("button.option")) button.disabled = true;
    const name = $("name").value.trim();
    let reply;
    try {
      const response = await fetch("/api/answer", {
        method: "POST",
        credentials: "same-origin",
        cache: "no-store",
        headers: { "Content-Type": "application/json", "X-Approver-CSRF": session.csrf },
        body: JSON.stringify({ id: view.id, choice, name: name || null }),
      });
      reply = await response.json().catch(() => ({ won: false, message: `HTTP ${response.status}` }));
      if (response.status >= 500 || response.status === 401 || response.status === 403) {
        card.classList.remove("sending");
        card.querySelector(".outcome").textContent = reply.message;
        arm();
        return;
      }
    } catch (error) {
      card.classList.remove("sending");
      card.querySelector(".outcome").textContent = `Not sent (${error.message}); try again.`;
      arm();
      return;
    }
    card.classList.remove("sending");
    if (reply.won) {
      mine.add(view.id);
      finish(card, `You answered "${choice}".`);
      say(`Request #${view.id}: answered "${choice}".`);
    } else {
      finish(card, reply.message);
      say(reply.message);
    }
  }

  // -- the list ----------------------------------------------------------------------

  function sorted(views) {
    const copy = views.slice();
    if (order === "deadline") {
      copy.sort((a, b) => (a.deadline ?? Infinity) - (b.deadline ?? Infinity) || b.id - a.id);
    } else {
      copy.sort((a, b) => b.id - a.id);
    }
    return copy;
  }

  function renderPending(history) {
    const list = $("pending");
    const wanted = new Set(pending.map((v) => v.id));
    let moved = false;
    for (const [id, card] of cards) {
      if (wanted.has(id)) continue;
      cards.delete(id);
      card.remove();
      moved = true;
      const over = history.find((v) => v.id === id);
      if (over && over.state === "answered" && !mine.has(id)) {
        say(`Request #${id} was answered "${over.choice}" by ${over.answered_by}.`);
      }
    }
    const before = Array.from(list.children);
    for (const [index, view] of sorted(pending).entries()) {
      let card = cards.get(view.id);
      if (!card) {
        card = buildCard(view);
        cards.set(view.id, card);
        moved = true;
      }
      if (list.children[index] !== card) {
        list.insertBefore(card, list.children[index] || null);
        if (before.includes(card)) moved = true;
      }
      tickCard(card);
    }
    if (moved) {
      guardUntil = Date.now() + GUARD_MS;
      arm();
      setTimeout(arm, GUARD_MS + 20);
    }
    $("count").textContent = String(pending.length);
    $("empty").hidden = pending.length > 0;
    document.title = pending.length ? `(${pending.length}) Approvals` : "Approvals · amplifier-hooks";
  }

  function historyItem(view) {
    const item = el("li");
    item.dataset.id = String(view.id);
    const what = el("span", "what");
    what.append(el("strong", null, `#${view.id} `), document.createTextNode(view.prompt.split("\n")[0]));
    item.append(what);
    let verdict;
    if (view.state === "answered") {
      const allowed = view.options.find((o) => o.text === view.choice);
      const kind = allowed && allowed.kind.startsWith("allow") ? "allowed" : "denied";
      verdict = el("span", `verdict ${kind}`, `answered "${view.choice}"`);
      item.append(verdict, el("span", "who-when", ` by ${view.answered_by} at ${clock(view.answered_at)}`));
      if (view.outcome === "late") item.append(el("span", "who-when", " (late: not applied)"));
    } else {
      verdict = el("span", "verdict expired", `expired: default ${view.default} applied`);
      item.append(verdict);
      if (view.deadline) item.append(el("span", "who-when", ` at ${clock(view.deadline)}`));
    }
    item.append(el("span", "who-when", ` · ${view.session} on ${view.host}`));
    return item;
  }

  function renderHistory(history) {
    const list = $("history");
    list.replaceChildren(...history.map(historyItem));
    $("history-empty").hidden = history.length > 0;
  }

  function apply(state) {
    if (typeof state.now === "number") {
      serverAt = state.now;
      receivedAt = performance.now();
    }
    if (typeof state.version !== "number" || state.version <= version) return;
    version = state.version;
    const error = $("error");
    error.textContent = state.error || "";
    error.hidden = !state.error;
    if (state.loading) return;
    pending = state.pending;
    renderPending(state.history);
    renderHistory(state.history);
    document.body.dataset.version = String(version);
  }

  function showOrder() {
    const button = $("order");
    button.textContent = order === "deadline" ? "Deadline first" : "Newest first";
    button.setAttribute("aria-pressed", String(order === "deadline"));
  }

  function connection(live) {
    const node = $("connection");
    node.textContent = live ? "live" : "reconnecting";
    node.className = `connection ${live ? "live" : "down"}`;
  }

  function listen() {
    const source = new EventSource("/api/events");
    source.addEventListener("state", (event) => apply(JSON.parse(event.data)));
    source.addEventListener("open", () => connection(true));
    source.addEventListener("error", () => {
      connection(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(listen, 2000);
    });
  }

  async function start() {
    const response = await fetch("/api/session", { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) {
      $("error").textContent = "Not logged in: open the address printed by amplifier-hooks approve --web.";
      $("error").hidden = false;
      return;
    }
    session = await response.json();
    order = order === "deadline" || order === "newest" ? order : session.order;
    showOrder();
    $("store").textContent = `Store: ${session.store}`;
    const name = $("name");
    name.value = localStorage.getItem("approver.name") || session.approver;
    name.addEventListener("change", () => localStorage.setItem("approver.name", name.value.trim()));
    $("order").addEventListener("click", () => {
      order = order === "deadline" ? "newest" : "deadline";
      localStorage.setItem("approver.order", order);
      showOrder();
      renderPending([]);
    });
    const state = await fetch("/api/state", { credentials: "same-origin", cache: "no-store" });
    if (state.ok) apply(await state.json());
    listen();
    setInterval(() => { for (const card of cards.values()) tickCard(card); }, 1000);
  }

  start();
})();
