"""What each cmdlet of `pscmdlets` does, written as the POSIX command that does the same to
the same places: the rules judge ``rm -r -f ~`` however PowerShell spelt it.

A registry path (``HKCU:\\...``) is written as ``reg`` would be given it, so the rules on
``reg`` (Run keys, services) judge the cmdlets that change the registry too (`psproviders`).
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Callable

from amplifier_hooks.guard.psbound import Bound, Reader
from amplifier_hooks.guard.psproviders import environment as _environment
from amplifier_hooks.guard.psproviders import registry as _registry
from amplifier_hooks.guard.pstokens import Token
from amplifier_hooks.guard.psvalues import quote
from amplifier_hooks.guard.winprograms import native_command

__all__ = ["Bound", "Reader", "act"]


def _redirects(bound: Bound) -> str:
    out: list[str] = []
    for op, target in bound.redirects:
        if target is None:
            out.append(op)
            continue
        got = bound.reader.word(target, path=True)
        if got.plain != "":
            bound.reader.reads = False  # a redirection into a file writes it
        out.append(f"{op} " + ("/dev/null" if got.plain == "" else got.shell))
    return (" " + " ".join(out)) if out else ""


def _blocks(bound: Bound) -> list[str]:
    tokens = [t for ts in bound.named.values() for t in ts] + list(bound.extra)
    return [bound.reader.read_nested(t.text) for t in tokens if t.kind == "block"]


def act(kind: str, name: str, bound: Bound, piped: bool, reader: Reader) -> str:
    """The POSIX command for cmdlet ``name`` bound to ``bound``."""
    said = _ACTS[kind](bound, piped, reader)
    return said + _redirects(bound)


def _remove(bound: Bound, piped: bool, reader: Reader) -> str:
    paths = bound.paths("path", "literalpath")
    if not paths and piped and reader.found:  # `gci -Recurse -Include bin | Remove-Item`
        return "; ".join(f + " -delete" for f in reader.found)  # (each found item, whole)
    paths = paths or (reader.piped if piped else [])
    keys = [k for k in (_registry(bound.first(p, path=True)) for p in ("path",)) if k]
    if keys:
        return "reg delete " + " ".join(shlex.quote(k) for k in keys) + " -f"
    flags = (" -r" if "recurse" in bound.switches or piped else "") + (
        " -f" if "force" in bound.switches else "")  # fmt: skip
    return f"rm{flags} -- " + " ".join(paths or ['"$PSITEM"'])


def _read(bound: Bound, piped: bool, reader: Reader) -> str:
    shown = _environment(bound)
    if shown is not None:
        return shown
    paths = bound.paths("path", "literalpath") or (reader.piped if piped else [])
    return "cat -- " + " ".join(paths) if paths else "cat"


def _written(bound: Bound, op: str) -> str:
    paths = bound.paths("path", "literalpath", "filepath")
    value = bound.value("value") or bound.value("inputobject")
    text = "cat" if value is None else "printf '%s\\n' " + value.shell
    return "; ".join(f"{text} {op} {p}" for p in paths) if paths else text


def _write(bound: Bound, piped: bool, reader: Reader) -> str:
    return _written(bound, ">")


def _append(bound: Bound, piped: bool, reader: Reader) -> str:
    return _written(bound, ">>")


def _outfile(bound: Bound, piped: bool, reader: Reader) -> str:
    return _written(bound, ">>" if "append" in bound.switches else ">")


def _clear(bound: Bound, piped: bool, reader: Reader) -> str:
    paths = bound.paths("path", "literalpath") or ['"$PSITEM"']
    return "; ".join(f": > {p}" for p in paths)


def _copy(bound: Bound, piped: bool, reader: Reader) -> str:
    sources = bound.paths("path", "literalpath") or (reader.piped if piped else ['"$PSITEM"'])
    target = bound.paths("destination") or ["."]
    flags = (" -r" if "recurse" in bound.switches else "") + (
        " -f" if "force" in bound.switches else "")  # fmt: skip
    return f"cp{flags} -- " + " ".join([*sources, target[0]])


def _move(bound: Bound, piped: bool, reader: Reader) -> str:
    sources = bound.paths("path", "literalpath") or (reader.piped if piped else ['"$PSITEM"'])
    target = bound.paths("destination") or ["."]
    return "mv -- " + " ".join([*sources, target[0]])


def _rename(bound: Bound, piped: bool, reader: Reader) -> str:
    source = bound.first("path", path=True) or bound.first("literalpath", path=True)
    new = bound.first("newname", path=True)
    words = bound.paths("path", "literalpath") or ['"$PSITEM"']
    if source is None or new is None:
        return "mv -- " + " ".join([*words, '"$PSNEWNAME"'])
    return "mv -- " + " ".join([words[0], quote(posixpath.join(posixpath.dirname(source), new))])


def _newitem(bound: Bound, piped: bool, reader: Reader) -> str:
    base = bound.first("path", path=True) or "."
    leaf = bound.first("name", path=True)
    path = posixpath.join(base, leaf) if leaf else base
    kind = (bound.first("itemtype") or "file").lower()
    key = _registry(path)
    if key is not None:
        return f"reg add {shlex.quote(key)} -f"
    given = bound.value("path", path=True)
    where = quote(path) if given is None or given.plain is not None else given.shell
    if kind.startswith("dir"):
        return f"mkdir -p -- {where}"
    if kind in ("symboliclink", "junction", "hardlink"):
        target = bound.paths("target", "value") or ['"$PSTARGET"']
        return f"ln -s -- {target[0]} {where}"
    value = bound.value("value")
    if value is None:
        return f"touch -- {where}"
    return f"printf '%s\\n' {value.shell} > {where}"


def _mkdir(bound: Bound, piped: bool, reader: Reader) -> str:
    return "mkdir -p -- " + " ".join(bound.paths("path", "name") or ["."])


def _list(bound: Bound, piped: bool, reader: Reader) -> str:
    plains = [bound.first(p, path=True) for p in ("path", "literalpath")]
    shown = _environment(bound)
    if shown is not None:
        return shown
    keys = [k for k in (_registry(p) for p in plains) if k]
    if keys:
        return "reg query " + " ".join(shlex.quote(k) for k in keys)
    paths = bound.paths("path", "literalpath")
    reader.piped = _listed(bound, paths)
    names = [n for p in ("include", "filter") for n in (bound.first(p) or "").split(",") if n]
    depth = "" if "recurse" in bound.switches else " -maxdepth 1"
    reader.found = [f"find {f}{depth} -name {quote(n)}" for f in paths or ["."] for n in names]
    if "recurse" in bound.switches:
        return "find " + " ".join(paths or ["."])
    return "ls -- " + " ".join(paths) if paths else "ls"


def _listed(bound: Bound, paths: list[str]) -> list[str]:
    """What ``Get-ChildItem`` gives a command piped after it: the items of each folder, or
    the items named by ``-Include``/``-Filter`` (below it, with ``-Recurse``)."""
    names = [n for p in ("include", "filter") for n in (bound.first(p) or "").split(",") if n]
    below = "/**/" if "recurse" in bound.switches else "/"
    folders = paths or ["."]
    if names:
        return [f + below + quote(n) for f in folders for n in names]
    return [f if any(c in f for c in "*?") else f + "/*" for f in folders]


def _search(bound: Bound, piped: bool, reader: Reader) -> str:
    pattern = bound.value("pattern")
    paths = bound.paths("path", "literalpath") or (reader.piped if piped else [])
    said = "grep -e " + (pattern.shell if pattern is not None else "''")
    return said + (" -- " + " ".join(paths) if paths else "")


def _look(bound: Bound, piped: bool, reader: Reader) -> str:
    shown = _environment(bound)
    if shown is not None:
        return shown
    keys = [k for k in (_registry(bound.first(p, path=True)) for p in ("path", "literalpath")) if k]
    if keys:
        return "reg query " + " ".join(shlex.quote(k) for k in keys)
    paths = bound.paths("path", "literalpath")
    reader.piped = paths
    return "ls -d -- " + " ".join(paths) if paths else "true"


def _setprop(bound: Bound, piped: bool, reader: Reader) -> str:
    path = bound.first("path", path=True) or bound.first("literalpath", path=True)
    key = _registry(path) if path not in (None, ".") else reader.location
    if key is None and path is not None and reader.location is not None and "/" not in path:
        key = f"{reader.location}/{path}"
    name = bound.value("name")
    value = bound.value("value")
    if key is None:  # a file's attributes (read-only, hidden)
        return "chmod u-w -- " + " ".join(bound.paths("path", "literalpath") or ['"$PSITEM"'])
    said = f"reg add {shlex.quote(key)}"
    said += f" -v {name.shell}" if name is not None else ""
    return said + (f" -d {value.shell}" if value is not None else "") + " -f"


def _cd(bound: Bound, piped: bool, reader: Reader) -> str:
    key = _registry(bound.first("path", path=True))
    if key is not None:
        reader.location = key
        return "true"
    paths = bound.paths("path", "literalpath")
    return "cd " + paths[0] if paths else "cd"


def _fetch(bound: Bound, piped: bool, reader: Reader) -> str:
    uri = bound.value("uri")
    said = "curl -fsSL"
    method = bound.first("method")
    if method is not None:
        said += " -X " + shlex.quote(method.upper())
    body = bound.value("body")
    if body is not None:
        said += " --data " + body.shell
    upload = bound.paths("infile")
    if upload:
        said += " -T " + upload[0]
    out = bound.paths("outfile")
    if out:
        said += " -o " + out[0]
    return said + " -- " + (uri.shell if uri is not None else '"$PSURI"')


def _bits(bound: Bound, piped: bool, reader: Reader) -> str:
    source = bound.value("source")
    target = bound.paths("destination") or ["."]
    return f"curl -fsSL -o {target[0]} -- " + (source.shell if source else '"$PSURI"')


def _iex(bound: Bound, piped: bool, reader: Reader) -> str:
    code = bound.value("command")
    return "iex " + code.shell if code is not None else "iex"


def _invoke(bound: Bound, piped: bool, reader: Reader) -> str:
    said = "; ".join(_blocks(bound))
    script = bound.paths("filepath")
    if script:
        said = "; ".join(s for s in (said, f"pwsh -File {script[0]}") if s)
    if bound.named.get("computername") or bound.named.get("session"):
        said = "; ".join(s for s in (said, 'ssh "$PSCOMPUTER" "$PSSCRIPT"') if s)
    return said or "iex"


def _start(bound: Bound, piped: bool, reader: Reader) -> str:
    program = bound.first("filepath", path=True)
    arguments = list(bound.named.get("argumentlist", [])) + list(bound.extra)
    plain = [reader.word(t).plain for t in arguments]
    words: list[str] = []
    texts: list[str | None] = []
    for token, text in zip(arguments, plain, strict=True):
        split = shlex.split(text, posix=False) if text is not None and " " in text else [text]
        for part in split:
            words.append(shlex.quote(part) if part is not None else reader.word(token).shell)
            texts.append(part)
    said = native_command(program, words, texts, reader) if program else '"$PSPROGRAM"'
    verb = (bound.first("verb") or "").lower()
    return f"sudo {said}" if verb.startswith("runas") else said


def _echo(bound: Bound, piped: bool, reader: Reader) -> str:
    tokens = [t for ts in bound.named.values() for t in ts] + list(bound.extra)
    return "echo " + " ".join(reader.word(t).shell for t in tokens) if tokens else "cat"


def _probe(program: str) -> Callable[[Bound, bool, Reader], str]:
    """A network look (``Resolve-DnsName``, ``Test-Connection``) as the POSIX program that
    sends the same names out (``nslookup``, ``ping``), with every value it is given."""

    def probe(bound: Bound, piped: bool, reader: Reader) -> str:
        tokens = [t for ts in bound.named.values() for t in ts] + list(bound.extra)
        return " ".join([program, *(reader.word(t).shell for t in tokens)])

    return probe


def _filter(bound: Bound, piped: bool, reader: Reader) -> str:
    blocks = _blocks(bound)
    return "{ " + "; ".join(blocks) + "; }" if blocks else "cat"


def _acl(bound: Bound, piped: bool, reader: Reader) -> str:
    return "chmod 000 -- " + " ".join(bound.paths("path", "literalpath") or ['"$PSITEM"'])


def _setvar(bound: Bound, piped: bool, reader: Reader) -> str:
    name, value = bound.first("name"), bound.first("value")
    if name is not None and value is not None:
        reader.values.assign(name, Token("sq", value))
    return "true"


def _unzip(bound: Bound, piped: bool, reader: Reader) -> str:
    archive = bound.paths("path", "literalpath") or ['"$PSITEM"']
    target = bound.paths("destinationpath") or ["."]
    return f"unzip -o {archive[0]} -d {target[0]}"


def _zip(bound: Bound, piped: bool, reader: Reader) -> str:
    sources = bound.paths("path", "literalpath") or ['"$PSITEM"']
    target = bound.paths("destinationpath") or ['"$PSTARGET"']
    return f"zip -r {target[0]} " + " ".join(sources)


_ACTS = {
    "remove": _remove, "read": _read, "write": _write, "append": _append,
    "outfile": _outfile, "clear": _clear, "copy": _copy, "move": _move, "rename": _rename,
    "newitem": _newitem, "mkdir": _mkdir, "list": _list, "search": _search, "look": _look,
    "setprop": _setprop, "cd": _cd, "fetch": _fetch, "bits": _bits, "iex": _iex,
    "invoke": _invoke, "start": _start, "echo": _echo, "filter": _filter, "setvar": _setvar,
    "unzip": _unzip, "zip": _zip, "acl": _acl, "probe-nslookup": _probe("nslookup"),
    "probe-ping": _probe("ping"),
}  # fmt: skip
