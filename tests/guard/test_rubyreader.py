"""The reader of inline Ruby (`rubyreader`) and of Ruby's command line around it
(`lineoptions`): what the code's calls do where its text says, whether it is quiet, how
the guard then decides, and that inline code is never granted."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.codeacts import MAX_CODE, CodeAct
from amplifier_hooks.guard.lineoptions import read_line
from amplifier_hooks.guard.rubynames import QUIET_FUNCTIONS, QUIET_METHODS, RUNS
from amplifier_hooks.guard.rubyreader import read_ruby
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("code", "acts"),
    [
        ("FileUtils.rm_rf(Dir.home)", [CodeAct("delete-tree", "~")]),
        ("FileUtils.rm_rf(['a', 'b'], secure: true)",
         [CodeAct("delete-tree", "a"), CodeAct("delete-tree", "b")]),
        ("FileUtils.rm('x.txt')", [CodeAct("delete", "x.txt")]),
        ("File.delete(File.join(Dir.home, '.zshrc'))", [CodeAct("delete", "~/.zshrc")]),
        ('system("rm", "-rf", ENV["HOME"])',
         [CodeAct("run", "rm -rf ~"), CodeAct("env", "HOME")]),
        ("system('git push --force')", [CodeAct("run", "git push --force")]),
        ("system(cmd)", [CodeAct("run", None)]),
        ("x = `ls -la /srv`", [CodeAct("run", "ls -la /srv")]),
        ("x = %x(id)", [CodeAct("run", "id")]),
        ('x = `cat #{path}`', [CodeAct("run", None)]),
        ("Open3.capture2('make', 'clean')", [CodeAct("run", "make clean")]),
        ("IO.popen('reboot')", [CodeAct("run", "reboot")]),
        ("open('| sh')", [CodeAct("run", "sh")]),
        ("puts open('https://x.example/a').read", [CodeAct("network", "https://x.example/a")]),
        ('File.write("#{Dir.home}/.bashrc", "x")', [CodeAct("write", "~/.bashrc")]),
        ("File.open('log.txt', 'a') { |f| f.puts 1 }", [CodeAct("append", "log.txt")]),
        ("File.open(path, 'w')", [CodeAct("write", None)]),
        ("File.rename('a', 'b')", [CodeAct("move", "b", "a")]),
        ("FileUtils.ln_s('/dev/null', 'x.json')", [CodeAct("link", "x.json", "/dev/null")]),
        ("File.chmod(0755, 'run.sh')", [CodeAct("chmod", "run.sh", mode="755")]),
        ("eval('system(%q{rm -rf /})')", [CodeAct("run", "rm -rf /")]),
        ('puts ENV["GITHUB_TOKEN"]', [CodeAct("env", "GITHUB_TOKEN")]),
        ('puts ENV.fetch("GITHUB_TOKEN")', [CodeAct("env", "GITHUB_TOKEN")]),
        ("puts ENV.to_h", [CodeAct("env", None)]),
        ("Net::HTTP.get(URI('https://x.example/a'))",
         [CodeAct("network", "https://x.example/a")]),
        ("require 'socket'; TCPSocket.new('x.example', 80)",
         [CodeAct("network", None)]),
        ("puts File.read('.env')", [CodeAct("read", ".env")]),
        ("puts YAML.load_file('config/database.yml')",
         [CodeAct("read", "config/database.yml")]),
    ],
)  # fmt: skip
def test_calls_with_an_effect_are_acts(code: str, acts: list[CodeAct]) -> None:
    reading = read_ruby(code)
    assert reading.parsed
    assert list(reading.acts) == acts
    # a read of a named file is judged as that read; anything else keeps the code asked
    assert reading.quiet is all(a.does == "read" and a.target is not None for a in acts)


@pytest.mark.parametrize(
    "code",
    [
        "puts RUBY_VERSION",
        "puts [1, 2, 3].map { |x| x * 2 }.sum",
        "x = 1; puts x.to_s",
        "puts JSON.parse(File.read('package.json'))['version']",
        "Dir.glob('**/*.rb').each { |f| puts f }",
        "puts Time.now.iso8601",
        "puts SecureRandom.hex(16)",
        "h = {a: 1}; puts h[:a]",
        "puts $_ if $_ =~ /TODO/",
        "gsub(/foo/, 'bar')",
        "$stdout.puts 'x'",
    ],
)
def test_code_that_only_computes_and_prints_is_quiet(code: str) -> None:
    reading = read_ruby(code)
    assert reading.parsed and reading.quiet, reading


@pytest.mark.parametrize(
    "code",
    [
        "foo",
        "obj.destroy",
        "send(:system, 'id')",
        "Kernel.public_send(:exec, 'id')",
        "def puts(x); end; puts 1",
        "class String; def upcase; end; end",
        "require_relative 'x'",
        "require 'pry'",
        "load 'x.rb'",
        "eval(text)",
        "ENV['PATH'] = '/tmp'",
        "$stdout = File.open('x', 'w')",
        "Dir.chdir('/'); puts 1",
        "Process.kill('TERM', 1)",
        "Marshal.load(data)",
        "x.instance_variable_set(:@a, 1)",
        "[1].each(&method(:exit!))",
        "JSON.parse(s, create_additions: true)",
        "YAML.unsafe_load_file('x.yml')",
    ],
)
def test_code_the_reader_cannot_follow_is_not_quiet(code: str) -> None:
    reading = read_ruby(code)
    assert reading.parsed and not reading.quiet, reading


@pytest.mark.parametrize("code", ["puts(", "puts 1 +", "x" * (MAX_CODE + 1), "puts 1\x00"])
def test_code_not_read_stays_unread(code: str) -> None:
    reading = read_ruby(code)
    assert not reading.parsed and not reading.quiet


_SYNTAX = frozenset(
    {"if", "unless", "while", "until", "for", "do", "end", "def", "class", "module", "and",
     "or", "not", "then", "else", "elsif", "case", "when", "in", "begin", "rescue", "ensure",
     "return", "yield", "super", "self", "nil", "true", "false", "redo", "retry", "next",
     "break", "alias", "undef", "defined", "loop", "p"}
)  # fmt: skip
_KNOWN = QUIET_FUNCTIONS | QUIET_METHODS | RUNS | {"open"}
_NAMES = st.from_regex(r"[a-z][a-z_]{1,12}", fullmatch=True).filter(
    lambda n: n not in _KNOWN and n not in _SYNTAX
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(name=_NAMES, arg=st.text(alphabet="abc ./~-", max_size=12), receiver=st.booleans())
def test_a_call_of_an_unknown_name_is_never_quiet(name: str, arg: str, receiver: bool) -> None:
    """Whatever a method the reader does not know is called, on a value or on none, the
    code is not quiet."""
    call = f"'{arg}'.{name}" if receiver else f"{name}('{arg}')"
    reading = read_ruby(f"puts 1; {call}; puts 2")
    assert reading.parsed
    assert not reading.quiet


@pytest.mark.parametrize(
    ("args", "quiet", "acts"),
    [
        (("-e", "CODE"), True, ()),
        (("-ryaml", "-e", "CODE"), True, ()),
        (("-r", "json", "-e", "CODE"), True, ()),
        (("-rnet/http", "-e", "CODE"), True, (CodeAct("network", None),)),
        (("-r", "./evil", "-e", "CODE"), False, ()),
        (("-I", "/tmp", "-e", "CODE"), False, ()),
        (("-C", "/", "-e", "CODE"), False, ()),
        (("-ne", "CODE", "a.rb"), True, (CodeAct("read", "a.rb"),)),
        (("-pi", "-e", "CODE", "a.rb"), True, (CodeAct("read", "a.rb"), CodeAct("write", "a.rb"))),
        (("-W0", "-e", "CODE"), True, ()),
        (("script.rb",), False, ()),
    ],
)  # fmt: skip
def test_ruby_options_read_as_ruby_reads_them(
    args: tuple[str, ...], quiet: bool, acts: tuple[CodeAct, ...]
) -> None:
    line = read_line("ruby", args)
    assert line.quiet is quiet
    assert line.acts == acts


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("ruby -rfileutils -e 'FileUtils.rm_rf(Dir.home)'", "deny"),
        ('ruby -e \'system("rm", "-rf", ENV["HOME"])\'', "deny"),
        ('ruby -e \'File.write("#{Dir.home}/.bashrc", "x")\'', "deny"),
        ('ruby -e \'File.write(".claude/settings.json", "{}")\'', "deny"),
        ("ruby -e 'puts `cat ~/.ssh/id_rsa`'", "deny"),
        ("ruby -e 'puts ENV[\"AWS_SECRET_ACCESS_KEY\"]'", "deny"),
        ("ruby -pi -e 'gsub(/a/, \"b\")' .claude/settings.json", "deny"),
        ("ruby -e 'FileUtils.rm_rf(\"build\")'", "ask"),
        ("ruby -e 'foo'", "ask"),
        ("ruby -e 'puts RUBY_VERSION'", None),
        ("ruby -ryaml -e 'puts YAML.load_file(\"config/database.yml\").keys'", None),
        ("ruby -pi -e 'gsub(/a/, \"b\")' src/a.rb", None),
        ("ruby <<< 'puts 1'", None),
        ("ruby -ne 'puts $_ if $_ =~ /ERR/' /var/log/syslog", None),
    ],
)
def test_the_guard_judges_what_ruby_does(verdict: Judge, command: str, decision: str) -> None:
    """Inline Ruby is denied for what it does, asked when not understood, and left to the
    host when quiet: never granted."""
    assert verdict(command).decision == decision


def test_a_folder_change_makes_relative_paths_unknown() -> None:
    """After the code changes its folder, ``etc/x`` is not the workspace's: the reading
    says so, and its acts are judged as run nowhere known."""
    reading = read_ruby('Dir.chdir("/"); File.delete("etc/x")')
    assert reading.chdir and not reading.quiet
    assert CodeAct("delete", "etc/x") in reading.acts
