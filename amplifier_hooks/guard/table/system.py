"""Programs an administrator looks at the machine with: the firewall's rules (``iptables
-L``, ``ufw status``), the web server's configuration test (``nginx -t``), open files
(``lsof``), the system journal (``journalctl``) and the services' state (``systemctl
status``).

Each is read only in the modes that look: every other mode (a rule added, a signal sent,
the journal vacuumed) or an option not listed is doubtful, so nothing is granted, and
under ``sudo`` the call stays asked. None of their operands is a file they write.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.blocklooks import BLOCK_LOOKS
from amplifier_hooks.guard.table.dbservers import DB_SERVERS
from amplifier_hooks.guard.table.disks import DISKS
from amplifier_hooks.guard.table.entries import Entry, entry
from amplifier_hooks.guard.table.hardware import HARDWARE
from amplifier_hooks.guard.table.macos import MACOS_LOOKERS
from amplifier_hooks.guard.table.netlooks import NETLOOKS
from amplifier_hooks.guard.table.options import Read, opts, read_options
from amplifier_hooks.guard.table.signing import SIGNING_LOOKERS

__all__ = ["LOOKERS", "SYSTEM"]

_LOOKS = Reading()

_IPTABLES = opts(
    "-L,--list:list -S,--list-rules:list -n,--numeric -v,--verbose -x,--exact "
    "--line-numbers -t,--table= -w,--wait=? -W,--wait-interval= -4,--ipv4 -6,--ipv6 "
    "-h,--help -V,--version:list"
)
"""iptables' options that only list; a command that changes a chain (``-A``, ``-D``,
``-F``, ``-Z``, ``-P``, ...) is not listed, so it is doubtful."""


def _iptables(read: Read) -> Reading | None:
    if not read.has("list") and not any(g.opt.names[0] == "-h" for g in read.given):
        return doubtful("iptables without -L or -S changes the firewall")
    if len(read.operands) > 1:
        return doubtful("iptables lists one chain")
    return _LOOKS


_NGINX = opts("-t:test -T:test -v:test -V:test -q -h,-?:test", permute=False)
"""nginx's options that test or print its configuration; ``-c``, ``-p``, ``-g`` (another
configuration, which names the log files nginx opens) and ``-s`` (a signal) are not."""


def _nginx(read: Read) -> Reading | None:
    if not read.has("test"):
        return doubtful("nginx without -t starts the server")
    if read.operands:
        return doubtful("nginx takes no operands")
    return _LOOKS


_RSYSLOGD = opts("-N=:check -f=:read -d -h,-?", permute=True)
"""rsyslogd's configuration check (``-N LEVEL``) of a file it reads (``-f``); without
``-N`` it starts the daemon."""


def _rsyslogd(read: Read) -> Reading | None:
    if not read.has("check") or read.operands:
        return doubtful("rsyslogd without -N starts the daemon")
    return Reading(acts_of(Does.READ, read.values("read")))


_BEAT = opts("-c,--c=:read -e -v -d,--d= --strict.perms! --path.config=:read --path.home=:read "
             "--path.data=:read -E=:doubt")  # fmt: skip
"""The Elastic Beats' options a test reads its configuration with; ``-E`` overrides a
setting (an output among them) and is not read."""


def _beat(read: Read) -> Reading | None:
    """``filebeat test config|output``: checks the configuration or connects to its output
    (a look); every other command runs, sets up or changes the beat."""
    if tuple(read.operands) not in (("test", "config"), ("test", "output")):
        return doubtful("a beat runs, sets up or changes itself unless it tests its configuration")
    return Reading(acts_of(Does.READ, read.values("read")))


_CLAMSCAN = opts(
    "-r,--recursive -i,--infected -o,--suppress-ok-results -v,--verbose --no-summary --bell "
    "-a,--allmatch -z --fdpass -m,--multiscan --stdout --quiet --ping= --wait "
    "--max-filesize= --max-scansize= --exclude= --exclude-dir= --include= --include-dir= "
    "-d,--database=:read -c,--config-file=:read --detect-pua=? -h,--help -V,--version"
)
"""clamscan's and clamdscan's options that scan and print; ``--remove``, ``--move``,
``--copy`` (what is found is deleted or moved) and ``-l``/``--log`` (a file written) are not
listed."""
_MATCHPATHCON = opts("-n -N -V -m= -f=:read -p= -P=")
"""matchpathcon's options: it prints the SELinux context a path would get."""


_UFW = opts("--dry-run -h,--help --version")
_SHOWN = ("raw", "builtins", "before-rules", "user-rules", "after-rules", "logging-rules",
          "listening", "added")  # fmt: skip
_UFW_LOOKS = {
    "status": frozenset({"verbose", "numbered"}),
    "version": frozenset(),
    "show": frozenset(_SHOWN),
}
"""ufw's commands that print, and the words each may be given."""


def _ufw(args: tuple[str, ...]) -> Reading:
    read = read_options(_UFW, args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    words = read.operands
    if not words:
        return _LOOKS if read.given else doubtful("ufw needs a command")
    if words[0] == "app" and words[1:2] in (("list",), ("info",)):
        return _LOOKS if len(words) <= 3 else doubtful("ufw app info takes one profile")
    allowed = _UFW_LOOKS.get(words[0])
    if allowed is None:
        return doubtful(f"ufw {words[0]} changes the firewall")
    if len(words) > 2 or not allowed.issuperset(words[1:]):
        return doubtful(f"ufw {words[0]} is given words the guard does not read")
    return _LOOKS


_LSOF_FLAGS = frozenset("abChlnNOPRtUVwXME?")
"""lsof's options that take no value (they bundle: ``-nP``)."""
_LSOF_VALUE = frozenset({"-c", "-d", "-e", "-p", "-u", "+c"})
"""Its options whose value is attached or the next word (a name, a PID, a user)."""
_LSOF_ATTACHED = frozenset({"-i", "-s", "-x", "-F", "-g", "-K", "-L", "-o", "-S", "-T", "-f",
                            "+E", "+M", "+w", "+X", "+f", "+L", "+m"})  # fmt: skip
"""Its options whose value, if any, is attached (``-iTCP:8000``, ``-sTCP:LISTEN``)."""


def _lsof(args: tuple[str, ...]) -> Reading:
    """lsof lists open files and changes none: ``+D``/``+d`` name the folder whose open
    files it lists, operands the files whose users it lists (all read). ``-D`` (which
    may write a device cache) and ``-r`` (repeat until killed) are doubtful."""
    read: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            read.extend(args[index:])
            break
        if len(word) < 2 or word[0] not in "-+":
            read.append(word)
            continue
        name = word[:2]
        if name in ("+D", "+d") or name in _LSOF_VALUE:
            value = word[2:]
            if not value:
                if index >= len(args):
                    return doubtful(f"lsof {name} needs a value")
                value = args[index]
                index += 1
            if name in ("+D", "+d"):
                read.append(value)
        elif name in _LSOF_ATTACHED:
            continue
        elif word[0] != "-" or not _LSOF_FLAGS.issuperset(word[1:]):
            return doubtful(f"lsof {word} is an option the guard does not read")
    return Reading(acts_of(Does.READ, read))


_JOURNALCTL = opts(
    "-u,--unit= --user-unit= -n,--lines= -f,--follow --no-pager -e,--pager-end "
    "-r,--reverse -o,--output= --output-fields= -x,--catalog -q,--quiet -b,--boot=? "
    "-k,--dmesg -S,--since= -U,--until= -p,--priority= -g,--grep= --case-sensitive=? "
    "-t,--identifier= -T,--exclude-identifier= --facility= -a,--all --no-hostname "
    "--no-full -l,--full --no-tail --utc --list-boots --disk-usage --header "
    "--system --user -M,--machine= -m,--merge --since-boot -c,--cursor= "
    "--after-cursor= --show-cursor -I -h,--help --version --fields -F,--field= "
    "--list-catalog --dump-catalog"
)
"""journalctl's options that read the journal; ``--vacuum-*``, ``--rotate``, ``--flush``,
``--sync``, ``--setup-keys``, ``--cursor-file`` (writes) and ``-D``/``--file`` (another
journal, read outside the system's) are not listed: doubtful."""


def _journal_operands(read: Read) -> Reading | None:
    if any("=" not in o and not o.startswith("+") for o in read.operands):
        return doubtful("journalctl's operands are matches (FIELD=VALUE) or +")
    return _LOOKS


_SYSTEMCTL = opts(
    "--no-pager:quiet-pager -l,--full -a,--all -n,--lines= -o,--output= --user --system -t,--type= "
    "--state= -p,--property= --value --no-legend -q,--quiet --plain -r,--recursive "
    "--with-dependencies --reverse --before --after -h,--help --version"
)
"""systemctl's options that change nothing it shows; ``-H``/``--host`` and ``-M`` (another
machine's manager), ``--now``, ``--force`` and ``--runtime`` are not listed: doubtful."""
_SYSTEMCTL_LOOKS = frozenset(
    {"status", "show", "is-active", "is-enabled", "is-failed", "is-system-running",
     "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies",
     "list-jobs", "cat", "help", "get-default"}
)  # fmt: skip
"""systemctl's commands that print the services' state or unit files; every other one
(start, stop, enable, edit, daemon-reload, ...) changes it."""


def _systemctl(read: Read) -> Reading | None:
    words = read.operands
    if not words or words[0] not in _SYSTEMCTL_LOOKS:
        return doubtful("systemctl without a command that only prints changes services")
    if not read.has("quiet-pager"):  # (under sudo, a pager run as root runs what is typed)
        return doubtful("systemctl without --no-pager starts a pager, which runs commands")
    return _LOOKS  # (its operands are units and patterns, never files)


SYSTEM: dict[str, Entry] = {
    **dict.fromkeys(("iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy",
                     "iptables-nft", "ip6tables-nft"), entry(_IPTABLES, None, _iptables)),
    "nginx": entry(_NGINX, None, _nginx),
    "rsyslogd": entry(_RSYSLOGD, None, _rsyslogd),
    "clamscan": entry(_CLAMSCAN, Does.READ),
    "clamdscan": entry(_CLAMSCAN, Does.READ),
    "matchpathcon": entry(_MATCHPATHCON, Does.READ),
    **dict.fromkeys(("filebeat", "metricbeat", "auditbeat", "packetbeat", "heartbeat"),
                    entry(_BEAT, None, _beat)),
    "ufw": _ufw,
    "lsof": _lsof,
    "journalctl": entry(_JOURNALCTL, None, _journal_operands),
    "systemctl": entry(_SYSTEMCTL, None, _systemctl),
}  # fmt: skip
"""The table's entries of this family."""

LOOKERS = (frozenset(SYSTEM) | frozenset(DISKS) | MACOS_LOOKERS | SIGNING_LOOKERS
           | frozenset(HARDWARE) | frozenset(NETLOOKS) | frozenset(BLOCK_LOOKS)
           | frozenset(DB_SERVERS))  # fmt: skip
"""Programs of this family, `disks`, `hardware`, `blocklooks`, `netlooks` and `macos`'s
looks: read in full (no doubt), they write no file but those their reading names (the
image ``qemu-img create`` makes)."""
