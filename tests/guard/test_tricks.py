"""Shell spellings that hide what runs, read as the shell reads them: variables set to a
literal, functions that run their arguments, ``eval`` of known output, code run later
(``trap``, ``flock``, ``tmux``, ``fc``, ``sg``), ``$(< FILE)``, patterns naming ``.git``; and the
everyday spellings of the same constructs, which stay free."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.commandpieces import Command
from amplifier_hooks.guard.forwarding import Definition, forwarded
from amplifier_hooks.guard.launchers import launched, trap_action
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.shellinit import known_output, printf_output, prints_setup
from amplifier_hooks.guard.words import Word
from tests.guard.conftest import Judge

DENIED = [
    # the shell's own computing, worked out (`evaluate`): IFS splitting, printf -v
    ("IFS=,; c=rm,-rf,/; $c", "rm-root-or-home"),
    ('X=build; printf -v X /; rm -rf "$X"', "rm-root-or-home"),
    ("rm -rf .[g]it", "rm-git-dir"),
    ("rm -rf .gi?", "rm-git-dir"),
    ("find . -name .git -prune -exec rm -rf {} +", "rm-git-dir"),
    ("rm -rf $(git rev-parse --git-dir)", "rm-git-dir"),
    # `$(< FILE)` prints the file
    ('echo "$(<~/.netrc)"', "credential-read"),
    ("x=$(< ~/.ssh/id_rsa); echo $x", "credential-read"),
    # a variable set to a literal is that literal
    ("R=rm; $R -rf ~", "rm-root-or-home"),
    ('RM="rm -rf"; $RM ~', "rm-root-or-home"),
    ('flag=--force; eval "git push $flag origin main"', "git-force-push-protected"),
    ('a=r; b=m; eval "$a$b -rf ~"', "rm-root-or-home"),
    ('v=AWS_SECRET_ACCESS_KEY; echo "${!v}"', "secret-variable-print"),
    # functions that run their arguments
    ('x(){ "$@"; }; x x x rm -rf ~', "rm-root-or-home"),
    ('run(){ echo "+ $*"; "$@"; }; run cat ~/.ssh/id_rsa', "credential-read"),
    # eval of printf of literals
    ("eval \"$(printf '%s %s %s' rm -rf /)\"", "rm-root-or-home"),
    # code run later
    ("trap 'rm -rf ~' EXIT; npm test", "rm-root-or-home"),
    ('trap "git push --force origin main" ERR; make', "git-force-push-protected"),
    ("trap 'cat ~/.ssh/id_rsa; trap - DEBUG' DEBUG; echo hi", "credential-read"),
    ("flock /tmp/lock rm -rf ~", "rm-root-or-home"),
    ("flock -w 5 /tmp/lock -c 'rm -rf ~'", "rm-root-or-home"),
    ("tmux new-session -d 'sleep 300; rm -rf ~'", "rm-root-or-home"),
    ("tmux -L x new -s n -d 'rm -rf ~'", "rm-root-or-home"),
    ("screen -dmS job rm -rf ~", "rm-root-or-home"),
    ("sg lab -c 'rm -rf ~'", "rm-root-or-home"),
    ("sg - lab 'rm -rf ~'", "rm-root-or-home"),
    ("history -s 'rm -rf ~'; fc -s rm", "rm-root-or-home"),
    # a Makefile given on input: its recipes
    ("make -f - <<< $'all:\\n\\trm -rf $$HOME'", "rm-root-or-home"),
    ("make -f - all <<'EOF'\nall:\n\t@cat ~/.ssh/id_rsa\nEOF", "credential-read"),
    ("make -f - wipe <<'EOF'\nwipe: ; rm -rf ~\nEOF", "rm-root-or-home"),
    ("coproc rm -rf ~; wait", "rm-root-or-home"),
    ("coproc W { rm -rf ~; }; wait", "rm-root-or-home"),
    # writing over what .git keeps its history in
    (": > .git/objects/pack/pack-1.pack", "git-history-overwrite"),
    ("echo 0 > .git/refs/heads/main", "git-history-overwrite"),
    # read-write descriptors write
    ("exec 3<> .claude/settings.local.json; printf '{}' >&3", "self-protect-hook-settings"),
]

ASKED = [
    ("set -o history; history -r /tmp/h.txt; fc -s", "guard-opaque"),
    ("fc", "guard-opaque"),
    ('eval "$(./scripts/gen-env.sh)"', "guard-opaque"),
    ("git -c core.pager=vim log", "git-c-pager"),
    ("f(){ \"$@\"; }; eval 'f rm -rf build'", "guard-opaque"),
    ("X=1; X=$(date +%s); $X", "guard-opaque"),
    ("make -f - <<< $'X != curl -s x\\nall:\\n\\techo $(X)'", "makefile-unseen"),
    ('BASH_ENV=$SETUP_FILE bash -c "npm test"', "source-unknown-script"),
    # what is written to a coprocess that is a shell is run by it
    ("coproc bash; echo 'make clean' >&\"${COPROC[1]}\"", "write-outside-workspace"),
    ('source "$PLUGIN_DIR/init.sh"', "source-unknown-script"),
    # a program a variable names is judged as it (a deny holds); a delete of work is asked
    ('RM="rm -rf"; $RM .mypy_cache src', "guard-opaque"),
    ("read -r X; $X", "guard-opaque"),
]

FREE = [
    'BUILD_DIR=dist; rm -rf "$BUILD_DIR" && npm run build',
    'out=./build; rm -rf "${out:?}"/* && cmake -S . -B "$out"',
    'cmd="pytest -q tests/unit"; eval "$cmd"',
    'eval "$(direnv hook bash)" && direnv status',
    'eval "$(pyenv init -)" && pyenv version',
    'eval "$(ssh-agent -s)" >/dev/null && ssh-add -l',
    'eval "$(/home/linuxbrew/.linuxbrew/bin/brew shellenv)"',
    "source <(kubectl completion bash) && echo ok",
    "eval \"$(printf 'export %s=%s\\n' NODE_ENV test)\" && npm test",
    'run(){ echo "+ $*"; "$@"; }; run ruff check . && run pytest -q',
    'retry(){ for i in 1 2 3; do "$@" && return 0; sleep 2; done; return 1; }; retry npm ci',
    'tmp=$(mktemp -d); trap \'rm -rf "$tmp"\' EXIT; tar -x -C "$tmp" -f a.tar',
    "for f in $(grep -rl old_api src/); do sed -i 's/old_api/new_api/g' \"$f\"; done",
    'for n in {01..05}; do cp tests/t.json "tests/case$n.json"; done',
    "git diff --name-only | grep -E '\\.ts$' | xargs -r npx prettier --check",
    "files=$(git diff --cached --name-only -- '*.py'); [ -n \"$files\" ] && ruff format $files",
    "set -a; . ./.env.example; set +a; npm run migrate",
    ': "${CI:=0}"; echo "CI=$CI"; make test',
    "find . \\( -name '*.orig' -o -name '*.rej' \\) -not -path './.git/*' -delete",
    "exec 4<>tmp/scratch.txt; echo probe >&4; exec 4>&-",
    "git -c core.pager=cat log --oneline -15",
    "grep -rn '\u2014' docs/ | wc -l",
    "rm -rf *.egg-info",
    "flock /tmp/build.lock make",
    "tmux ls",
    "history | tail",
    "fc -l",
    "trap - EXIT",
    "make -f - <<< $'all:\\n\\t@echo $(MAKE_VERSION)'",
    'coproc BC { bc -l; }; echo \'4*a(1)\' >&"${BC[1]}"; read -r pi <&"${BC[0]}"',
    'rm -f "$(git rev-parse --git-dir)/index.lock"',
    'TAG=app:$(git rev-parse --short HEAD); docker build -t "$TAG" .',
    "python3 -c \"import unicodedata; print(unicodedata.normalize('NFKC', 'x'))\"",
    "source ~/.nvm/nvm.sh && nvm use",
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_hidden_destruction_is_denied(verdict: Judge, command: str, rule: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", rule)


@pytest.mark.parametrize(("command", "rule"), ASKED)
def test_what_the_guard_cannot_follow_is_asked(verdict: Judge, command: str, rule: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("ask", rule)


@pytest.mark.parametrize("command", FREE)
def test_the_everyday_spellings_stay_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in (None, "allow")


def test_a_listed_loop_variable_is_never_granted(verdict: Judge) -> None:
    found = verdict('for f in $(git ls-files src); do sed -i s/a/b/ "$f"; done')
    assert found.decision is None


def test_a_variable_is_known_only_after_its_one_top_level_assignment() -> None:
    def program(command: str) -> tuple[str | None, ...]:
        return tuple(p.program for p in parse_command(command).pieces)

    assert "rm" in program("R=rm; $R -rf x")
    assert "rm" not in program("$R -rf x; R=rm")  # read before it is set
    assert "rm" not in program("true && R=rm; $R -rf x")  # set in a list
    assert "rm" not in program("if x; then R=rm; fi; $R -rf x")
    assert "rm" not in program("R=rm; export R; $R -rf x")  # named otherwise
    assert "rm" not in program("R=rm; : ${R:=ls}; $R -rf x")
    assert "rm" not in program("R=$(echo rm); $R -rf x")  # not a literal
    assert "rm" not in program("R='r*'; $R -rf x")  # a pattern


@pytest.mark.parametrize(
    "command",
    ['X=build; source ./x.sh; rm -rf "$X"', 'X=build; . ./env.sh; rm -rf "$X"',
     'X=build; a=X_; declare "${a%_}=/"; rm -rf "$X"', 'X=build; read -r X; rm -rf "$X"',
     'X=build; eval "$(./gen.sh)"; rm -rf "$X"',
     "files=$(git ls-files); source x; rm -rf $files"],
)  # fmt: skip
def test_no_value_is_known_where_something_unseen_may_set_it(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "ask"


def test_a_value_with_blanks_splits_only_unquoted() -> None:
    pieces = parse_command('C="rm -rf"; $C x; "$C" y').pieces
    programs = [p.program for p in pieces]
    assert "rm" in programs
    assert any(p.opaque is None and p.program == "rm -rf" for p in pieces) or programs.count(
        "rm") == 1  # fmt: skip


def test_printf_output_is_worked_out_as_printf_does() -> None:
    assert printf_output(("printf", "%s=%s\\n", "A", "1", "B", "2")) == "A=1\nB=2\n"
    assert printf_output(("printf", "x%%y")) == "x%y"
    assert printf_output(("printf", "%d", "1")) is None  # only %s
    assert printf_output(("printf", "-v", "x", "%s")) is None
    assert printf_output(("printf", "\\162\\155")) is None  # escapes it does not read


def test_setup_printers_print_only_with_their_setup_arguments() -> None:
    assert prints_setup(("direnv", "hook", "bash")) == "direnv"
    assert prints_setup(("/usr/local/bin/brew", "shellenv")) == "brew"
    assert prints_setup(("direnv", "exec", ".", "rm")) is None
    assert prints_setup(("kubectl", "--kubeconfig", "x", "completion", "bash")) is None
    assert known_output("$(pyenv init -)") == ("pyenv", None)
    assert known_output("$(pyenv init -; curl x)") == (None, None)
    assert known_output("$(printf %s ls)") == (None, "ls")


def test_launchers_find_what_they_run() -> None:
    def words(*texts: str) -> tuple[Word, ...]:
        return tuple(Word(t) for t in texts)

    flock = launched("flock", words("-n", "/tmp/l", "make", "all"))
    assert flock is not None and [w.text for w in flock.words] == ["make", "all"]
    tmux = launched("tmux", words("new", "-d", "-s", "w", "npm", "run", "dev"))
    assert tmux is not None and tmux.script == Word("npm run dev")
    assert launched("tmux", words("attach", "-t", "w")) is None
    assert launched("history", words("-c")) is None
    assert launched("sg", words("docker")) is None  # a shell in the group: nothing read
    sg = launched("sg", words("docker", "-c", "docker ps"))
    assert sg is not None and sg.script == Word("docker ps")
    fc = launched("fc", words("-s", "rm"))
    assert fc is not None and fc.script is not None and fc.script.dynamic
    assert trap_action(words("-p")) is None
    assert trap_action(words("", "INT")) is None
    assert trap_action(words("--", "echo bye", "EXIT")) == Word("echo bye")


def test_a_forwarder_is_followed_only_when_every_use_is_seen() -> None:
    source = b'f(){ "$@"; }; f ls'
    definitions = [Definition("f", 0, 12)]
    body = Command('"$@"', (Word("$@", True),))
    call = Command("f ls", (Word("f"), Word("ls")))
    changed = forwarded(source, definitions, {1: 5}, [(1, body), (2, call)])
    assert changed[1] is None and changed[2] == call._replace(words=(Word("ls"),))
    hidden = b'f(){ "$@"; }; f ls; eval "f rm"'
    changed = forwarded(hidden, definitions, {1: 5}, [(1, body), (2, call)])
    assert 1 not in changed  # the body's "$@" stays an unknown command
