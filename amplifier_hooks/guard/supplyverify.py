"""A verification removed from a file, or made to pass whatever it finds.

``sha256sum -c tools.sha256``, ``gpg --verify``, ``cosign verify``, ``npm publish
--provenance``, ``pip install --require-hashes``, a wrapper's ``distributionSha256Sum``:
each stops a build, an image or a release when what was downloaded is not what was
expected. An edit whose replaced text holds one its new text lacks removes it; a script
whose verifying command is followed by ``|| true`` (``|| :``, ``|| exit 0``, ``|| echo``)
keeps it in name only (read with the shell's grammar). Both are asked
(`VERIFICATION_OFF`): the check may be moved, not dropped, and a person should see that.
Documentation is not read (a README's example is not a check).
"""

from __future__ import annotations

import posixpath
import re

from tree_sitter import Node

from amplifier_hooks.guard.grammar import parser, stand_in

__all__ = ["VERIFICATION_OFF", "verification_marks"]

VERIFICATION_OFF = "@verification-removed"

_CHECKS = (
    re.compile(r"\bgpgv?2?\b[^\n]*--verify\b|\bgpgv\b"),
    re.compile(r"\bcosign\s+verify(?:-blob|-attestation)?\b"),
    re.compile(r"\bsha(?:1|224|256|384|512)sum\b[^\n]*(?:\s-c\b|--check\b)"),
    re.compile(r"\bshasum\b[^\n]*(?:\s-c\b|--check\b)"),
    re.compile(r"\bmd5sum\b[^\n]*(?:\s-c\b|--check\b)"),
    re.compile(r"--provenance\b"),
    re.compile(r"\bslsa-verifier\b"),
    re.compile(r"\battestation\s+verify\b"),
    re.compile(r"--require-hashes\b"),
    re.compile(r"\b(?:distribution|wrapper)Sha256Sum\b"),
    re.compile(r"--checksum="),
    re.compile(r"\bminisign\b[^\n]*\s-V\b"),
)
"""What verifies a download, an image or a release (one pattern per kind, counted)."""
_DOCS = frozenset({".md", ".rst", ".txt", ".adoc", ".html", ".markdown"})
_VERIFIERS = frozenset(
    {"sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "md5sum",
     "gpg", "gpg2", "gpgv", "cosign", "slsa-verifier", "minisign", "gh"}
)  # fmt: skip
_PASSES = frozenset({"true", ":"})


def verification_marks(path: str, new: str, old: str | None) -> tuple[str, ...]:
    """`VERIFICATION_OFF` when writing ``new`` over ``old`` into ``path`` removes a
    verification or makes one pass whatever it finds."""
    if posixpath.splitext(path)[1].lower() in _DOCS:
        return ()
    if old is not None and any(len(c.findall(old)) > len(c.findall(new)) for c in _CHECKS):
        return (VERIFICATION_OFF,)
    if "||" in new and any(c.search(new) for c in _CHECKS) and _made_to_pass(new):
        return (VERIFICATION_OFF,)
    return ()


def _made_to_pass(text: str) -> bool:
    """A verifying command followed by ``|| true`` (or ``:``, ``exit 0``, ``echo``) in
    ``text`` read as shell lines (a Dockerfile's ``RUN``, a workflow's ``run:`` are too)."""
    source = stand_in(text.encode())
    tree = parser().parse(source)
    stack: list[Node] = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "list" and _passing_list(node, source):
            return True
        stack.extend(node.children)
    return False


def _passing_list(node: Node, source: bytes) -> bool:
    """``CHECK || PASS``: the list's last operator is ``||`` and what follows it passes."""
    children = node.children
    for index, child in enumerate(children[:-1]):
        if child.type != "||" or index == 0:
            continue
        if _verifies(children[index - 1], source) and _passes(children[index + 1], source):
            return True
    return False


def _words(node: Node, source: bytes) -> list[str]:
    if node.type != "command":
        last = node.children[-1] if node.type in ("list", "pipeline") and node.children else None
        return [] if last is None else _words(last, source)
    return [source[c.start_byte : c.end_byte].decode(errors="replace")
            for c in node.children if c.type in _WORD_KINDS]  # fmt: skip


_WORD_KINDS = frozenset({"command_name", "word", "string", "raw_string"})


def _verifies(node: Node, source: bytes) -> bool:
    words = _words(node, source)
    name = posixpath.basename(words[0]) if words else ""
    return name in _VERIFIERS and any(c.search(" ".join(words)) for c in _CHECKS)


def _passes(node: Node, source: bytes) -> bool:
    words = _words(node, source)
    if not words:
        return False
    return words[0] in _PASSES or words[0] == "echo" or words[:2] == ["exit", "0"]
