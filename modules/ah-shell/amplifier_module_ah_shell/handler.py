"""One configured command as a hook handler."""

from __future__ import annotations

import os
from typing import Any

from amplifier_hooks import HookResult
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules import side_effects_allowed
from amplifier_module_ah_shell.answer import AnswerError, interpret
from amplifier_module_ah_shell.config import ShellConfig, ShellHookSpec
from amplifier_module_ah_shell.payload import build_env, build_payload, encode_payload
from amplifier_module_ah_shell.runner import CommandError, run_command

logger = get_logger()


class ShellHookError(RuntimeError):
    """A command hook failed: it could not start, timed out, crashed, or answered garbage.

    Raised out of the handler on purpose: the registry logs it and applies the hook's
    ``fail_closed`` setting, the same rule as for every other failing handler.
    """


class SessionInfo:
    """What the module learned from ``session:start``: later events may not carry it."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.workspace: str | None = None

    async def on_session_start(self, event: str, data: dict[str, Any]) -> None:
        session_id, workspace = data.get("session_id"), data.get("workspace")
        if isinstance(session_id, str):
            self.session_id = session_id
        if isinstance(workspace, str):
            self.workspace = workspace


class ShellHook:
    """Runs one command for matching events and maps its answer to a `HookResult`."""

    def __init__(
        self,
        spec: ShellHookSpec,
        name: str,
        config: ShellConfig,
        session: SessionInfo,
        *,
        coordinator: Any = None,
    ) -> None:
        self.spec = spec
        self._coordinator = coordinator  # asked at each call whether this is a replay
        self.name = name
        self.__name__ = name  # what the registry and its logs call this handler
        self._config = config
        self._session = session
        self._pattern = spec.pattern
        self._cwd = spec.cwd or config.cwd
        self._env = {**config.env, **spec.env}

    def matches(self, data: dict[str, Any]) -> bool:
        """True if the command should run for this event's data.

        With a matcher, only events that name a tool can match (``re.search`` on
        ``tool_name``); without one, every emit of the event runs the command.
        """
        if self._pattern is None:
            return True
        tool_name = data.get("tool_name")
        return isinstance(tool_name, str) and self._pattern.search(tool_name) is not None

    def _resolve_cwd(self, data: dict[str, Any]) -> str:
        if self._cwd:
            return os.path.abspath(os.path.expanduser(self._cwd))
        workspace = data.get("workspace")
        for candidate in (workspace, self._session.workspace):
            if isinstance(candidate, str) and os.path.isdir(candidate):
                return os.path.abspath(candidate)
        return os.getcwd()

    async def __call__(self, event: str, data: dict[str, Any]) -> HookResult | None:
        if not self.matches(data):
            return None
        session_id = data.get("session_id")
        if not isinstance(session_id, str):
            session_id = self._session.session_id
        cwd = self._resolve_cwd(data)
        if not side_effects_allowed(self._coordinator):
            # A replay: the command could rewrite files or call out; say what would run.
            return HookResult(
                action="continue",
                user_message=f"replay: not run (in {cwd}): {self.spec.command}",
                user_message_level="info",
            )
        payload = build_payload(
            event, data, session_id=session_id, cwd=cwd, event_names=self._config.event_names
        )
        env = build_env(
            os.environ,
            self._env,
            event=event,
            handler=self.name,
            cwd=cwd,
            session_id=session_id,
            tool_name=data.get("tool_name"),
        )
        try:
            completed = await run_command(
                (self._config.shell, "-c", self.spec.command),
                stdin=encode_payload(payload),
                cwd=cwd,
                env=env,
                timeout=self.spec.timeout,
                max_output=self._config.max_output_bytes,
            )
            result = interpret(
                completed,
                event,
                data,
                name=self.name,
                plain_stdout=self.spec.plain_stdout,
                ephemeral=self.spec.ephemeral,
            )
        except (CommandError, AnswerError) as exc:
            raise ShellHookError(f"shell hook {self.name!r}: {exc}") from None
        logger.debug(
            "shell hook ran",
            handler=self.name,
            hook_event=event,
            returncode=completed.returncode,
            action=result.action if result is not None else "continue",
            duration_ms=round(completed.duration * 1000, 1),
        )
        return result
