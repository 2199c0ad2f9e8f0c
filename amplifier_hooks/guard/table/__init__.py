"""The guard's table of programs: for each program it may grant, what each option and
operand does (read, write, delete, run code, reach the network, place a link).

One home per program or family: `files` (ls, cat, sort, uniq, xxd, ...), `changes` (cp,
mv, ln, rm, mkdir, chmod, tee, ...), `removers` (shred, srm, trash, gio, wipe), `text`
(grep, rg, jq, awk, pagers), `sed`, `finding` (find), `git`, `archives` (tar, unzip, gzip,
patch), `archivers` (cpio, unrar, ar), `network` (ssh, scp, rsync), `shell` (builtins,
man), `parallel`, `python`, `system` (iptables, ufw, nginx -t, lsof, journalctl),
`disks` (fdisk -l, blkid, lvs, dmesg, nft list, wg show, getent, dpkg -S, wipefs),
`netlooks` (iptables-save, firewall-cmd --list-all, sshd -t, certbot certificates),
`hardware` (udevadm info, qemu-img info, squeue and slurm's reports), `blocklooks`
(lsblk, cryptsetup status and luksDump, btrfs's listings), `macos`
(mdls, mdfind, tmutil and launchctl listings, plutil -p, xattr, ditto), `dbservers`
(etcdctl get, pg_ctl status|start|stop, atlas migrate diff|lint).
`read_call` answers for one program and its arguments; a program not in the table, or an
option its entry does not list, is doubtful: `grant` then grants nothing.
"""

from __future__ import annotations

import shlex
from functools import lru_cache

from amplifier_hooks.guard.table.acts import Act, Does, Reading, doubtful
from amplifier_hooks.guard.table.archivers import AR, ARCHIVERS, ar_words
from amplifier_hooks.guard.table.archivers import SPELLED as ARCHIVERS_SPELLED
from amplifier_hooks.guard.table.archives import (
    ARCHIVES,
    PATCH,
    SEVEN_ZIP,
    TAR,
    UNZIP,
    patch_placed,
    tar_words,
)
from amplifier_hooks.guard.table.blocklooks import BLOCK_LOOKS
from amplifier_hooks.guard.table.brokers import BROKERS
from amplifier_hooks.guard.table.changes import CHANGES, chattr_files, chmod_words
from amplifier_hooks.guard.table.changes import SPELLED as CHANGES_SPELLED
from amplifier_hooks.guard.table.commanders import SSH_KEYGEN
from amplifier_hooks.guard.table.dbservers import DB_SERVERS
from amplifier_hooks.guard.table.disks import DISKS
from amplifier_hooks.guard.table.documents import DOCUMENT_TOOLS, document_commands
from amplifier_hooks.guard.table.editors import EDITORS, editor_commands
from amplifier_hooks.guard.table.entries import Entry, merged
from amplifier_hooks.guard.table.fetch import FETCHING
from amplifier_hooks.guard.table.files import FILES, SORT, UNIQ, XXD, xxd_read
from amplifier_hooks.guard.table.finding import FINDING
from amplifier_hooks.guard.table.git import GIT, GitRead, git_read, git_spelled
from amplifier_hooks.guard.table.hardware import HARDWARE
from amplifier_hooks.guard.table.lftp import lftp_commands
from amplifier_hooks.guard.table.macos import MACOS
from amplifier_hooks.guard.table.netlooks import NETLOOKS
from amplifier_hooks.guard.table.network import NETWORKING, RSYNC
from amplifier_hooks.guard.table.nodeloaders import loaded_code_commands
from amplifier_hooks.guard.table.options import Options, Read, Spelled, read_options
from amplifier_hooks.guard.table.parallel import PARALLEL
from amplifier_hooks.guard.table.python import PYTHON, is_python, python_args, python_entry
from amplifier_hooks.guard.table.removers import REMOVERS
from amplifier_hooks.guard.table.removers import SPELLED as REMOVERS_SPELLED
from amplifier_hooks.guard.table.sed import PATTERN_SPACE, SED, scripted, sed
from amplifier_hooks.guard.table.settings import setting_commands
from amplifier_hooks.guard.table.shell import SHELL
from amplifier_hooks.guard.table.signing import SIGNING
from amplifier_hooks.guard.table.splitting import split_filters
from amplifier_hooks.guard.table.sqlshell import CLIENTS, meta_commands
from amplifier_hooks.guard.table.system import SYSTEM
from amplifier_hooks.guard.table.text import SEARCHES, TEXT, YQ, searched
from amplifier_hooks.guard.table.vcsconfig import VCS_TOOLS, vcs_setting_commands
from amplifier_hooks.guard.table.workspaceexec import EXEC_TOOLS, workspace_commands

__all__ = [
    "PATTERN_FIRST",
    "PROGRAMS",
    "PROJECT_CODE",
    "RUNS_COMMANDS",
    "Act",
    "Does",
    "GitRead",
    "Read",
    "Reading",
    "Spelled",
    "commands_run",
    "git_read",
    "only_read",
    "patterned",
    "read_call",
    "read_program",
    "spelled",
]

PROGRAMS: dict[str, Entry] = merged(FILES, CHANGES, TEXT, {"sed": sed}, FINDING, GIT, ARCHIVES,
                                    NETWORKING, SHELL, PARALLEL, REMOVERS, ARCHIVERS, SYSTEM, DISKS,
                                    MACOS, SIGNING, HARDWARE, NETLOOKS, BLOCK_LOOKS, DB_SERVERS,
                                    BROKERS,
                                    dict.fromkeys(("python", "python3"), python_entry))  # fmt: skip
"""Every program the table reads, by name (and Python by any version: `read_call`)."""

PROJECT_CODE = frozenset(
    {"make", "gmake", "cmake", "ninja", "just", "npm", "npx", "pnpm", "yarn", "bun", "deno",
     "node", "python", "python3", "pip", "pip3", "uv", "uvx", "poetry", "pipenv", "pytest",
     "py.test", "tox", "nox", "cargo", "go", "rustc", "gcc", "cc", "clang", "g++", "javac",
     "java", "mvn", "gradle", "dotnet", "tsc", "eslint", "prettier", "ruff", "black", "mypy",
     "pyright", "flake8", "isort", "jest", "vitest", "mocha", "coverage", "pre-commit",
     "ruby", "perl", "php", "bundle", "gem", "composer", "mix", "source", ".", "sh", "bash",
     "zsh", "dash", "ksh"}
)  # fmt: skip
"""Programs that run the project's own code (its scripts, tests, build files, hooks):
never granted, since the guard does not read that code."""


@lru_cache(maxsize=4096)  # pure on its arguments, and the same words come back across calls
def read_call(program: str, args: tuple[str, ...]) -> Reading:
    """What ``program`` does with ``args`` (doubtful when the table cannot say)."""
    entry = PROGRAMS.get(program)
    if entry is None and is_python(program):
        entry = python_entry  # python3.12
    if entry is None:
        if program in PROJECT_CODE:
            return doubtful(f"{program} runs code the guard does not read (the project's own)")
        return doubtful(f"{program} is not in the guard's table of programs")
    return entry(args)


RUNS_COMMANDS = frozenset({"man", "rg", "jq", "ssh", "scp", "sed", "git", "sort", "bat", "batcat",
                           "fd", "fdfind", "tar", "rsync", "install", "zip", "script", "npm",
                           "pnpm", "yarn", "composer", "parallel", *CLIENTS, *EDITORS,
                           "split", "node", "lftp", *DOCUMENT_TOOLS,
                           *EXEC_TOOLS, *VCS_TOOLS})  # fmt: skip
"""Programs with an option (or, for sed, a command; for a database client, a
meta-command; for a monorepo tool, ``exec``'s words) whose value is a command they run;
jq's filter reading the environment is judged as the ``printenv`` that shows the same."""


def commands_run(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The commands ``program`` runs because of ``args`` (``man -P 'less -R'``, ``rg --pre
    x``, ``ssh -o ProxyCommand=...``, sed's ``e``), for the parser to read and judge like
    any other command."""
    if program not in RUNS_COMMANDS:
        return ()
    if program in CLIENTS:
        return meta_commands(program, args)
    if program in EDITORS:
        return editor_commands(args, program)
    if program == "split":
        return split_filters(args)
    if program == "lftp":  # its -e/-c commands: uploads, remote deletes, `!CMD`
        return lftp_commands(args)
    if program == "node":  # `--import=data:text/javascript,CODE`: `node -e CODE`
        return loaded_code_commands(args)
    if program in DOCUMENT_TOOLS:  # pandoc's filters, TeX's \write18, gs's %pipe%
        return document_commands(program, args)
    if program in VCS_TOOLS:  # `hg --config 'alias.x=!CMD' x`, `jj --config ui.pager=CMD`
        return vcs_setting_commands(program, args)
    found: list[str] = [*setting_commands(program, args), *workspace_commands(program, args)]
    for does, target in read_call(program, args).acts:
        if does != Does.RUN or not target:
            continue
        if target == PATTERN_SPACE:  # a line sed reads, run: a command nobody can read
            target = '"$SED_RUNS_THE_LINE_IT_READ"'
        if program == "tar" and target.startswith("exec="):
            target = target[5:]  # --checkpoint-action=exec=CMD
        elif program == "tar" and target in _tar_fed(args):  # each member's text fed to it
            target = f"cat -- {shlex.quote(_tar_archive(args))} | {target}"
        if program in ("ssh", "scp") and "=" in target.split(" ", 1)[0]:
            target = target.split("=", 1)[1]  # -o ProxyCommand=CMD
        elif program in ("ssh", "scp") and " " in target:
            target = target.split(" ", 1)[1]  # -o 'ProxyCommand CMD'
        found.append(target)
    return tuple(found)


def _tar_fed(args: tuple[str, ...]) -> frozenset[str]:
    """The commands ``tar --to-command=CMD`` gives each member's contents (its input)."""
    words = tar_words(args)
    return frozenset(
        word.split("=", 1)[1] if "=" in word else words[index + 1]
        for index, word in enumerate(words)
        if word.startswith("--to-command=") or (word == "--to-command" and index + 1 < len(words))
    )


def _tar_archive(args: tuple[str, ...]) -> str:
    archives = read_options(TAR, tar_words(args)).values("archive")
    return archives[-1] if archives else "-"


SPELLED: dict[str, Options] = {
    **CHANGES_SPELLED, **REMOVERS_SPELLED, "sort": SORT, "uniq": UNIQ, "xxd": XXD, "sed": SED,
    "tar": TAR, "gtar": TAR, "bsdtar": TAR, "unzip": UNZIP, "patch": PATCH, "rsync": RSYNC,
    **FETCHING, **dict.fromkeys(("7z", "7za", "7zz", "7zr"), SEVEN_ZIP), "yq": YQ,
    **ARCHIVERS_SPELLED,
    "ssh-keygen": SSH_KEYGEN, "python": PYTHON, "python3": PYTHON,
}  # fmt: skip
"""Programs (with git) whose options the rules, and what a call changes (`places`), see as
the program reads them: by their unique prefixes, every spelling of each, the last one
winning. curl, wget and Python are read here only for that: the table grants none of them."""


def spelled(program: str, args: tuple[str, ...]) -> Spelled | None:
    """``args`` as ``program`` reads them, for the rules (None: the table does not read
    this program's options, or git's subcommand)."""
    if program == "git":
        return git_spelled(args)
    read = read_program(program, args)
    return None if read is None else Spelled.of(read)


@lru_cache(maxsize=4096)  # pure: the rules' flags and `places` ask it of the same call
def read_program(program: str, args: tuple[str, ...]) -> Read | None:
    """``args`` as ``program`` (one of `SPELLED`) reads them (None: another program)."""
    options = SPELLED.get(program)
    if options is None:
        return None
    if program == "chmod":
        args = chmod_words(args)
    elif program == "chattr":
        return chattr_files(args)
    elif options is XXD:
        return xxd_read(args)
    elif options is AR:
        args = ar_words(args)
    elif options is TAR:
        args = tar_words(args)
    elif options is PATCH:
        return patch_placed(read_options(options, args))
    elif options is PYTHON:
        return python_args(args)
    return read_options(options, args)


def only_read(program: str, args: tuple[str, ...]) -> frozenset[str]:
    """The words of ``program``'s options that name a file it only reads (``patch -i F``,
    ``tar -T F``), and patch's second operand (``patch ORIGFILE PATCHFILE``): never
    written, whatever the program writes."""
    read = read_program(program, args)
    if read is None:
        return frozenset()
    if program == "patch":
        return frozenset((*read.values("read"), *read.operands[1:2]))
    if SPELLED.get(program) is TAR and (read.has("extract") or read.has("list")):
        return frozenset((*read.values("read"), *read.values("archive")))  # `tar -xf A`
    return frozenset(read.values("read"))


PATTERN_FIRST = frozenset({*SEARCHES, "sed"})
"""Programs whose first operand is a pattern or script, not a path, unless an option gave
one (``grep -rn id_rsa docs/`` searches ``docs/``)."""


@lru_cache(maxsize=4096)  # pure on its arguments: a search's words recur (`grep -rn x .`)
def patterned(program: str, args: tuple[str, ...]) -> tuple[tuple[str, ...], Read]:
    """The patterns (sed: the scripts) ``program`` (one of `PATTERN_FIRST`) is given, and
    ``args`` as it reads them with the pattern left out of the operands: its paths."""
    return scripted(args) if program == "sed" else searched(program, args)
