"""Inline R and Perl: Perl's code is read by its grammar (`perlreader`) for its deletes
and moves, R's by its tokens (`lexreader`, tested in test_lexreader); what neither reads
in full stays asked, and R's own commands stay free."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["R -e 'x <- mylib::fetch(); print(x)'", "echo 'x <- mylib::fetch()' | R --no-save",
     "R -e 'get(\"system\")(\"id\")'"],
)  # fmt: skip
def test_code_not_read_in_full_is_asked(command: str) -> None:
    assert decided(command)[0] == "ask"


@pytest.mark.parametrize(
    ("command", "rule"),
    [("perl -e 'unlink(\".git/index\")'", "git-records-delete"),
     ("perl -e 'rename(\".git\", \"x\")'", "mv-git-dir"),
     ("R --no-save -e 'file.rename(\".git\", \"x\")'", "mv-git-dir"),
     ("perl -e 'use File::Path; remove_tree(\"/home/dev\")'", "rm-root-or-home"),
     ("perl -e 'rename(\".git/config\", \"x\")'", "git-config-rewritten-unread")],
)  # fmt: skip
def test_perl_deletes_and_moves_are_judged_as_they_are(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    "command", ["R CMD build .", "R CMD check pkg.tar.gz", "R --version", "Rscript clean.R"]
)
def test_r_own_commands_stay_free(command: str) -> None:
    assert decided(command)[0] is None
