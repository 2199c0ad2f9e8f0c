"""Store locations: the one reader of ``--store``, ``$AMPLIFIER_HOOKS_STORE`` and a bundle's
``session.approvals.store`` refuses a misspelt scheme or a missing folder, creating nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from amplifier_hooks.approvals.store import (
    STORE_ENV,
    ApprovalStore,
    StoreLocationError,
    check_location,
    environment_store,
    open_store,
)
from amplifier_hooks.bundles import BundleError, load_bundle
from amplifier_hooks.bundles.reading import display_path

FORMS = "expected a file path, :memory:, sqlite:///PATH or a postgresql:// URL"


@pytest.mark.parametrize(
    ("location", "problem"),
    [
        (
            "postgressql://me:secret@db/approvals",
            f"unknown store scheme 'postgressql://' (did you mean postgresql://?); {FORMS}",
        ),
        (
            "postgress://db/a",
            f"unknown store scheme 'postgress://' (did you mean postgres://?); {FORMS}",
        ),
        (
            "sqlit:///tmp/a.db",
            f"unknown store scheme 'sqlit://' (did you mean sqlite://?); {FORMS}",
        ),
        (
            "postgresql:/db",
            f"unknown store scheme 'postgresql:' (did you mean postgresql://?); {FORMS}",
        ),
        ("file:///tmp/a.db", f"unknown store scheme 'file://'; {FORMS}"),
        ("mysql://db/approvals", f"unknown store scheme 'mysql://'; {FORMS}"),
    ],
)
def test_an_unknown_scheme_is_refused_with_the_closest_known_one(
    location: str, problem: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreLocationError) as info:
        check_location(location, "--store")
    assert info.value.problem == problem
    assert str(info.value) == f"--store: {problem}"
    assert "secret" not in str(info.value)  # only the scheme is repeated, never the URL
    with pytest.raises(StoreLocationError):
        open_store(location)
    assert list(tmp_path.iterdir()) == []


def test_a_file_in_a_missing_folder_is_refused_and_the_folder_not_created(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "a.db"
    with pytest.raises(StoreLocationError) as info:
        open_store(str(target))
    assert str(info.value) == (
        f"the folder {tmp_path / 'no' / 'such'} does not exist "
        "(create it, or name a file elsewhere)"
    )
    with pytest.raises(StoreLocationError, match="does not exist"):
        open_store(f"sqlite://{target}")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_or_a_file_as_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreLocationError) as info:
        check_location(str(tmp_path))
    assert str(info.value) == (
        f"{tmp_path} is a folder; expected a file in it, e.g. {tmp_path / 'approvals.db'}"
    )
    (tmp_path / "plain").write_text("x")
    with pytest.raises(StoreLocationError) as info:
        check_location(str(tmp_path / "plain" / "a.db"))
    assert str(info.value) == f"{tmp_path / 'plain'} is not a folder"


@pytest.mark.parametrize(
    "location",
    [":memory:", "sqlite://", "postgresql://me@db/approvals", "postgres://db/a", "notes:v2.db"],
)
def test_usable_locations_pass(
    location: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    check_location(location)
    check_location(str(tmp_path / "approvals.db"))
    check_location(f"sqlite:///{tmp_path / 'approvals.db'}")
    check_location("relative.db")


async def test_a_plain_path_in_an_existing_folder_opens(tmp_path: Path) -> None:
    backend = open_store(str(tmp_path / "approvals.db"))
    assert isinstance(backend, ApprovalStore)
    assert await backend.list_remembered() == []
    await backend.aclose()
    assert (tmp_path / "approvals.db").is_file()


def test_the_environment_variable_is_checked_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STORE_ENV, "postgressql://db/a")
    with pytest.raises(StoreLocationError) as info:
        environment_store()
    assert str(info.value).startswith(
        f"${STORE_ENV}: unknown store scheme 'postgressql://' (did you mean postgresql://?)"
    )
    with pytest.raises(StoreLocationError, match=rf"^\${STORE_ENV}: unknown store scheme"):
        open_store(None)


@pytest.mark.parametrize(
    ("store", "problem"),
    [
        (
            "postgressql://db/a",
            f"unknown store scheme 'postgressql://' (did you mean postgresql://?); {FORMS}",
        ),
        (
            "missing/approvals.db",
            "the folder {dir}/missing does not exist (create it, or name a file elsewhere)",
        ),
    ],
)
def test_a_bundle_store_names_file_line_and_key(tmp_path: Path, store: str, problem: str) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(f"bundle: {{name: b}}\nsession:\n  approvals:\n    store: {store}\n")
    with pytest.raises(BundleError) as info:
        load_bundle(path)
    expected = problem.format(dir=os.path.realpath(tmp_path))
    assert str(info.value) == f"{display_path(path)}:4: session.approvals.store: {expected}"
    assert list(tmp_path.iterdir()) == [path]


def test_a_bundle_store_in_an_existing_folder_loads(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text("session:\n  approvals:\n    store: approvals.db\n")
    assert load_bundle(path).session.approvals.store == str((tmp_path / "approvals.db").resolve())


def test_the_default_path_follows_the_environment_each_time_it_is_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`default_store_path` keeps what it built per ($XDG_STATE_HOME, $HOME), so a change
    of either (or $HOME unset) gives the new place, never the remembered one."""
    from amplifier_hooks.approvals.store import default_store_path, records

    monkeypatch.setenv("HOME", str(tmp_path / "a"))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    first = default_store_path()
    assert first == tmp_path / "a" / ".local/state/amplifier-hooks/approvals.db"
    assert default_store_path() == first
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert default_store_path() == tmp_path / "state/amplifier-hooks/approvals.db"
    monkeypatch.setenv("XDG_STATE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "b"))
    assert default_store_path() == tmp_path / "b" / ".local/state/amplifier-hooks/approvals.db"
    monkeypatch.delenv("HOME")
    assert default_store_path() == Path.home() / ".local/state/amplifier-hooks/approvals.db"
    for n in range(100):  # bounded however many homes are seen
        monkeypatch.setenv("HOME", str(tmp_path / str(n)))
        assert default_store_path().parent.parent.parent.parent == tmp_path / str(n)
    assert records._kept_store_path.cache_info().currsize <= 16
