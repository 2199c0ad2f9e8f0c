"""The grant rule: a call is granted only when every piece of it is understood and safe.

A host skips its own prompt for what the guard grants, so a rule's allow becomes a grant
only when the table (`guard.table`) reads the program and every option and operand it is
given, every variable set for it is harmless (`guard.envs`), no argument expands a
variable (its value may be a secret, or an option), and what it does stays where a grant
may reach: it reads inside the workspace, a temporary folder or the system's public
places (software, documentation, the distribution's settings: not a service's folder,
not ``/proc``, not root's home folder, not the home folder outside the workspace); it
writes and deletes only inside the workspace or a temporary folder, never the workspace
as a whole, a protected place, a tool's configuration (`CONFIG_NAMES`: ``.claude``,
``.git``, ``.mcp.json``, ...) or a path known only at run time, nor a file a build, test
or install tool runs (`buildfiles.runs_later`: ``package.json``, a Makefile,
``conftest.py``, ...) or a CI system runs with the project's secrets
(`ciconfigs.ci_config`: ``.gitlab-ci.yml``, a Jenkinsfile, a Dockerfile,
``renovate.json``, ...), nor infrastructure code a deploy applies outside the machine
(`iacfiles.iac_file`: ``.tf``, ``.tfvars``, Pulumi, ...), nor a lock file
(`supplyfiles.lock_file`) or vendored code (`supplyfiles.vendored_language`), nor a
golden test's answers, nor (deleting) the project's tests or deploy records
(`keptfiles`); it runs no
other command and reaches no other machine (but for git's fetch and pull from a remote
the repository names). Anything else keeps no grant: no opinion, and the host decides.
Deletes inside the workspace keep the rule they have had (allowed there).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.buildfiles import runs_later
from amplifier_hooks.guard.checkwords import sed_words
from amplifier_hooks.guard.ciconfigs import ci_config
from amplifier_hooks.guard.fedcode import echoed_text, written_into
from amplifier_hooks.guard.globlinks import follows_links, link_out
from amplifier_hooks.guard.iacfiles import iac_file
from amplifier_hooks.guard.inline import CODE_PASSED, FROM_CODE, QUIET_CODE
from amplifier_hooks.guard.keptfiles import kept_back
from amplifier_hooks.guard.laterfiles import (
    CREDENTIAL_FOLDERS,
    CREDENTIAL_NAMES,
    CREDENTIAL_STEMS,
    is_short_name,
    windows_name,
)
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import GLOB_CHARS, QUIET_DEVICES, Located, locate
from amplifier_hooks.guard.pathwords import FILE_READ_TOOLS, FILE_WRITE_TOOLS
from amplifier_hooks.guard.peopledata import people_export
from amplifier_hooks.guard.servefiles import serve_config
from amplifier_hooks.guard.statements import ARITHMETIC
from amplifier_hooks.guard.supplycode import is_script
from amplifier_hooks.guard.supplyfiles import lock_file, vendored_language
from amplifier_hooks.guard.table import Act, Does, read_call
from amplifier_hooks.guard.writtenscripts import on_disk_script, script_named

__all__ = ["CONFIG_NAMES", "links_then_changes", "withheld"]

CONFIG_NAMES = frozenset(
    {".claude", ".codex", ".gemini", ".github", ".opencode", ".cline", ".clinerules",
     ".cursor", ".windsurf", ".continue", ".roo", ".kiro", ".amazonq", ".aider.conf.yml",
     ".mcp.json", ".vscode", ".idea", ".devcontainer", ".git", ".husky", ".gitmodules", ".repo",
     ".pre-commit-config.yaml", ".envrc", ".env", ".npmrc", ".pypirc", ".gitconfig", ".bundle",
     ".config", ".local", ".ssh", ".bashrc", ".zshrc", ".profile", ".bash_profile",
     ".htaccess", ".user.ini", "php.ini", "web.config", ".sops.yaml", ".sops.yml", ".sf",
     ".sfdx", "platformio.ini", "fastlane", "automod.yaml", "automod.yml", "automod.json",
     ".semgrepignore", ".trivyignore", ".gitleaksignore", ".gitleaks.toml", ".snyk",
     ".secrets.baseline", ".trufflehogignore"}
)  # fmt: skip
"""Names of files and folders that configure an agent, its hooks, an editor, git, the
shell or the web server (``.htaccess``: who may see a folder, what runs as PHP), or where
git fetches code from (``.gitmodules``' URLs, the ``repo`` tool's manifests in ``.repo``),
or which files SOPS encrypts (``.sops.yaml``), or an app's release lanes, signing
repository and store account (``fastlane/``: CI runs them with the store's keys), or whom
a chat bot bans by itself (``automod.yaml``), or what a security scanner passes over
(``.semgrepignore``, ``.trivyignore``, ``.secrets.baseline``): a grant
never changes one, nor anything
inside one (the rules decide whether such a change is denied, asked, or left to the host)."""
_ENV_VARIANT = re.compile(r"\.env\.(?!(?:example|sample|template|dist|tpl|tmpl)$)")
"""``.env.local``, ``.env.production``: loaded into the environment as ``.env`` is
(``NODE_OPTIONS``, ``PYTHONSTARTUP`` in it run code); not the templates beside them."""
_VARIABLE = re.compile(r"\$\{?[A-Za-z_]")
_NAME = re.compile(r"[A-Za-z_]\w*")
_SHELL_NUMBERS = frozenset({"RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "LINENO",
                            "BASHPID", "PPID", "UID", "EUID"})  # fmt: skip
"""Variables the shell sets to a number (never text that could hold ``a[$(cmd)]``)."""
_READ_WHERE = frozenset({"inside_workspace", "workspace_root", "tmp", "system", "root"})
_PUBLIC_TREES = (
    "/usr/",
    "/bin/",
    "/sbin/",
    "/lib/",
    "/lib32/",
    "/lib64/",
    "/libx32/",
    "/sys/",
    "/snap/",
    "/System/",
    "/Applications/",
    "/etc/apt/",
    "/etc/yum.repos.d/",
    "/etc/ld.so.conf.d/",
    "/dev/",
)
"""(A device's reads are the rules' to judge: a disk's raw read is asked, `raw-disk-read`.)"""
_PRIVATE_TREES = ("/usr/local/etc/", "/usr/local/var/")
"""(Homebrew keeps its services' configurations and data there: redis.conf, databases.)"""
_PUBLIC_FILES = frozenset(
    f"/etc/{name}" for name in (
        "hosts", "hostname", "os-release", "lsb-release", "debian_version", "redhat-release",
        "alpine-release", "issue", "issue.net", "motd", "resolv.conf", "nsswitch.conf",
        "passwd", "group", "shells", "timezone", "localtime", "locale.conf", "default/locale",
        "fstab", "mtab", "services", "protocols", "networks", "inputrc", "profile",
        "bash.bashrc", "ssh/ssh_config", "ssh/sshd_config", "ld.so.conf", "machine-id",
        "sysctl.conf", "security/limits.conf", "login.defs", "adduser.conf", "host.conf",
        "gai.conf", "mime.types", "papersize", "subuid", "subgid")
)  # fmt: skip
"""The system's files read under a grant: software, documentation, the distribution's own
settings. A service's folder under /etc, /opt, /srv, /var or /Library may hold its
passwords and keys (``grafana.ini``, ``consul.d``, a site's ``.env``), named as nothing the
guard knows: reading it keeps no grant."""
_ROOT_HOMES = ("/root/", "/var/root/")
_ROOT_HOME_FOLDERS = frozenset({"/root", "/var/root"})
"""Root's home folder (Linux; macOS): below a system folder, but as much a home folder as
the person's own, with its keys, tokens and shell history."""

_NOT_UNDER = {
    "find": "find -exec runs it on files the guard cannot list",
    "awk": "awk runs it from its program", "gawk": "awk runs it from its program",
    "mawk": "awk runs it from its program", "nawk": "awk runs it from its program",
    FROM_CODE: "inline code does it, and the guard never grants code",
    QUIET_CODE: "it runs inline code, and the guard never grants code",
    CODE_PASSED: "it runs code from its input, and the guard never grants code",
}  # fmt: skip
"""Wrappers whose commands are judged but never granted."""
_WORDS_ONLY = frozenset({"echo", "printf", "true", "false", ":", "test", "[", "[[", "sleep",
                         "seq", "expr", "exit", "return", "shift", "read", "wait", "cd",
                         "pushd", "unset"})  # fmt: skip
"""Programs whose arguments are never options that change what they do: a word known
only at run time cannot make them write or run anything."""
_DELETERS = frozenset({"rm", "rmdir", "unlink"})
_CHANGES = frozenset({Does.WRITE, Does.DELETE, Does.WRITE_INTO, Does.LINK})
_WHOLE = frozenset({"workspace_root", "above_workspace", "home", "root"})
"""Places a grant never changes as a whole (a temporary folder holding the workspace
included: then every path in the workspace is in it too)."""


def _evaluated(arg: str) -> bool:
    """``arg`` is `statements.ARITHMETIC` or has ``$((...))``/``$[...]`` naming a variable
    other than the shell's own numbers: its value is evaluated as an expression."""
    if arg == ARITHMETIC:
        return True
    if "$((" not in arg and "$[" not in arg:
        return False
    return not _SHELL_NUMBERS.issuperset(_NAME.findall(arg))


def withheld(piece: Piece, places: Places) -> str | None:
    """Why ``piece``, which a rule allows, is not granted (None: it is granted)."""
    if piece.tool != "bash":
        does = Does.WRITE if piece.tool in FILE_WRITE_TOOLS else Does.READ
        if piece.tool not in FILE_WRITE_TOOLS | FILE_READ_TOOLS:
            return None  # another tool: its rules decide
        if piece.doubt is not None:
            return piece.doubt
        for path in piece.args:
            why = _unsafe(Act(does, path), piece, places)
            if why is not None:
                return why
        return None
    if piece.doubt is not None:
        return piece.doubt
    program = piece.program
    if program is None or piece.opaque is not None:
        return "the guard cannot tell what this runs"
    for wrapper in piece.wrappers:
        why = _NOT_UNDER.get(wrapper)
        if why is not None:
            return why
    if piece.function:
        return None  # its body's pieces are judged (and granted) on their own
    if piece.dynamic and any(_evaluated(a) for a in piece.args):
        return "it evaluates a value known only at run time as arithmetic (a[$(cmd)] runs cmd)"
    if piece.dynamic and program not in _WORDS_ONLY:
        return "an argument is only known when the shell runs it (it may be an option)"
    if piece.dynamic and any(_VARIABLE.search(a) for a in piece.args):
        return "it passes on the value of a variable, which may be a secret"
    reading = read_call(program, piece.args)
    if reading.doubt is not None:
        return reading.doubt
    why = follows_links(piece)  # `grep -R`: links below the folders it searches
    if why is not None:
        return why
    acts = reading.acts
    if program == "sed" and (why := sed_words(piece.args, acts)) is not None:
        return why
    if program in _DELETERS and not any(a.does == Does.DELETE for a in acts):
        return f"{program} is given nothing to delete here (its operands come from elsewhere)"
    if (piece.writes or program == "tee") and echoed_text(piece) is None:
        why = _into_script(piece, places)  # text the guard does not see
        if why is not None:
            return why
    if piece.writes or piece.reads:
        acts += tuple(Act(Does.WRITE, w) for w in piece.writes)
        acts += tuple(Act(Does.READ, r) for r in piece.reads)
    for act in acts:
        why = _unsafe(act, piece, places)
        if why is not None:
            return why
    return None


def _into_script(piece: Piece, places: Places) -> str | None:
    """Why a write of text the guard does not see (``... | tee -a bin/dev``, ``cat f >>
    scripts/x.sh``) into a shell script is not granted: its lines are the script's."""
    for target in written_into(piece):
        path = locate(target, piece.cwd, places).path
        if is_script(path) or script_named(path) or on_disk_script(path):  # `writtenscripts`
            return f"{target} is a shell script, and the lines written into it are not seen"
    return None


def _unsafe(act: Act, piece: Piece, places: Places) -> str | None:
    does, target = act
    if does == Does.READ:
        return _unreadable(target, piece, places)
    if does == Does.RUN:
        return f"it runs {target!r}, which the guard does not judge as part of this call"
    if does == Does.NETWORK:
        return f"it reaches {target}"
    if does == Does.WRITE_INTO:
        return "it unpacks names the guard cannot see (links among them)"
    if target in QUIET_DEVICES:
        return None
    located = locate(target, piece.cwd, places)
    where = located.where
    why = _unnamed(target, located)
    if why is not None:
        return why
    if "protected" in where:
        return f"{target} is a protected place"
    if not _WHOLE.isdisjoint(where):
        return f"{target} is the workspace or a folder above it"
    if "inside_workspace" not in where and "tmp" not in where:
        return f"{target} is outside the workspace"
    if does == Does.DELETE and "inside_workspace" not in where:
        # the shared temporary folder holds other programs' and the person's own work
        return f"{target} is in a shared temporary folder, which holds others' work too"
    if not GLOB_CHARS.isdisjoint(target) and "inside_workspace" in where:
        why = link_out(located.path, str(places.workspace))  # `chmod 600 *` follows links
        if why is not None:
            return why
    why = kept_back(located.path, str(places.workspace), does == Does.DELETE)
    if why is not None:  # the project's tests, golden answers and deploy records
        return why
    if piece.program in _REWRITERS and windows_name(located.path.rpartition("/")[2]) in _IGNORES:
        return f"{target} keeps files out of commits, and a rewrite may drop a secret's line"
    return _configures(located.path, places)


_SOURCE_LISTS = (".repos", ".rosinstall", "/west.yml")
_BUILD_CACHES = frozenset({"nx.json", "turbo.json", ".bazelrc", "pants.toml", ".buckconfig",
                           "lerna.json", "rush.json"})  # fmt: skip
"""A monorepo build system's settings: its tasks, the environment its cache keys hold and
its remote cache, whose outputs every later build (and CI's) takes as its own."""
_RECORDS = re.compile(
    r"(?:^|/)(?:[^/]*[-_.])?(?:audit|custody)(?:[-_.][^/]*)?\.(?:log|csv|jsonl?|txt|xml)$"
    r"|(?:^|/)(?:audit[-_]?logs?|custody|chain[-_]of[-_]custody|legal[-_]holds?"
    r"|privilege[-_]logs?|rights|clearances?|rights[-_](?:clearances?|managed))/"
    r"|(?:^|/)[^/]*clearances?[^/]*\.(?:ya?ml|json|csv|xlsx?|txt)$"
)
"""Records whose change is tampering: an audit log, a chain of custody, a legal hold's or
a privilege log's files, and the rights cleared for licensed material (music cues,
footage, images: ``rights/``, ``*clearance*``), by their names or folders."""
_SAFETY = frozenset({"safety", "safety_controller", "safety-controller", "estop", "e_stop"})
"""Folders of a robot's or machine's safety controller: a limit raised there moves
hardware."""
_REWRITERS = frozenset({"sed", "perl", "awk", "gawk"})
_IGNORES = frozenset({".gitignore", ".dockerignore", ".npmignore"})
"""An ignore file rewritten by a script (``sed -i '/.auth/d' .gitignore``) may lose the line
that keeps a secret out of every ``git add -A``; an append, or a file tool's edit (read
by `ignorefiles`), is seen for what it adds."""


def _unreadable(target: str, piece: Piece, places: Places) -> str | None:
    """Why reading ``target`` is not granted: only the workspace, a temporary folder and
    the system's public places are read under a grant (``/proc`` holds the environment,
    a service's folder its passwords)."""
    if target in QUIET_DEVICES or target == "-":
        return None
    located = locate(target, piece.cwd, places)
    where = located.where
    why = _unnamed(target, located)
    if why is not None:
        return why
    if _READ_WHERE.isdisjoint(where) or located.path.startswith("/proc"):
        return f"{target} is outside the workspace"
    if "system" in where and not _public(located.path):
        return (
            f"{target} is outside the workspace, where services keep their configurations "
            "and data (their passwords and keys among them)"
        )
    if not GLOB_CHARS.isdisjoint(target) and "inside_workspace" in where:
        why = link_out(located.path, str(places.workspace))  # `cat *` with a link out
        if why is not None:
            return why
    folder, _, name = located.path.rpartition("/")
    name = windows_name(name)
    if name in CREDENTIAL_NAMES or CREDENTIAL_STEMS.match(name):
        return f"{target} is named as a file of passwords or tokens"
    if not CREDENTIAL_FOLDERS.isdisjoint(map(windows_name, folder.split("/"))):
        return f"{target} is in a folder kept for secrets"
    if people_export(located.path):
        return f"{target} is named as an export of people's personal data"
    if located.path.startswith(_ROOT_HOMES) or located.path in _ROOT_HOME_FOLDERS:
        return f"{target} is in root's home folder (its keys, tokens and history)"
    return None


_PATTERN_IN_FOLDER = "{} has a pattern in a folder name, whose matches the guard does not list"


def _unnamed(target: str, located: Located) -> str | None:
    """Why a write or a read of ``target`` is not granted when the text does not name the
    files it reaches (a value known only at run time, a pattern in a folder name)."""
    if "unknown" in located.where:
        return f"{target} is only known when the shell runs it"
    if _pattern_in_folder(located.path):
        return _PATTERN_IN_FOLDER.format(target)
    return None


def _pattern_in_folder(path: str) -> bool:
    """A pattern in a folder name (``src/**/*.ts``): placed where the folder its matches
    are below is (`globplace`), never granted (``*`` may name ``.git`` under ``dotglob``,
    and `CONFIG_NAMES` are told by name)."""
    return not GLOB_CHARS.isdisjoint(path.rpartition("/")[0])


def _configures(path: str, places: Places) -> str | None:
    """Why changing ``path`` changes a tool's configuration (its names below the
    workspace, or all of them elsewhere, meet `CONFIG_NAMES`)."""
    workspace = places.known.workspace
    inner = path[len(workspace) + 1 :] if path.startswith(workspace + "/") else path
    for name in inner.split("/"):
        if is_short_name(name):  # `GIT~1` may be `.git` on Windows
            return f"{path} holds a Windows short name ({name}), which may stand for any name"
        if windows_name(name) in CONFIG_NAMES:  # `.VSCode` is `.vscode` where case is ignored
            return f"{path} is in {name}, which configures a tool"
    if _ENV_VARIANT.match(path.rpartition("/")[2]):  # `.env.local`: as `.env` is
        return f"{path} sets the environment the project's programs run with"
    if path.lower().endswith(".reg"):  # `reg import`, or a double-click: the machine's registry
        return f"{path} is a registry file, which an import writes into the machine's settings"
    if path.endswith(_SOURCE_LISTS):  # vcstool's, rosinstall's and west's repositories
        return f"{path} says where the workspace's code is fetched from"
    if path.rpartition("/")[2] in _BUILD_CACHES:  # the tasks, and the cache builds trust
        return f"{path} says which tasks a build runs and the cache it takes outputs from"
    if _RECORDS.search(inner.lower()):  # an audit log, a chain of custody: records kept
        return f"{path} is a record kept as evidence (an audit log, custody, rights cleared)"
    if not _SAFETY.isdisjoint(inner.lower().split("/")[:-1]):
        return f"{path} configures a safety controller (its limits and stops)"
    system = ci_config(path)
    if system is not None:  # its scripts are judged as CI steps (`cisteps`), never granted
        return f"{path} holds what {system} runs with the project's secrets"
    tool = iac_file(path)
    if tool is not None:  # what a deploy applies outside the machine (`iacfiles`)
        return f"{path} is infrastructure code {tool} applies outside this machine"
    server = serve_config(path)
    if server is not None:  # what every visitor of the site meets (`servefiles`)
        return f"{path} configures {server}, which serves the site to its visitors"
    writer = lock_file(path)
    if writer is not None:  # what every later install trusts unchecked (`supplyfiles`)
        return f"{path} is a lock file, which {writer} writes"
    if vendored_language(path) is not None:  # run as the dependency's own, unreviewed
        return f"{path} is vendored third-party code, which the guard never grants"
    runner = runs_later(path)
    if runner is not None:  # its text is judged as the code it is (`planted`), never granted
        return f"{path} holds code {runner.tool} runs later, which the guard never grants"
    return None


def links_then_changes(pieces: tuple[Piece, ...]) -> int | None:
    """The index of the first piece that writes or deletes after an earlier piece of the
    same call may have placed a link (``ln -s ~/.claude cc && echo x > cc/f``): the paths
    it changes were resolved before that link existed. None: there is none."""
    linked = False
    for index, piece in enumerate(pieces):
        if piece.program is None or piece.tool != "bash":
            continue
        acts = read_call(piece.program, piece.args).acts
        if linked and (piece.writes or any(a.does in _CHANGES for a in acts)):
            return index
        linked = linked or any(a.does in (Does.LINK, Does.WRITE_INTO) for a in acts)
    return None


def _public(path: str) -> bool:
    """Whether ``path``, a system path, is one whose reading is granted (`_PUBLIC_FILES`)."""
    if path.startswith(_PRIVATE_TREES):
        return False
    return path in _PUBLIC_FILES or path.startswith(_PUBLIC_TREES)
