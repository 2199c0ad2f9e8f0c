"""Credentials read by their file's name: Composer's auth.json at the project's root (its
GitHub and HTTP tokens), a web server's .htpasswd (password hashes), Laravel Vapor's and
Forge's API tokens are denied; the files named like them (an example, a TypeScript
module, auth.json deeper in the sources) and the htpasswd tool stay free."""

from __future__ import annotations

import pytest

from tests.guard.conftest import HOME, Judge

PROJECT = HOME / "src" / "calc"

DENIED = [
    ("cat auth.json", "credential-read"),
    (f"cat {PROJECT}/auth.json", "credential-read"),
    ("cat ~/.composer/auth.json", "credential-read"),
    ("cat ~/.config/composer/auth.json", "credential-read"),
    ("cat ~/.laravel-vapor/config.json", "credential-read"),
    ("cat ~/.laravel-forge/config.json", "credential-read"),
    ("cat public/.htpasswd", "htpasswd-read"),
    ("cat /etc/nginx/.htpasswd", "htpasswd-read"),
    ("cp public/.htpasswd /tmp/h", "htpasswd-read"),
]

FREE = [
    "cat auth.json.example",
    "cat src/auth.json.ts",
    "cat src/fixtures/auth.json",  # not the project's root: a fixture, as before
    "ls -la auth.json public/.htpasswd",
    "htpasswd -c public/.htpasswd admin",  # prompts for the password, prints no hash
    "cp auth.json.example auth.json",
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_denied(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), result.pieces


@pytest.mark.parametrize("command", FREE)
def test_free(verdict: Judge, command: str) -> None:
    result = verdict(command)
    assert result.decision not in ("ask", "deny"), result.pieces


def test_a_file_tool_reading_them_is_denied_too(verdict: Judge) -> None:
    for path in (f"{PROJECT}/auth.json", f"{PROJECT}/public/.htpasswd"):
        assert verdict(path, tool="read_file").decision == "deny"
    assert verdict(f"{PROJECT}/auth.json.example", tool="read_file").decision != "deny"
