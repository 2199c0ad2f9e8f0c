"""What a bench case's commands say its repository holds, made in its workspace
(`benchspace`), so that a grant there means what it would in a person's repository.

- Tags: a call that replaces or deletes a local tag (``git fetch --force --tags``, ``git
  tag -f v1``, ``git tag -d v1``) loses something only when that tag is there. Each
  workspace holds the tags the cases name (``git tag ... NAME``, ``fetch ... tag NAME``,
  ``refs/tags/NAME``), besides `DEFAULT_TAGS`, on its branch.
- Files: ``rm NAME`` without ``-r`` names a file (made a folder, rm would fail on it);
  ``git rm``/``restore``/``checkout``/``mv`` name tracked files (ignored and never
  committed, git would refuse them).
- Repositories: ``X/.git`` or ``.git/modules/X`` says X is a repository of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

__all__ = ["DEFAULT_TAGS", "file_operands", "repository_words", "tag_names", "tracked_operands"]

DEFAULT_TAGS = ("v0.9.0", "nightly")
"""Tags every workspace has, whatever the cases name (``refs/tags/*`` reaches them)."""
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*")
_NOT_TAGS = frozenset({"HEAD", "FETCH_HEAD", "ORIG_HEAD", "main", "master", "origin", "tag"})
"""Words that name something else in these cases (a branch, a remote): no tag is made."""
_VALUED = frozenset({"-m", "-F", "-u", "--message", "--file", "--local-user", "--sort",
                     "--format", "--contains", "--no-contains", "--points-at", "--merged",
                     "--no-merged", "--cleanup", "-n", "-C", "-c"})  # fmt: skip
"""Options whose value is the next word, not a tag (``tag -m msg``, ``git -C dir``)."""
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", "|&"})
_REF = re.compile(r"refs/tags/([^\s:'\"*?\[\\^~]+)")


def tag_names(words: Iterable[str]) -> Iterator[str]:
    """The tag names a command's ``words`` give: the operands of ``git tag``, the NAME of
    ``git fetch``/``pull`` ... ``tag NAME``, and any word's ``refs/tags/NAME``."""
    said = list(words)
    for word in said:
        for found in _REF.findall(word):
            if _valid(found):
                yield found
    yield from _operands(said)


def _operands(words: list[str]) -> Iterator[str]:
    sub: str | None = None
    in_git = after_value = after_tag = False
    for word in words:
        if word in _SEPARATORS:
            sub, in_git, after_value, after_tag = None, False, False, False
        elif not in_git:
            in_git = word == "git" or word.endswith("/git")
        elif after_value:
            after_value = False
        elif word in _VALUED:
            after_value = True
        elif word.startswith("-"):
            continue
        elif sub is None:
            sub = word
        elif (sub == "tag" or after_tag) and _valid(word):
            after_tag = False
            yield word
        else:
            after_tag = sub in ("fetch", "pull") and word == "tag"


def _valid(name: str) -> bool:
    """Whether git takes ``name`` as a tag's (near enough: `_NAME`), and it is not a word
    that names a branch or remote in these cases."""
    if name in _NOT_TAGS or not _NAME.fullmatch(name) or len(name) > 80:
        return False
    return ".." not in name and not name.endswith((".lock", ".")) and "/." not in name


_REMOVERS = frozenset({"rm", "unlink", "shred", "srm", "truncate"})
"""Programs that take files (``rm`` without ``-r``/``-d`` refuses a folder)."""
_RECURSIVE = re.compile(r"^(?:--recursive|--dir|-[a-zA-Z]*[rRd][a-zA-Z]*)$")
_GIT_TRACKED = frozenset({"rm", "restore", "checkout", "mv"})
"""git subcommands whose path operands are tracked files."""


def _segments(words: list[str]) -> Iterator[list[str]]:
    """Each simple command's words (split at ``;``, ``&&``, ``|``...)."""
    current: list[str] = []
    for word in words:
        if word in _SEPARATORS:
            if current:
                yield current
            current = []
        else:
            current.append(word)
    if current:
        yield current


def _program(segment: list[str]) -> tuple[str, list[str]]:
    """The program of a simple command (after ``sudo``, ``env``, ``NAME=value``) and
    the words after it."""
    for index, word in enumerate(segment):
        if word not in ("sudo", "doas", "env", "command", "exec", "nohup") and "=" not in word:
            return word.rsplit("/", 1)[-1].lower(), segment[index + 1 :]
    return "", []


def file_operands(words: Iterable[str]) -> set[str]:
    """The words ``rm``-like programs take as files: no ``-r``/``-R``/``-d`` given."""
    found: set[str] = set()
    for segment in _segments(list(words)):
        program, rest = _program(segment)
        if program in _REMOVERS and not any(_RECURSIVE.match(w) for w in rest):
            found.update(w for w in rest if not w.startswith("-") and not w.endswith("/"))
    return found


def tracked_operands(words: Iterable[str]) -> set[str]:
    """The words after ``git rm``/``restore``/``checkout``/``mv`` that are not options:
    tracked files, when they read as paths at all (a branch's name does not)."""
    found: set[str] = set()
    for segment in _segments(list(words)):
        program, rest = _program(segment)
        subs = [w for w in rest if not w.startswith("-")]
        if program == "git" and subs and subs[0] in _GIT_TRACKED:
            found.update(subs[1:])
    return found


def repository_words(words: Iterable[str]) -> set[str]:
    """The folders words name as repositories of their own, as written: ``X`` of
    ``X/.git`` or ``X/.git/...``, and of ``.git/modules/X`` (a submodule's repository)."""
    found: set[str] = set()
    for word in words:
        head, marker, tail = word.partition(".git/modules/")
        if marker and head in ("", "./"):
            found.add(tail.rstrip("/"))
            continue
        head, marker, tail = word.partition("/.git")
        if marker and head and tail[:1] in ("", "/"):
            found.add(head)
    return {f for f in found if _NAME.fullmatch(f.lstrip("/~").removeprefix("./"))}
