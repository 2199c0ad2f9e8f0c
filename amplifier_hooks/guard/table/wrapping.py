"""The options of the wrappers a call may be granted under (``env``, ``nice``,
``timeout``, ``time``, ``stdbuf``, ...): read with the table's option reader, up to the
wrapped command (`wrappers.skip_options`).

Each reads its options with getopt and stops at its first operand (the command, or
``timeout``'s duration first). An option listed with the role ``risky`` changes where or
how the command runs in a way the guard does not follow (``env -C DIR``): read past, but
the command is not granted. An option not listed is read past too, and leaves it
doubtful. Options that write a file (``time -o F``) are left out on purpose: not granted.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.options import Options, opts

__all__ = ["RISKY", "WRAPPING"]

RISKY = "risky"


def _wrapper(text: str, *, digits: bool = False) -> Options:
    return opts(text, permute=False, digits=digits)


WRAPPING: dict[str, Options] = {
    "env": _wrapper(
        "-i,--ignore-environment -0,--null -u,--unset= -C,--chdir=:risky -P=:risky "
        "-v,--debug --default-signal=? --ignore-signal=? --block-signal=? "
        "--list-signal-handling"
    ),
    "command": _wrapper("-p"),
    "builtin": _wrapper(""),
    "exec": _wrapper("-a= -c -l"),
    "nice": _wrapper("-n,--adjustment=", digits=True),
    "nohup": _wrapper(""),
    "time": _wrapper("-f,--format= -p,--portability -v,--verbose"),
    "timeout": _wrapper(
        "-s,--signal= -k,--kill-after= --preserve-status --foreground -v,--verbose"
    ),
    "stdbuf": _wrapper("-i,--input= -o,--output= -e,--error="),
    "ionice": _wrapper("-c,--class= -n,--classdata= -p= -P= -u= -t,--ignore"),
    "setsid": _wrapper("-c,--ctty -f,--fork -w,--wait"),
    "unbuffer": _wrapper("-p"),
    "chronic": _wrapper("-e -v"),
    "caffeinate": _wrapper("-t= -w= -d -i -m -s -u"),
    "busybox": _wrapper(""),
}
"""The wrappers whose options the table reads, by name (`wrappers.WRAPPERS` says how
many operands come before the command, and which set variables)."""
