"""Programs run as ``PROGRAM [global options] SUBCOMMAND ...``: the options they read
before their subcommand (docker, kubectl, make), and ssh-keygen's modes.

None of them is granted by the table (each reaches a daemon, a cluster or the project's
own build); they are read here so that the subcommand (make: the first target) is the
word the program takes for it, not the value of an option before it
(``kubectl -n prod delete ...``, ``make -C sub -j 4 clean``).

An option whose role is ``login`` names a file the program signs in with (a kubeconfig,
a client key): used to reach the program's own server and never printed, so it is no read
of a credential; printing one is ``kubectl config view --raw``, which the pack judges.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.options import UNKNOWN, Options, Read, Takes, opts, read_options

__all__ = [
    "CONTAINER_RUN",
    "GLOBAL_OPTIONS",
    "SSH_KEYGEN",
    "global_paths",
    "global_read",
    "keygen_paths",
    "login_options",
    "make_words",
]

DOCKER = opts(
    "--config=:login -c,--context= -D,--debug -H,--host= -l,--log-level= --tls "
    "--tlscacert=:login --tlscert=:login --tlskey=:login --tlsverify -v,--version -h,--help",
    permute=False,
    abbreviations=False,
)
"""docker's global options (Go's pflag: no abbreviations)."""
KUBECTL = opts(
    "--as= --as-group= --as-uid= --cache-dir=:write --certificate-authority=:login "
    "--client-certificate=:login --client-key=:login --cluster= --context= "
    "--disable-compression --insecure-skip-tls-verify --kubeconfig=:login "
    "--log-flush-frequency= --match-server-version -n,--namespace= --password= --profile= "
    "--profile-output=:write --request-timeout= "
    "-s,--server= --tls-server-name= --token= --user= --username= -v,--v= --vmodule= "
    "--warnings-as-errors -h,--help",
    permute=False,
    abbreviations=False,
)
"""kubectl's global options (pflag: no abbreviations)."""
MAKE = opts(
    "-b -m -B,--always-make -C,--directory=:into -d --debug=? -e,--environment-overrides "
    "-E,--eval= -f,--file,--makefile=:read -h,--help -i,--ignore-errors -I,--include-dir=:read "
    "-j,--jobs=? -k,--keep-going -l,--load-average,--max-load=? -L,--check-symlink-times "
    "-n,--just-print,--dry-run,--recon -o,--old-file,--assume-old=:read -O,--output-sync=? "
    "-p,--print-data-base -q,--question -r,--no-builtin-rules -R,--no-builtin-variables "
    "-s,--silent,--quiet --no-silent -S,--no-keep-going,--stop -t,--touch --trace=? "
    "-v,--version -w,--print-directory --no-print-directory -W,--what-if,--new-file,"
    "--assume-new=:read --warn-undefined-variables --shuffle=? --jobserver-auth= "
    "--jobserver-style=",
    permute=False,
)
"""GNU make's options (getopt_long: unique prefixes). ``-j`` and ``-l`` take a number
attached, or the next word when it is one (`make_words`)."""
GLOBAL_OPTIONS: dict[str, Options] = {"docker": DOCKER, "kubectl": KUBECTL, "make": MAKE,
                                      "gmake": MAKE}  # fmt: skip

CONTAINER_RUN = opts(
    "--add-host= --annotation= -a,--attach= --blkio-weight= --blkio-weight-device= "
    "--cap-add= --cap-drop= --cgroup-parent= --cgroupns= --cidfile=:write --cpu-period= "
    "--cpu-quota= --cpu-rt-period= --cpu-rt-runtime= -c,--cpu-shares= --cpus= "
    "--cpuset-cpus= --cpuset-mems= -d,--detach --detach-keys= --device= "
    "--device-cgroup-rule= --device-read-bps= --device-read-iops= --device-write-bps= "
    "--device-write-iops= --disable-content-trust --dns= --dns-option= --dns-search= "
    "--domainname= --entrypoint= -e,--env= --env-file=:read --expose= --gpus= --group-add= "
    "--health-cmd= --health-interval= --health-retries= --health-start-period= "
    "--health-start-interval= --health-timeout= --help -h,--hostname= --init "
    "-i,--interactive --ip= --ip6= --ipc= --isolation= --kernel-memory= -l,--label= "
    "--label-file=:read --link= --link-local-ip= --log-driver= --log-opt= --mac-address= "
    "-m,--memory= --memory-reservation= --memory-swap= --memory-swappiness= --mount=:mount "
    "--name= --network,--net= --network-alias,--net-alias= --no-healthcheck "
    "--oom-kill-disable --oom-score-adj= --pid= --pids-limit= --platform= --privileged "
    "-p,--publish= -P,--publish-all --pull= -q,--quiet --read-only --restart= --rm "
    "--runtime= --security-opt= --shm-size= --sig-proxy --stop-signal= --stop-timeout= "
    "--storage-opt= --sysctl= --tmpfs= -t,--tty --ulimit= -u,--user= --userns= --uts= "
    "-v,--volume=:volume --volume-driver= --volumes-from= -w,--workdir= "
    "--arch= --authfile=:read --env-host --hooks-dir= --os= --pod= --replace --rootfs "
    "--secret= --systemd= --tls-verify --umask= --unsetenv= --variant=",
    abbreviations=False,
)
"""The options of ``docker run``/``create`` (and podman's and nerdctl's, which take the
same): Go's pflag, so short options bundle (``-itv SRC:DST``), a value is attached,
after ``=`` or the next word, and a long option is spelled in full. Read past the image
too (``permute``), so that a mount anywhere on the line is seen."""

SSH_KEYGEN = opts(
    "-A -B:only-reads -H -K -L:only-reads -Q -U -X -c -e -g -h -i -k -l:only-reads -o -p -q "
    "-u -v -y -C= -D= -E= -F=:only-reads -I= -M= -N= -O= -P= -R= -V= -Z= -a= -b= -f= -m= -n= "
    "-r= -s= -t= -w= -z= -Y=",
    permute=False,
    abbreviations=False,
)
"""ssh-keygen's options (OpenSSH's getopt: short only, the first operand ends them).
``-l`` (a fingerprint), ``-F`` (find a host), ``-B`` (bubblebabble) and ``-L`` (a
certificate's contents) only read the files it is given (``-y`` is left out: it reads a
private key, which credential rules judge)."""

_KEYGEN_NAMES = frozenset({"-C", "-N", "-P", "-t", "-b", "-a", "-I", "-n", "-V", "-z", "-Z",
                           "-m", "-E", "-Y", "-R", "-F", "-M", "-r", "-w"})  # fmt: skip
"""ssh-keygen's options whose value is no file: a comment, a passphrase, a key type, a
size, an identity, principals, a validity, a serial, a format, a hash, a namespace, a
host name."""


_PUBLIC_MODES = frozenset({"-l", "-B", "-y", "-e", "-L"})
"""ssh-keygen's modes that print only what is public of the key they read: its
fingerprint (``-l``), its bubblebabble digest (``-B``), its public key (``-y``, and ``-e``
in another format), a certificate's principals, validity and options (``-L``)."""
_PUBLIC_WITH = frozenset({"-f", "-E", "-m", "-v", "-q"})
"""The options those modes take (the key file, the hash, the format, the talk); any other
(``-p`` a new passphrase, ``-c`` a new comment, ``-i`` an import that prints a private
key) keeps the key file a path."""


def keygen_paths(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of ``ssh-keygen args`` that may name files: the values of its other
    options (``-f``, ``-s``, ``-D``, ``-O``) and its operands (None: an option it does not
    have, so every word is). A mode that prints only what is public of a key names no
    file the rules judge (``ssh-keygen -lf ~/.ssh/id_ed25519``: a fingerprint)."""
    read = read_options(SSH_KEYGEN, args)
    if read.doubt is not None:
        return None
    names = {g.opt.names[0] for g in read.given}
    if not read.operands and names & _PUBLIC_MODES and names <= _PUBLIC_MODES | _PUBLIC_WITH:
        return ()
    values = tuple(
        g.value for g in read.given if g.value is not None and g.opt.names[0] not in _KEYGEN_NAMES
    )
    return (*values, *read.operands)


def _numbered(word: str) -> bool:
    """Whether ``word`` ends in make's ``-j`` or ``-l`` with no value (``-j``, ``-kj``,
    ``--job``)."""
    if word.startswith("--"):
        found, doubt = MAKE.long(word[2:])
        return "=" not in word and doubt is None and found[0][0].names[0] in ("-j", "-l")
    if len(word) < 2 or word[0] != "-" or word[-1] not in "jl":
        return False
    return all((o := MAKE.shorts.get(c)) is not None and o.takes == Takes.NOTHING
               for c in word[1:-1])  # fmt: skip


def make_words(args: tuple[str, ...]) -> tuple[str, ...]:
    """make's words with ``-j 4`` as ``-j4``: make takes the next word as the value of
    ``-j``/``-l`` (bundled or abbreviated too) only when it is a number."""
    out: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if index < len(args) and args[index][:1].isdigit() and _numbered(word):
            out.append(word + ("=" if word.startswith("--") else "") + args[index])
            index += 1
            continue
        out.append(word)
    return tuple(out)


PATH_ROLES = frozenset({"read", "write", "into"})
"""The roles of global options whose value is a path (``--kubeconfig``, ``make -C``)."""


def global_paths(read: Read) -> tuple[str, ...]:
    """The paths the global options of ``read`` name: the values of the options whose
    role says so (`PATH_ROLES`), in either spelling (``--kubeconfig=F``, ``-C DIR``); of an
    option the table does not know, a ``=`` value that starts like a path (``/``, ``~``,
    ``.``): it cannot say, so it counts it."""
    return tuple(
        g.value for g in read.given
        if g.value and (g.opt.does in PATH_ROLES
                        or (g.opt.does == UNKNOWN and g.value.startswith(("/", "~", "."))))
    )  # fmt: skip


def login_options(program: str | None) -> frozenset[str]:
    """The long spellings of ``program``'s ``login`` options (pflag reads them after the
    subcommand too: ``kubectl get pods --kubeconfig F``)."""
    return _LOGINS.get(program or "", frozenset())


_LOGINS = {
    program: frozenset(name for opt, _ in options.longs.values() if opt.does == "login"
                       for name in opt.names if name.startswith("--"))
    for program, options in GLOBAL_OPTIONS.items()
} | dict.fromkeys(("helm", "helmfile", "k9s", "flux"), frozenset({"--kubeconfig"}))  # fmt: skip


def global_read(program: str, args: tuple[str, ...]) -> Read | None:
    """``args`` as ``program`` (one of `GLOBAL_OPTIONS`) reads them up to its subcommand:
    the options before it, then the subcommand and every word after as operands (None:
    another program)."""
    options = GLOBAL_OPTIONS.get(program)
    if options is None:
        return None
    return read_options(options, make_words(args) if options is MAKE else args)
