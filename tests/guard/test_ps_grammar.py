"""PowerShell is split by tree-sitter-powershell's grammar (`pstree`); where the grammar
cannot say what a piece is, the text is read by the fallback lexer and never granted."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import pslex, pstree
from amplifier_hooks.guard.psreader import read_powershell
from amplifier_hooks.guard.pstokens import GrammarGap, Token, Unreadable, joined

_NAME = "ada-win-test"


def test_statements_pipelines_and_blocks_come_from_the_tree() -> None:
    found = pstree.statements("Get-Item a | Remove-Item; if ($x) { git status }\nls")
    assert [len(s.commands) for s in found] == [2, 1, 1]
    assert [t.kind for t in found[1].commands[0]] == ["word", "paren", "block"]
    assert found[1].commands[0][2].text.strip() == "git status"


def test_and_and_or_or_end_a_statement() -> None:
    found = pstree.statements("git status && git log || echo hi")
    assert [s.commands[0][0].text for s in found] == ["git", "git", "echo"]


def test_backticks_escape_letters_of_a_name_and_a_parameter() -> None:
    (statement,) = pstree.statements("R`e`m`o`v`e-Item x -Fo`rce")
    assert [t.text for t in statement.commands[0]] == ["Remove-Item", "x", "-Force"]


def test_strings_verbatim_expandable_and_here_strings() -> None:
    text = "Write-Output 'it''s' \"a $x\" @'\nline one\n'@"
    (statement,) = pstree.statements(text)
    tokens = statement.commands[0][1:]
    assert [(t.kind, t.text) for t in tokens] == [
        ("sq", "it's"),
        ("dq", "a $x"),
        ("sq", "line one"),
    ]


def test_an_expandable_string_has_the_parts_the_grammar_found() -> None:
    (statement,) = pstree.statements('echo "a`$b ""q"" $env:X-$(whoami)"')
    token = statement.commands[0][1]
    assert token.parts == (
        ("lit", 'a$b "q" '), ("var", "$env:X"), ("lit", "-"), ("sub", "whoami"), ("lit", ""),
    )  # fmt: skip


def test_a_here_string_is_its_lines_between_the_markers() -> None:
    (statement,) = pstree.statements('echo @"\r\nhi $x\r\n"@')
    token = statement.commands[0][1]
    assert token.text == "hi $x"
    assert token.parts == (("lit", "hi "), ("var", "$x"), ("lit", ""))


@pytest.mark.parametrize(
    ("text", "shell"),
    [
        ('Remove-Item "$env:HOMEDRIVE$env:HOMEPATH\\x"', "rm -- ~/x"),
        ('Remove-Item "${env:USERPROFILE}\\.ssh" -Recurse', "rm -r -- ~/.ssh"),
        ("Remove-Item \"$([Environment]::GetFolderPath('Desktop'))\\a\"", "rm -- ~/Desktop/a"),
        ('Remove-Item "C:\\x\\`$y"', "rm -- 'C:/x/$y'"),
    ],
)
def test_a_string_s_variables_and_sub_expressions_are_places(text: str, shell: str) -> None:
    reading = read_powershell(text, _NAME)
    assert reading is not None
    assert reading.shell == shell


def test_invocation_operators_sub_expressions_and_script_blocks() -> None:
    (first, second) = pstree.statements("& 'C:\\t\\x.exe' $(whoami); . { Get-Item a }")
    assert [t.kind for t in first.commands[0]] == ["op", "sq", "sub"]
    assert [t.kind for t in second.commands[0]] == ["op", "block"]


def test_a_parameter_value_after_a_colon_is_its_value() -> None:
    (statement,) = pstree.statements('Remove-Item a -Confirm:$false -Path:"b"')
    tokens = statement.commands[0]
    assert tokens[2] == Token("word", "-Confirm:$false")
    assert tokens[3].text == "-Path:"
    assert (tokens[4].kind, tokens[4].text, tokens[4].glued) == ("dq", "b", True)


def test_a_list_of_bare_words_is_one_word_as_a_program_is_given_it() -> None:
    (statement,) = pstree.statements("git blame -L 40,80 a.cs")
    assert [t.text for t in statement.commands[0]] == ["git", "blame", "-L", "40,80", "a.cs"]


def test_a_dotnet_call_keeps_its_members() -> None:
    (statement,) = pstree.statements("[IO.File]::Delete('a')")
    (token,) = statement.commands[0]
    assert token.kind == "type" and token.members == ("::Delete('a')",)


@pytest.mark.parametrize(
    "text",
    [
        "Get-Content $HOME\\.aws\\config",  # a variable glued to a path: an error in the tree
        "Get-Process | Select-Object Id, CPU",  # a list across spaces: an error in the tree
        'git -c core.editor="vim -n" commit',  # a quote inside a bare word: cut at the space
        "echo \u2018a b\u2019",  # curly quotes: letters to the grammar
    ],
)
def test_what_the_grammar_cannot_say_is_a_gap(text: str) -> None:
    with pytest.raises(GrammarGap):
        pstree.statements(text)


@pytest.mark.parametrize(
    ("text", "shell"),
    [
        ("Get-Content $HOME\\.aws\\config", "cat -- ~/.aws/config"),
        ("Get-PSDrive C | Select-Object Used, Free", "cat | cat"),
        ("echo \u2018a b\u2019", "echo 'a b'"),
    ],
)
def test_a_gap_is_read_by_the_fallback_and_never_granted(text: str, shell: str) -> None:
    reading = read_powershell(text, _NAME)
    assert reading is not None
    assert reading.shell == shell
    assert not reading.reads


def test_a_quote_inside_a_bare_word_is_read_as_one_word() -> None:
    reading = read_powershell('git -c core.sshCommand="cmd /c calc.exe" ls-remote origin', _NAME)
    assert reading is not None
    assert "'core.sshCommand=cmd /c calc.exe'" in reading.shell
    assert not reading.reads


@pytest.mark.parametrize(
    ("text", "shell"),
    [
        ('Get-Content -Path $HOME"\\.aws\\credentials"', "cat -- ~/.aws/credentials"),
        ('Remove-Item C:\\x\\"a b"\\c', "rm -- 'C:/x/a b/c'"),
        ("Remove-Item 'a'-Recurse", "rm -- a-Recurse"),
    ],
)
def test_pieces_written_together_are_one_argument(text: str, shell: str) -> None:
    reading = read_powershell(text, _NAME)
    assert reading is not None
    assert reading.shell == shell


def test_joined_keeps_a_parameter_and_its_glued_value_apart() -> None:
    tokens = (Token("word", "-Path:"), Token("dq", "a", glued=True), Token("word", "b"))
    assert joined(tokens) == tokens


@pytest.mark.parametrize(
    ("text", "shell"),
    [
        ('Remove-Item -Recurse "$($env:USERPROFILE)\\.ssh"', "rm -r -- ~/.ssh"),
        ("Remove-Item -Recurse ($HOME)", "rm -r -- ~"),
        ('Remove-Item "$(whoami)\\a"', 'rm -- "$(whoami)"/a'),
    ],
)
def test_a_sub_expression_that_holds_one_value_is_that_value(text: str, shell: str) -> None:
    reading = read_powershell(text, _NAME)
    assert reading is not None
    assert reading.shell == shell


@pytest.mark.parametrize(
    ("text", "shell"),
    [
        ("switch (Get-ChildItem) {\n a { Remove-Item b }\n { $_ } { c }\n}", "ls; rm -- b"),
        ("while (Test-Path a) { Remove-Item b }", "rm -- b"),
        ("for ($i = 0; Remove-Item c; $i++) { }", "rm -- c"),
        ("exit (Remove-Item d)", "rm -- d"),
        ("return Remove-Item e", "rm -- e"),
        ("& { param($a) Remove-Item f }", "rm -- f"),
        ("param($p = (Remove-Item g))\nGet-Content h", "rm -- g"),
    ],
)
def test_conditions_and_values_of_keyword_statements_are_read(text: str, shell: str) -> None:
    reading = read_powershell(text, _NAME)
    assert reading is not None
    assert shell in reading.shell
    assert not reading.reads


@pytest.mark.parametrize("text", ["Get-Content a 1> b", "Get-Content a>b", "Get-Content a`;b"])
def test_a_redirection_or_an_escape_the_grammar_reads_as_a_word_is_a_gap(text: str) -> None:
    with pytest.raises(GrammarGap):
        pstree.statements(text)
    reading = read_powershell(text, _NAME)
    assert reading is not None and not reading.reads


def test_a_redirection_glued_to_a_word_is_a_redirection() -> None:
    reading = read_powershell("Get-Content a>b", _NAME)
    assert reading is not None
    assert reading.shell == "cat -- a > b"


def test_a_read_the_grammar_reads_whole_may_be_granted() -> None:
    reading = read_powershell("Get-Content README.md | Select-String TODO", _NAME)
    assert reading is not None and reading.reads


def test_text_neither_reader_can_split_is_unreadable() -> None:
    with pytest.raises(Unreadable):
        pstree.statements("Get-Content 'README.md")
    with pytest.raises(Unreadable):
        pslex.statements("Get-Content 'README.md")
    assert read_powershell("Get-Content 'README.md", _NAME) is None


def test_a_lone_surrogate_is_unreadable() -> None:
    assert read_powershell("Get-Content a\udc00", _NAME) is None


def test_nesting_past_the_limit_is_unreadable() -> None:
    with pytest.raises(Unreadable):
        pstree.statements("Get-Item a", depth=99)
