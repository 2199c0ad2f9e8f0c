"""An edit that switches a native build's hardening off.

Compilers and linkers build in protections against the exploits of memory bugs: a stack
protector, ``_FORTIFY_SOURCE``, read-only relocations, a position-independent executable
(so ASLR moves it), a stack that runs no code, control-flow protection; Windows' ``/GS``,
``/DYNAMICBASE``, ``/NXCOMPAT``, ``/guard:cf``. One flag in a build file turns each off
(``-fno-stack-protector``, ``-Wl,-z,norelro``, ``-no-pie``, Debian's ``hardening=-all``,
RPM's ``%undefine _hardened_build``, meson's ``b_pie=false``), and the release then ships
with a parser bug an exploit instead of a crash. The same goes for a library path into a
folder anyone can write (``-rpath,.``, ``CMAKE_INSTALL_RPATH "/tmp/..."``: whoever puts a
library there runs code in the program) and for the sanitizers a test build runs with,
taken out (``-fsanitize=address`` dropped) or told to carry on past what they find
(``halt_on_error=0``, an ignore list of ``src:*``). An edit whose new text adds such a
flag (one its old text did not have) is marked `HARDENING_OFF` (asked). Prose is left out:
a README may name the flags.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["HARDENING_OFF", "drops_hardening"]

HARDENING_OFF = "@hardening-off"
_OFF = frozenset(
    {"-fno-stack-protector", "-u_fortify_source", "-d_fortify_source=0", "norelro",
     "execstack", "-no-pie", "-nopie", "-fno-pie", "-fno-stack-clash-protection",
     "-fcf-protection=none", "-mno-shstk", "hardening=-all", "hardening=-stackprotector",
     "hardening=-fortify", "hardening=-relro", "hardening=-pie", "hardening=-bindnow",
     "/gs-", "/dynamicbase:no", "/nxcompat:no", "/guard:cf-", "/highentropyva:no",
     "b_pie=false", "no_stack_protector", "no-stack-protector", "-fno-sanitize=all",
     "detect_leaks=0", "halt_on_error=0", "abort_on_error=0", "-fsanitize-recover=all"}
)  # fmt: skip
"""Flags (lowered) that switch one of the build's protections off."""
_WORD = re.compile(r"[^\s\"'`,;()\[\]{}]+")
_UNDEFINED = re.compile(r"%undefine\s+_hardened_build|%global\s+_hardened_build\s+0")
_WRITABLE = re.compile(r"^(?:\.|\./?|/tmp(?:/.*)?|/var/tmp(?:/.*)?|/dev/shm(?:/.*)?)$")
_RPATH_SET = re.compile(
    r"\b(?:CMAKE_(?:INSTALL_|BUILD_)?RPATH|INSTALL_RPATH|BUILD_RPATH|install_rpath|build_rpath)"
    r"\b[^\n]*?[\"'=\s](?:\.|/tmp|/var/tmp|/dev/shm)(?:/[^\s\"']*)?[\"'\s)]"
)
_SANITIZED = re.compile(r"-fsanitize=(?!\S*recover)")
_IGNORE_ALL = re.compile(r"^\s*(?:src|fun|obj|type):\*\s*$", re.M)
_PROSE = frozenset({".md", ".mdx", ".rst", ".adoc", ".html"})


def drops_hardening(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether the write or edit of ``paths`` adds a flag that switches the build's
    hardening off, a library path anyone can write, or takes its sanitizers out."""
    if paths and all(posixpath.splitext(p)[1].lower() in _PROSE for p in paths):
        return False
    for old, new in change_pairs(inputs):
        if _flags_off(new) - _flags_off(old):
            return True
        if _SANITIZED.search(old) and not _SANITIZED.search(new) and "-fno-sanitize" not in old:
            return True
        if _IGNORE_ALL.search(new) and not _IGNORE_ALL.search(old):
            return True
    return False


_SCREEN = ("-fno-", "fortify", "relro", "execstack", "pie", "hardening", "/gs-", ":no",
           "guard:cf-", "stack_protector", "stack-protector", "sanitize", "_error=0",
           "detect_leaks", "rpath", "_hardened_build", "shstk", "lazy")  # fmt: skip
"""The speed trick of this module: a text (lowered) that holds none of these is not split
into words. Splitting a 24 KB write costs about 5 ms on this project's benchmark machine;
the substring tests, a few microseconds."""


def _flags_off(text: str) -> frozenset[str]:
    """The hardening flags ``text`` switches off, and its writable library paths."""
    lowered = text.lower()
    if not any(word in lowered for word in _SCREEN):
        return frozenset()
    words = [w.lower() for w in _WORD.findall(text)]
    words += [part for w in words if ":" in w for part in w.split(":")]  # a sanitizer's options
    found = {w for w in words if w in _OFF}
    if any(w.startswith("-d_fortify_source=") and w[-1] in "123" for w in words):
        found.discard("-u_fortify_source")  # `-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3`: a level set
    found.update(f"-z {b}" for a, b in pairwise(words) if a == "-z" and b == "lazy")
    linked = [w for w in words if w != "-wl"]  # `-Wl,-rpath -Wl,DIR`: the linker's words
    found.update(f"rpath {b}" for a, b in pairwise(linked)
                 if a in ("-rpath", "--rpath") and _WRITABLE.match(b))  # fmt: skip
    found.update(m.group(0).strip() for m in _UNDEFINED.finditer(text))
    found.update(m.group(0).strip() for m in _RPATH_SET.finditer(text))
    return frozenset(found)
