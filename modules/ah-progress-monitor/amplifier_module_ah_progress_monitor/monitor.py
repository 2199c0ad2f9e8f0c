"""The read-streak counter behind ah-progress-monitor."""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any, Literal

from amplifier_hooks import HookResult
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules import inline
from amplifier_module_ah_progress_monitor.config import ProgressMonitorConfig

logger = get_logger()

ToolKind = Literal["read", "write"]


class _Matcher:
    """Tool names as exact names or fnmatch patterns (``mcp__*__read*``); exact names are a
    set lookup so the common case stays O(1)."""

    def __init__(self, names: list[str]) -> None:
        self._exact = frozenset(n for n in names if not any(c in n for c in "*?["))
        self._patterns = tuple(n for n in names if n not in self._exact)

    def __call__(self, name: str) -> bool:
        return name in self._exact or any(fnmatchcase(name, p) for p in self._patterns)


class ProgressMonitor:
    """Counts read-only tool calls since the last write and nudges at each threshold.

    A "streak" is the run of read calls since the last write (or turn start). Each threshold
    fires at most once per streak, so the notes escalate instead of repeating; a write or a
    reset event ends the streak and re-arms every threshold. Tools that are neither reads
    nor writes (a todo update, say) leave the streak alone.
    """

    def __init__(self, config: ProgressMonitorConfig) -> None:
        self.config = config
        self._is_read = _Matcher(config.read_tools)
        self._is_write = _Matcher(config.write_tools)
        self._messages = config.level_messages
        self.streak = 0
        self.level = 0
        """How many thresholds have fired in the current streak."""
        self.reads = 0
        self.writes = 0
        self.nudges = 0

    def classify(self, tool_name: str) -> ToolKind | None:
        """``"write"``, ``"read"`` or None. Writes are checked first: when a broad read
        pattern also matches, acting is what the monitor must not discourage."""
        if self._is_write(tool_name):
            return "write"
        if self._is_read(tool_name):
            return "read"
        return None

    def reset(self) -> None:
        """End the streak (a new turn, or a write)."""
        self.streak = 0
        self.level = 0

    @inline  # plain and bounded: no coroutine per call, no thread hop (engine.offload)
    def on_tool_post(self, event: str, data: dict[str, Any]) -> HookResult | None:
        """Count the call; at a threshold, return an ephemeral note for the next LLM call."""
        tool_name = data.get("tool_name")
        if not isinstance(tool_name, str):
            return None
        kind = self.classify(tool_name)
        if kind == "write":
            self.writes += 1
            self.reset()
            return None
        if kind is None:
            return None
        self.reads += 1
        self.streak += 1
        thresholds = self.config.thresholds
        if self.level >= len(thresholds) or self.streak < thresholds[self.level]:
            return None
        index = self.level
        self.level += 1
        self.nudges += 1
        last = index == len(thresholds) - 1
        logger.info(
            "progress monitor nudge",
            hook_event=event,
            reads_in_a_row=self.streak,
            level=index + 1,
            levels=len(thresholds),
        )
        user_message = self.config.user_message
        return HookResult(
            action="inject_context",
            context_injection=self._messages[index].format(count=self.streak),
            context_injection_role=self.config.role,
            ephemeral=True,
            user_message=user_message.format(count=self.streak) if last and user_message else None,
            user_message_level=self.config.user_message_level,
        )

    @inline
    def on_reset(self, event: str, data: dict[str, Any]) -> None:
        """A turn boundary: the person spoke, so the reading so far was not wasted effort."""
        self.reset()

    def status(self) -> dict[str, Any]:
        """Counters for the status channel (a progress display pulls them)."""
        return {
            "reads_in_a_row": self.streak,
            "level": self.level,
            "levels": len(self.config.thresholds),
            "reads": self.reads,
            "writes": self.writes,
            "nudges": self.nudges,
        }
