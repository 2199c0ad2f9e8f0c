"""The reader of inline PHP (`phpreader`) and of PHP's command line around it
(`lineoptions`): what the code's calls do where its text says, whether it is quiet, how
the guard then decides, and that inline code is never granted."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.codeacts import MAX_CODE, CodeAct
from amplifier_hooks.guard.lineoptions import read_line
from amplifier_hooks.guard.phpnames import FILE_ACTS, NETWORK, QUIET_FUNCTIONS, RUNS
from amplifier_hooks.guard.phpreader import read_php
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("code", "acts"),
    [
        ('system("rm -rf " . getenv("HOME"));',
         [CodeAct("run", "rm -rf ~"), CodeAct("env", "HOME")]),
        ("shell_exec('git push --force');", [CodeAct("run", "git push --force")]),
        ("\\passthru('id');", [CodeAct("run", "id")]),
        ("exec($cmd);", [CodeAct("run", None)]),
        ("echo `ls -la /srv`;", [CodeAct("run", "ls -la /srv")]),
        ("echo `cat $f`;", [CodeAct("run", None)]),
        ("call_user_func('system', 'reboot');", [CodeAct("run", "reboot")]),
        ('eval("system(\'id\');");', [CodeAct("run", "id")]),
        ("unlink('a.txt');", [CodeAct("delete", "a.txt")]),
        ("rmdir('x');", [CodeAct("rmdir", "x")]),
        ("rename('a', 'b');", [CodeAct("move", "b", "a")]),
        ("copy('a', 'b');", [CodeAct("copy", "b", "a")]),
        ("symlink('/dev/null', 'x.json');", [CodeAct("link", "x.json", "/dev/null")]),
        ("chmod('run.sh', 0755);", [CodeAct("chmod", "run.sh", mode="755")]),
        ("file_put_contents('.claude/settings.json', '{}');",
         [CodeAct("write", ".claude/settings.json")]),
        ('file_put_contents($_SERVER["HOME"] . "/.bashrc", "x", FILE_APPEND);',
         [CodeAct("append", "~/.bashrc"), CodeAct("env", "HOME")]),
        ("file_put_contents('log', 'x', LOCK_EX);", [CodeAct("write", "log")]),
        ("fopen('out.txt', 'w');", [CodeAct("write", "out.txt")]),
        ("fopen('log.txt', 'a');", [CodeAct("append", "log.txt")]),
        ("file_put_contents(filename: 'x', data: 'y');", [CodeAct("write", None)]),
        ("echo getenv('GITHUB_TOKEN');", [CodeAct("env", "GITHUB_TOKEN")]),
        ("print_r(getenv());", [CodeAct("env", None)]),
        ("print_r($_ENV);", [CodeAct("env", None)]),
        ("echo $_SERVER['AWS_SECRET_ACCESS_KEY'];", [CodeAct("env", "AWS_SECRET_ACCESS_KEY")]),
        ("echo file_get_contents('https://x.example/a');",
         [CodeAct("network", "https://x.example/a")]),
        ("$c = curl_init('https://x.example/c'); curl_exec($c);",
         [CodeAct("network", "https://x.example/c"), CodeAct("network", None)]),
        ("fsockopen('x.example', 80);", [CodeAct("network", None)]),
        ("echo file_get_contents('.env');", [CodeAct("read", ".env")]),
    ],
)  # fmt: skip
def test_calls_with_an_effect_are_acts(code: str, acts: list[CodeAct]) -> None:
    reading = read_php(code)
    assert reading.parsed
    assert list(reading.acts) == acts
    # a read of a named file is judged as that read; anything else keeps the code asked
    assert reading.quiet is all(a.does == "read" and a.target is not None for a in acts)


@pytest.mark.parametrize(
    "code",
    [
        'echo PHP_VERSION, "\\n";',
        'print_r(json_decode(file_get_contents("composer.json"), true)["require"]);',
        'echo implode(",", array_map(fn($x) => $x * 2, [1, 2, 3]));',
        "echo json_encode(['a' => 1], JSON_PRETTY_PRINT);",
        "$d = new DateTime(); echo date('Y-m-d');",
        "fwrite(STDERR, 'x');",
        "$in = fopen('php://stdin', 'r'); echo fgets($in);",
        "<?php echo 1;",
    ],
)
def test_code_that_only_computes_and_prints_is_quiet(code: str) -> None:
    reading = read_php(code)
    assert reading.parsed and reading.quiet, reading


@pytest.mark.parametrize(
    "code",
    [
        "array_map('system', ['id']);",
        "usort($a, 'strcmp');",
        "$f = 'system'; $f('id');",
        "$o->run();",
        "Foo::bar();",
        "new Foo();",
        "include 'vendor/autoload.php';",
        "require_once __DIR__ . '/x.php';",
        "function f() {} f();",
        "echo $GLOBALS['x'];",
        "putenv('PATH=/tmp');",
        "ini_set('open_basedir', '/');",
        "assert('1');",
        "$$name = 1;",
        "?>text<?php echo 1;",
        "var_dump(file_exists('phar://x.phar/a'));",
    ],
)
def test_code_the_reader_cannot_follow_is_not_quiet(code: str) -> None:
    reading = read_php(code)
    assert reading.parsed and not reading.quiet, reading


@pytest.mark.parametrize("code", ["echo (;", "x" * (MAX_CODE + 1), "echo 1;\x00"])
def test_code_not_read_stays_unread(code: str) -> None:
    reading = read_php(code)
    assert not reading.parsed and not reading.quiet


_SYNTAX = frozenset(
    {"echo", "print", "if", "else", "while", "for", "foreach", "do", "switch", "case",
     "function", "fn", "class", "new", "return", "exit", "die", "list", "array", "isset",
     "unset", "empty", "eval", "include", "require", "match", "use", "global", "static",
     "and", "or", "xor", "clone", "yield", "throw", "try", "goto", "declare", "namespace",
     "const", "var", "abstract", "final", "enum", "readonly", "parent", "self", "true",
     "false", "null", "instanceof", "insteadof", "interface", "trait", "as", "callable",
     "catch", "finally", "continue", "break", "default", "elseif", "endif", "extends",
     "implements", "private", "protected", "public", "mixed", "never", "void", "iterable",
     "object", "int", "float", "bool", "string"}
)  # fmt: skip
_KNOWN = QUIET_FUNCTIONS | RUNS | frozenset(FILE_ACTS) | NETWORK | {"getenv"}
_NAMES = st.from_regex(r"[a-z][a-z_]{1,12}", fullmatch=True).filter(
    lambda n: n not in _KNOWN and n not in _SYNTAX
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(name=_NAMES, arg=st.text(alphabet="abc ./~-", max_size=12))
def test_a_call_of_an_unknown_name_is_never_quiet(name: str, arg: str) -> None:
    """Whatever a function the reader does not know is called, the code is not quiet."""
    reading = read_php(f"echo 1; {name}('{arg}'); echo 2;")
    assert reading.parsed
    assert not reading.quiet


@pytest.mark.parametrize(
    ("args", "quiet"),
    [
        (("-r", "CODE"), True),
        (("-n", "-r", "CODE", "--", "a"), True),
        (("-d", "display_errors=1", "-r", "CODE"), True),
        (("-d", "auto_prepend_file=/tmp/x.php", "-r", "CODE"), False),
        (("-c", "/tmp/php.ini", "-r", "CODE"), False),
        (("-B", "CODE", "-R", "CODE"), False),
        (("script.php",), False),
    ],
)
def test_php_options_read_as_php_reads_them(args: tuple[str, ...], quiet: bool) -> None:
    line = read_line("php", args)
    assert line.quiet is quiet
    assert line.acts == ()


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("php -r 'system(\"rm -rf \" . getenv(\"HOME\"));'", "deny"),
        ("php -r 'file_put_contents($_SERVER[\"HOME\"] . \"/.bashrc\", \"x\", FILE_APPEND);'",
         "deny"),
        ("php -r 'echo `cat ~/.ssh/id_rsa`;'", "deny"),
        ("php -r 'echo getenv(\"AWS_SECRET_ACCESS_KEY\");'", "deny"),
        ("php -r 'call_user_func(\"system\", \"rm -rf ~\");'", "deny"),
        ("php -d auto_prepend_file=/tmp/x.php -r 'echo 1;'", "ask"),
        ("php -r 'array_map(\"system\", [\"id\"]);'", "ask"),
        ("php -r 'unlink(\"src/a.php\");'", "ask"),
        ("php -r 'echo PHP_VERSION, \"\\n\";'", None),
        ("php -r 'print_r(json_decode(file_get_contents(\"composer.json\"), true));'", None),
        ("php <<'EOF'\n<?php echo 1;\nEOF", None),
    ],
)  # fmt: skip
def test_the_guard_judges_what_php_does(verdict: Judge, command: str, decision: str) -> None:
    """Inline PHP is denied for what it does, asked when not understood, and left to the
    host when quiet: never granted."""
    assert verdict(command).decision == decision


def test_a_folder_change_makes_relative_paths_unknown() -> None:
    """After the code changes its folder, ``etc/x`` is not the workspace's: the reading
    says so, and its acts are judged as run nowhere known."""
    reading = read_php('chdir("/"); unlink("etc/x");')
    assert reading.chdir and not reading.quiet
    assert CodeAct("delete", "etc/x") in reading.acts
