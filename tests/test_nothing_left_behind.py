"""A real agent CLI run by the tests leaves nothing outside its sandbox.

Each run happens in a mount namespace of its own (`tests/private_tmp.py`) where the
machine's shared scratch places (``/tmp``, ``/var/tmp``, ``/dev/shm``) are empty folders
this test watches; only the test run's own folders are bound back in (the sandbox lives
in one). What another process or user does in the real ``/tmp`` meanwhile is not seen, so
whatever turns up in a watched folder was left by the agent (or what it started): Claude
Code's ``claude-<uid>`` and ``cc-socks``, Node's ``node-compile-cache``, the native
libraries a Bun binary unpacks, when their sandbox does not give them a ``TMPDIR`` of
their own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from amplifier_hooks.testing.agent_process import AgentOutput
from amplifier_hooks.testing.chat_completions import ScriptedChat, opencode_bash
from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.codex import Codex
from amplifier_hooks.testing.copilot_cli import CopilotCli
from amplifier_hooks.testing.gemini_api import ScriptedGemini, run_shell_command
from amplifier_hooks.testing.gemini_cli import GeminiCli
from amplifier_hooks.testing.messages_api import ScriptedModel, bash
from amplifier_hooks.testing.opencode_cli import OpenCodeCli
from amplifier_hooks.testing.responses_api import ScriptedResponses, copilot_bash, exec_command
from amplifier_hooks.testing.sandbox import AgentSandbox
from amplifier_hooks.testing.turns import Turn
from tests.unavailable import agent_cli, unavailable

pytestmark = pytest.mark.timeout(400)

LAUNCHER = Path(__file__).with_name("private_tmp.py")
SHARED = ("/tmp", "/var/tmp", "/dev/shm")
"""The places every program may write that another user (or a later run) can see."""
DONE = Turn("Finished.")


class Watched:
    """The shared places, each replaced by an empty folder under ``root`` for whatever
    runs through `command`; the test run's own folders under ``/tmp`` (``needed``) are
    bound back in, so the sandbox and the hook servers' runtime are where they were."""

    def __init__(self, root: Path, needed: Sequence[Path]) -> None:
        self.folders = {place: root / place.strip("/").replace("/", "-") for place in SHARED}
        self.kept = {p.relative_to("/tmp").parts[0] for p in needed if p.is_relative_to("/tmp")}
        self.binds: list[str] = []
        for folder in self.folders.values():
            folder.mkdir(parents=True, mode=0o700)
        for name in sorted(self.kept):
            (self.folders["/tmp"] / name).mkdir()
            self.binds += [f"/tmp/{name}", str(self.folders["/tmp"] / name)]
        for place, folder in self.folders.items():
            if os.path.isdir(place):
                self.binds += [str(folder), place]

    def command(self, program: Sequence[str]) -> list[str]:
        """``program`` run with the shared places replaced."""
        return [sys.executable, str(LAUNCHER), *self.binds, "--", *program]

    def left(self) -> list[str]:
        """Everything the program left in a shared place (the bound-back folders'
        mount points, still empty, are not)."""
        found = []
        for place, folder in self.folders.items():
            for name in sorted(os.listdir(folder)):
                if place == "/tmp" and name in self.kept and not os.listdir(folder / name):
                    continue
                found.append(f"{place}/{name}")
        return found


def watching(sandbox: AgentSandbox, watched: Watched) -> None:
    """Make ``sandbox`` run its agent through ``watched`` (its `launch` wrapped)."""
    launch = sandbox.launch

    async def watched_launch(
        command: Sequence[str], env: Mapping[str, str], timeout: float | None = None
    ) -> AgentOutput:
        return await launch(watched.command(command), env, timeout)

    sandbox.launch = watched_launch  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def namespaces() -> None:
    """A mount namespace can be made here (as root, or in a user namespace of one's own:
    some systems forbid those to other users), or the tests say why they cannot run."""
    done = subprocess.run(
        [sys.executable, str(LAUNCHER), "--", "true"], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        unavailable(f"cannot make a mount namespace here: {done.stderr.strip()[-300:]}")


CHECKOUT = Path(__file__).resolve().parents[1]


@pytest.fixture
def watched(namespaces: None, tmp_path: Path) -> Watched:
    runtime = Path(os.environ.get("XDG_RUNTIME_DIR", str(tmp_path)))
    # The checkout, its environment and the installed CLIs stay where they are, wherever
    # they live (a clean checkout may itself be under /tmp).
    programs = [CHECKOUT, Path(sys.prefix).resolve(), (CHECKOUT / ".cache").resolve()]
    return Watched(tmp_path / "watched", [tmp_path, runtime, *programs])


async def test_the_watch_sees_what_a_program_leaves_in_tmp_and_not_the_machines(
    watched: Watched, tmp_path: Path
) -> None:
    """The check can fail: a program that writes into /tmp whatever its TMPDIR says is
    caught, and its file is in the watched folder, never in the machine's /tmp."""
    name = f"ah-leak-{os.getpid()}-{tmp_path.name}"
    writes = "import sys; open(sys.argv[1], 'w').write('left')"
    sandbox = AgentSandbox(sys.executable, tmp_path / "box")
    watching(sandbox, watched)
    done = await sandbox.launch(
        [sys.executable, "-c", writes, f"/tmp/{name}"], {"TMPDIR": str(tmp_path)}
    )

    assert done.returncode == 0, done.stderr
    assert watched.left() == [f"/tmp/{name}"]
    assert name not in os.listdir("/tmp")
    assert (watched.folders["/tmp"] / name).read_text() == "left"


async def test_claude_code_leaves_nothing_outside_its_sandbox(
    watched: Watched, tmp_path: Path
) -> None:
    claude = ClaudeCode(agent_cli("Claude Code", "claude-code", "claude"), tmp_path / "claude")
    watching(claude, watched)
    turns = (Turn(bash("echo made > made.txt")), DONE)
    async with ScriptedModel(*turns) as model:
        done = await claude.run("Go ahead.", model, args=["--allowedTools", "Bash"])

    assert done.returncode == 0, done.describe()
    assert (claude.project / "made.txt").read_text() == "made\n"
    assert watched.left() == []


async def test_copilot_cli_leaves_nothing_outside_its_sandbox(
    watched: Watched, tmp_path: Path
) -> None:
    copilot = CopilotCli(agent_cli("Copilot CLI", "copilot", "copilot"), tmp_path / "copilot")
    watching(copilot, watched)
    async with ScriptedResponses(Turn(copilot_bash("echo made > made.txt")), DONE) as model:
        done = await copilot.run("Go ahead.", model)

    assert done.returncode == 0, done.describe()
    assert (copilot.project / "made.txt").read_text() == "made\n"
    assert watched.left() == []


async def test_opencode_leaves_nothing_outside_its_sandbox(
    watched: Watched, tmp_path: Path
) -> None:
    opencode = OpenCodeCli(
        agent_cli("OpenCode", "opencode", "opencode"), tmp_path / "opencode", timeout=300.0
    )
    watching(opencode, watched)
    async with ScriptedChat(Turn(opencode_bash("echo made > made.txt")), DONE) as model:
        opencode.configure(model)
        done = await opencode.run("Go ahead.", model)

    assert done.returncode == 0, done.describe()
    assert (opencode.project / "made.txt").read_text() == "made\n"
    assert watched.left() == []


async def test_codex_leaves_nothing_outside_its_sandbox(watched: Watched, tmp_path: Path) -> None:
    codex = Codex(agent_cli("Codex", "codex", "codex"), tmp_path / "codex", timeout=90.0)
    watching(codex, watched)
    async with ScriptedResponses(Turn(exec_command("echo made > made.txt")), DONE) as model:
        codex.configure(model)
        done = await codex.run("Go ahead.", model)

    assert done.returncode == 0, done.describe()
    assert (codex.project / "made.txt").read_text() == "made\n"
    assert watched.left() == []


async def test_gemini_cli_leaves_nothing_outside_its_sandbox(
    watched: Watched, tmp_path: Path
) -> None:
    gemini = GeminiCli(agent_cli("Gemini CLI", "gemini-cli", "gemini"), tmp_path / "gemini")
    watching(gemini, watched)
    async with ScriptedGemini(Turn(run_shell_command("echo made > made.txt")), DONE) as model:
        done = await gemini.run("Go ahead.", model)

    assert done.returncode == 0, done.describe()
    assert (gemini.project / "made.txt").read_text() == "made\n"
    assert watched.left() == []
