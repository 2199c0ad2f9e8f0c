"""The options of the wrappers a call may be granted under (``env``, ``nice``,
``timeout``, ``time``, ``stdbuf``, ...): read with the table's option reader, up to the
wrapped command (`wrappers.skip_options`).

Each reads its options with getopt and stops at its first operand (the command, or
``timeout``'s duration first). An option listed with the role ``risky`` changes where or
how the command runs in a way the guard does not follow (``env -C DIR``): read past, but
the command is not granted. An option not listed is read past too, and leaves it
doubtful. Options that write a file (``time -o F``) are left out on purpose: not granted.
``env -S STRING`` (role ``split``) splits STRING into the command, which the guard does not
read: the command is opaque.

The wrappers no command is granted under (``sudo``, ``xargs``, ``watch``, ...: `UNGRANTED`)
have their options here too, so that the command after them is the word the wrapper takes
for it (``sudo -Eu root rm ..``: ``rm``, not ``root``), and judged.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.options import Options, opts

__all__ = ["ARCH_NAMES", "ARG_FILE", "DESCRIBE", "EXEC", "REPLACE", "RISKY", "SHELL", "SPLIT",
           "UNGRANTED", "WRAPPING"]  # fmt: skip

RISKY = "risky"
SHELL = "shell"
"""sudo's ``-i``/``-s``, doas's ``-s``: with no command, a shell (root's) that reads its
input; risky as `RISKY` is."""
SPLIT = "split"
REPLACE = "replace"
"""xargs's ``-I``/``-i``: its input is pasted into the words of the command."""
DESCRIBE = "describe"
"""``command -v``/``-V``: it names the command, and runs nothing."""
ARG_FILE = "argfile"
"""xargs's ``-a FILE``: the file its arguments are read from (`xargsfiles`)."""
EXEC = "exec"
"""watch's ``-x``: the command is run as words, not given to ``sh -c``."""


ARCH_NAMES = frozenset({"-x86_64", "-x86_64h", "-arm64", "-arm64e", "-i386", "-ppc", "-32",
                        "-64"})  # fmt: skip
"""macOS ``arch``'s options naming the architecture to run the command as: a whole word
after one dash, which getopt does not read (`wrappers` reads each as ``-A``). Its ``-e
NAME=VALUE`` and ``-d NAME`` set and unset the command's variables, which the guard does
not follow there (``risky``)."""


def _wrapper(text: str, *, digits: bool = False, abbreviations: bool = True) -> Options:
    return opts(text, permute=False, digits=digits, abbreviations=abbreviations)


WRAPPING: dict[str, Options] = {
    "env": _wrapper(
        "-i,--ignore-environment -0,--null -u,--unset= -C,--chdir=:risky -P=:risky "
        "-S,--split-string=:split --help:info --version:info "
        "-v,--debug --default-signal=? --ignore-signal=? --block-signal=? "
        "--list-signal-handling"
    ),
    "command": _wrapper("-p -v:describe -V:describe"),
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
    "arch": _wrapper("-A -c -d=:risky -e=:risky -h"),  # (ARCH_NAMES are read as -A)
    "busybox": _wrapper(""),
}
"""The wrappers whose options the table reads, by name (`wrappers.WRAPPERS` says how
many operands come before the command, and which set variables)."""

_SLURM_RUN = _wrapper(
    "-A,--account= -b,--begin= -c,--cpus-per-task= -C,--constraint= -d,--dependency= "
    "-D,--chdir=:risky -e,--error= -i,--input= -o,--output= -J,--job-name= -l,--label "
    "-L,--licenses= -m,--distribution= -n,--ntasks= -N,--nodes= -p,--partition= -q,--qos= "
    "-t,--time= -u,--unbuffered -v,--verbose -w,--nodelist= -x,--exclude= -G,--gpus= "
    "--gres= --gpus-per-node= --gpus-per-task= --cpus-per-gpu= --mem= --mem-per-cpu= "
    "--mem-per-gpu= --ntasks-per-node= --tasks-per-node= --pty --exclusive=? --overlap "
    "--export= --mpi= --cpu-bind= --time-min= --reservation= --comment= --hint= "
    "--mail-type= --mail-user= --nice=? --signal= --x11=? --container= --jobid= "
    "-W,--wait= -K,--kill-on-bad-exit=? -Q,--quiet -s,--oversubscribe -O,--overcommit "
    "-I,--immediate=? -H,--hold -k,--no-kill=? -Z,--no-allocate -E,--preserve-env "
    "-X,--disable-status -S,--core-spec= --het-group= --propagate=? --network= "
    "--prolog=:risky --epilog=:risky --task-prolog=:risky --task-epilog=:risky "
    "--bcast=?:risky --no-shell --help --usage -V,--version"
)
"""srun's and salloc's options (slurm's getopt_long, ``+``: the command follows): a
prolog or epilog is a program they run too, ``--bcast`` copies one to the nodes."""

UNGRANTED: dict[str, Options] = {
    "sudo": _wrapper(
        "-A,--askpass:risky -a,--auth-type= -B,--bell -b,--background -C,--close-from= "
        "-c,--login-class= -D,--chdir=:risky -E --preserve-env=? -e,--edit:risky "
        "-g,--group= -H,--set-home -h=?:risky --host=:risky --help -i,--login:shell "
        "-K,--remove-timestamp -k,--reset-timestamp -l,--list:risky -N,--no-update "
        "-n,--non-interactive -P,--preserve-groups -p,--prompt= -R,--chroot=:risky "
        "-r,--role= -S,--stdin -s,--shell:shell -T,--command-timeout= -t,--type= "
        "-U,--other-user=:risky -u,--user= -V,--version -v,--validate"
    ),
    "doas": _wrapper("-C= -L -n -s:shell -u=", abbreviations=False),
    "xargs": _wrapper(
        "-0,--null -a,--arg-file=:argfile -d,--delimiter= -E= -e,--eof=? -I=:replace "
        "-i,--replace=?:replace -L,--max-lines= -l=? -n,--max-args= -o,--open-tty "
        "-P,--max-procs= -p,--interactive -r,--no-run-if-empty -s,--max-chars= "
        "--show-limits -t,--verbose -x,--exit --process-slot-var= --help --version"
    ),
    "watch": _wrapper(
        "-b,--beep -c,--color -C,--no-color -d,--differences=? -e,--errexit -g,--chgexit "
        "-n,--interval= -p,--precise -q,--equexit= -r,--no-rerun -t,--no-title "
        "-w,--no-wrap -x,--exec:exec -h,--help -v,--version"
    ),
    "chroot": _wrapper("--groups= --userspec= --skip-chdir --help --version"),
    "chrt": _wrapper(
        "-a,--all-tasks -b,--batch -d,--deadline -f,--fifo -i,--idle -p,--pid -h,--help "
        "-m,--max -o,--other -r,--rr -T,--sched-runtime= -P,--sched-period= "
        "-D,--sched-deadline= -R,--reset-on-fork -v,--verbose -V,--version"
    ),
    "taskset": _wrapper("-a,--all-tasks -p,--pid -c,--cpu-list -h,--help -V,--version"),
    "srun": _SLURM_RUN,
    "salloc": _SLURM_RUN,
}
"""The wrappers no command is granted under (`wrappers.WRAPPERS` says why), by name:
sudo's, xargs's, watch's, chroot's, chrt's and taskset's getopt_long (``+``: the first
operand ends the options; unique prefixes of long options), doas's getopt. sudo's
``risky`` options change what runs or where (an editor, a shell, another folder or root,
a password program): a command under them is never taken as one that only reads
(`facts.Facts.reads_only`)."""
