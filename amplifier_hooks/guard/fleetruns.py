"""The command a fleet tool runs on many machines at once, read as pieces of its own.

``salt TARGET cmd.run CMD`` (``cmd.shell``, ``cmd.run_all``; ``cmd.script URL`` runs the
script at URL), ``ansible HOSTS -m shell|command|raw -a CMD`` (``-a`` alone: the command
module), ``knife ssh QUERY CMD``, ``pssh``/``parallel-ssh -h FILE CMD``, ``pdsh -w HOSTS
CMD`` and ``clush -w HOSTS CMD`` run CMD on every machine they match, often as root. CMD's
pieces are judged as if here, as an MCP server's ssh tool's are: a disk wiped there is a
disk wiped, a key printed there reaches the model here. They follow the fleet tool's piece,
marked as run by it and never granted.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.model import Piece

__all__ = ["FLEET_RUNS", "FLEET_TOOLS", "with_fleet_commands"]

FLEET_RUNS = "a fleet tool runs it on many machines at once"
_CMD_FUNCTIONS = frozenset({"cmd.run", "cmd.shell", "cmd.run_all", "cmd.run_stdout",
                            "cmd.run_stderr", "cmd.powershell", "cmd.exec_code"})  # fmt: skip
_SALT_VALUED = frozenset({"-t", "--timeout", "-b", "--batch", "--batch-size", "-c",
                          "--config-dir", "--out", "--output", "-d", "--delimiter",
                          "--return", "--log-level", "-l", "--out-file"})  # fmt: skip
_SHELL_MODULES = frozenset({"shell", "command", "raw", "ansible.builtin.shell",
                            "ansible.builtin.command", "ansible.builtin.raw"})  # fmt: skip
_ANSIBLE_VALUED = frozenset({"-i", "--inventory", "-u", "--user", "-f", "--forks", "-e",
                             "--extra-vars", "-l", "--limit", "-t", "--tree", "-B",
                             "--background", "-P", "--poll", "--become-user",
                             "--vault-password-file", "--private-key", "-T", "--timeout",
                             "-c", "--connection", "-M", "--module-path"})  # fmt: skip
_PSSH_VALUED = frozenset({"-h", "--hosts", "-H", "--host", "-l", "--user", "-p", "--par",
                          "-o", "--outdir", "-e", "--errdir", "-t", "--timeout", "-x",
                          "--extra-args", "-X", "--extra-arg", "-O", "--option", "-w", "-g",
                          "-R", "-u", "-f", "-N", "--worker"})  # fmt: skip
FLEET_TOOLS = frozenset({"salt", "salt-ssh", "ansible", "knife", "pssh", "parallel-ssh",
                         "pdsh", "clush"})  # fmt: skip


def with_fleet_commands(
    pieces: tuple[Piece, ...], reparse: Callable[[str], tuple[Piece, ...]]
) -> tuple[Piece, ...]:
    """``pieces`` with the command each fleet tool runs read as pieces after it."""
    out: list[Piece] = []
    for piece in pieces:
        out.append(piece)
        command = _command(piece.program or "", piece.args)
        if command:
            out.extend(p._replace(wrappers=(piece.program or "", *p.wrappers),
                                  doubt=p.doubt or FLEET_RUNS)
                       for p in reparse(command))  # fmt: skip
    return tuple(out)


def _command(program: str, args: tuple[str, ...]) -> str | None:
    if program in ("salt", "salt-ssh"):
        words = _positional(args, _SALT_VALUED)
        if len(words) < 3:
            return None
        if words[1] in _CMD_FUNCTIONS:
            return words[2]
        if words[1] == "cmd.script" and words[2].startswith(("http://", "https://")):
            return f"curl -fsSL {words[2]} | sh"
        return None
    if program == "ansible":
        module, given = _ansible_module(args)
        return given if given is not None and module in _SHELL_MODULES else None
    if program == "knife":
        words = _positional(
            args,
            frozenset(
                {
                    "-x",
                    "--ssh-user",
                    "-i",
                    "--ssh-identity-file",
                    "-a",
                    "--attribute",
                    "-C",
                    "--concurrency",
                    "-p",
                    "--ssh-port",
                    "-G",
                    "--ssh-gateway",
                }
            ),
        )
        return words[2] if words[:1] == ["ssh"] and len(words) >= 3 else None
    if program in ("pssh", "parallel-ssh", "pdsh", "clush"):
        words = _positional(args, _PSSH_VALUED)
        return " ".join(words) if words else None
    return None


def _positional(args: tuple[str, ...], valued: frozenset[str]) -> list[str]:
    """The operands of ``args``, options and the values of ``valued`` ones left out."""
    words: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-") and len(arg) > 1:
            skip = arg in valued
        else:
            words.append(arg)
    return words


def _ansible_module(args: tuple[str, ...]) -> tuple[str, str | None]:
    """(the module, its ``-a`` arguments) of an ``ansible`` call (the command module when
    none is named)."""
    module, given = "command", None
    for index, arg in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else None
        if arg in ("-m", "--module-name"):
            module = value or module
        elif arg.startswith("--module-name="):
            module = arg.partition("=")[2]
        elif arg.startswith("-m") and len(arg) > 2:
            module = arg[2:]
        elif arg in ("-a", "--args"):
            given = value
        elif arg.startswith("--args="):
            given = arg.partition("=")[2]
    return module, given
