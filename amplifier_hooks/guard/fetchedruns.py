"""Code fetched and run in one command: ``git clone URL DIR && DIR/install.sh``, ``git
clone URL /tmp/x && cd /tmp/x && make install``, ``git clone URL /tmp/x && pip install -e
/tmp/x``, ``hf download REPO --local-dir DIR && python DIR/modeling.py`` (a hub
repository's files, its code among them), ``curl -LO URL/x.gem && gem install x.gem`` (a
package archive downloaded, then installed with its install-time code), ``wget URL.tar.gz
&& tar xzf x.tar.gz && ./tool.sh`` (a downloaded archive unpacked, then a program of it run).

The repository arrives while the command runs, so nobody (the guard included) has read
what its script, Makefile or ``setup.py`` does. A later piece of the same command that
runs a program from the clone, runs in it a tool that runs the project's code (make, npm,
pip, a shell or an interpreter), or hands the clone to one, is marked `FETCHED_RUN`
(rule `fetched-code-run`: asked). Reading the clone (``ls``, ``cat``, ``git log``) is not.
Of an archive unpacked into a folder, only a program run from it by its path is that: the
folder is often the workspace itself, whose own scripts a later piece runs by name.

A downloaded archive unpacked into a game editor's plugin folder (Godot's ``addons/``, a
Unity ``Editor`` folder under ``Assets``) is code the editor runs when the project next
opens, unread: that piece is marked `FETCHED_PLANTED` (rule `fetched-code-planted`: asked).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.checkers import checks_only
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.programs import SHELLS, is_interpreter

__all__ = ["FETCHED_PLANTED", "FETCHED_RUN", "PROGRAMS", "mark_fetched_runs"]

_HUB_CLIS = frozenset({"huggingface-cli", "hf"})
"""Hugging Face's CLIs: ``download REPO --local-dir DIR`` puts a repository's files in DIR."""
PROGRAMS = frozenset({"git", "gh", "curl", "wget"}) | _HUB_CLIS
"""The programs that fetch a repository (`marks` skips this mark when none is named)."""
FETCHED_RUN = "@fetched-run"
"""The mark of a piece that runs code a repository cloned earlier in the command holds."""
FETCHED_PLANTED = "@fetched-planted"
"""The mark of a piece that unpacks a download into a folder an editor runs code from."""
_UNPACKERS = frozenset({"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz"})
"""Programs that unpack an archive into a folder (`_unpacked`)."""

_RUNNERS = frozenset({"make", "gmake", "cmake", "npm", "pnpm", "yarn", "bun", "npx", "pip",
                      "pip3", "pipx", "uv", "poetry", "cargo", "go", "gradle", "mvn", "rake",
                      "bundle", "just", "task", "meson", "ninja", "source", ".", "stow",
                      "install", "docker", "docker-compose", "podman"})  # fmt: skip
"""Programs that run the project's own code or recipes (a Makefile, package scripts,
``setup.py``, ``build.rs``, a Dockerfile), in the folder they run in or the one they name."""
_DOWNLOADERS = frozenset({"curl", "wget"})
"""Programs that save a URL's file: an archive or script a later piece installs or runs."""
_SAVE_AS = {"curl": ("-o", "--output"), "wget": ("-O", "--output-document")}
_INSTALLERS = frozenset({"gem", "pip", "pip3", "uv", "pipx", "npm", "pnpm", "yarn", "bun",
                         "cpanm", "luarocks", "dpkg", "rpm", "apt", "apt-get", "snap",
                         "flatpak", "installer", "helm"})  # fmt: skip
"""Programs that install a package archive named as an operand, running its install-time
code (a gem's extension build, a wheel's or package's scripts, a .deb's maintainer
scripts)."""
_CLONE_VALUED = frozenset({"--depth", "-b", "--branch", "-o", "--origin", "--reference",
                           "--separate-git-dir", "-c", "--config", "--filter", "-j", "--jobs",
                           "--shallow-since", "--shallow-exclude", "-u", "--upload-pack",
                           "--template", "--recurse-submodules"})  # fmt: skip
"""``git clone``'s options that take the next word as their value."""
_REMOTE = re.compile(r"^(?!file://)[a-z][a-z0-9+.-]*://|^[\w.-]+@[\w.-]+:|^[\w-]+(?:\.[\w-]+)+:(?!/)",
                     re.IGNORECASE)  # fmt: skip
"""A clone's source on another machine: a URL (not ``file://``) or scp's ``user@host:path``."""


def mark_fetched_runs(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces`` with each piece that runs code of a repository an earlier piece clones
    marked (the same tuple when none does; screened by ``clone`` first)."""
    if not any([(p.program in ("git", "gh") and "clone" in p.args)
                or (p.program in _HUB_CLIS and "download" in p.args)
                or p.program in _DOWNLOADERS for p in pieces]):  # fmt: skip
        return pieces
    clones: list[str] = []
    unpacked: list[str] = []  # folders a downloaded archive was unpacked into
    files: list[str] = []  # downloaded archives and scripts
    out = list(pieces)
    piped = False  # the previous piece downloads into this one's input (`curl URL | tar x`)
    for index, piece in enumerate(pieces):
        if (
            (clones and _runs_from(piece, clones, places))
            or (files and _installs(piece, files, places))
            or (unpacked and _program_from(piece, unpacked, places))
        ):
            out[index] = piece._replace(wrappers=(*piece.wrappers, FETCHED_RUN))
        folder = _cloned(piece)
        if folder is not None:
            clones.append(locate(folder, piece.cwd, places).path)
        into = _unpacked(piece, files, piped, places)
        if into is not None:
            unpacked.append(into)
            if _editor_plugins(into, places):
                out[index] = out[index]._replace(wrappers=(*out[index].wrappers, FETCHED_PLANTED))
        saved = _downloaded(piece)
        if saved is not None:
            files.append(locate(saved, piece.cwd, places).path)
        piped = piece.program in _DOWNLOADERS and not _UNPACKERS.isdisjoint(piece.pipes_to)
    return tuple(out)


def _unpacked(piece: Piece, files: list[str], piped: bool, places: Places) -> str | None:
    """The folder an unpacker fills with a downloaded archive, one of ``files`` or the
    download piped into it (None: ``piece`` unpacks no download)."""
    program = piece.program or ""
    if program not in _UNPACKERS:
        return None
    args = piece.args
    if program.startswith("7z"):
        extracts = args[:1] in (("x",), ("e",))
    elif program == "unzip":  # (-l, -t, -v, -Z list or test; -p, -c print to the output)
        extracts = not {"-l", "-t", "-v", "-Z", "-p", "-c"} & set(args)
    else:  # tar: x among its first word's letters (xzf, -xzf), or --extract, --get
        first = args[0] if args else ""
        extracts = bool(
            {"--extract", "--get"} & set(args)
            or (first[:2] != "--" and "x" in first)
            or any([a[:1] == "-" and a[1:2] != "-" and "x" in a for a in args])
        )
    operands = [locate(a, piece.cwd, places).path for a in args if a[:1] != "-"]
    if not extracts or not (piped or any([o in files for o in operands])):
        return None
    return locate(_destination(program, args), piece.cwd, places).path


def _destination(program: str, args: tuple[str, ...]) -> str:
    """The folder an unpacker's options name (tar -C DIR, unzip -d DIR, 7z -oDIR), else
    the one it runs in."""
    flag = "-d" if program == "unzip" else "-C"
    for index, arg in enumerate(args):
        if program.startswith("7z") and arg.startswith("-o") and len(arg) > 2:
            return arg[2:]
        if arg in (flag, "--directory") and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--directory="):
            return arg.partition("=")[2]
    return "."


def _editor_plugins(folder: str, places: Places) -> bool:
    """Whether ``folder`` (absolute) is in the workspace's Godot plugin folder (``addons``)
    or a Unity ``Editor`` folder under ``Assets``, whose code the editor runs on opening."""
    root = locate(".", ".", places).path.rstrip("/") + "/"
    if not (folder + "/").startswith(root):
        return False
    parts = folder[len(root) :].split("/")
    return "addons" in parts or ("Assets" in parts and "Editor" in parts)


def _installs(piece: Piece, files: list[str], places: Places) -> bool:
    """Whether ``piece`` installs one of the downloaded ``files`` (an installer given it as
    an operand), or runs it as its script (a shell or interpreter's first operand): a data
    file handed to a script (``python3 load.py data.csv``) is not code."""
    program = piece.program or ""
    operands = [a for a in piece.args if a[:1] != "-"]
    if program in SHELLS and checks_only(program, piece.args):
        return False  # `bash -n install.sh`: parsed, not run
    if program in _INSTALLERS:
        named = operands
    elif program in SHELLS or is_interpreter(program):
        named = operands[:1]
    else:
        return False
    return any([locate(a, piece.cwd, places).path in files for a in named])


def _cloned(piece: Piece) -> str | None:
    """The folder ``git clone URL [DIR]`` (``gh repo clone REPO [DIR]``) makes (None:
    ``piece`` clones nothing)."""
    args = piece.args
    if piece.program in _HUB_CLIS:
        return _hub_folder(args)
    if piece.program == "gh":
        if args[:2] != ("repo", "clone") or len(args) < 3:
            return None
        operands = [a for a in args[2:] if a[:1] != "-"]
    elif piece.program == "git" and "clone" in args:
        operands, skip = [], False
        for arg in args[args.index("clone") + 1 :]:
            if skip:
                skip = False
            elif arg == "--":
                continue
            elif arg[:1] == "-":
                skip = arg in _CLONE_VALUED
            else:
                operands.append(arg)
    else:
        return None
    if not operands or (piece.program == "git" and not _REMOTE.search(operands[0])):
        return None  # a clone of a folder here (`git clone . /tmp/x`): no code arrives
    if len(operands) >= 2:
        return operands[1]
    name = operands[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return name.removesuffix(".git") or None


def _downloaded(piece: Piece) -> str | None:
    """The file ``curl -O URL``, ``curl -o FILE URL``, ``wget URL`` or ``wget -O FILE URL``
    saves (None: ``piece`` downloads nothing into a file it names)."""
    if piece.program not in _DOWNLOADERS:
        return None
    args, urls, named, remote = piece.args, [], None, piece.program == "wget"
    for index, arg in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else None
        if arg in _SAVE_AS.get(piece.program, ()):
            named = value
        elif arg.startswith(("--output=", "--output-document=")):
            named = arg.partition("=")[2]
        elif arg == "--remote-name" or (arg[:1] == "-" and arg[1:2] != "-" and "O" in arg
                                        and piece.program == "curl"):  # fmt: skip
            remote = True
        elif "://" in arg and arg[:1] != "-":
            urls.append(arg)
    if named not in (None, "-", "/dev/null"):
        return named
    if remote and urls:  # saved under the URL's last part
        return urls[0].split("?")[0].split("#")[0].rstrip("/").rsplit("/", 1)[-1] or None
    return None


def _hub_folder(args: tuple[str, ...]) -> str | None:
    """The folder ``hf download REPO --local-dir DIR`` fills (None: no download, or only
    into the library's cache)."""
    if "download" not in args:
        return None
    for index, arg in enumerate(args):
        if arg == "--local-dir" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--local-dir="):
            return arg.partition("=")[2] or None
    return None


def _runs_from(piece: Piece, clones: list[str], places: Places) -> bool:
    """Whether ``piece`` runs code from one of the ``clones``: its program lives there, or
    a runner runs there or is handed a path there."""
    program = piece.program or ""
    if _program_from(piece, clones, places):
        return True
    if not (program in _RUNNERS or program in SHELLS or is_interpreter(program)):
        return False
    if program in SHELLS and checks_only(program, piece.args):
        return False  # `bash -n install.sh`: parsed, not run
    if piece.cwd is not None and _inside(locate(".", piece.cwd, places).path, clones):
        return True
    operands = [a.partition("=")[2] if a[:2] == "--" else a for a in piece.args]
    return any([_inside(locate(a, piece.cwd, places).path, clones) for a in operands if a])


def _program_from(piece: Piece, folders: list[str], places: Places) -> bool:
    """Whether ``piece``'s program is named by a path into one of ``folders``."""
    program = piece.program or ""
    head = next((w for w in piece.text.split() if "/" in w and w.endswith(program)), None)
    return head is not None and _inside(locate(head.strip("'\""), piece.cwd, places).path, folders)


def _inside(path: str, clones: list[str]) -> bool:
    return any([path == c or path.startswith(c.rstrip("/") + "/") for c in clones])
