"""The files a build, test or install tool runs of its own accord, and the code they hold.

``npm install`` runs ``package.json``'s ``postinstall``, ``make`` a Makefile's recipes,
``pytest`` every ``conftest.py``, ``pip install .`` ``setup.py``, ``go generate`` each
``//go:generate`` line, ``bundle`` the ``Gemfile``, Rails ``config/initializers``,
``husky`` its hook scripts, ``docker compose up`` a compose file's services. `runs_later`
names such a file by its name and place; `planted_code` gives the code its text holds, in
the language the guard reads it with (`planted` judges it).
"""

from __future__ import annotations

import posixpath
import re
import textwrap
from collections.abc import Callable
from itertools import islice
from typing import NamedTuple

from amplifier_hooks.guard.buildrs import build_rs_code
from amplifier_hooks.guard.cargotoml import cargo_sources
from amplifier_hooks.guard.ciconfigs import yaml_scripts
from amplifier_hooks.guard.compose import compose_runs
from amplifier_hooks.guard.docsources import python_tag_commands
from amplifier_hooks.guard.gitconfigfile import git_config_settings
from amplifier_hooks.guard.justrecipes import just_recipes
from amplifier_hooks.guard.jvmoptions import agent_commands
from amplifier_hooks.guard.laterfiles import later_runner, windows_name
from amplifier_hooks.guard.laterlisters import LISTERS as LATER_LISTERS
from amplifier_hooks.guard.makefiles import fetched_includes, recipes
from amplifier_hooks.guard.mobilebuild import (
    FETCHED_SCRIPT,
    fastfile_code,
    gradle_code,
    pbxproj_code,
    podfile_code,
    wrapper_code,
    xcscheme_code,
)
from amplifier_hooks.guard.pmconfig import npmrc_settings, yarnrc_settings, yarnrc_yml_settings
from amplifier_hooks.guard.procfiles import procfile_commands
from amplifier_hooks.guard.spelledcode import (
    app_command,
    backend_commands,
    hcl_commands,
    manifest_scripts,
    spelled,
)
from amplifier_hooks.guard.supplycode import maven_wrapper_code, msbuild_code
from amplifier_hooks.guard.sysbuild import (
    bazelrc_code,
    cargo_config_code,
    cmake_code,
    meson_code,
)
from amplifier_hooks.guard.taskfiles import local_hooks, task_commands
from amplifier_hooks.guard.toxfiles import tox_commands
from amplifier_hooks.guard.unreadscripts import LISTED

__all__ = [
    "MAX_TEXT",
    "PLANTED",
    "PROC_MACRO",
    "Runner",
    "go_generate",
    "planted_code",
    "proc_macro",
    "runs_later",
]

PLANTED = "@planted"
"""The mark of a piece read from code a write plants for a tool to run later (here, where
the files that run it are known; `planted` judges it)."""

MAX_TEXT = 256 * 1024
"""Longer text is not read (the write is not granted either way)."""


class Runner(NamedTuple):
    """What runs a file's code later: its ``language`` as the guard reads it (``shell``,
    ``scripts``: a JSON manifest's scripts, ``make``, ``compose``: a compose file's
    services, ``pre-commit``: its local hooks, ``vscode-tasks``: the tasks run when the
    folder opens, ``npmrc``, ``yarnrc``, ``yarnrc-yml``: a package manager's settings,
    ``gitconfig``: git's settings, as the ``git config`` commands they are,
    ``jvm-options``: a JVM's options, its agents as ``java -javaagent:`` (`jvmoptions`),
    ``cmake``, ``meson``, ``build-rs``, ``cargo-config``, ``bazelrc``: systems build files
    whose commands are read (`sysbuild`),
    ``goreleaser``: the hooks of goreleaser's YAML, ``procfile``: a Procfile's process
    lines (`procfiles`),
    ``gradle``: a build script whose literal commands and URLs are judged,
    ``pyproject``: what it spells out and its in-tree build backend (`spelledcode`),
    ``cargo-toml``: a manifest's spelled-out programs and git sources, ``podfile``,
    ``fastfile``, ``xcscheme``, ``pbxproj``, ``gradle-wrapper``: mobile build files
    (`mobilebuild`),
    ``rake``: Ruby with Rake's ``sh``,
    ``python``, ``javascript``, ``ruby``, ``perl``; ``""``: a language the guard
    cannot read) and the ``tool`` that runs it."""

    language: str
    tool: str


_BY_NAME = {
    "package.json": Runner("scripts", "npm"),
    ".envrc": Runner("shell", "direnv"),
    ".pre-commit-config.yaml": Runner("pre-commit", "pre-commit"),
    "composer.json": Runner("scripts", "composer"),
    "Makefile": Runner("make", "make"),
    "makefile": Runner("make", "make"),
    "GNUmakefile": Runner("make", "make"),
    "setup.py": Runner("python", "pip"),
    "conftest.py": Runner("python", "pytest"),
    "noxfile.py": Runner("python", "nox"),
    "hatch_build.py": Runner("python", "hatch"),
    "Gemfile": Runner("ruby", "bundler"),
    "Rakefile": Runner("rake", "rake"),
    "Makefile.PL": Runner("perl", "perl Makefile.PL"),
    "Build.PL": Runner("perl", "perl Build.PL"),
    ".pnpmfile.cjs": Runner("javascript", "pnpm"),
    "gulpfile.js": Runner("javascript", "gulp"),
    "Gruntfile.js": Runner("javascript", "grunt"),
    "build.rs": Runner("build-rs", "cargo"),
    "Cargo.toml": Runner("cargo-toml", "cargo"),
    "build.gradle": Runner("gradle", "gradle"),
    "build.gradle.kts": Runner("gradle", "gradle"),
    "settings.gradle": Runner("gradle", "gradle"),
    "settings.gradle.kts": Runner("gradle", "gradle"),
    "gradle.properties": Runner("", "gradle"),
    "pom.xml": Runner("", "maven"),
    "pyproject.toml": Runner("pyproject", "pip"),
    "CMakeLists.txt": Runner("cmake", "cmake"),
    "Makefile.am": Runner("make", "make install (automake copies its rules)"),
    "meson.build": Runner("meson", "meson"),
    ".bazelrc": Runner("bazelrc", "bazel"),
    "user.bazelrc": Runner("bazelrc", "bazel"),
    "justfile": Runner("just", "just"),
    "Justfile": Runner("just", "just"),
    ".justfile": Runner("just", "just"),
    "Taskfile.yml": Runner("yaml-scripts", "task"),
    "lefthook.yml": Runner("yaml-scripts", "lefthook"),
    ".lefthook.yml": Runner("yaml-scripts", "lefthook"),
    ".yarnrc.yml": Runner("yarnrc-yml", "yarn"),
    ".yarnrc": Runner("yarnrc", "yarn"),
    ".npmrc": Runner("npmrc", "npm"),
    "tox.ini": Runner("tox", "tox"),
    # its `app` command runs at every `cdk synth`, `diff` and `deploy`
    "cdk.json": Runner("cdk-app", "cdk (its app command, at every synth and deploy)"),
    "terragrunt.hcl": Runner("hcl", "terragrunt (its hooks, at every plan and apply)"),
    # Groovy, run at every `nextflow run` (`workflow.onComplete`, a string's `.execute()`)
    "nextflow.config": Runner("gradle", "nextflow (its configuration, at every run)"),
    # `release:` runs on every deploy against the production database, the rest start there
    "Procfile": Runner("procfile", "the platform, on the next deploy (Heroku, Dokku)"),
    "Podfile": Runner("podfile", "CocoaPods (pod install)"),
    "Fastfile": Runner("fastfile", "fastlane"),
    "project.pbxproj": Runner("pbxproj", "Xcode (a run-script build phase)"),
    "gradle-wrapper.properties": Runner("gradle-wrapper", "the Gradle wrapper (./gradlew)"),
    "gradle-wrapper.jar": Runner("", "the Gradle wrapper (./gradlew)"),
    ".gitconfig": Runner("gitconfig", "git"),
    "maven-wrapper.properties": Runner("maven-wrapper", "the Maven wrapper (./mvnw)"),
    "Directory.Build.props": Runner("msbuild", "MSBuild (every project's build below it)"),
    "Directory.Build.targets": Runner("msbuild", "MSBuild (every project's build below it)"),
    # its hooks run wherever goreleaser runs: `goreleaser release --snapshot` here too
    # the build wrappers themselves: every `./gradlew build` and `./mvnw test` runs them
    "gradlew": Runner("shell", "the Gradle wrapper (./gradlew)"),
    "mvnw": Runner("shell", "the Maven wrapper (./mvnw)"),
    "gradlew.bat": Runner("", "the Gradle wrapper (gradlew.bat)"),
    "mvnw.cmd": Runner("", "the Maven wrapper (mvnw.cmd)"),
    # Yarn's own code: every yarn command runs the release `yarnPath` names, its plugins,
    # and Plug'n'Play's loader (every node run under it)
    ".pnp.cjs": Runner("javascript", "yarn (Plug'n'Play: every node run under yarn)"),
    ".pnp.loader.mjs": Runner("javascript", "yarn (Plug'n'Play: every node run under yarn)"),
    # Python imports these at every start where they are on the path
    "sitecustomize.py": Runner("python", "Python (at every start, where it is on the path)"),
    "usercustomize.py": Runner("python", "Python (at every start, where it is on the path)"),
    # the REPLs and debuggers run the rc file of the folder they start in
    ".pryrc": Runner("ruby", "pry, started here"),
    ".irbrc": Runner("ruby", "irb, started here"),
    ".pdbrc": Runner("", "pdb, started here (pytest --pdb too)"),
    # the environment managers a shell runs on entering the folder, or `nix develop` runs
    "mise.toml": Runner("mise", "mise (its hooks and tasks, on entering the folder)"),
    ".mise.toml": Runner("mise", "mise (its hooks and tasks, on entering the folder)"),
    "mise.local.toml": Runner("mise", "mise (its hooks and tasks, on entering the folder)"),
    # distribution packaging: the recipe is shell the package build runs, and it names the
    # sources and their checksums (`sha256sums=('SKIP')` takes the check away)
    "PKGBUILD": Runner("", "makepkg (its functions are shell)"),
    "APKBUILD": Runner("", "abuild (its functions are shell)"),
    "flake.nix": Runner("", "nix develop (its shellHook; direnv's use flake too)"),
    "shell.nix": Runner("", "nix-shell (its shellHook)"),
    "devenv.nix": Runner("", "devenv (its scripts and enterShell)"),
    # test runners' settings that name modules to load before every run
    "bunfig.toml": Runner("", "bun (its preload scripts)"),
    "karma.conf.js": Runner("javascript", "karma"),
    ".goreleaser.yml": Runner("goreleaser", "goreleaser"),
    ".goreleaser.yaml": Runner("goreleaser", "goreleaser"),
    "goreleaser.yml": Runner("goreleaser", "goreleaser"),
    "goreleaser.yaml": Runner("goreleaser", "goreleaser"),
}  # fmt: skip
"""Files a build, test or install tool runs (or reads the command to run from) by name."""
_BY_LOWER = {name.lower(): runner for name, runner in _BY_NAME.items()}
_LIFECYCLE = frozenset(
    {"preinstall", "postinstall", "prepare", "prepublish", "prepublishonly",
     "prepack", "postpack", "preuninstall", "postuninstall"}
)  # fmt: skip
"""npm's install and publish lifecycle: a script file named so is one npm runs."""
_COMPOSE = re.compile(r"^(?:docker-)?compose(?:\.[\w.-]+)?\.ya?ml$")
_JS_CONFIG = re.compile(r"\.config\.(?:js|cjs|mjs)$")
_TS_CONFIG = re.compile(r"\.config\.(?:ts|cts|mts)$")
_JS_RC = re.compile(r"^\.[\w-]+rc\.(?:js|cjs|mjs)$")
"""A tool's settings as a JavaScript module, which it runs: ``.eslintrc.js``,
``.prettierrc.cjs``, ``.babelrc.js``, ``.mocharc.js``, ``.lintstagedrc.mjs``."""
_MOCHA_RC = re.compile(r"^\.mocharc\.(?:ya?ml|json|jsonc)$")
_TEST_SETUP = re.compile(
    r"^(?:global[-_.]?(?:setup|teardown)|(?:jest|vitest|playwright)\.(?:setup|teardown)"
    r"|setup[-_.]?tests?)\.[cm]?[jt]sx?$",
    re.IGNORECASE,
)
"""The files a JavaScript test runner runs before (or after) every test run, as pytest
runs ``conftest.py``: Playwright's and Jest's ``globalSetup`` (``global-setup.ts``),
``jest.setup.js``, ``vitest.setup.ts``, Create React App's ``setupTests.ts``."""


_VENVS = frozenset({".venv", "venv"})
"""The folders a project's virtual environment is made in by convention: what is in its
``bin`` runs whenever its program is called by name (with the environment active, or by
``uv run``, ``poetry run``, an IDE's test runner)."""

_HOST_ENV_FILES = frozenset({"$CLAUDE_ENV_FILE", "${CLAUDE_ENV_FILE}"})
"""The env file a host sources before each shell call it runs (its exports reach every
later command, an agent CLI and its hooks among them)."""


def runs_later(path: str) -> Runner | None:
    """What runs the code in the file at ``path`` (resolved or as given) later, without
    showing it to the person first; None: no tool runs it of its own accord. Names are
    compared in lower case: macOS and Windows ignore case by default, so ``PACKAGE.JSON``
    and ``.VSCode/tasks.json`` are the files npm and VS Code read there."""
    folder, given = posixpath.split(path)
    name = windows_name(given)
    found = _BY_LOWER.get(name)
    if found is not None:
        return found
    if given in _HOST_ENV_FILES:  # a variable's name: the file it names is not known
        return Runner("shell", "Claude Code, before every shell call")
    parent = posixpath.basename(folder).lower()
    if parent == ".husky":
        return Runner("shell", "husky")
    if parent == ".mvn" and name == "jvm.config":  # every mvn's JVM: its agents
        return Runner("jvm-options", "maven (its JVM, at every mvn or ./mvnw)")
    if parent == ".vscode" and name == "tasks.json":
        return Runner("vscode-tasks", "VS Code (a task, when started or at the folder's opening)")
    grandparent = posixpath.basename(posixpath.dirname(folder)).lower()
    if parent == "hooks" and grandparent == ".git":
        return Runner("shell", "git")
    if name == "config" and (parent == ".git" or (parent == "git" and grandparent == ".config")):
        return Runner("gitconfig", "git")  # .git/config, ~/.config/git/config
    if name in ("activate", "activate.sh") and parent == "bin":
        return Runner("shell", "the virtual environment's activate")
    if parent in ("bin", "scripts") and grandparent in _VENVS:  # `pytest`, `pip`, `python`
        return Runner("python", "the virtual environment (its programs, run by name)")
    if name.endswith(".xcscheme"):
        return Runner("xcscheme", "Xcode (a scheme's pre- or post-action)")
    if name.endswith(".cmake"):
        return Runner("cmake", "cmake")
    if name.endswith(".bazelrc"):
        return Runner("bazelrc", "bazel")
    if parent == ".cargo" and name in ("config.toml", "config"):
        return Runner("cargo-config", "cargo")
    if name.endswith(".mk"):
        return Runner("make", "make")
    if name.endswith((".tf", ".tf.json", ".tofu")):  # `data "external"` runs at plan
        return Runner("hcl", "terraform (external data programs at plan, local-exec at apply)")
    if name.endswith(".spec"):  # an RPM recipe's sections are shell; PyInstaller's is Python
        return Runner("", "rpmbuild or pyinstaller")
    if name.endswith(".ebuild"):
        return Runner("", "portage (its phases are shell)")
    if parent == "debian" and name == "rules":
        return Runner("", "dpkg-buildpackage (debian/rules is a makefile)")
    if name.endswith(".rake"):  # lib/tasks/*.rake: Rake's tasks, its `sh` included
        return Runner("rake", "rake")
    if name.endswith(".gemspec"):
        return Runner("ruby", "gem")
    if name.endswith(".rb") and (
        folder.endswith("config/initializers")
        or (folder.endswith("/config") and name in ("application.rb", "environment.rb", "boot.rb"))
    ):
        return Runner("ruby", "rails")
    if name.endswith(".sh") and name[:-3] in _LIFECYCLE:
        return Runner("shell", "npm")
    if _JS_CONFIG.search(name) or _JS_RC.match(name):
        return Runner("javascript", "the tool it configures")
    if _MOCHA_RC.match(name):  # its `require:` modules load before every test run
        return Runner("", "mocha")
    if parent == "releases" and name.endswith(".cjs") and "/.yarn/" in path:
        return Runner("javascript", "yarn (every yarn command, by its yarnPath)")
    if "/.yarn/plugins/" in path and name.endswith((".cjs", ".js")):
        return Runner("javascript", "yarn (every yarn command)")
    if parent == ".storybook" and name.endswith((".js", ".cjs", ".mjs", ".ts")):
        return Runner("javascript", "storybook")
    if _COMPOSE.match(name):
        return Runner("compose", "docker compose")
    if _TS_CONFIG.search(name):  # read as JavaScript when it parses as such (no types)
        return Runner("javascript", "the tool it configures")
    if _TEST_SETUP.match(name):
        return Runner("javascript", "the test runner (at every test run)")
    later = later_runner(folder, given)
    return None if later is None else Runner(later.language, later.tool)


# -- the code a text holds, by language ----------------------------------------------------

_GENERATE = re.compile(r"^//go:generate[ \t]+(.+)$", re.MULTILINE)
PROC_MACRO = Runner("build-rs", "cargo (a proc macro: the compiler runs it at every build)")
"""What runs a Rust text that defines a proc macro (``#[proc_macro_derive]``): the compiler,
at every build of a crate that uses it, as it runs a ``build.rs``."""


def proc_macro(path: str, text: str) -> bool:
    """``text`` written into ``path`` is (or edits) a Rust proc macro: code the compiler
    runs, unseen, at every ``cargo build``, ``cargo test`` and IDE check."""
    return path.endswith(".rs") and "proc_macro" in text


def planted_code(runner: Runner, text: str) -> list[tuple[str, str]] | None:
    """The code in ``text`` that ``runner`` runs, as (language, code) pairs (``shell``
    scripts, or a reader's language), at most `unreadscripts.LISTED` of them (one more
    than are read: `unreadscripts.read_first` tells the rest is unread); None: it cannot
    be read."""
    if len(text) > MAX_TEXT:
        return None
    language = runner.language
    if not language:  # not read; the programs it names with their words are judged
        return [("shell", c) for c in spelled(text)][:LISTED] or None
    if language == "scripts":
        return [("shell", s) for s in manifest_scripts(text)][:LISTED]
    if language == "make":
        # the recipes past the last kept are never read (a 20 KB Makefile: 700 expanded)
        # `-include $(shell curl -so .mk URL; echo .mk)`: make runs what the URL serves
        fetched = [(FETCHED_SCRIPT, url) for url in fetched_includes(text)]
        return [*fetched, *(("shell", s) for s in islice(recipes(text), LISTED))][:LISTED]
    if language == "cargo-toml":  # the programs it spells out; the git sources it fetches
        return ([("shell", c) for c in spelled(text)] + cargo_sources(text))[:LISTED] or None
    if language == "mkdocs":  # its Python tags (`docsources`), then the programs it names
        return [("shell", c) for c in python_tag_commands(text) + spelled(text)][:LISTED] or None
    if language == "pyproject":  # what it spells out; its in-tree backend's import
        return [("shell", c) for c in spelled(text) + backend_commands(text)][:LISTED] or None
    if language == "gradle":  # not read; what its literals spell out is judged
        return ([("shell", c) for c in spelled(text)] + gradle_code(text))[:LISTED] or None
    mobile = _MOBILE.get(language)
    if mobile is not None:
        return mobile(text)[:LISTED]
    listed = _LISTERS.get(language)
    if listed is not None:
        found = listed(text)
        return None if found is None else [("shell", s) for s in found][:LISTED]
    return [(language, textwrap.dedent(text))]


_LISTERS: dict[str, Callable[[str], list[str] | None]] = {
    "compose": compose_runs,
    "pre-commit": local_hooks,
    "vscode-tasks": task_commands,
    "npmrc": npmrc_settings,
    "yarnrc": yarnrc_settings,
    "yarnrc-yml": yarnrc_yml_settings,
    "gitconfig": git_config_settings,
    "jvm-options": lambda text: agent_commands(text) or None,  # other options: unread
    "cmake": cmake_code,
    "meson": meson_code,
    "build-rs": build_rs_code,
    "cargo-config": cargo_config_code,
    "bazelrc": bazelrc_code,
    "goreleaser": yaml_scripts,
    "just": just_recipes,
    "yaml-scripts": yaml_scripts,
    **LATER_LISTERS,
    "procfile": procfile_commands,
    "tox": tox_commands,
    "hcl": hcl_commands,
    "cdk-app": app_command,
}
"""Readers of the commands a configuration file makes its tool run."""
_MOBILE: dict[str, Callable[[str], list[tuple[str, str]]]] = {
    "podfile": podfile_code,
    "fastfile": fastfile_code,
    "xcscheme": xcscheme_code,
    "pbxproj": pbxproj_code,
    "gradle-wrapper": wrapper_code,
    "maven-wrapper": maven_wrapper_code,
    "msbuild": msbuild_code,
}
"""Readers of mobile build files (`mobilebuild`): their code, by language."""


def go_generate(text: str) -> list[tuple[str, str]]:
    """The commands of ``//go:generate`` lines in Go source (``go generate`` runs each as
    a program and its words, ``$HOME`` and the like expanded: read as a shell's)."""
    if "//go:generate" not in text or len(text) > MAX_TEXT:
        return []
    return [("shell", line) for line in _GENERATE.findall(text)][:LISTED]
