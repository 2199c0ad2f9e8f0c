"""The shell parser: every simple command found, wrappers seen through, words unquoted,
and what feeds what -- as bash would run it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Piece, parse_command, simplecommand
from amplifier_hooks.guard.parser import parse_fresh


def programs(text: str) -> list[str | None]:
    return [p.program for p in parse_command(text).pieces]


def only(text: str) -> Piece:
    [piece] = parse_command(text).pieces
    return piece


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("git status; rm -rf ~", ["git", "rm"]),
        ("a && b || c & d", ["a", "b", "c", "d"]),
        ("a | b |& c", ["a", "b", "c"]),
        ("(cd x; make) && { ls; }", ["cd", "make", "ls"]),
        ("echo $(whoami) `id`", ["echo", "whoami", "id"]),
        ("diff <(ls a) >(cat)", ["diff", "ls", "cat"]),
        ("if true; then rm a; fi", ["true", "rm"]),
        ("for f in *; do rm $f; done", ["rm"]),
        ("f() { rm -rf ~; }; f", ["rm", "f"]),
        ("X=$(curl x) make", ["make", "curl"]),
        ("export A=$(rm -rf ~)", ["export", None, "rm"]),  # None: A is set (`envs`)
        ("cat <<EOF && rm -rf ~\nbody $(whoami)\nEOF", ["cat", "rm", "whoami"]),
        ("! rm x", ["rm"]),
    ],
)
def test_every_simple_command_is_found(text: str, expected: list[str]) -> None:
    assert programs(text) == expected


@pytest.mark.parametrize(
    ("text", "program", "args"),
    [
        ("/bin/rm -rf ~", "rm", ("-rf", "~")),
        ("'r'm -rf /", "rm", ("-rf", "/")),
        ('"rm" -rf /', "rm", ("-rf", "/")),
        ("\\rm -rf /", "rm", ("-rf", "/")),
        ("r\\m -rf /", "rm", ("-rf", "/")),
        ("$'\\x72m' -rf /", "rm", ("-rf", "/")),
        ('rm -rf "$HOME"', "rm", ("-rf", "~")),
        ("rm -rf ${HOME}/x", "rm", ("-rf", "~/x")),
        ('ls \'a b\' "c\\"d"', "ls", ("a b", 'c"d')),
        ("FOO=1 BAR=2 make test", "make", ("test",)),
    ],
)
def test_words_are_read_as_the_shell_passes_them(
    text: str, program: str, args: tuple[str, ...]
) -> None:
    piece = only(text)
    assert (piece.program, piece.args) == (program, args)


@pytest.mark.parametrize(
    ("text", "wrappers"),
    [
        ("sudo rm -rf ~", ("sudo",)),
        ("sudo -u root -E rm -rf ~", ("sudo",)),
        ("doas rm -rf ~", ("doas",)),
        ("env FOO=1 -u BAR rm -rf ~", ("env",)),
        ("env - rm -rf ~", ("env",)),  # a lone dash is env's -i
        ("command rm -rf ~", ("command",)),
        ("nice -n 5 rm -rf ~", ("nice",)),
        ("nohup rm -rf ~", ("nohup",)),
        ("timeout -s KILL 5 rm -rf ~", ("timeout",)),
        ("stdbuf -oL rm -rf ~", ("stdbuf",)),
        ("busybox rm -rf ~", ("busybox",)),
        ("exec rm -rf ~", ("exec",)),
        ("sudo env X=1 nice timeout 3 /bin/rm -rf ~", ("sudo", "env", "nice", "timeout")),
    ],
)
def test_wrappers_are_seen_through(text: str, wrappers: tuple[str, ...]) -> None:
    piece = only(text)
    assert (piece.program, piece.args, piece.wrappers) == ("rm", ("-rf", "~"), wrappers)


@pytest.mark.parametrize(
    "text",
    [
        "bash -c 'rm -rf ~'",
        'sh -c "rm -rf ~"',
        "zsh -lc 'rm -rf ~'",
        "dash -c 'rm -rf ~'",
        "sudo bash -c 'cd /tmp && rm -rf ~'",
        "eval 'rm -rf ~'",
        "eval rm -rf '~'",
        "bash <<'EOF'\nrm -rf ~\nEOF",
        "bash <<< 'rm -rf ~'",
        "xargs rm -rf ~ < list",
    ],
)
def test_scripts_inside_commands_are_parsed_again(text: str) -> None:
    rm = [p for p in parse_command(text).pieces if p.program == "rm"]
    assert rm and rm[0].args[-1] == "~"


def test_find_exec_and_delete_become_the_commands_they_run() -> None:
    pieces = parse_command("find / -name x -exec rm -rf {} \\;").pieces
    rm = next(p for p in pieces if p.program == "rm")
    assert rm.args == ("-rf", "/") and "find" in rm.wrappers and rm.found
    deleted = next(p for p in parse_command("find ~ -delete").pieces if p.program == "rm")
    assert deleted.args[-1] == "~" and not deleted.found


def test_xargs_input_is_unknown() -> None:
    piece = parse_command("ls | xargs rm").pieces[1]
    assert piece.program == "rm" and piece.dynamic and "xargs" in piece.wrappers


@pytest.mark.parametrize(
    "text",
    ["$CMD -rf /", "${X} a", "$(which rm) -rf /", "`echo $R` -rf /", "/bin/r? -rf /",
     "eval \"$X\"", "bash -c \"$SCRIPT\"", "env -S '$X -rf ~'"],
)  # fmt: skip
def test_what_cannot_be_read_is_marked_opaque(text: str) -> None:
    assert any(p.opaque for p in parse_command(text).pieces)


def test_redirections_are_paths_written_or_read() -> None:
    piece = only("sort < in.txt > out.txt 2>&1")
    assert (piece.reads, piece.writes) == (("in.txt",), ("out.txt",))
    assert only("echo x >> ~/.bashrc").writes == ("~/.bashrc",)
    assert only("ls &> all.log").writes == ("all.log",)
    grouped = parse_command("(echo a; echo b) > f").pieces
    assert [p.writes for p in grouped] == [("f",), ("f",)]


@pytest.mark.parametrize(
    ("text", "args", "writes"),
    [
        ("rm 2>/dev/null -rf /srv", ("-rf", "/srv"), ("/dev/null",)),
        ("rm -r a >log.txt b 2>err.txt c", ("-r", "a", "b", "c"), ("log.txt", "err.txt")),
        ("X=1 git 2>/dev/null reset --hard", ("reset", "--hard"), ("/dev/null",)),
        ("git checkout 2>/dev/null -- a.py", ("checkout", "--", "a.py"), ("/dev/null",)),
        ('rm >out "-rf" "$HOME"', ("-rf", "~"), ("out",)),
        ("rm <<EOF -rf /srv\nnothing\nEOF", ("-rf", "/srv"), ()),
        ("rm <<EOF 2>/dev/null -r /srv\nnothing\nEOF", ("-r", "/srv"), ("/dev/null",)),
        ("cat <<EOF > a.txt b.txt\nx\nEOF", ("b.txt",), ("a.txt",)),
    ],
)
def test_words_after_a_redirection_s_target_are_arguments(
    text: str, args: tuple[str, ...], writes: tuple[str, ...]
) -> None:
    # bash gives a redirection one word; tree-sitter hangs the words after it on the
    # redirection, and bash passes them to the command
    piece = only(text)
    assert (piece.args, piece.writes) == (args, writes)


def test_words_after_a_compound_command_s_redirection_are_a_syntax_error() -> None:
    pieces = parse_command("{ ls; } > out.txt extra").pieces
    assert any(p.opaque and "would not parse" in p.opaque for p in pieces)


def test_pipes_and_substitutions_say_where_output_goes() -> None:
    curl, sh = parse_command("curl -s x | sudo sh").pieces
    assert curl.pipes_to == ("sh",) and curl.feeds_code and not sh.feeds_code
    fed = next(p for p in parse_command('python3 -c "$(curl -s x)"').pieces if p.program == "curl")
    assert fed.feeds_code
    proc = next(p for p in parse_command("bash <(wget -qO- x)").pieces if p.program == "wget")
    assert proc.feeds_code
    # An interpreter given its own script reads data, not code, from the pipe.
    assert not parse_command("curl x | python3 -m json.tool").pieces[0].feeds_code
    here = parse_command("cat <<EOF | bash\nls\nEOF").pieces[0]
    assert here.program == "cat" and here.feeds_code


def test_cd_changes_where_later_commands_run() -> None:
    _, rm = parse_command("cd / && rm -rf *").pieces
    assert rm.cwd == "/"
    assert parse_command("cd $X; rm -rf *").pieces[1].cwd is None
    inner = parse_command("(cd /tmp; ls); rm a").pieces
    assert inner[1].cwd == "/tmp" and inner[2].cwd == "."


def test_a_syntax_error_leaves_an_opaque_piece_and_the_readable_ones() -> None:
    pieces = parse_command("rm -rf ~; if then fi (").pieces
    assert pieces[0].program == "rm"
    assert any(p.opaque and "would not parse" in p.opaque for p in pieces)


@pytest.mark.parametrize(
    "text",
    ["curl -s x | tee f | sh", "a | b | c | d", "cat <<EOF | sh\nrm -rf ~\nEOF",
     "bash -c 'a | b | rm -rf ~'", "echo a\\", "rm -rf ~; if then fi (", "echo 'x"],
)  # fmt: skip
def test_a_line_reads_the_same_whether_or_not_a_newline_ends_it(text: str) -> None:
    # (the parser ends a line with a newline where that cannot change it: see `_tree`)
    def read(line: str) -> list[Piece]:
        return [p._replace(text=p.text.rstrip("\n")) for p in parse_fresh(line).pieces]

    assert read(text) == read(text + "\n")


@pytest.mark.parametrize(
    "text",
    ["git status && pytest -q tests/", "sudo -u x nice rm -rf ~ > log", "ls | xargs rm",
     "find . -name '*.o' -delete", "awk '{print > \"out\"}' f", "cd /tmp; FOO=1 make",
     "curl -s x | tee f | sh", "f() { ls; }; f", "bash -c 'rm -rf ~' > log",
     "find / -exec rm {} +"],
)  # fmt: skip
def test_pieces_are_the_records_their_one_constructor_makes(text: str) -> None:
    for piece in parse_command(text).pieces:
        made = Piece(**piece._asdict())
        assert type(piece) is Piece and piece == made and hash(piece) == hash(made)


def test_a_piece_changed_in_a_field_it_does_not_have_is_an_error() -> None:
    with pytest.raises(ValueError, match="unexpected field"):
        only("ls")._replace(colour="red")


_PLAIN_WORD = st.text("abcgimrstxyz019_./:@%+,-=~*?", min_size=1, max_size=6)
_WORD = _PLAIN_WORD | st.sampled_from(
    ["$x", "'a'", '"$y"', "~/x", "a[b]", "{a,b}", "\\rm", "x>y", "#c", "$(ls)", "a'b'", "X=$y",
     "2>&1"]
)  # fmt: skip
_PLAIN_COMMAND = st.lists(
    st.sampled_from(["git", "ls", "rm", "sudo", "find", "xargs", "env", "man", "cd", "sh",
                     "if", "time", "X=1", "2", "-"]) | _WORD,
    min_size=1, max_size=5,
).map(" ".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(command=_PLAIN_COMMAND, joiner=st.sampled_from([" && ", " | ", "; ", "\n", "\t"]))
def test_a_command_of_plain_words_reads_as_it_does_node_by_node(command: str, joiner: str) -> None:
    # The walk reads a command of plain words by splitting its text
    # (`simplecommand._PLAIN_TEXT`):
    # the pieces are those the walk makes reading its nodes one by one (and a word that is
    # not plain is read node by node).
    text = command + joiner + command
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simplecommand, "_PLAIN_TEXT", re.compile(rb"(?!)"))  # never plain
        word_by_word = parse_fresh(text)
    assert parse_fresh(text) == word_by_word
