"""A ``find`` that only lists key files' names is no read of them (guard/findnames.py);
one that reads, copies or writes them elsewhere stays denied."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.findnames import NAMES_LISTED, mark_names_listed
from amplifier_hooks.guard.parser import parse_command
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    ["find . -path ./node_modules -prune -o -name '*.pem' -print",
     "find ~/.ssh -maxdepth 1 -name '*.pub'", "find ~/.ssh -name id_rsa -print",
     "find . -name '*.pem' -print0", "find ~/.ssh -ls", "find / -name '*.pem' 2>/dev/null",
     "find ~/.ssh -name 'id_*' | sort", "find ~/.ssh -name 'id_*' -print | wc -l",
     "find . -name '*.pem' | grep -v test | head -n 5"],
)  # fmt: skip
def test_names_listed_are_not_stopped(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in (None, "allow"), command


@pytest.mark.parametrize(
    "command",
    ["find . -name '*.pem' -exec cat {} \\;", "find . -name '*.pem' | xargs cat",
     "find . -name '*.pem' | xargs tar czf /tmp/x.tgz", "find ~/.ssh -name 'id_*' -fprint /tmp/l",
     "find ~/.ssh -name 'id_*' -fls /tmp/l", "find ~/.ssh -name 'id_*' | tee /tmp/l",
     "find ~/.ssh -type f -exec ls -l {} +", "find . -name '*.pem' | xargs -I{} cp {} /tmp/",
     "find ~ -name 'id_*' ! -name '*.pub' -exec cat {} +",
     "find ~/.ssh -name 'id_*' -printf '%p\\n'"],
)  # fmt: skip
def test_a_find_that_reads_or_keeps_them_stays_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "deny", command


@pytest.mark.parametrize(
    ("command", "listed"),
    [("find . -name '*.pem'", True), ("find . -name '*.pem' > list.txt", False),
     ("find . -name '*.pem' -delete", False), ("find . -newerXY a b", False),
     ("find . -name '*.pem' | sort -o out.txt", False), ("find . | grep -f pats", False),
     ("find . | cat ~/.ssh/id_rsa", False), ("find -L . -name k", True)],
)  # fmt: skip
def test_only_the_names_only_shape_is_marked(command: str, listed: bool) -> None:
    pieces = mark_names_listed(parse_command(command).pieces)
    assert (NAMES_LISTED in pieces[0].wrappers) is listed, command
