"""Which of a piece's words name paths, and which of them it writes: read from the
program's options as its table reads them, before any path is resolved (`facts.Facts`)."""

from __future__ import annotations

from itertools import pairwise

from amplifier_hooks.guard.backuprepos import BACKUP_TOOLS, backup_writes, snapshot_paths
from amplifier_hooks.guard.braces import expand_braces
from amplifier_hooks.guard.chaintools import CHAIN_PROGRAMS, chain_values
from amplifier_hooks.guard.checkers import checks_only
from amplifier_hooks.guard.chezmoiwords import chezmoi_written
from amplifier_hooks.guard.codecalls import code_texts
from amplifier_hooks.guard.containers import CONTAINER_PROGRAMS, mounts
from amplifier_hooks.guard.devicewords import (
    DEVICE_NAMERS,
    IMAGE_LOOKERS,
    adb_files,
    guest_words,
    image_paths,
    is_emulator,
)
from amplifier_hooks.guard.elsewhere import cloud_names, runs_in_container
from amplifier_hooks.guard.exclusions import excluded_patterns
from amplifier_hooks.guard.exifwords import exif_reads_only, exif_tag_files
from amplifier_hooks.guard.identities import KEY_USERS, identity_words
from amplifier_hooks.guard.inline import CODE_PASSED, CODE_READ
from amplifier_hooks.guard.launchers import tmux_writes_nothing
from amplifier_hooks.guard.lookwords import writes_nothing
from amplifier_hooks.guard.minus import minus
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.pgfiles import PG_ARCHIVERS, pg_files
from amplifier_hooks.guard.plainwords import (
    COPIERS,
    NOT_PATHS,
    OPTION_FILES,
    SOURCES,
    TARS,
    UNPACKERS,
)
from amplifier_hooks.guard.programs import READ_ONLY, reads_only_ours
from amplifier_hooks.guard.psadmin import looked_up_paths
from amplifier_hooks.guard.qpdfwords import qpdf_written
from amplifier_hooks.guard.rclonewords import rclone_changes
from amplifier_hooks.guard.readsonly import reads_only
from amplifier_hooks.guard.refpatterns import ref_patterns
from amplifier_hooks.guard.servicewords import not_switches
from amplifier_hooks.guard.splitargs import split_args
from amplifier_hooks.guard.sqlfiles import SQL_CLIENTS, sql_files
from amplifier_hooks.guard.sqlservers import CLIENTS as SQL_SERVER_CLIENTS
from amplifier_hooks.guard.sqlservers import sql_given
from amplifier_hooks.guard.table import (
    PATTERN_FIRST,
    PROGRAMS,
    SPELLED,
    only_read,
    patterned,
    read_call,
    read_program,
)
from amplifier_hooks.guard.table.acts import Does, Reading
from amplifier_hooks.guard.table.brokers import BROKERS
from amplifier_hooks.guard.table.certs import AGE_KEYGENS, age_recipient_files, mkcert_files
from amplifier_hooks.guard.table.commanders import keygen_paths
from amplifier_hooks.guard.table.datafiles import DATA_VIEWERS, viewer_files
from amplifier_hooks.guard.table.fetch import FETCHING, glued_values
from amplifier_hooks.guard.table.git_messages import git_messages
from amplifier_hooks.guard.table.network import SSH
from amplifier_hooks.guard.table.opensslfiles import openssl_files
from amplifier_hooks.guard.table.options import read_options
from amplifier_hooks.guard.table.python import is_python, module_writes
from amplifier_hooks.guard.table.shell import date_files
from amplifier_hooks.guard.table.splitting import SPLITTERS, split_outputs
from amplifier_hooks.guard.table.system import LOOKERS

__all__ = ["FILE_READ_TOOLS", "FILE_WRITE_TOOLS", "operand_words", "path_words",
           "written_words"]  # fmt: skip

FILE_READ_TOOLS = frozenset({"read_file", "glob", "grep", "list_dir", "notebook_read"})
FILE_WRITE_TOOLS = frozenset({"write_file", "edit_file", "multi_edit", "notebook_edit",
                              "create_file"})  # fmt: skip

_PATH_URLS = frozenset({"trufflehog", "atlas", "aws"})
"""Programs that take a ``file://`` URL's rest as a path, relative too (``file://repo``
is ./repo, where a URL's ``repo`` would be a host; Atlas's ``--dir file://migrations``;
the AWS CLI's ``--policy-document file://policies/p.json``)."""
_UNPACKING = frozenset({Does.READ, Does.WRITE, Does.WRITE_INTO})
"""Archivers the table reads in full, listing, unpacking or packing: they write only the
folder they unpack into or the archive they pack (``unzip -l ~/x.zip`` writes nothing;
``tar -xzf ~/x.tgz -C data``, ``data``; ``tar -czf x.tgz .gitconfig``, ``x.tgz``: the
members are only read, unless ``--remove-files`` deletes them)."""
_NODE_USERS = CHAIN_PROGRAMS | {"anvil", "chisel"}
"""The smart-contract tools whose node URLs and addresses are no paths (`chaintools`)."""
_SYNCED = frozenset({Does.WRITE, Does.LINK, Does.DELETE})
"""What rsync does to a path that changes it (its table, `table.network`)."""
_CHANGING = frozenset({Does.WRITE, Does.LINK, Does.DELETE, Does.WRITE_INTO})
"""What a call the table reads in full does to a path that changes it: only those of its
words are written (`zcat F`, `sort F`: none)."""
_ON_FILES = _CHANGING | {Does.READ}


def path_words(piece: Piece, operands: tuple[str, ...], network: bool) -> tuple[str, ...]:
    """The words of ``piece`` that may name paths (``operands``: its operands as split)."""
    if piece.tool != "bash":  # a web tool's URL is an argument, not a path
        return piece.args if network is False else _no_urls(piece.args)
    if piece.program in NOT_PATHS:  # but the file `date -f FILE` prints
        return date_files(piece.args) if piece.program in OPTION_FILES else ()
    if piece.program in CONTAINER_PROGRAMS:  # `docker run -v SRC:DST img`: only SRC
        mounted = mounts(piece.program, piece.args)
        if mounted is not None:
            return mounted.paths
    named = cloud_names(piece.program, piece.args)
    if named is not None:  # `aws logs tail /aws/lambda/api`: a log group's name
        return named
    keyed = keygen_paths(piece.args) if piece.program == "ssh-keygen" else None
    if keyed is not None:  # `ssh-keygen -t ed25519 -C 'ci key' -f F`: only F
        return keyed
    sql = sql_files(piece.program, piece.args) if piece.program in SQL_CLIENTS else None
    if sql is not None:  # `duckdb -c "SELECT .. FROM 'x.parquet'"`: x.parquet, no more
        return sql.reads + sql.writes
    if piece.program in BROKERS and (named := _broker_files(piece, _READ_WRITE)) is not None:
        return named  # `redis-cli -a "$PASS" INFO`: the files it names only
    if piece.program == "mkcert" and (made := mkcert_files(piece.args)) is not None:
        return made.written + made.read  # `mkcert -key-file F localhost`: F, no host
    if piece.program == "adb" and (copied := adb_files(piece.args)) is not None:
        return copied.written + copied.read  # `adb pull /sdcard/x.log logs/`: logs/ only
    if piece.program in DATA_VIEWERS and (seen := viewer_files(piece.program, piece.args)):
        return seen.written + seen.read  # `h5dump -d /entry/data F`: F, no dataset
    if piece.program in AGE_KEYGENS and (made := age_recipient_files(piece.args)) is not None:
        return made.written + made.read  # `age-keygen -y KEYS`: KEYS, read only
    restored = pg_files(piece.program, piece.args) if piece.program in PG_ARCHIVERS else None
    if restored is not None:  # `pg_restore -d app_dev F`: F, no database
        return restored.reads + restored.writes
    if piece.program == "openssl" and (files := openssl_files(piece.args)) is not None:
        return files.written + files.read  # `openssl x509 -in F -noout -enddate`: F
    if piece.program == "sed":  # and the files its script reads and writes (`r F`, `w F`)
        return operand_words(piece, operands) + _sed_files(piece.args)
    if piece.program == "exiftool":  # `-Comment<=F` copies F's text into the image
        return operand_words(piece, operands) + exif_tag_files(piece.args)
    return operand_words(piece, operands)


def _aws_queries(args: tuple[str, ...]) -> tuple[str, ...]:
    """The values of the AWS CLI's ``--query`` (a JMESPath expression, never a file)."""
    found = [v for o, v in pairwise(args) if o == "--query"]
    return (*found, *(a[8:] for a in args if a.startswith("--query=")))


def _remote_command(args: tuple[str, ...]) -> tuple[str, ...]:
    """The words of the command ``ssh ARGS`` runs on the other machine (after its host):
    when that command only looks (`readsonly`), they name that machine's files, none
    here; any other's stay words the rules read (``>> ~/.ssh/authorized_keys``)."""
    read = read_options(SSH, args)
    return tuple(read.operands[1:]) if read.doubt is None else ()


def _blob_paths(operands: tuple[str, ...]) -> tuple[str, ...]:
    """The paths of git's ``REV:PATH`` operands (``:PATH`` and ``:N:PATH`` name the index's
    copy): what ``git show``, ``cat-file`` or ``diff`` print of that file."""
    paths = []
    for word in operands:
        if ":" not in word or "://" in word:
            continue
        rest = word.partition(":")[2]
        if rest[:1].isdigit() and rest[1:2] == ":":  # `:2:PATH`, a merge's stage
            rest = rest[2:]
        if rest:
            paths.append(rest)
    return tuple(paths)


def _sed_files(args: tuple[str, ...]) -> tuple[str, ...]:
    acts = read_call("sed", args).acts
    return tuple(a.target for a in acts if a.does in (Does.READ, Does.WRITE) and a.target
                 and a.target not in args)  # fmt: skip


def operand_words(piece: Piece, operands: tuple[str, ...]) -> tuple[str, ...]:
    """The words of the operands that may name paths (of a shell command)."""
    words: list[str] = []
    program = piece.program or ""
    if "-" in program and (looked := looked_up_paths(program, piece.args)) is not None:
        return looked  # `Get-ADUser -Filter 'Enabled -eq $true'`: no path
    if CODE_READ in piece.wrappers:  # the code's own paths are pieces (`earlier`)
        codes = code_texts(program, piece.args)
        operands = tuple(o for o in operands if o not in codes)
    elif CODE_PASSED in piece.wrappers:  # `python3 -`: its input, judged as code
        operands = tuple(o for o in operands if o != "-")
    if program == "restic":  # `restore --include /home/dev/documents`: the snapshot's path
        operands = minus(operands, snapshot_paths(piece.args))
    else:  # `tar --exclude=.env`, `rsync --exclude .env`, `zip -r a.zip . -x .env`
        operands = minus(operands, excluded_patterns(program, piece.args))
    if program in KEY_USERS:  # `ssh -i KEY host`: a key ssh signs with, never shows
        operands = minus(operands, identity_words(program, piece.args))
        if program == "ssh" and reads_only(piece):  # `ssh host ls /srv`: a look there
            operands = minus(operands, _remote_command(piece.args))
    elif program == "rsync":  # `-e 'ssh -i KEY'`: a command, judged as its own piece
        operands = minus(operands, _commands_given(program, piece.args))
    elif is_emulator(program):  # `-append "root=/dev/vda"`: the guest's, not a path here
        operands = minus(operands, guest_words(piece.args))
    elif program in IMAGE_LOOKERS:  # `virt-cat -a disk.qcow2 /etc/os-release`: the guest's
        operands = minus(operands, image_paths(program, piece.args))
    elif program in _NODE_USERS:  # `--rpc-url $MAINNET_RPC_URL`, `cast storage $PROXY ..`
        operands = minus(operands, chain_values(program, piece.args))
    elif program in SQL_SERVER_CLIENTS:  # `bq query 'SELECT .. FROM `p.d.t`'`: SQL, no path
        operands = minus(operands, sql_given(program, piece.args))
    if program in _FILTER_FIRST and (filtered := _filtered_files(program, piece.args)) is not None:
        operands = filtered  # `jq -r '.items[].key'`: a filter, no file named `.key`
    if program in PATTERN_FIRST:
        read = patterned(program, piece.args)[1]  # the files it reads patterns from too
        operands = (*read.values("pattern-file"), *read.values("script-file"),
                    *read.values("read"), *read.operands)  # fmt: skip
    if program == "git":  # `git show HEAD:.env.local` prints the file as HEAD holds it
        flags, _, subcommand, _ = split_args(program, piece.args)
        # `tag -l 'v*'`; `commit -m 'untrack .env'`: a message
        operands = minus(operands, (*ref_patterns(subcommand, flags, operands),
                                    *git_messages(piece.args)))  # fmt: skip
        operands = (*operands, *_blob_paths(operands))
    if program == "aws":  # `--query 'Contents[].Key'`: a JMESPath over the answer
        operands = minus(operands, _aws_queries(piece.args))
    if program in FETCHING:  # `curl -F'f=@.env'`, `--data=@x`: a value glued on
        operands = (*operands, *glued_values(piece.args))
    for operand in operands:
        if "://" in operand:
            if not operand.startswith("file://"):
                continue
            rest = operand[7:]  # file://host/p is /p; file://$HOME/p and file://~/p too
            if program in _PATH_URLS:
                operand = rest or "."  # `trufflehog git file://.`: the workspace's repository
            else:
                operand = rest if rest[:1] in ("$", "~") else "/" + rest.partition("/")[2]
        if operand.startswith("@"):  # curl -d @file
            operand = operand[1:]
        name, equals, value = operand.partition("=")
        if equals and name.isidentifier():  # dd of=/dev/sda, key=value
            operand = value[1:] if value.startswith("@") else value  # curl -F f=@file
        words.extend(expand_braces(operand) if "{" in operand else (operand,))
    if program in TARS and any(a.startswith(("-C", "--dir", "--cd")) for a in piece.args):
        # `tar -C ~ -cz .ssh` reads ~/.ssh: its members as the table resolves them
        acts = read_call(program, piece.args).acts
        words.extend(a.target for a in acts if a.does is Does.READ and a.target not in words)
    if "xargs" in piece.wrappers:
        words.append("$XARGS")  # the arguments xargs reads from its input
    return not_switches(program, tuple(words))


_READ_WRITE = (Does.READ, Does.WRITE)


def _broker_files(piece: Piece, does: tuple[Does, ...]) -> tuple[str, ...] | None:
    """The files a cache's or a broker's client reads or writes, as the table reads it
    (its other words are the server's commands and names); None when the table cannot
    read it (an option it does not know), so that its words are read as any program's."""
    reading = read_call(piece.program or "", piece.args)
    if reading.doubt is not None:
        return None
    return tuple(act.target for act in reading.acts if act.does in does)


def written_words(piece: Piece, words: tuple[str, ...]) -> tuple[str, ...]:
    """The words of the paths the program writes (``words``: its path words)."""
    if piece.program == "dd":  # dd writes only its of= operand
        return tuple(a[3:] for a in piece.args if a.startswith("of="))
    if (
        piece.program in SPLITTERS
        and (outputs := split_outputs(piece.program, piece.args)) is not None
    ):
        return outputs  # files named by a prefix, not the patterns it is given
    if piece.program in BROKERS and (named := _broker_files(piece, (Does.WRITE,))) is not None:
        return named  # `redis-cli --rdb F`, `rabbitmqadmin export F`
    if piece.program == "mkcert" and (made := mkcert_files(piece.args)) is not None:
        return made.written  # its -cert-file and -key-file, not its -csr
    if piece.program == "adb" and (copied := adb_files(piece.args)) is not None:
        return copied.written  # a pull's folder or file here; a push writes the device's
    if piece.program in AGE_KEYGENS and (made := age_recipient_files(piece.args)) is not None:
        return made.written  # its -o, not the identity it reads
    restored = pg_files(piece.program, piece.args) if piece.program in PG_ARCHIVERS else None
    if restored is not None:  # `pg_restore -d db F` reads F into a database
        return restored.writes
    if piece.program == "openssl" and (files := openssl_files(piece.args)) is not None:
        return files.written  # -out and -keyout, not -in
    if piece.tool in FILE_WRITE_TOOLS:
        return words
    if piece.tool != "bash" or piece.program in READ_ONLY or _reads_only(piece):
        return ()
    if piece.program in OPTION_FILES:  # `date -f FILE` only reads FILE
        return ()
    if piece.program == "exiftool" and exif_reads_only(piece.args):  # `-p '$FileName'`
        return ()
    if piece.program == "qpdf" and (pdf := qpdf_written(piece.args)) is not None:
        return pdf  # its output, not its input nor its --password-file
    if piece.program in DATA_VIEWERS and (seen := viewer_files(piece.program, piece.args)):
        return seen.written  # `h5dump -o F`, `xmllint --output F`
    if piece.program in COPIERS or piece.program == "sed":
        return ()  # what they write is what `places.changed` says (sed: -i, w FILE)
    if piece.program == "rclone":  # `rclone check SRC DST`: nothing; `sync SRC DST`: DST
        return rclone_changes(piece.args)
    if piece.program in SOURCES:  # it runs its file (judged so), and writes none
        return ()
    if (
        runs_in_container(piece.program, piece.args)
        or cloud_names(piece.program, piece.args) is not None
    ):  # the container's paths; a service's names, and files it only reads
        return ()
    if piece.program in FETCHING:  # a URL or a header is no file: only -o, -P, ...
        read = read_program(piece.program, piece.args)
        if read is not None and read.doubt is None:
            return (*read.values("write"), *read.values("into"))
    if piece.program in UNPACKERS:  # what is packed or unpacked from is read; the archive
        unpacked = read_call(piece.program, piece.args)  # or the folder unpacked into: written
        if unpacked.doubt is None and all(a.does in _UNPACKING for a in unpacked.acts):
            return tuple(a.target for a in unpacked.acts if a.does is not Does.READ)
    if piece.program == "rsync":  # its sources are read; `-n` writes nothing
        synced = read_call("rsync", piece.args)  # (`host:path`, `C:\x`: every word)
        if synced.doubt is None and all(a.does is not Does.NETWORK for a in synced.acts):
            return tuple(a.target for a in synced.acts if a.does in _SYNCED)
    if piece.program in SQL_CLIENTS:
        sql = sql_files(piece.program, piece.args)
        if sql is not None:  # the database unless -readonly, COPY .. TO 'F', .output F
            return sql.writes
    if piece.program == "chezmoi" and (dots := chezmoi_written(piece.args)) is not None:
        return dots  # `chezmoi cat|diff|add ~/.zshrc`: the target is only read
    if piece.program == "tmux" and tmux_writes_nothing(piece.args):  # `source-file F`
        return ()
    if writes_nothing(piece.program, piece.args):  # `nix store diff-closures A B`
        return ()
    if piece.program in DEVICE_NAMERS:  # `umount /dev/sdb1`: nothing on it is written
        return ()
    if piece.program in BACKUP_TOOLS and not piece.env:  # `borg list REPO`: nothing
        return backup_writes(piece.program, piece.args, words)
    looked = read_call(piece.program, piece.args) if piece.program in LOOKERS else None
    if looked is not None and looked.doubt is None:  # `lsof +D DIR`, `iptables -L`: read in
        return tuple(a.target for a in looked.acts if a.does is Does.WRITE)  # full (but
        # a mode the table reads whole that writes: `qemu-img create IMG`, not its -b)
    if piece.program in PROGRAMS and _on_files(known := read_call(piece.program, piece.args)):
        return tuple(a.target for a in known.acts if a.does in _CHANGING)  # `zcat F`: none
    if is_python(piece.program or ""):
        module = module_writes(piece.args)  # `-m json.tool IN [OUT]`: only OUT
        if module is not None:
            return module
    if piece.program not in CONTAINER_PROGRAMS:
        if piece.program in SPELLED:  # but one word for each value of an option that
            return minus(words, only_read(piece.program, piece.args))  # only reads (`patch -i F`)
        return words
    mounted = mounts(piece.program, piece.args)
    return words if mounted is None else mounted.written


def _on_files(reading: Reading) -> bool:
    """Whether the table reads the call in full and it only reads and changes files here
    (no host reached, no command run: those words stay written, as for any program)."""
    return reading.doubt is None and all(a.does in _ON_FILES for a in reading.acts)


def _commands_given(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The values of ``program``'s options that are commands it runs (rsync's ``-e``,
    ``--rsync-path``), but one that is also an operand (then the word is kept)."""
    read = read_program(program, args)
    if read is None:
        return ()
    return tuple(v for v in read.values("run") if v not in read.operands)


def _reads_only(piece: Piece) -> bool:
    """A program that writes its files, run in a mode that only reads them."""
    if piece.program == "ssh-keygen":  # -l, -F, -B, -L: a fingerprint, a host, a name
        read = read_program("ssh-keygen", piece.args)
        # (-s signs first, whatever else is asked: it writes each key's certificate)
        return read is not None and read.has("only-reads") and "-s" not in read.flags()
    if checks_only(piece.program, piece.args):  # `shellcheck F`, `bash -n F`, `mypy DIR`
        return True
    return reads_only_ours(piece.program, piece.args)  # `amplifier-hooks test|bench ...`


def _no_urls(args: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(a for a in args if "://" not in a)


_FILTER_FIRST = frozenset({"jq", "yq"})
"""Programs whose first operand is a filter, the files to read coming after it."""


def _filtered_files(program: str, args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The files ``jq FILTER FILES`` or ``yq EXPRESSION FILES`` reads, as the table reads
    it (None: the table doubts the call, and every operand is taken as a path). A filter
    that names a secret field (``.private_key``) keeps the files' read what it is."""
    reading = read_call(program, args)
    if reading.doubt is not None:
        return None
    return tuple(a.target for a in reading.acts if a.does is Does.READ and a.target)
