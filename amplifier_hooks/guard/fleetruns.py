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
from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["FLEET_RUNS", "FLEET_TOOLS", "looked_command", "with_fleet_commands"]

FLEET_RUNS = "a fleet tool runs it on many machines at once"
_CMD_FUNCTIONS = frozenset({"cmd.run", "cmd.shell", "cmd.run_all", "cmd.run_stdout",
                            "cmd.run_stderr", "cmd.powershell", "cmd.exec_code"})  # fmt: skip
_SALT = opts(
    "-t,--timeout= -b,--batch,--batch-size= -c,--config-dir= --out,--output= "
    "-d,--delimiter= --return= -l,--log-level= --out-file= -G -E -L -C -N -I -S -R"
)
"""salt's options that take a value (``-t 30``, ``-b 10%``), and its targeting switches."""
_SHELL_MODULES = frozenset({"shell", "command", "raw", "ansible.builtin.shell",
                            "ansible.builtin.command", "ansible.builtin.raw"})  # fmt: skip
_ANSIBLE = opts(
    "-m,--module-name=:module -a,--args=:args -i,--inventory= -u,--user= "
    "-f,--forks= -e,--extra-vars= -l,--limit= -t,--tree= -B,--background= "
    "-P,--poll= --become-user= --vault-password-file= --vault-id= "
    "--private-key= -T,--timeout= -c,--connection= -M,--module-path= "
    "-b,--become -K,--ask-become-pass -k,--ask-pass -v,--verbose -o,--one-line "
    "-C,--check -D,--diff"
)
_KNIFE = opts(
    "-x,--ssh-user= -i,--ssh-identity-file= -a,--attribute= -C,--concurrency= "
    "-p,--ssh-port= -G,--ssh-gateway= -m,--manual-list -A,--forward-agent"
)
_PARALLEL = opts("-h,--hosts= -H,--host= -l,--user= -p,--par= -o,--outdir= -e,--errdir= "
                 "-t,--timeout= -x,--extra-args= -X,--extra-arg= -O,--option= -w= -g= -R= "
                 "-u= -f= -N= --worker= -i,--inline -P,--print -b -B -L -a -A",
                 permute=False)  # fmt: skip
"""pssh's, pdsh's and clush's options up to the command, which runs to the end."""
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
        words = read_options(_SALT, args).operands
        if len(words) < 3:
            return None
        if words[1] in _CMD_FUNCTIONS:
            return words[2]
        if words[1] == "cmd.script" and words[2].startswith(("http://", "https://")):
            return f"curl -fsSL {words[2]} | sh"
        return None
    if program == "ansible":  # `-a` alone: the command module's arguments
        read = read_options(_ANSIBLE, args)
        module = (read.values("module") or ("command",))[-1]
        given = read.values("args")
        return given[-1] if given and module in _SHELL_MODULES else None
    if program == "knife":
        words = read_options(_KNIFE, args).operands
        return words[2] if words[:1] == ("ssh",) and len(words) >= 3 else None
    if program in ("pssh", "parallel-ssh", "pdsh", "clush"):
        words = read_options(_PARALLEL, args).operands
        return " ".join(words) if words else None
    return None


_PLACING = {
    "ansible": frozenset({"-m", "-a", "-i", "-u", "-f", "-l", "-T", "-b", "-K", "-k", "-v", "-o",
                          "--become-user", "--private-key"}),
    "pdsh": frozenset({"-w", "-g", "-l", "-t", "-u", "-f", "-N", "-b", "-B", "-L"}),
    "clush": frozenset({"-w", "-g", "-l", "-t", "-u", "-f", "-N", "-b", "-B", "-L"}),
    "salt": frozenset({"-t", "-b", "--out", "-l", "-G", "-E", "-L", "-C", "-N", "-I", "-S"}),
}  # fmt: skip
"""Per fleet tool, the options that say only where, as whom and how its output reads (no
``-e`` variables, module path, connection plugin, extra ssh options or config folder)."""


_SPECS = {"ansible": _ANSIBLE, "pdsh": _PARALLEL, "clush": _PARALLEL, "salt": _SALT}


def looked_command(program: str | None, args: tuple[str, ...]) -> str | None:
    """The command a fleet tool runs on its machines when every option it is given only
    says where and how (`_PLACING`); None: another option, or no command."""
    spec = _SPECS.get(program or "")
    if spec is None:
        return None
    read = read_options(spec, args)
    if read.doubt is not None:
        return None
    if any(given.opt.names[0] not in _PLACING[program or ""] for given in read.given):
        return None
    return _command(program or "", args)
