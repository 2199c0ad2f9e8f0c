"""Node's loading options given a ``data:`` URL run the URL's text as code: judged as
``node -e CODE`` (`table.nodeloaders`), in ``NODE_OPTIONS`` as on the command line
(`envs`, which splits the value as Node does); and ``import("fs").then(f => ..)`` hands
the module to ``f`` (`jsthen`)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.envs import commands_of
from amplifier_hooks.guard.table.nodeloaders import loaded_code_commands
from tests.guard.conftest import decided

RM_HOME = "require('fs').rmSync('/home/dev',{recursive:true})"

DENIED = [
    f'NODE_OPTIONS="--import=data:text/javascript,{RM_HOME}" node -v',
    f'NODE_OPTIONS="--no-warnings --experimental-loader=data:text/javascript,{RM_HOME}" '
    "node app.js",
    f'node "--import=data:text/javascript,{RM_HOME}" app.js',
    f'node --loader "data:text/javascript,{RM_HOME}" app.js',
    "node --experimental-loader "
    "'data:text/javascript,require(%22fs%22).rmSync(%22/home/dev%22,{recursive:true})' app.js",
    "node -r 'data:text/javascript;base64,"
    "cmVxdWlyZSgnZnMnKS5ybVN5bmMoJy9ob21lL2RldicseyByZWN1cnNpdmU6IHRydWUgfSk=' app.js",
    "NODE_OPTIONS=\"--import=data:text/javascript,import('fs').then(f=>f.rmSync('/home/dev',"
    '{recursive:true}))" node -v',
    "node -e \"import('node:fs').then(m => m.rmSync('/home/dev', {recursive: true}))\"",
]


@pytest.mark.parametrize("command", DENIED)
def test_code_in_a_data_url_is_judged_as_node_e(command: str) -> None:
    assert decided(command) == ("deny", "rm-root-or-home")


def test_a_data_url_after_the_script_is_the_scripts_own() -> None:
    assert loaded_code_commands(("app.js", "--import=data:text/javascript,x()")) == ()
    assert loaded_code_commands(("--import", "tsx", "app.ts")) == ()
    assert loaded_code_commands(("--import",)) == ()
    assert loaded_code_commands(("-r", "data:text/javascript;base64,@@@", "a.js")) == ()
    assert loaded_code_commands(("--import=data:,a%28%29",)) == ("node -e 'a()'",)


def test_node_options_are_split_as_node_splits_them() -> None:
    value = "--require \"./a b.js\" --import=data:text/javascript,f('x')"
    assert commands_of((f"NODE_OPTIONS={value}",)) == (
        "node --require './a b.js' '--import=data:text/javascript,f('\"'\"'x'\"'\"')'",
    )


NOT_STOPPED = [
    'NODE_OPTIONS="--max-old-space-size=4096" node build.js',
    "node --enable-source-maps dist/index.js",
    "node -e \"console.log(require('os').cpus().length)\"",
]


@pytest.mark.parametrize("command", NOT_STOPPED)
def test_near_misses_are_not_stopped(command: str) -> None:
    assert decided(command)[0] not in ("deny", "ask")
