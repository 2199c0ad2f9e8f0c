"""A checker in a mode that only reads (`guard.checkers`) changes none of the files it is
given: checking a sibling clone or the dotfiles is not a change outside the workspace.
Its writing modes (a fix, a report, a cache folder, running the script) still ask, and a
credential it is given is still a credential read."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.checkers import checks_only

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES).decision


@pytest.mark.parametrize(
    "command",
    ["shellcheck ~/dotfiles/bin/*.sh", "shellcheck -x -S warning ../lib/scripts/release.sh",
     "bash -n ~/dotfiles/bash/.bashrc", "sh -nv ~/src/infra/deploy.sh", "zsh -n ~/.zshrc",
     "mypy src ../lib/src/lib", "mypy --strict -p lib ~/src/lib/src",
     "ruff check ../lib", "ruff check --no-cache --statistics ~/src/lib",
     "ruff format --check ../lib", "ruff format --diff ~/src/lib/src",
     "cd ~/dotfiles && stow -n -v -t ~ nvim", "stow -nvR -d ~/dotfiles -t ~ zsh",
     "stow --simulate -d ~/dotfiles -t ~ git"],
)  # fmt: skip
def test_a_check_of_files_outside_the_workspace_is_not_asked(command: str) -> None:
    assert _decision(command) is None


@pytest.mark.parametrize(
    "command",
    ["ruff check --fix ../lib", "ruff check --fix-only ~/src/lib", "ruff check --add-noqa ../lib",
     "ruff format ../lib", "ruff check --config 'fix = true' ../lib",
     "mypy --cache-dir ~/src/lib/.cache src", "mypy --html-report ../report src",
     "bash ~/dotfiles/install.sh", "bash -x ~/dotfiles/install.sh", "bash -n -s ../lib/x.sh"],
)  # fmt: skip
def test_a_checker_that_writes_or_runs_outside_the_workspace_still_asks(command: str) -> None:
    assert _decision(command) == "ask"


@pytest.mark.parametrize(
    "command", ["cd ~/dotfiles && stow -v -t ~ nvim", "stow -d ~/dotfiles -t ~ -D zsh"]
)
def test_stow_linking_into_home_is_denied_as_planting_start_up_files(command: str) -> None:
    # (`dotfiles-link-home`; its dry run, -n, stays free above)
    assert _decision(command) == "deny"


@pytest.mark.parametrize(
    "command",
    ["ruff check -o ~/.bashrc src", "ruff check -qo ~/.bashrc src",
     "mypy --junit-xml ~/.profile src", "shellcheck ~/.ssh/id_ed25519",
     "bash -n ~/.aws/credentials"],
)  # fmt: skip
def test_a_checker_given_a_start_up_file_to_write_or_a_credential_is_denied(command: str) -> None:
    assert _decision(command) == "deny"


@pytest.mark.parametrize(
    ("program", "args"),
    [("bash", ("-n",)), ("bash", ("-nc", "x")), ("bash", ("-n", "-")),
     ("bash", ("--rcfile", "f", "-n", "x")),
     ("bash", ("-ni", "x")), ("mypy", ()), ("mypy", ("--install-types", "src")), ("ruff", ()),
     ("ruff", ("check", "--watch", "src")), ("ruff", ("check", "-ofile", "src")),
     ("ruff", ("clean",)), ("ruff", ("format", "src")), ("pylint", ("src",)),
     ("stow", ("-v", "nvim")), ("stow", ("-dn", "nvim"))],
)  # fmt: skip
def test_only_the_known_reading_modes_count(program: str, args: tuple[str, ...]) -> None:
    assert not checks_only(program, args)


@pytest.mark.parametrize(
    "command",
    ["cd ~/src/ui-kit && npx tsc --noEmit -p .", "tsc --noEmit -p ~/src/ui-kit",
     "pnpm exec tsc --noEmit -p ../ui-kit", "npx --no-install tsc --noEmit -p ~/src/ui-kit",
     "cd ~/src/api && go vet ./...", "go vet ../lib/...",
     "npx prettier --check ~/src/ui-kit", "prettier -c '**/*.{json,md}'",
     "npx eslint ../ui-kit/src", "pnpm exec eslint '**/*.ts'"],
)  # fmt: skip
def test_type_checks_and_vet_of_a_sibling_read_only(command: str) -> None:
    assert _decision(command) is None


@pytest.mark.parametrize(
    "command",
    ["cd ~/src/ui-kit && npx tsc -p .", "cd ~/src/ui-kit && npx tsc --noEmit --incremental -p .",
     "tsc --noEmit false -p ~/src/ui-kit", "tsc --noEmit --build ~/src/ui-kit",
     "tsc --noEmit --generateTrace ~/traces -p .", "npx prettier --write ~/src/ui-kit",
     # tsc reads option names in any case, and the last --noEmit wins
     "tsc --noEmit --generatetrace ~/traces -p .", "tsc --NOEMIT --Incremental -p ~/src/ui-kit",
     "tsc --noEmit -p ~/src/ui-kit --noEmit false", "npx tsc --noEmit -W -p ~/src/ui-kit",
     "cd ~/src/api && go vet -vettool=/tmp/x ./...", "cd ~/src/api && go test ./...",
     "cd ~/src/api && go build ./...", "npx prettier --check --write ~/src/ui-kit",
     "npx eslint --fix ../ui-kit/src", "npx eslint -o ~/report.txt ../ui-kit/src",
     "npx eslint --fix-dry-run=true ../ui-kit"],
)  # fmt: skip
def test_their_writing_modes_still_ask(command: str) -> None:
    assert _decision(command) == "ask"


@pytest.mark.parametrize(
    "command",
    ["go vet -vettool=/tmp/x ./...", "go vet -vettool /tmp/x ./...",
     "go vet --vettool=/var/tmp/shadow ./..."],
)  # fmt: skip
def test_a_vettool_from_a_temporary_folder_is_asked(command: str) -> None:
    found = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    assert (found.decision, found.rule) == ("ask", "build-loads-unreviewed-code-vettool")


@pytest.mark.parametrize(
    "command",
    ["go vet -vettool=$(which shadow) ./...", "go vet -vettool=/home/dev/go/bin/shadow ./..."],
)
def test_an_installed_vettool_is_free(command: str) -> None:
    assert _decision(command) is None


def test_an_emit_after_the_no_emit_into_a_start_up_file_is_denied() -> None:
    assert _decision("tsc --noEmit --noEmit false --outFile ~/.bashrc ../ui-kit/x.ts") == "deny"


def test_a_checked_credential_is_still_read() -> None:
    assert _decision("npx tsc --noEmit -p ~/.ssh") == "deny"
