"""``mount``'s options (util-linux, getopt_long: unique prefixes, options anywhere), for
the folder it mounts over: ``--target DIR``, or its last operand (``mount --bind SRC
DIR``, ``mount -t tmpfs x DIR``). What was in that folder is hidden, as if replaced as a
whole; mount itself is never granted.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["MOUNT", "mount_target"]

MOUNT = opts(
    "-a,--all -c,--no-canonicalize -f,--fake -F,--fork -T,--fstab= -i,--internal-only "
    "-l,--show-labels -L,--label= -m,--mkdir=? -n,--no-mtab -N,--namespace= "
    "-O,--test-opts= -o,--options= -r,--read-only -w,--rw,--read-write -R,--rbind "
    "-B,--bind -M,--move -s,--sloppy -t,--types= -U,--uuid= -v,--verbose "
    "--source= --target=:target --target-prefix= --onlyonce --options-mode= "
    "--options-source= --options-source-force --make-shared --make-slave "
    "--make-private --make-unbindable --make-rshared --make-rslave --make-rprivate "
    "--make-runbindable --map-users= --map-groups= --beneath --exclusive --mount-id "
    "-h,--help -V,--version"
)


def mount_target(args: tuple[str, ...]) -> tuple[str, ...]:
    """The folder ``mount ARGS`` mounts over: ``--target``'s value (the last given), or
    its last operand; none when it names nothing."""
    read = read_options(MOUNT, args)
    target = read.values("target")
    return target[-1:] if target else read.operands[-1:]
