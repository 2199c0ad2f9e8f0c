"""Shell builtins and small programs that print facts about the machine or the shell.

``set``, ``export`` and ``declare`` with nothing to set print every variable (the
environment may hold secrets): doubtful. Variables given to them are judged where the
command is read (`guard.envs`). ``man -P``/``--pager`` and ``--html`` run a program, and
``script -c`` a command (without ``-c``, ``script`` starts a shell: doubtful).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.acts import Does, Reading, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = ["SHELL", "date_files"]

NONE = Reading()


def _words(args: tuple[str, ...]) -> Reading:
    """A program whose arguments are only words it prints or computes with."""
    return NONE


def _set(args: tuple[str, ...]) -> Reading:
    """``set -e``, ``set -o pipefail``, ``set -- a b``; bare ``set`` prints every variable."""
    if not args:
        return doubtful("set with no arguments prints every variable")
    index = 0
    while index < len(args):
        word = args[index]
        if word in ("--", "-"):
            return NONE
        if word in ("-o", "+o"):
            if index + 1 >= len(args):
                return doubtful("set -o with no option prints the shell's options")
            index += 2
            continue
        if re.fullmatch(r"[-+][abefhkmnptuvxBCEHPT]+", word) is None:
            return NONE if not word.startswith(("-", "+")) else doubtful(f"set {word}")
        index += 1
    return NONE


def _declares(args: tuple[str, ...]) -> Reading:
    """export/declare/local/typeset/readonly: setting names; printing them all is doubtful."""
    names = [a for a in args if not a.startswith(("-", "+"))]
    flags = "".join(a[1:] for a in args if a.startswith(("-", "+")))
    if not names or "p" in flags or "f" in flags or "F" in flags:
        return doubtful("this prints variables (the environment may hold secrets)")
    return NONE


_DATE = opts(
    "-d,--date= --debug -f,--file=:read -I,--iso-8601=? "
    "--resolution -R,--rfc-email --rfc-3339= -r,--reference=:read "
    "-u,--utc,--universal -s,--set=:doubt --help --version"
)


def date_files(args: tuple[str, ...]) -> tuple[str, ...]:
    """The files ``date -f FILE`` reads line by line and prints (a line that is no date is
    printed in its error: ``date -f ~/.ssh/id_rsa`` prints the key); ``-r FILE`` reads only
    the file's time, as ``stat`` does."""
    return tuple(g.value for g in read_options(_DATE, args).given
                 if g.opt.names[0] == "-f" and g.value is not None)  # fmt: skip


def _date_check(read: Read) -> Reading | None:
    if any(not o.startswith("+") for o in read.operands):
        return doubtful("date with an operand other than +FORMAT sets the clock")
    return None  # the option acts stand: `-f FILE` reads FILE (its lines are printed)


def _hostname_check(read: Read) -> Reading | None:
    return doubtful("hostname NAME sets the host's name") if read.operands else NONE


def _history(args: tuple[str, ...]) -> Reading:
    if all(a.isdigit() for a in args):
        return NONE
    return doubtful("history with options changes or writes the history")


def _top_check(read: Read) -> Reading | None:
    return NONE if read.has("batch") else doubtful("top without -b is interactive")


def _cd(args: tuple[str, ...]) -> Reading:
    operands = [a for a in args if a not in ("-L", "-P", "-e", "-@", "--")]
    if any(a.startswith("-") and a != "-" for a in operands):
        return doubtful("an option cd does not take")
    return NONE


MAN = opts(
    "-C,--config-file=:read -d,--debug -D,--default --warnings=? -f,--whatis -k,--apropos "
    "-K,--global-apropos -l,--local-file -w,--where,--path,--location -W,--where-cat "
    "-c,--catman:doubt -R,--recode=:doubt -L,--locale= -m,--systems= -M,--manpath= "
    "-S,-s,--sections= -e,--extension= -i,--ignore-case -I,--match-case --regex --wildcard "
    "--names-only -a,--all -u,--update:doubt --no-subpages -P,--pager=:run -r,--prompt= "
    "-7,--ascii -E,--encoding= --no-hyphenation,--nh --no-justification,--nj "
    "-p,--preprocessor= -t,--troff -T,--troff-device=? -H,--html=?:run -X,--gxditview=?:run "
    "-Z,--ditroff -?,--help --usage -V,--version"
)

SCRIPT = opts(
    "-a,--append -c,--command=:run -e,--return -f,--flush -E,--echo= -q,--quiet "
    "-t,--timing=?:write -T,--log-timing=:write -B,--log-io=:write -I,--log-in=:write "
    "-O,--log-out=:write -m,--logging-format= -h,--help -V,--version"
)


def _script(read: Read) -> Reading | None:
    if not any(act.does == Does.RUN for act in option_acts(read)):
        return doubtful("script without -c starts an interactive shell")
    return None


SHELL: dict[str, Entry] = {
    "echo": _words,
    "printf": _words,
    "true": _words,
    "false": _words,
    ":": _words,
    "sleep": _words,
    "seq": _words,
    "expr": _words,
    "test": _words,
    "[": _words,
    "[[": _words,
    "exit": _words,
    "return": _words,
    "wait": _words,
    "unset": _words,
    "shift": _words,
    "read": _words,
    "cd": _cd,
    "pushd": _cd,
    "popd": _cd,
    "dirs": _words,
    "pwd": entry(opts("-L -P --help --version")),
    "which": entry(opts("-a -s --help --version"), None),
    "type": entry(opts("-a -f -p -P -t"), None),
    "command": entry(opts("-v -V -p"), None),
    "whoami": entry(opts("--help --version"), None),
    "id": entry(
        opts(
            "-a -Z,--context -g,--group -G,--groups -n,--name -r,--real "
            "-u,--user -z,--zero --help --version"
        ),
        None,
    ),
    "uname": entry(
        opts(
            "-a,--all -s,--kernel-name -n,--nodename -r,--kernel-release "
            "-v,--kernel-version -m,--machine -p,--processor "
            "-i,--hardware-platform -o,--operating-system --help --version"
        ),
        None,
    ),
    "date": entry(_DATE, None, _date_check),
    "hostname": entry(
        opts(
            "-a,--alias -A,--all-fqdns -d,--domain -f,--fqdn,--long "
            "-i,--ip-address -I,--all-ip-addresses -s,--short "
            "-y,--yp,--nis -F,--file=:doubt -b,--boot:doubt -h,--help "
            "-V,--version"
        ),
        None,
        _hostname_check,
    ),
    "nproc": entry(opts("--all --ignore= --help --version"), None),
    "free": entry(
        opts(
            "-b,--bytes -k,--kibi -m,--mebi -g,--gibi --tebi --pebi --kilo "
            "--mega --giga --tera --peta -h,--human --si -l,--lohi -L,--line "
            "-t,--total -v,--committed -w,--wide -s,--seconds= -c,--count= "
            "--help -V,--version"
        ),
        None,
    ),
    "uptime": entry(opts("-p,--pretty -s,--since -h,--help -V,--version"), None),
    "locale": entry(
        opts(
            "-a,--all-locales -m,--charmaps -c,--category-name "
            "-k,--keyword-name -v,--verbose --help --version"
        ),
        None,
    ),
    "ps": _words,
    "top": entry(
        opts("-b:batch -n= -d= -p= -u= -U= -o= -O= -H -c -i -S -E= -e= -w=? -1 -h -v"),
        None,
        _top_check,
    ),
    "history": _history,
    "help": _words,
    "set": _set,
    "export": _declares,
    "declare": _declares,
    "typeset": _declares,
    "local": _declares,
    "readonly": _declares,
    "man": entry(MAN, None),
    "script": entry(SCRIPT, Does.WRITE, _script),
}
