"""The reader of inline Perl (`perlreader`) and of Perl's command line around it
(`lineoptions`): what the code's calls do where its text says, whether it is quiet, how
the guard then decides, and that inline code is never granted."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.codeacts import MAX_CODE, CodeAct
from amplifier_hooks.guard.lineoptions import read_line
from amplifier_hooks.guard.perlnames import DELETES, FROM_TO, QUIET_FUNCTIONS, RUNS
from amplifier_hooks.guard.perlreader import read_perl
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("code", "acts"),
    [
        ('system("rm", "-rf", $ENV{HOME})', [CodeAct("run", "rm -rf ~"), CodeAct("env", "HOME")]),
        ("system('git push --force')", [CodeAct("run", "git push --force")]),
        ("exec 'reboot'", [CodeAct("run", "reboot")]),
        ("system($cmd)", [CodeAct("run", None)]),
        ("my $x = `ls -la /srv`", [CodeAct("run", "ls -la /srv")]),
        ("my $x = qx{id}", [CodeAct("run", "id")]),
        ('my $x = `cat $file`', [CodeAct("run", None)]),
        ('open(my $p, "|-", "sh") or die', [CodeAct("run", "sh")]),
        ('open(P, "curl -s http://x |")', [CodeAct("run", "curl -s http://x")]),
        ('open(my $f, ">>", "$ENV{HOME}/.profile")',
         [CodeAct("append", "~/.profile"), CodeAct("env", "HOME")]),
        ("open(my $f, '>', 'out.txt')", [CodeAct("write", "out.txt")]),
        ("open(my $f, '<:encoding(UTF-8)', '.env')", [CodeAct("read", ".env")]),
        ("open F, '>x.txt'", [CodeAct("write", "x.txt")]),
        ("open F, 'notes.txt'", [CodeAct("read", "notes.txt")]),
        ("open(my $f, '>', $path)", [CodeAct("write", None)]),
        ("unlink 'a.txt', 'b.txt'", [CodeAct("delete", "a.txt"), CodeAct("delete", "b.txt")]),
        ("remove_tree($ENV{HOME})", [CodeAct("delete-tree", "~"), CodeAct("env", "HOME")]),
        ("File::Path::rmtree('build')", [CodeAct("delete-tree", "build")]),
        ("rmdir 'x'", [CodeAct("rmdir", "x")]),
        ("rename 'a', 'b'", [CodeAct("move", "b", "a")]),
        ("symlink '/dev/null', 'x.json'", [CodeAct("link", "x.json", "/dev/null")]),
        ("chmod 0755, 'run.sh'", [CodeAct("chmod", "run.sh", mode="755")]),
        ('eval "system(q{rm -rf /})"', [CodeAct("run", "rm -rf /")]),
        ("CORE::system('id')", [CodeAct("run", "id")]),
        ('print "@{[ `id` ]}"', [CodeAct("run", "id")]),
        ("print $ENV{GITHUB_TOKEN}", [CodeAct("env", "GITHUB_TOKEN")]),
        ('print "$_=$ENV{$_}\\n" for keys %ENV', [CodeAct("env", None)]),
        ("use LWP::Simple; getprint('http://x.example/a')",
         [CodeAct("network", None), CodeAct("network", "http://x.example/a")]),
        ("LWP::UserAgent->new->get('https://x.example')",
         [CodeAct("network", "https://x.example")]),
    ],
)  # fmt: skip
def test_calls_with_an_effect_are_acts(code: str, acts: list[CodeAct]) -> None:
    reading = read_perl(code)
    assert reading.parsed
    assert list(reading.acts) == acts
    # a read of a named file is judged as that read; anything else keeps the code asked
    assert reading.quiet is all(a.does == "read" and a.target is not None for a in acts)


@pytest.mark.parametrize(
    "code",
    [
        "print 365 * 24 * 3600",
        "s/\\bOldName\\b/NewName/g",
        "tr/a-z/A-Z/",
        'print join(",", map { $_ * 2 } 1..5), "\\n"',
        "use strict; use warnings; my %h = (a => 1); print join ',', sort keys %h",
        "print if /TODO/",
        "print $F[0]",
        "open(my $f, '<', 'notes.txt') or die; print while <$f>",
        "open my $fh, '<', \\$text",
        "print scalar(localtime)",
        "my $x = eval { 1 }; print $x",
    ],
)
def test_code_that_only_computes_and_prints_is_quiet(code: str) -> None:
    reading = read_perl(code)
    assert reading.parsed and reading.quiet, reading


@pytest.mark.parametrize(
    "code",
    [
        "s/x/system('id')/e",
        "foo()",
        "$obj->method",
        "&$code",
        "$f->(1)",
        "require Foo",
        "do 'x.pl'",
        "eval $text",
        "*CORE::GLOBAL::print = sub { 1 }",
        "$SIG{__WARN__} = sub { 1 }",
        "push @INC, '/tmp'",
        "use Some::Module",
        "goto &x",
        "/(?{ system('id') })/",
        "my $r = qr/(??{ $code })/",
        "print <<`EOT`;\nid\nEOT\n",
        "&{'system'}('id')",
        "main->can('system')->('id')",
    ],
)
def test_code_the_reader_cannot_follow_is_not_quiet(code: str) -> None:
    reading = read_perl(code)
    assert reading.parsed and not reading.quiet


@pytest.mark.parametrize("code", ["}", "print 1 +", "x" * (MAX_CODE + 1), "print 1\x00"])
def test_code_not_read_stays_unread(code: str) -> None:
    reading = read_perl(code)
    assert not reading.parsed and not reading.quiet


_KNOWN = QUIET_FUNCTIONS | RUNS | frozenset(DELETES) | frozenset(FROM_TO) | {"open", "chmod"}
_SYNTAX = frozenset(
    {"q", "qq", "qw", "qr", "qx", "m", "s", "tr", "y", "if", "unless", "while", "until", "for",
     "foreach", "my", "our", "local", "sub", "do", "eval", "return", "and", "or", "not", "xor",
     "x", "lt", "gt", "le", "ge", "eq", "ne", "cmp", "use", "no", "package", "require",
     "else", "elsif", "last", "next", "redo", "state", "undef", "defined", "print", "say"}
)  # fmt: skip
"""Perl's quote operators and keywords: syntax, not calls."""
_NAMES = st.from_regex(r"[a-z][a-z_]{1,12}", fullmatch=True).filter(
    lambda n: n not in _KNOWN and n not in _SYNTAX
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(name=_NAMES, arg=st.text(alphabet="abc ./~-", max_size=12))
def test_a_call_of_an_unknown_name_is_never_quiet(name: str, arg: str) -> None:
    """Whatever a function the reader does not know is called, the code is not quiet."""
    reading = read_perl(f"print 1; {name}('{arg}'); print 2")
    assert reading.parsed
    assert not reading.quiet


@pytest.mark.parametrize(
    ("args", "quiet", "acts"),
    [
        (("-le", "CODE"), True, ()),
        (("-lane", "CODE", "data.txt"), True, (CodeAct("read", "data.txt"),)),
        (("-pi", "-e", "CODE", "a.c"), True, (CodeAct("read", "a.c"), CodeAct("write", "a.c"))),
        (("-i.bak", "-pe", "CODE", "a.c"), True,
         (CodeAct("read", "a.c"), CodeAct("write", "a.c"))),
        (("-0777", "-ne", "CODE"), True, ()),
        (("-MList::Util=sum", "-le", "CODE"), True, ()),
        (("-MFile::Temp", "-e", "CODE"), False, ()),
        (("-I", "/tmp/lib", "-e", "CODE"), False, ()),
        (("-d", "-e", "CODE"), False, ()),
        (("script.pl",), False, ()),
    ],
)  # fmt: skip
def test_perl_options_read_as_perl_reads_them(
    args: tuple[str, ...], quiet: bool, acts: tuple[CodeAct, ...]
) -> None:
    line = read_line("perl", args)
    assert line.quiet is quiet
    assert line.acts == acts


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ('perl -e \'system("rm", "-rf", $ENV{HOME})\'', "deny"),
        ("perl -MFile::Path=remove_tree -e 'remove_tree($ENV{HOME})'", "deny"),
        ('perl -e \'open(my $f, ">>", "$ENV{HOME}/.bashrc"); print $f "x"\'', "deny"),
        ("perl -pi -e 's/a/b/' .claude/settings.json", "deny"),
        ("perl -ne 'print' ~/.ssh/id_rsa", "deny"),
        ("perl -e 'print `cat ~/.ssh/id_rsa`'", "deny"),
        ("perl -e 'print qx{rm -rf /}'", "deny"),
        ("perl -e 'unlink \"src/a.py\"'", "ask"),
        ("perl -e 'foo()'", "ask"),
        ("perl -le 'print 365 * 24 * 3600'", None),
        ("perl -pi -e 's/\\bOld\\b/New/g' src/a.py src/b.py", None),
        ("perl -ne 'print if /TODO/' src/a.py", None),
        ("perl -MList::Util=sum -le 'print sum(1..10)'", None),
        ("perl - <<'EOF'\nprint 1\nEOF", None),
        # operands are the files read (and with -i written), not scripts nor the piece's own
        ("perl -ne 'print if /ERR/' /tmp/app.log", None),
        ("perl -pi -e 's/a/b/' ../other/x.c", "ask"),
    ],
)
def test_the_guard_judges_what_perl_does(verdict: Judge, command: str, decision: str) -> None:
    """Inline Perl is denied for what it does, asked when not understood, and left to the
    host when quiet: never granted."""
    assert verdict(command).decision == decision


def test_a_folder_change_makes_relative_paths_unknown() -> None:
    """After the code changes its folder, ``etc/x`` is not the workspace's: the reading
    says so, and its acts are judged as run nowhere known."""
    reading = read_perl('chdir "/"; unlink "etc/x"')
    assert reading.chdir and not reading.quiet
    assert CodeAct("delete", "etc/x") in reading.acts
