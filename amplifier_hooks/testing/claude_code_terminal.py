"""Run the real Claude Code interactively, in a pseudo-terminal, as a person would.

`ClaudeCode` runs ``claude -p``, where nobody can answer Claude Code's own permission
prompt. `ClaudeCodeTerminal` starts the same sandbox without ``-p`` on a pseudo-terminal,
so that the prompt a hook's "ask" brings up can be seen (`wait_for` a text on the
screen) and answered (`press` a key). The sandbox's config says what a person would have
said on a first start (the theme, trust in the project folder, the scripted model's key),
so the session goes straight to the prompt it is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import pty
import re
import signal
import struct
import termios
from collections.abc import Mapping
from typing import Final

from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.messages_api import ScriptedModel

__all__ = ["ClaudeCodeTerminal", "screen_text"]

ROWS: Final = 50
COLUMNS: Final = 160
_ESCAPES = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: the window title, links
    r"|\x1b[()][0-9A-Za-z]"  # character sets
    r"|\x1b[=>78MNOPc]"  # other single escapes
)


def screen_text(raw: bytes) -> str:
    """What a terminal shows of ``raw``, roughly: its text without escape sequences
    (Claude Code redraws by moving the cursor, so spaces between words may be lost)."""
    return _ESCAPES.sub("", raw.decode("utf-8", "replace"))


def _compact(text: str) -> str:
    return "".join(text.split())


class ClaudeCodeTerminal:
    """``async with ClaudeCodeTerminal(claude, model, "prompt") as tty:`` -- a running
    interactive session; stopped (with its hooks) on exit."""

    def __init__(
        self,
        claude: ClaudeCode,
        model: ScriptedModel,
        prompt: str,
        *,
        env: Mapping[str, str] = {},
        args: tuple[str, ...] = (),
    ) -> None:
        self.claude = claude
        self.model = model
        self.prompt = prompt
        self.env = dict(env)
        self.args = args
        self.output = bytearray()
        self._changed = asyncio.Event()
        self._master: int | None = None
        self._process: asyncio.subprocess.Process | None = None

    @property
    def screen(self) -> str:
        """Everything shown so far, as text."""
        return screen_text(bytes(self.output))

    def _first_start_answers(self) -> None:
        config = {
            "hasCompletedOnboarding": True,
            "theme": "dark",
            "customApiKeyResponses": {"approved": [self.model.api_key[-20:]], "rejected": []},
            "projects": {str(self.claude.project): {"hasTrustDialogAccepted": True}},
        }
        (self.claude.config_dir / ".claude.json").write_text(json.dumps(config))

    async def __aenter__(self) -> ClaudeCodeTerminal:
        self._first_start_answers()
        master, child = pty.openpty()
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = self.claude.environment(self.model, {"TERM": "xterm-256color", **self.env})
        try:
            self._process = await asyncio.create_subprocess_exec(
                str(self.claude.binary),
                *self.args,
                self.prompt,
                cwd=self.claude.project,
                env=env,
                stdin=child,
                stdout=child,
                stderr=child,
                start_new_session=True,
            )
        finally:
            os.close(child)
        self._master = master
        asyncio.get_running_loop().add_reader(master, self._read)
        return self

    def _read(self) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, 65536)
        except OSError:  # the session ended: the terminal is gone
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self._master)
        self.output.extend(data)
        self._changed.set()

    async def wait_for(self, text: str, timeout: float = 45.0) -> None:
        """Return once ``text`` is on the screen, whitespace aside (a redraw may drop
        it; ``text`` must be on one line of the screen); `TimeoutError` (with the
        screen's end) after ``timeout`` seconds."""
        wanted = _compact(text)
        try:
            async with asyncio.timeout(timeout):
                while wanted not in _compact(self.screen):
                    if self._process is not None and self._process.returncode is not None:
                        raise AssertionError(f"Claude Code exited before showing {text!r}")
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            shown = self.screen[-1500:]
            raise TimeoutError(f"{text!r} not shown; the screen ends: {shown!r}") from None

    def press(self, keys: str) -> None:
        """Type ``keys`` (``"1"``, ``"\\r"``) into the session."""
        assert self._master is not None
        os.write(self._master, keys.encode())

    async def __aexit__(self, *exc: object) -> None:
        process, master = self._process, self._master
        if process is not None and process.returncode is None:
            # Claude Code ends its hooks on SIGTERM (they run in sessions of their own).
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                async with asyncio.timeout(10):
                    await process.wait()
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                await process.wait()
        if master is not None:
            asyncio.get_running_loop().remove_reader(master)
            os.close(master)
            self._master = None
