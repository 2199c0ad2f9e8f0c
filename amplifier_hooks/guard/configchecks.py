"""Servers' configuration checks, a backup's file printed and a drive's health looked at:
modes that only read the files and devices they are given (`checkers`).

An administrator checks a configuration before reloading the server: ``haproxy -c -f
F``, ``promtool check rules F``, ``kong check F`` and ``kong config parse F``,
``named-checkconf F``, ``apachectl configtest`` (``-t -f F``), ``nginx -t -c F``,
``visudo -c -f F``, ``logrotate -d F``. Each
parses its files and says whether they are valid; none writes them. ``restic dump
SNAPSHOT PATH`` prints a file of a backup (its operand names a file in the snapshot).
Those files live in ``/etc``, where a write runs code at start-up, so a program the guard
does not know, given such a path, is taken as changing it (`persistence-files`): these
modes are known not to.

Each is read with the table's option reader: an option it does not list (a pid file, a
directive that names a log, a command restic runs for its password, ``dump --target``)
or the mode missing leaves the call judged as before. Nothing here grants.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.options import Options, opts, read_options

__all__ = ["CONFIG_CHECKERS", "checks_config"]

_HAPROXY = opts("-c:check -q -V -f=:config -C=", abbreviations=False)
"""haproxy's check mode: ``-c`` with its configuration files (``-C``: the folder they are
read in). ``-p`` (a pid file), ``-D``, ``-W``, ``-sf`` and the rest start or signal it."""
_KONG = opts("-c,--conf= -p,--prefix= --v --vv -h,--help", abbreviations=False)
"""kong's options common to ``check`` and ``config parse``."""
_NAMED_CHECKCONF = opts("-c -h -j -l -v -z -p -x -t=", permute=False)
"""named-checkconf [-chjlvz] [-p [-x]] [-t directory] [filename]: it writes nothing."""
_APACHE = opts("-t:check -S -M -v -V -f= -d= -D=", permute=False)
"""apachectl's and httpd's test: ``-t`` (with ``-S``/``-M`` printing the virtual hosts or
modules); ``-C``/``-c`` (a directive, which may name a log) and ``-k`` (a signal) are
not listed."""
_NGINX = opts("-t:check -T:check -q -c= -p=", permute=False)
"""nginx's test with another configuration (``-c``) or prefix; the table reads ``nginx
-t`` alone (`table.system`). ``-g`` (directives, which may name a log) is not listed."""
_VISUDO = opts("-c:check -q -s -f= -h -V", permute=False)
"""visudo's check mode; without ``-c`` it edits the sudoers file."""
_LOGROTATE = opts("-d,--debug:check -v,--verbose -f,--force -s,--state=", abbreviations=False)
"""logrotate's debug mode: it says what it would rotate and run, and changes no log and no
state file; ``-l`` (a log file) and ``-m`` (a mail command) are not listed."""
_RESTIC = opts(
    "-r,--repo= --repository-file= -p,--password-file= --cache-dir= --no-cache --no-lock "
    "-q,--quiet -v,--verbose --json -a,--archive= --path= -H,--host= --tag=",
    abbreviations=False,
)
"""restic's options a ``dump`` to the screen may take; ``--password-command`` and ``-o``
(a backend's command) run a command, ``--target`` writes a file: not listed."""
_PROMTOOL_CHECKS = frozenset({"config", "rules", "web-config", "metrics"})
_PROMTOOL_OPTIONS = frozenset({"--syntax-only", "--lint", "--lint-fatal", "--agent",
                               "--ignore-unknown-fields", "--extended", "--experimental",
                               "--enable-feature", "--help"})  # fmt: skip
"""promtool's ``check`` subcommands that read files, and the options they take (none
writes a file)."""

_SMARTCTL_SETS = ("-s", "--smart", "-o", "--offlineauto", "-S", "--saveauto", "--set", "-B",
                  "--drivedb", "-F", "--firmwarebug", "-t", "--test", "-X", "--abort")  # fmt: skip
"""smartctl's options that change the drive's settings, load another drive database or run
a self-test (a long one keeps the drive busy for hours: the pack's call); its looks (-a,
-i, -H, -x, -l) do none of that."""
_HDPARM_LOOKS = frozenset({"-I", "-i", "-t", "-T", "-C", "-g", "--direct", "-tT", "-Tt"})
"""hdparm's looks: the drive's identity, a timed read, its power state and geometry (every
other option sets something, or writes a sector)."""
_NVME_LOOKS = frozenset({"list", "list-subsys", "list-ns", "list-ctrl", "smart-log", "id-ctrl",
                         "id-ns", "id-ns-descs", "error-log", "fw-log", "self-test-log",
                         "show-regs", "version", "help"})  # fmt: skip
"""nvme-cli's commands that print (``format``, ``sanitize``, ``delete-ns`` and ``write``
are not here)."""

CONFIG_CHECKERS = frozenset({"haproxy", "promtool", "kong", "named-checkconf", "apachectl",
                             "apache2ctl", "httpd", "apache2", "nginx", "visudo", "logrotate",
                             "restic", "smartctl", "hdparm", "nvme"})  # fmt: skip
"""The programs `checks_config` may find only reading."""


def checks_config(program: str | None, args: tuple[str, ...]) -> bool:
    """Whether ``PROGRAM ARGS`` is a configuration check (or ``restic dump``)."""
    if program == "haproxy":
        return _checked(_HAPROXY, args)
    if program == "promtool":
        return _promtool(args)
    if program == "kong":
        if args[:1] == ("check",):
            return _read_in_full(_KONG, args[1:])
        return args[:2] == ("config", "parse") and _read_in_full(_KONG, args[2:])
    if program == "named-checkconf":
        return _read_in_full(_NAMED_CHECKCONF, args)
    if program in ("apachectl", "apache2ctl", "httpd", "apache2"):
        if program.endswith("ctl") and args == ("configtest",):
            return True
        return _checked(_APACHE, args) and not read_options(_APACHE, args).operands
    if program == "nginx":
        return _checked(_NGINX, args) and not read_options(_NGINX, args).operands
    if program == "visudo":
        return _checked(_VISUDO, args) and not read_options(_VISUDO, args).operands
    if program == "logrotate":
        return _checked(_LOGROTATE, args)
    if program == "smartctl":
        return bool(args) and not any(a.split("=", 1)[0] in _SMARTCTL_SETS for a in args)
    if program == "hdparm":
        return any(a.startswith("/dev/") for a in args) and all(
            a in _HDPARM_LOOKS or a.startswith("/dev/") for a in args
        )
    if program == "nvme":
        return (
            args[:1] != ()
            and args[0] in _NVME_LOOKS
            and all(
                a.startswith(("-", "/dev/")) or a in ("json", "normal", "binary") for a in args[1:]
            )
        )
    if program == "restic":
        read = read_options(_RESTIC, args)
        return read.doubt is None and read.operands[:1] == ("dump",) and len(read.operands) == 3
    return False


def _read_in_full(spec: Options, args: tuple[str, ...]) -> bool:
    return read_options(spec, args).doubt is None


def _checked(spec: Options, args: tuple[str, ...]) -> bool:
    read = read_options(spec, args)
    return read.doubt is None and read.has("check")


def _promtool(args: tuple[str, ...]) -> bool:
    if len(args) < 3 or args[0] != "check" or args[1] not in _PROMTOOL_CHECKS:
        return False
    return all(a.split("=", 1)[0] in _PROMTOOL_OPTIONS for a in args[2:] if a.startswith("-"))
