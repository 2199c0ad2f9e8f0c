"""``find -regex`` that may select a secret's name is read as reading that secret."""

from __future__ import annotations

from amplifier_hooks.guard.findroots import found_roots
from amplifier_hooks.guard.words import Word
from tests.guard.conftest import Judge


def _named(*args: str) -> list[str]:
    return [w.text for w in found_roots(tuple(Word(a) for a in args))[0]]


def test_regex_selecting_keys_names_them() -> None:
    named = _named("~", "-regex", ".*/id_ed.*", "-exec", "cat", "{}", "+")
    assert "~/**/id_ed25519" in named


def test_regex_of_python_names_no_secret() -> None:
    named = _named("src", "-regex", r".*\.py", "-exec", "cat", "{}", "+")
    assert not any("**" in n for n in named)


def test_unreadable_regex_may_select_any() -> None:
    named = _named("~", "-regex", "(", "-exec", "cat", "{}", "+")
    assert "~/**/.env" in named


def test_regex_key_read_is_stopped(verdict: Judge) -> None:
    with open("tests/guard/data/find_regex_probe.txt") as f:
        command = f.read().strip()
    assert verdict(command).decision in ("deny", "ask"), command


def test_regex_python_read_is_free(verdict: Judge) -> None:
    command = "find src -regex '.*\\.py' -exec cat {} +"
    assert verdict(command).decision in (None, "allow"), command


def test_path_into_protected_folder_read_is_stopped(verdict: Judge) -> None:
    with open("tests/guard/data/find_path_probe.txt") as f:
        command = f.read().strip()
    assert verdict(command).decision in ("deny", "ask"), command


def test_markdown_grep_is_free(verdict: Judge) -> None:
    command = "find . -name '*.md' -exec grep -l TODO {} +"
    assert verdict(command).decision in (None, "allow"), command


def test_extended_regex_selecting_keys_names_them() -> None:
    """``find -E`` / ``-regextype posix-extended`` read ``(a|b)`` as alternatives."""
    for args in (("-E", "~"), ("~", "-regextype", "posix-extended")):
        named = _named(*args, "-regex", ".*/id_(ed|rsa).*", "-exec", "cat", "{}", "+")
        assert "~/**/id_rsa" in named, args
