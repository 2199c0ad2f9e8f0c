"""Path globs: a set of globs holds for a path exactly when one of its globs, read on its
own, matches the whole path -- however the set is compiled."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.globs import KEPT, GlobSet, Sieve, compile_glob, sifted

_GLOBS = st.sampled_from(
    ["**/.env", "**/.env.*", "**/*.pem", "**/id_rsa", "**/.claude/settings*.json",
     "**/.codex/**", "**/.github/hooks", "~/.ssh/id_*", "~/.aws/**", "/etc/**", "/etc/shadow",
     "**/.git/hooks/**", "src/*.py", "**/a?c/b", "**/[ab]x", "**/*", "/Library/Launch*/**",
     "~/.config/**/x", "**", "*.py", "a?c", "**/.c*x/**", "~/.local/bin/*", "**/.git/hooks/*",
     "src/*", "*", "/etc/*/**", "**/.git/ho*/**", "**/.config/**/x/**", "**/.claude/*/**",
     "a?c/src/**", "?x/.claude/**", "[ab]x/.git/hooks/**"]
)  # fmt: skip
_NAMES = st.sampled_from(
    [".env", ".env.local", "id_rsa", "k.pem", ".claude", "settings.json", "settings.local.json",
     ".codex", ".github", "hooks", "etc", "shadow", ".ssh", "~", "src", "a.py", "abc", "b",
     "ax", "", ".git", ".aws", "x", ".local", "bin"]
)  # fmt: skip


@st.composite
def _paths(draw: st.DrawFn) -> str:
    names = draw(st.lists(_NAMES, min_size=1, max_size=5))
    return draw(st.sampled_from(["", "/", "~/"])) + "/".join(names)


@settings(max_examples=500, deadline=None)
@given(st.lists(_GLOBS, min_size=1, max_size=4), st.lists(_paths(), min_size=1, max_size=3))
def test_a_glob_set_holds_when_one_of_its_globs_matches(globs: list[str], forms: list[str]) -> None:
    expected = any(compile_glob(g).match(f) for g in globs for f in forms)
    assert GlobSet(tuple(globs)).matches(tuple(forms)) is expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_GLOBS, min_size=1, max_size=6),
    st.lists(_paths(), min_size=9, max_size=14),
    st.booleans(),
)
def test_many_forms_are_sifted_to_the_same_answer(
    globs: list[str], forms: list[str], fold: bool
) -> None:
    # More than `SIFTED_FROM` forms (a pattern in a folder name) meet the sieve first.
    shown = tuple(f.swapcase() for f in forms) if fold else tuple(forms)
    expected = any(compile_glob(g).match(f) for g in globs for f in forms)
    assert GlobSet(tuple(globs), fold=fold).matches(shown) is expected
    assert Sieve(tuple(globs)).maybe_sifted(sifted(shown)) is Sieve(tuple(globs)).maybe(shown)


def test_a_literal_glob_is_sifted_as_its_whole_form() -> None:
    sieve = Sieve(("~/.ssh", "/etc/shadow"))
    assert sieve.maybe(("~/.SSH",)) and sieve.maybe(("/etc/shadow",))
    assert not sieve.maybe(("/home/a/w/.claude/.ssh", "~/w/.claude/.ssh", ".claude/.ssh"))
    many = tuple(f"/w/{n}/.ssh" for n in "abcdefghij")
    assert not GlobSet(("~/.ssh",), fold=True).matches(many)
    assert GlobSet(("~/.ssh",), fold=True).matches((*many, "~/.Ssh"))


def test_a_sieve_keeps_a_name_only_a_folded_regex_meets() -> None:
    # U+017F (long s) folds to `s` in a regex that ignores case: the sieve's plain string tests of
    # ASCII names must not clear it.
    globs = ("**/secrets*", "**/*.pem")
    assert GlobSet(globs, fold=True).matches(("/x/\u017fecrets",))
    assert Sieve(globs).maybe(("/x/\u017fecrets",))
    assert Sieve(globs).maybe(("/x/SECRETS.txt",)) and Sieve(globs).maybe(("/x/K.PEM",))
    assert not Sieve(globs).maybe(("/x/secret", "/x/a.pe"))


def test_a_sieve_tells_a_name_by_its_literal_start_end_and_middle() -> None:
    sieve = Sieve(("**/*auth*", "**/*.key", "**/id_*", "~/.aws/**", "/run/secrets/**"))
    for name in ("oauth.json", "MY_AUTH", "a.KEY", "id_ed25519", "\u017fauth"):
        assert sieve.maybe((f"/w/{name}",)), name
    assert sieve.maybe(("~/.AWS/config",)) and sieve.maybe(("/run/secrets/x",))
    assert not sieve.maybe(("/w/aut", "/w/a.ke", "/w/xid_", "~/.aw", "/run/secret"))


def test_a_deep_glob_is_matched_on_the_last_names() -> None:
    settings_glob = GlobSet(("**/.claude/settings*.json",))
    assert settings_glob.matches(("/home/a/w/.claude/settings.local.json",))
    assert settings_glob.matches((".claude/settings.json",))
    assert not settings_glob.matches(("/home/a/.claude/x/settings.json",))
    assert not settings_glob.matches(("settings.json",))


@settings(max_examples=500, deadline=None)
@given(st.lists(_GLOBS, min_size=1, max_size=6), st.lists(_paths(), min_size=1, max_size=3))
def test_a_sieve_never_clears_a_path_a_glob_matches(globs: list[str], forms: list[str]) -> None:
    if GlobSet(tuple(globs)).matches(tuple(forms)):
        assert Sieve(tuple(globs)).maybe(tuple(forms))


@settings(max_examples=500, deadline=None)
@given(st.lists(_GLOBS, min_size=1, max_size=4), st.lists(_paths(), min_size=1, max_size=3))
def test_a_folded_glob_set_holds_in_any_case_and_the_sieve_keeps_it(
    globs: list[str], forms: list[str]
) -> None:
    shouted = tuple(f.swapcase() for f in forms)
    expected = any(compile_glob(g).match(f) for g in globs for f in forms)
    assert GlobSet(tuple(globs), fold=True).matches(shouted) is expected
    if expected:
        assert Sieve(tuple(globs)).maybe(shouted)


def test_a_glob_set_keeps_the_exact_case_unless_folded() -> None:
    # an exception (`not_glob`) or a grant's place stays exact: /TMP is not /tmp on Linux
    assert not GlobSet(("/tmp/**",)).matches(("/TMP/x",))
    assert GlobSet(("~/.aws/credentials*", "**/.netrc"), fold=True).matches(("~/.AWS/Credentials",))
    assert GlobSet(("**/.netrc",), fold=True).matches(("/home/dev/.NETRC",))


def test_a_sieve_clears_an_everyday_path_in_one_step() -> None:
    sieve = Sieve(("**/.env", "~/.ssh/id_*", "**/*.pem", "/etc/**", "**/.codex/**", "~/.ssh"))
    forms = ("/home/dev/project/tests/test_a.py", "~/project/tests/test_a.py", "tests/test_a.py")
    assert not sieve.maybe(forms)
    assert sieve.maybe(("/home/dev/.ssh/id_rsa", "~/.ssh/id_rsa"))
    assert sieve.maybe(("/etc/passwd",))
    assert sieve.maybe(("/w/.codex/config.toml", ".codex/config.toml"))
    assert sieve.maybe(("~/.ssh",))
    assert not Sieve(("**/.env",)).maybe(("/w/.env.local",))
    assert Sieve(("**",)).maybe(("/anything",))


def test_a_sieve_tells_a_folders_files_by_the_folder() -> None:
    sieve = Sieve(("~/.local/bin/*", "**/.git/hooks/*"))
    assert not sieve.maybe(("/home/dev/project/tests/test_a.py", "tests/test_a.py"))
    assert sieve.maybe(("/home/dev/.local/bin/tool", "~/.local/bin/tool"))
    assert sieve.maybe(("/w/.git/hooks/pre-commit", ".git/hooks/pre-commit"))
    assert Sieve(("*",)).maybe(("anything",))


def test_a_sieve_looks_for_a_folder_infix_only_where_its_first_folder_is() -> None:
    # `/A/B/` is searched for only when some form has a `/`-part A (in any case): wherever
    # the infix is, A stands between two slashes; a path with A but not A/B is still cleared
    sieve = Sieve(("**/.git/hooks/**", "**/.config/systemd/user/**"))
    assert not sieve.maybe(("/home/dev/project/tests/test_a.py", "tests/test_a.py"))
    assert not sieve.maybe(("/w/.git/config", ".git/config", "/w/.config/x/user/a"))
    assert sieve.maybe(("/w/x", ".git/hooks/pre-commit"))  # the first part of a relative form
    assert sieve.maybe(("/W/.GIT/Hooks/x",)) and sieve.maybe(("/a/.Config/SYSTEMD/user/b.service",))
    many = tuple(f"/w/{n}/src/a.py" for n in "abcdefghij")
    assert not sieve.maybe_sifted(sifted(many))
    assert sieve.maybe_sifted(sifted((*many, "/h/.config/systemd/user/x")))


def test_a_sieve_tells_a_wildcard_folders_files_by_the_folders_before_it() -> None:
    sieve = Sieve(("**/site-packages/amplifier_module_*/**",))
    assert not sieve.maybe(("/home/dev/project/tests/test_a.py", "tests/test_a.py"))
    assert sieve.maybe(("/venv/lib/site-packages/amplifier_module_x/a.py",))
    assert sieve.maybe(("site-packages/amplifier_module_x/a.py",))
    assert Sieve(("**/*_cache/**",)).maybe(("tests/test_a.py",))  # nothing known: always


def test_a_sieve_tells_a_drive_letters_folders_by_their_names() -> None:
    # a glob starting with a wildcard (`?:` for any drive) is told by the folders after it,
    # so an everyday path is still cleared in one step
    sieve = Sieve(("?:/Windows/NTDS/**", "?:/Windows/System32/config/RegBack/**"))
    assert not sieve.maybe(("/home/dev/project/tests/test_a.py", "tests/test_a.py"))
    assert sieve.maybe(("C:/Windows/NTDS/ntds.dit",))
    assert sieve.maybe(("d:/windows/system32/config/regback/SAM",))
    assert Sieve(("?:/**",)).maybe(("/anything",))


@settings(max_examples=100, deadline=None)
@given(st.lists(_GLOBS, min_size=1, max_size=6), st.lists(_paths(), min_size=1, max_size=12))
def test_a_kept_answer_is_the_answer(globs: list[str], forms: list[str]) -> None:
    # A set keeps its answers by the forms asked, and forgets them past `KEPT`: asked
    # again, and after many other paths, it answers the same.
    glob_set = GlobSet(tuple(globs))
    asked = tuple(forms)
    expected = any(compile_glob(g).match(f) for g in globs for f in forms)
    for round_ in range(2):
        assert glob_set.matches(asked) is expected
        for n in range(KEPT + 1 if round_ == 0 else 0):
            glob_set.matches((f"/other/{n}",))
    assert glob_set.matches(asked) is expected


def test_forms_of_one_folder_are_told_apart_by_their_names() -> None:
    # What a folder's literal paths, prefixes and folders say is kept for the folder
    # (`sievefolders`); a prefix or a literal path that goes on into the last name is still
    # told by each name met there.
    sieve = Sieve(("/etc/ssh/ssh_host_*/**", "/etc/shadow", "**/.git/hooks/**", "~/.aws/**"))
    for _ in range(2):  # (the second time from the kept views)
        assert sieve.maybe(("/etc/ssh/ssh_host_rsa_key",))
        assert not sieve.maybe(("/etc/ssh/sshd_config",))
        assert sieve.maybe(("/etc/shadow",)) and sieve.maybe(("/ETC/Shadow",))
        assert not sieve.maybe(("/etc/hosts", "/etc/shadow.d/x"))
        assert sieve.maybe(("/w/.git/hooks/pre-commit",)) and sieve.maybe((".git/hooks/x",))
        assert not sieve.maybe(("/w/.git/config", "/w/x.git/hooks/y"))
        assert sieve.maybe(("~/.aws/",)) and sieve.maybe(("~/.AWS/config",))
        assert not sieve.maybe(("~/.aws", "~/.awsx/config", "tests/test_1.py"))
