"""Looks a server's administrator takes at its network services: the firewall's rules as
saved (``iptables-save``), firewalld's zones (``firewall-cmd --list-all``), the sockets
listening (``ss -tlnp``), sshd's configuration test (``sshd -t``, ``sshd -T``),
certbot's certificates (``certbot certificates``), the connection table (``conntrack
-L``), a link's counters (``ethtool -S eth0``), the resolver's state (``resolvectl
statistics``) and netplan's settings (``netplan get``).

Each is read only in the modes that look: every other mode (a rule restored, a zone
changed, the daemon started, a certificate issued or revoked) or an option not listed is
doubtful, so nothing is granted, and under ``sudo`` the call stays asked (`privilege`).
None of them writes a file: ``iptables-save -f FILE`` (writes) and ``-M`` (runs a
program) are not listed, nor is ``sshd -E`` (a log file).
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Reading, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry
from amplifier_hooks.guard.table.options import Read, opts

__all__ = ["NETLOOKS"]

_LOOKS = Reading()

_SAVE = opts("-c,--counters -t,--table= -h,--help -V,--version")
"""iptables-save's options that print: ``-f``/``--file`` (a file written) and
``-M``/``--modprobe`` (a program run) are not listed."""


def _no_operands(read: Read) -> Reading | None:
    return doubtful("it takes no operands") if read.operands else _LOOKS


_FIREWALLD = opts(
    "--state:look --list-all:look --list-all-zones:look --list-services:look "
    "--list-ports:look --list-protocols:look --list-source-ports:look "
    "--list-rich-rules:look --list-forward-ports:look --list-interfaces:look "
    "--list-sources:look --get-active-zones:look --get-default-zone:look --get-zones:look "
    "--get-services:look --get-policies:look --get-log-denied:look --info-zone=:look "
    "--info-service=:look --info-policy=:look --query-service=:look --query-port=:look "
    "--query-masquerade:look --query-panic:look --zone= --permanent -q,--quiet "
    "-h,--help:look -V,--version:look",
    abbreviations=False,
)
"""firewall-cmd's options that print or query; every option that changes a zone
(``--add-*``, ``--remove-*``, ``--set-*``, ``--panic-on``, ``--reload``) is not listed."""


def _firewalld(read: Read) -> Reading | None:
    if read.operands:
        return doubtful("firewall-cmd takes no operands")
    if not read.has("look"):
        return doubtful("firewall-cmd without a --list, --get, --info or --query option")
    return _LOOKS


_SSHD = opts("-t:test -T:test -f= -C= -q -d -G:test", abbreviations=False)
"""sshd's options that test or print its configuration (``-f`` another file to read, ``-C``
the connection ``-T`` resolves it for); without ``-t``, ``-T`` or ``-G`` sshd starts."""


def _sshd(read: Read) -> Reading | None:
    if not read.has("test"):
        return doubtful("sshd without -t or -T starts the server")
    return doubtful("sshd takes no operands") if read.operands else _LOOKS


_CERTBOT = opts("--cert-name= -d= -q,--quiet -v,--verbose -h,--help", abbreviations=False)
"""certbot's options for ``certbot certificates`` (which certificates to list)."""


def _certbot(read: Read) -> Reading | None:
    if read.operands != ("certificates",):
        return doubtful("certbot issues, renews or revokes unless it lists its certificates")
    return _LOOKS


_SS = opts(
    "-t,--tcp -u,--udp -w,--raw -x,--unix -S,--sctp --vsock --tipc --xdp -l,--listening "
    "-a,--all -n,--numeric -r,--resolve -p,--processes -e,--extended -m,--memory "
    "-o,--options -i,--info -s,--summary -H,--no-header -O,--oneline -Z,--context "
    "-z,--contexts -b,--bpf -E,--events -4,--ipv4 -6,--ipv6 -0,--packet -M,--mptcp "
    "-f,--family= -A,--query=,--socket= -h,--help -V,--version",
    abbreviations=False,
)
"""ss's options that choose which sockets to print and how; ``-K``/``--kill`` (sockets
closed), ``-D``/``--diag`` (a file written) and ``-F``/``--filter`` (a file read) are not
listed. Its operands are a filter (``state established '( dport = :ssh )'``)."""


_CONNTRACK = opts(
    "-L,--dump:look -S,--stats:look -C,--count:look -p,--proto= -s,--src,--orig-src= "
    "-d,--dst,--orig-dst= --sport,--orig-port-src= --dport,--orig-port-dst= -f,--family= "
    "-o,--output= -z,--zero:doubt -n,--src-nat -g,--dst-nat -m,--mark= -h,--help:look "
    "-V,--version:look",
    abbreviations=False,
)
"""conntrack's options that list, count or filter the connection table; deleting
(``-D``), flushing (``-F``), updating (``-U``) or zeroing counters are not listed."""


def _conntrack(read: Read) -> Reading | None:
    if not read.has("look"):
        return doubtful("conntrack without -L, -S or -C changes the connection table")
    return _no_operands(read)


_ETHTOOL = opts(
    "-S,--statistics -i,--driver -k,--show-features -g,--show-ring -a,--show-pause "
    "-c,--show-coalesce -l,--show-channels -P,--show-permaddr -T,--show-time-stamping "
    "-m,--dump-module-eeprom,--module-info --show-eee --show-fec --show-priv-flags "
    "--json -I,--include-statistics -h,--help --version",
    abbreviations=False,
)
"""ethtool's options that print a link's state, driver and counters; every option that
sets one (``-s``, ``-K``, ``-G``, ``-A``, ``-C``, ``-L``, ``-E``), flashes (``-f``),
resets (``--reset``) or runs the offline self-test (``-t``) is not listed."""


def _one_interface(read: Read) -> Reading | None:
    return doubtful("it looks at one interface") if len(read.operands) > 1 else _LOOKS


_RESOLVECTL = opts(
    "-i,--interface= -p,--protocol= -t,--type= -c,--class= --no-pager "
    "--legend= --json= -h,--help --version",
    abbreviations=False,
)
_RESOLVECTL_LOOKS = frozenset({"status", "statistics", "query", "dns", "domain",
                               "show-cache", "show-server-state", "monitor"})  # fmt: skip
"""resolvectl's commands that print (``dns`` and ``domain`` with an interface alone);
``flush-caches``, ``revert`` and the setters change the resolver."""


def _resolvectl(read: Read) -> Reading | None:
    words = read.operands
    if not words or words[0] not in _RESOLVECTL_LOOKS:
        return doubtful("resolvectl without a command that prints changes the resolver")
    if words[0] in ("dns", "domain") and len(words) > 2:
        return doubtful(f"resolvectl {words[0]} with servers or domains sets them")
    return _LOOKS  # (names, interfaces and record types; never files)


_NETPLAN = opts("--debug -h,--help --all --diff --root-dir= --format=", abbreviations=False)


def _netplan(read: Read) -> Reading | None:
    words = read.operands
    if not words or words[0] not in ("get", "status", "info"):
        return doubtful("netplan without get, status or info writes or applies configuration")
    return _LOOKS  # (a key, or an interface; never a file)


NETLOOKS: dict[str, Entry] = {
    **dict.fromkeys(("iptables-save", "ip6tables-save", "iptables-legacy-save",
                     "ip6tables-legacy-save", "iptables-nft-save", "ip6tables-nft-save"),
                    entry(_SAVE, None, _no_operands)),
    "firewall-cmd": entry(_FIREWALLD, None, _firewalld),
    "sshd": entry(_SSHD, None, _sshd),
    "certbot": entry(_CERTBOT, None, _certbot),
    "ss": entry(_SS, None),
    "conntrack": entry(_CONNTRACK, None, _conntrack),
    "ethtool": entry(_ETHTOOL, None, _one_interface),
    "resolvectl": entry(_RESOLVECTL, None, _resolvectl),
    "netplan": entry(_NETPLAN, None, _netplan),
}  # fmt: skip
"""The table's entries of this family: read in full, they write no file."""
