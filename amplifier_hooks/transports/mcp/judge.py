"""`Judge`: the bundle's verdict on each MCP request, as events.

A ``tools/call`` is a ``tool:pre`` event (``tool_name`` = ``mcp__<server>__<tool>``,
``tool_input`` = the arguments), its result a ``tool:post``; a ``resources/read`` is judged
as a Read of the resource; each tool a server lists is a `TOOL_LISTED` event, whose deny
hides it. The judge never raises to the proxy: a failure is a refusal with its reason, so
nothing is forwarded unjudged. A bundle that cannot load gives a judge that refuses every
call (`Judge.refusing`), so that the client reads why, instead of a server that vanished.

A verdict comes as a `Reply` whose background is the event's observers (the event log):
the proxy forwards the call, or answers the client, first, and then finishes it, so that
their work is not on the path of the answer the client waits for. An event that no
handler and no observer takes is not dispatched at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from amplifier_hooks import events
from amplifier_hooks.approvals.auto import HostAsking, behind_host
from amplifier_hooks.approvals.redact import SCRUB_CAPABILITY
from amplifier_hooks.engine.channels import OBSERVABILITY_EVENTS, ContributionChannels
from amplifier_hooks.engine.reply import Reply
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.hosts.outcomes import context_texts
from amplifier_hooks.hosts.sessions import HostDelivers
from amplifier_hooks.logs import get_logger
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.session.outcome import Outcome
from amplifier_hooks.transports.mcp.names import mcp_tool_name

__all__ = ["HOST_NAME", "READ_TOOL", "TOOL_LISTED", "Judge", "Judged", "Processed"]

logger = get_logger()

HOST_NAME = "mcp"
"""``host.name`` in the data of every event the proxy sends."""

TOOL_LISTED = "mcp:tool_listed"
"""One per tool a server lists, before the client sees the list: a deny hides the tool.
Its data is that of a ``tool:pre`` without arguments, plus the tool's ``description``."""

READ_TOOL = "read_file"
"""The canonical tool a ``resources/read`` is judged as."""


class Judged(NamedTuple):
    """The verdict on one request: forward it (with these arguments) or refuse it."""

    allowed: bool
    arguments: dict[str, Any]
    reason: str | None = None


class Processed(NamedTuple):
    """A result after ``tool:post``: what the client may see, or why it may see nothing."""

    allowed: bool
    result: dict[str, Any]
    reason: str | None = None
    notes: tuple[str, ...] = ()
    """Texts injected by handlers, for the result's content."""


Scrub = Callable[[Any], Any]


class Judge:
    """One coordinator for the proxy's whole life (a proxy serves one client session)."""

    def __init__(
        self, coordinator: Coordinator | None, server: str, workspace: str, refusal: str = ""
    ) -> None:
        self.coordinator = coordinator
        self.server = server
        self.workspace = workspace
        self.refusal = refusal
        """Why every call is refused (a bundle that cannot load); empty when judging."""

    @classmethod
    async def open(
        cls, bundle: object, server: str, workspace: str, **coordinator_kwargs: Any
    ) -> Judge:
        """A judge with ``bundle`` loaded, its session started; a refusing judge saying
        why when the bundle cannot load."""
        channels = ContributionChannels()
        # Modules subscribe to custom events they are told of (ah-approval's rules on
        # `TOOL_LISTED`), so the proxy says it sends one before the modules are ready.
        channels.register_contributor(OBSERVABILITY_EVENTS, "mcp-proxy", lambda: [TOOL_LISTED])
        try:
            coordinator = await Coordinator.from_bundle(
                bundle, channels=channels, context_sink=HostDelivers(), **coordinator_kwargs
            )
        except Exception as exc:
            why = f"the bundle cannot load, so every call is refused: {describe_exception(exc)}"
            logger.error("mcp proxy bundle failed", server=server, error=why)
            return cls.refusing(server, workspace, why)
        judge = cls(coordinator, server, workspace)
        await coordinator.dispatch(
            events.SESSION_START, {"workspace": workspace, "host": judge._host(None)}
        )
        return judge

    @classmethod
    def refusing(cls, server: str, workspace: str, reason: str) -> Judge:
        """A judge that refuses everything with ``reason``."""
        return cls(None, server, workspace, reason)

    def _host(self, tool: str | None, method: str = "tools/call") -> dict[str, Any]:
        return {"name": HOST_NAME, "server": self.server, "method": method, "tool_name": tool}

    def tool_data(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The ``tool:pre`` data of a call of ``tool`` with ``arguments``."""
        return {
            "tool_name": mcp_tool_name(self.server, tool),
            "tool_input": dict(arguments),
            "workspace": self.workspace,
            "host": self._host(tool),
        }

    async def call(
        self, tool: str, arguments: Mapping[str, Any], asking: HostAsking
    ) -> Reply[Judged]:
        """The bundle's verdict on calling ``tool`` with ``arguments`` (finish it once the
        call is forwarded or refused)."""
        return await self._judge(self.tool_data(tool, arguments), asking)

    async def read(self, uri: str, asking: HostAsking) -> Reply[Judged]:
        """The verdict on reading the resource ``uri``: a Read of its path (``file://``),
        else a Read of the URI."""
        return await self._judge(self.read_data(uri), asking)

    def read_data(self, uri: str) -> dict[str, Any]:
        """The ``tool:pre`` data of a ``resources/read`` of ``uri``."""
        parts = urlsplit(uri)
        inputs: dict[str, Any] = {"uri": uri}
        if parts.scheme == "file" and parts.netloc in ("", "localhost"):
            path = unquote(parts.path)
            inputs = {"file_path": path, "path": path}
        return {
            "tool_name": READ_TOOL,
            "tool_input": inputs,
            "workspace": self.workspace,
            "host": self._host(None, "resources/read"),
        }

    def _heard(self, coordinator: Coordinator, event: str) -> bool:
        """Whether dispatching ``event`` can do anything: a handler takes it, or an
        observer is told of it (with neither, the outcome is "allowed, unchanged")."""
        return bool(coordinator.observers) or bool(coordinator.hooks.list_handlers(event)[event])

    async def _judge(self, data: dict[str, Any], asking: HostAsking) -> Reply[Judged]:
        original = data["tool_input"]
        coordinator = self.coordinator
        if coordinator is None:
            return Reply(Judged(False, original, self.refusal))
        if not self._heard(coordinator, events.TOOL_PRE):
            return Reply(Judged(True, original))
        try:
            with behind_host(asking):
                replied = await coordinator.reply(events.TOOL_PRE, data)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            logger.error("mcp proxy judging failed", error=describe_exception(exc), exc_info=True)
            return Reply(
                Judged(False, original, f"amplifier-hooks failed to judge this call: {exc}")
            )
        outcome = replied.answer
        if not outcome.allowed:
            return replied.with_answer(
                Judged(False, original, outcome.reason or "denied by amplifier-hooks")
            )
        changed = outcome.data.get("tool_input", original)
        if not isinstance(changed, dict):
            why = "a hook changed the arguments into something not an object"
            return replied.with_answer(Judged(False, original, why))
        return replied.with_answer(Judged(True, changed))

    async def result(self, data: dict[str, Any], result: dict[str, Any]) -> Reply[Processed]:
        """``result`` (a ``tools/call`` or ``resources/read`` result as JSON) scrubbed by
        the bundle's scrubber, then through ``tool:post`` (finish it once the client has
        its answer); ``data`` is the call's ``tool:pre`` data, with the arguments sent.
        Scrubbed first, so that no handler (nor the event log) holds a secret the client
        will not see."""
        coordinator = self.coordinator
        if coordinator is None:
            return Reply(Processed(False, result, self.refusal))
        replied: Reply[Outcome] | None = None
        try:
            found = coordinator.get_capability(SCRUB_CAPABILITY)
            scrub: Scrub | None = found if callable(found) else None
            shown = result if scrub is None else scrub_result(result, scrub)
            if not self._heard(coordinator, events.TOOL_POST):
                return Reply(Processed(True, shown))
            post = {**data, "tool_result": shown, "result": shown}
            replied = await coordinator.reply(events.TOOL_POST, post)
            outcome = replied.answer
            if not outcome.allowed:
                why = outcome.reason or "withheld by amplifier-hooks"
                return replied.with_answer(
                    Processed(False, result, f"the result was withheld: {why}")
                )
            changed = _changed_result(outcome.data, shown)
            if changed is not shown and scrub is not None:  # a handler's own text
                changed = scrub_result(changed, scrub)
            texts, _ = context_texts(outcome)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            logger.error("mcp proxy result failed", error=describe_exception(exc), exc_info=True)
            failed = Processed(False, result, f"amplifier-hooks failed on this result: {exc}")
            return Reply(failed) if replied is None else replied.with_answer(failed)
        return replied.with_answer(Processed(True, changed, notes=tuple(t for t in texts if t)))

    async def hidden(self, tools: list[tuple[str, str]]) -> set[str]:
        """The names among ``tools`` (name, description) that the bundle hides."""
        if self.coordinator is None:
            return set()
        gone: set[str] = set()
        for name, description in tools:
            data = {**self.tool_data(name, {}), "description": description}
            data["host"]["method"] = "tools/list"
            try:
                resolution = await self.coordinator.hooks.emit(TOOL_LISTED, data)
            except Exception as exc:
                logger.error("mcp proxy listing failed", error=describe_exception(exc))
                gone.add(name)  # a hook that cannot say whether to hide a tool hides it
                continue
            if resolution.action == "deny":
                gone.add(name)
        return gone

    async def aclose(self) -> None:
        """End the session: ``session:end``, then the modules' cleanups."""
        coordinator = self.coordinator
        if coordinator is None:
            return
        self.coordinator = None
        self.refusal = "the proxy is shutting down"
        try:
            await coordinator.dispatch(events.SESSION_END, {"host": self._host(None)})
        finally:
            await coordinator.cleanup()


def _changed_result(data: Mapping[str, Any], original: dict[str, Any]) -> dict[str, Any]:
    """The result as handlers left it: ``tool_result`` or ``result``, whichever changed."""
    for key in ("tool_result", "result"):
        value = data.get(key)
        if value is not original and isinstance(value, dict):
            return value
    return original


def scrub_result(result: dict[str, Any], scrub: Scrub) -> dict[str, Any]:
    """``result`` with ``scrub`` applied to every text block, embedded text resource and
    the structured content (the same object when nothing changed). One look at every text
    at once first, when the scrubber offers it (``scrub.unchanged``): most results hold
    no secret."""
    blocks = [b for key in ("content", "contents") for b in _listed(result.get(key))]
    unchanged = getattr(scrub, "unchanged", None)
    texts = [t for b in blocks for t in _texts(b)] + _strings(result.get("structuredContent"))
    if callable(unchanged) and unchanged(texts):
        return result
    shown = dict(result)
    for key in ("content", "contents"):
        if isinstance(result.get(key), list):
            shown[key] = [_scrub_block(block, scrub) for block in result[key]]
    if "structuredContent" in result:
        shown["structuredContent"] = scrub(result["structuredContent"])
    return shown


def _strings(value: object) -> list[str]:
    """Every string in ``value`` (JSON data), keys included; iterative, for any depth."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _listed(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _texts(block: object) -> list[str]:
    if not isinstance(block, dict):
        return []
    if isinstance(block.get("text"), str):
        return [block["text"]]
    inner = block.get("resource")
    if isinstance(inner, dict) and isinstance(inner.get("text"), str):
        return [inner["text"]]
    return []


def _scrub_block(block: object, scrub: Scrub) -> object:
    if not isinstance(block, dict):
        return block
    if isinstance(block.get("text"), str):
        return {**block, "text": scrub(block["text"])}
    inner = block.get("resource")
    if isinstance(inner, dict) and isinstance(inner.get("text"), str):
        return {**block, "resource": {**inner, "text": scrub(inner["text"])}}
    return block
