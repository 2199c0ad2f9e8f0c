"""A repository inside a folder git ignores holds work of its own: deleting the folder is
asked, though its name says an install makes it again. Judged on real repositories the
tests make (`guard/nestedrepos.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy
from amplifier_hooks.guard.nestedrepos import BUDGET, Budget, nested_repository
from tests.guard.conftest import committed, git, judged_in, project_places, write


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ignored: ``vendor/`` (``vendor/lib`` a repository with a change), ``.venv/`` (an
    editable install's checkout ``.venv/src/pkg``), ``build/`` and ``node_modules/`` (no
    repository inside), ``tools/`` (a repository itself)."""
    top = tmp_path_factory.mktemp("nested") / "project"
    write(top / ".gitignore", "vendor/\n.venv/\nbuild/\nnode_modules/\ntools/\n")
    write(top / "app.py", "app = 1\n")
    committed(top)
    for inner in ("vendor/lib", ".venv/src/pkg", "tools"):
        write(top / inner / "code.py", "mine\n")
        git(top, "init", "-q", str(top / inner))
    write(top / ".venv" / "lib" / "site.py", "installed\n")
    write(top / "build" / "out" / "app.o", "built\n")
    for index in range(50):
        write(top / "node_modules" / f"pkg{index}" / "index.js", "module\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


@pytest.mark.parametrize(
    "command",
    ["rm -rf vendor", "rm -rf vendor/lib", "rm -rf .venv", "rm -rf tools",
     "rm -rf build vendor", "find vendor -delete"],
)  # fmt: skip
def test_a_repository_inside_an_ignored_folder_is_asked(
    command: str, pack: Policy, places: Places
) -> None:
    verdict = judged_in(command, pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "rm-loses-work"), verdict.pieces


@pytest.mark.parametrize(
    "command", ["rm -rf build", "rm -rf node_modules", "rm -rf .venv/lib", "rm -rf build/out"]
)
def test_ignored_folders_with_no_repository_stay_granted(
    command: str, pack: Policy, places: Places
) -> None:
    assert judged_in(command, pack, places).decision == "allow"


def test_the_walk_is_bounded(project: Path) -> None:
    vendor = str(project / "vendor")
    assert nested_repository(vendor, Budget()) == str(project / "vendor" / "lib")
    assert nested_repository(str(project / "tools"), Budget(0)) == str(project / "tools")
    spent = Budget(0)
    assert nested_repository(vendor, spent) is None  # past the budget: none found ...
    assert spent.left < 0  # ... and the budget says so (`repo._nested`: no facts)
    assert nested_repository(str(project / "node_modules"), Budget()) is None
    assert nested_repository(str(project / "missing"), Budget()) is None


def test_an_ignored_folder_too_large_to_look_through_is_not_granted(
    tmp_path: Path, pack: Policy
) -> None:
    """Past the budget a repository may lie in what was left unread: git's facts for the
    call are none, so its delete is not granted (a small one beside it still is)."""
    top = tmp_path / "project"
    write(top / ".gitignore", "vendor/\nbuild/\nnode_modules/\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    for index in range(BUDGET + 8):
        write(top / "vendor" / f"f{index}.js", "")
        (top / "node_modules" / f"pkg{index}").mkdir(parents=True)
    write(top / "vendor" / "zz" / "mine" / "code.js", "mine\n")
    git(top, "init", "-q", str(top / "vendor" / "zz" / "mine"))
    write(top / "build" / "out.o", "built\n")
    places = Places.of(top, home=tmp_path / "home")
    assert judged_in("rm -rf vendor", pack, places).decision is None
    assert judged_in("rm -rf node_modules", pack, places).decision is None  # packages past it
    assert judged_in("rm -rf build", pack, places).decision == "allow"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose ignored ``node_modules`` is as an install leaves it: 1500 packages
    (200 of them scoped), each with folders and files of its own: far more entries than
    `BUDGET`, as a real one has."""
    top = tmp_path_factory.mktemp("installed") / "project"
    write(top / ".gitignore", "node_modules/\n")
    committed(top)
    for index in range(1500):
        name = f"@scope{index % 20}/pkg{index}" if index < 200 else f"pkg{index}"
        for inner in ("package.json", "index.js", "lib/a.js", "lib/util/b.js"):
            write(top / "node_modules" / name / inner, "module\n")
    (top / "node_modules" / ".bin").mkdir()
    return top


def test_a_large_installed_node_modules_is_granted(installed: Path, pack: Policy) -> None:
    """Its packages' own folders are past the budget, but only package managers write
    there, and none keeps a ``.git`` (`nestedrepos`): each package is looked at alone."""
    places = Places.of(installed, home=installed.parent / "home")
    assert judged_in("rm -rf node_modules", pack, places).decision == "allow"
    budget = Budget()
    assert nested_repository(str(installed / "node_modules"), budget) is None
    assert budget.left >= 0


@pytest.fixture
def with_clone(tmp_path: Path) -> Path:
    """A project with a large ``node_modules`` and an origin repository to clone in it."""
    origin = tmp_path / "origin"
    write(origin / "index.js", "module.exports = 1\n")
    git(tmp_path, "init", "-q", str(origin))
    git(origin, "add", ".")
    git(origin, "commit", "-qm", "lib")
    top = tmp_path / "project"
    write(top / ".gitignore", "node_modules/\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    for index in range(1200):
        for inner in ("package.json", "lib/a.js", "lib/util/b.js"):
            write(top / "node_modules" / f"pkg{index}" / inner, "module\n")
    return top


@pytest.mark.parametrize("where", ["zlib-fork", "@me/zlib-fork", "pkg7"])
def test_a_clone_into_node_modules_with_a_change_is_asked(
    with_clone: Path, pack: Policy, where: str
) -> None:
    """A person's clone of a package (``node_modules/<pkg>``, ``@scope/<pkg>``), with a
    change of theirs, among a large install."""
    clone = with_clone / "node_modules" / where
    if clone.exists():
        for child in sorted(clone.rglob("*"), reverse=True):
            child.unlink() if child.is_file() else child.rmdir()
        clone.rmdir()
    clone.parent.mkdir(parents=True, exist_ok=True)
    git(with_clone.parent, "clone", "-q", str(with_clone.parent / "origin"), str(clone))
    write(clone / "index.js", "module.exports = 2\n")
    places = Places.of(with_clone, home=with_clone.parent / "home")
    for command in ("rm -rf node_modules", f"rm -rf node_modules/{where}"):
        verdict = judged_in(command, pack, places)
        assert (verdict.decision, verdict.rule) == ("ask", "rm-loses-work"), command


def test_a_worktree_in_node_modules_is_asked(with_clone: Path, pack: Policy) -> None:
    """A linked worktree's ``.git`` is a file: it counts as a repository too."""
    origin = with_clone.parent / "origin"
    git(origin, "worktree", "add", "-q", str(with_clone / "node_modules" / "@me" / "wt"))
    places = Places.of(with_clone, home=with_clone.parent / "home")
    verdict = judged_in("rm -rf node_modules", pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "rm-loses-work")


def test_below_a_package_only_package_managers_write(with_clone: Path) -> None:
    """What is looked at in a ``node_modules``: itself and each package folder
    (``pkg``, ``@scope/pkg``), never a package's own folders (no install keeps a ``.git``
    there), and symlinks not at all (a delete does not follow them)."""
    modules = with_clone / "node_modules"
    (modules / "pkg3" / "node_modules" / "dep" / ".git").mkdir(parents=True)
    (modules / "linked").symlink_to(with_clone.parent / "origin")
    assert nested_repository(str(modules), Budget()) is None
    (modules / ".git").write_text("gitdir: elsewhere\n")
    assert nested_repository(str(modules), Budget()) == str(modules)


@pytest.fixture(scope="module")
def outer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``inner/``: a repository of its own, clean, with a commit only it has (untracked by
    this one); ``sub/``: a submodule with a change and an untracked file; ``lib/``: a clean
    submodule."""
    base = tmp_path_factory.mktemp("outer")
    for name in ("sub-origin", "lib-origin"):
        write(base / name / "lib.py", "lib = 1\n")
        git(base, "init", "-q", str(base / name))
        git(base / name, "add", ".")
        git(base / name, "commit", "-qm", "lib")
    top = base / "project"
    write(top / "app.py", "app = 1\n")
    git(base, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    for name in ("sub", "lib"):
        git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
            str(base / f"{name}-origin"), name)  # fmt: skip
    git(top, "commit", "-qm", "submodules")
    write(top / "sub" / "lib.py", "changed in the submodule\n")
    write(top / "sub" / "new.py", "untracked in the submodule\n")
    write(top / "inner" / "code.py", "inner = 1\n")
    git(top, "init", "-q", str(top / "inner"))
    git(top / "inner", "add", ".")
    git(top / "inner", "commit", "-qm", "only here")
    return top


@pytest.mark.parametrize(
    ("command", "rule"),
    [("rm -rf inner", "rm-loses-work"), ("rm -rf inner/", "rm-loses-work"),
     ("rm -rf ./inner", "rm-loses-work"), ("find inner -delete", "rm-loses-work"),
     ("git rm -f sub", "git-loses-work"), ("git rm -rf sub", "git-loses-work"),
     ("rm -rf sub", "rm-loses-work")],
)  # fmt: skip
def test_a_repository_deleted_whole_or_a_submodule_with_changes_is_asked(
    command: str, rule: str, pack: Policy, outer: Path
) -> None:
    places = Places.of(outer, home=outer.parent / "home")
    verdict = judged_in(command, pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", rule), verdict.pieces


@pytest.mark.parametrize("command", ["rm inner/code.py", "git rm -f lib", "rm app.py"])
def test_what_a_repository_gives_back_stays_granted(
    command: str, pack: Policy, outer: Path
) -> None:
    places = Places.of(outer, home=outer.parent / "home")
    assert judged_in(command, pack, places).decision == "allow"
