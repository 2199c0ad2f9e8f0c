"""More files a tool runs the code of later, of its own accord: task runners, hook
managers, environment managers, Ruby DSL files, JavaScript tools' rc files, MSBuild
projects, deploy platforms' build files, REPL and debugger start-up files in the project.

`buildfiles.runs_later` asks here for a name it does not know. A write of such a file is
never granted (its text is code or commands that run when the person next runs the tool,
or opens the folder, with what the guard sees now no longer true); where the guard has a
reader for its language (Ruby, JavaScript, MSBuild, Python) the text is judged too
(`planted`). Names are compared in lower case: on macOS and Windows, whose file systems
ignore case by default, ``Vagrantfile`` and ``VAGRANTFILE`` are one file.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from amplifier_hooks.guard.fleetcode import fleet_system

__all__ = [
    "CREDENTIAL_FOLDERS",
    "CREDENTIAL_NAMES",
    "CREDENTIAL_STEMS",
    "Later",
    "is_short_name",
    "later_runner",
    "windows_name",
]


class Later(NamedTuple):
    """The language the guard reads the file's code with (``""``: none) and the tool
    that runs it (the same fields as `buildfiles.Runner`)."""

    language: str
    tool: str


_BY_NAME = {
    # task runners and hook managers: each runs the commands the file lists
    "taskfile.yaml": Later("yaml-scripts", "task"),
    "taskfile.dist.yml": Later("yaml-scripts", "task"),
    "taskfile.dist.yaml": Later("yaml-scripts", "task"),
    "lefthook.yaml": Later("yaml-scripts", "lefthook (at every git commit or push)"),
    ".lefthook.yaml": Later("yaml-scripts", "lefthook (at every git commit or push)"),
    "lefthook.json": Later("yaml-scripts", "lefthook (at every git commit or push)"),
    "lefthook.toml": Later("", "lefthook (at every git commit or push)"),
    "lefthook-local.yml": Later("yaml-scripts", "lefthook (at every git commit or push)"),
    "lefthook-local.yaml": Later("yaml-scripts", "lefthook (at every git commit or push)"),
    ".lefthook-local.yml": Later("yaml-scripts", "lefthook (at every git commit or push)"),
    ".lefthook-local.yaml": Later("yaml-scripts", "lefthook (at every git commit or push)"),
    "nodemon.json": Later("", "nodemon (its exec and event commands)"),
    "deno.json": Later("", "deno task"),
    "deno.jsonc": Later("", "deno task"),
    "bunfig.toml": Later("", "bun (its preload scripts, before every bun run and bun test)"),
    "bsdmakefile": Later("", "make"),
    "sconstruct": Later("python", "scons"),
    "sconscript": Later("python", "scons"),
    "wscript": Later("python", "waf"),
    "tiltfile": Later("", "tilt (its local() commands at tilt up)"),
    ".gdbinit": Later("debugger-init", "gdb (started in the project, where it is trusted)"),
    ".lldbinit": Later("debugger-init", "lldb (started in the project, where it is trusted)"),
    "earthfile": Later("", "earthly"),
    "skaffold.yaml": Later("", "skaffold (its build hooks run on this machine)"),
    # environment managers: their hooks and shell code run at every cd or shell start
    "mise.toml": Later("", "mise (its hooks, tasks and env, at every cd into the folder)"),
    ".mise.toml": Later("", "mise (its hooks, tasks and env, at every cd into the folder)"),
    "mise.local.toml": Later("", "mise (its hooks, tasks and env, at every cd into the folder)"),
    ".mise.local.toml": Later("", "mise (its hooks, tasks and env, at every cd into the folder)"),
    "devbox.json": Later("", "devbox (its init_hook, at every devbox shell)"),
    "shell.nix": Later("", "nix-shell (its shellHook)"),
    "flake.nix": Later("", "nix develop (its shellHook), direnv's use flake"),
    "home.nix": Later("", "home-manager switch (its activation scripts and the files it links)"),
    "configuration.nix": Later("", "nixos-rebuild switch (runs as root)"),
    "darwin-configuration.nix": Later("", "darwin-rebuild switch (runs as root)"),
    "pyvenv.cfg": Later("", "the virtual environment's Python (which interpreter it starts)"),
    "rust-toolchain.toml": Later("", "rustup (a toolchain path, run for every cargo command)"),
    "rust-toolchain": Later("", "rustup (a toolchain path, run for every cargo command)"),
    # Ruby DSL files: Ruby code the tool evaluates
    "vagrantfile": Later("ruby", "vagrant"),
    "brewfile": Later("ruby", "brew bundle"),
    "guardfile": Later("ruby", "guard"),
    "dangerfile": Later("ruby", "danger"),
    "capfile": Later("ruby", "capistrano"),
    "berksfile": Later("ruby", "berkshelf"),
    "config.ru": Later("ruby", "rack (the application server)"),
    ".irbrc": Later("ruby", "irb, started in this folder"),
    ".pryrc": Later("ruby", "pry, started in this folder"),
    ".rspec": Later("", "rspec (its --require, at every run)"),
    ".rspec-local": Later("", "rspec (its --require, at every run)"),
    # start-up files a REPL, debugger or linter reads from the folder it starts in
    ".pdbrc": Later("", "pdb, started in this folder"),
    ".rprofile": Later("", "R, started in this folder"),
    # (its R_PROFILE_USER, R_LIBS and the like name the code R loads at start)
    ".renviron": Later("", "R, started in this folder"),
    ".pylintrc": Later("", "pylint (its init-hook, at every lint, an editor's included)"),
    "pylintrc": Later("", "pylint (its init-hook, at every lint, an editor's included)"),
    # deploy platforms and cloud workspaces: their commands run at the next build there
    "netlify.toml": Later("platform-build", "Netlify, at the next deploy"),
    "vercel.json": Later("platform-build", "Vercel, at the next deploy"),
    "fly.toml": Later("platform-build", "Fly.io (its release_command), at the next deploy"),
    "render.yaml": Later("platform-build", "Render, at the next deploy"),
    "render.yml": Later("platform-build", "Render, at the next deploy"),
    "railway.json": Later("platform-build", "Railway, at the next deploy"),
    "railway.toml": Later("platform-build", "Railway, at the next deploy"),
    "firebase.json": Later("platform-build", "firebase deploy (its predeploy hooks)"),
    ".gitpod.yml": Later("", "Gitpod, when a workspace starts"),
    ".replit": Later("", "Replit, at the next run"),
    # build systems whose files hold commands
    "configure.ac": Later("", "autotools (./configure)"),
    "configure.in": Later("", "autotools (./configure)"),
    "makefile.am": Later("", "make (through automake)"),
    "makefile.in": Later("", "make (through ./configure)"),
    "build.bazel": Later("", "bazel"),
    "workspace.bazel": Later("", "bazel"),
    "module.bazel": Later("", "bazel"),
    "build.sbt": Later("", "sbt"),
    "mix.exs": Later("", "mix"),
    "rebar.config": Later("", "rebar3 (its hooks)"),
    "setup.hs": Later("", "cabal"),
    # the other ecosystems' build and dependency files: what they run or fetch at the next
    # build (their dependency sources are read: `langsources`; their code is not)
    "project.clj": Later("", "leiningen (its :injections, hooks and plugins, every lein run)"),
    "profiles.clj": Later("", "leiningen (its profiles' :injections and plugins)"),
    "deps.edn": Later("", "the clojure CLI (its git deps and aliases)"),
    "cabal.project": Later("", "cabal (its source-repository-package sources)"),
    "cabal.project.local": Later("", "cabal (its source-repository-package sources)"),
    "stack.yaml": Later("", "stack (its extra-deps sources)"),
    "package.yaml": Later("", "stack and hpack (the package's build settings)"),
    "package.swift": Later("", "swift build (the manifest is Swift code; its packages' plugins)"),
    "pubspec.yaml": Later("", "dart pub (its git and hosted sources)"),
    "pubspec_overrides.yaml": Later("", "dart pub (its dependency overrides)"),
    "build.zig": Later("", "zig build (the build script is Zig code)"),
    "build.zig.zon": Later("", "zig build (where its dependencies are fetched from)"),
    "dune": Later("", "dune (its rules' actions, at every build)"),
    "dune-project": Later("", "dune (the project's build settings)"),
    "project.toml": Later("", "julia's Pkg (its [sources])"),
    "cpanfile": Later("", "cpanm (where every install fetches from)"),
    "extconf.rb": Later("ruby", "gem install (a native extension's build)"),
    "default.nix": Later("", "nix-build (its builders run at every build)"),
    "global.json": Later("", "dotnet (the SDK every dotnet command runs)"),
    ".jvmopts": Later("jvm-options", "sbt (its JVM, at every sbt run)"),
    ".sbtopts": Later("jvm-options", "sbt (its options and JVM, at every sbt run)"),
    "nuget.config": Later("", "NuGet (where every restore fetches packages from)"),
    "snakefile": Later("", "snakemake (its rules' shell and run blocks)"),
    "dvc.yaml": Later("yaml-scripts", "dvc repro (its stages' cmd)"),
    "mkdocs.yml": Later("mkdocs", "mkdocs (its hooks, at every build or serve)"),
    "mkdocs.yaml": Later("mkdocs", "mkdocs (its hooks, at every build or serve)"),
    # latexmk's settings are Perl it runs at every build, naming the command of each pass
    ".latexmkrc": Later("latexmkrc", "latexmk (at every build)"),
    "latexmkrc": Later("latexmkrc", "latexmk (at every build)"),
    # git hooks' managers kept in rc files: their commands run at every git commit
    ".lintstagedrc": Later("lint-staged", "lint-staged (its commands, at every git commit)"),
    ".lintstagedrc.json": Later("lint-staged", "lint-staged (its commands, at every git commit)"),
    ".lintstagedrc.yaml": Later("lint-staged", "lint-staged (its commands, at every git commit)"),
    ".lintstagedrc.yml": Later("lint-staged", "lint-staged (its commands, at every git commit)"),
    ".huskyrc": Later("", "husky (its hooks, at every git commit or push)"),
    ".huskyrc.json": Later("", "husky (its hooks, at every git commit or push)"),
    ".huskyrc.yaml": Later("", "husky (its hooks, at every git commit or push)"),
    ".huskyrc.yml": Later("", "husky (its hooks, at every git commit or push)"),
    ".devcontainer.json": Later("devcontainer", "the dev container (when built)"),
    # where the next install fetches packages from (as nuget.config above)
    "uv.toml": Later("", "uv (where every sync and install fetches packages from)"),
    "pdm.toml": Later("", "pdm (where every install fetches packages from)"),
    "poetry.toml": Later("", "poetry (its repositories, at every install)"),
    "pipfile": Later("", "pipenv (its sources, at every install; its scripts)"),
}  # fmt: skip
"""Files named so (in lower case) anywhere."""
_BY_ENDING = {
    ".sbt": Later("", "sbt"),
    ".cabal": Later("", "cabal (its build-type: Custom runs Setup.hs; its flags)"),
    ".opam": Later("", "opam (its build: and install: commands, pin-depends)"),
    ".rockspec": Later("", "luarocks (its build commands and source)"),
    ".nimble": Later("", "nimble (its tasks, as NimScript)"),
    ".bzl": Later("", "bazel"),
    ".csproj": Later("msbuild", "MSBuild (dotnet build)"),
    ".vbproj": Later("msbuild", "MSBuild (dotnet build)"),
    ".fsproj": Later("msbuild", "MSBuild (dotnet build)"),
    ".vcxproj": Later("msbuild", "MSBuild"),
    ".proj": Later("msbuild", "MSBuild"),
    ".targets": Later("msbuild", "MSBuild"),
    ".props": Later("msbuild", "MSBuild"),
    ".uproject": Later("unreal-steps", "Unreal's build (its pre- and post-build steps)"),
    ".uplugin": Later("unreal-steps", "Unreal's build (its pre- and post-build steps)"),
}
"""Files by their ending (in lower case)."""
_BY_FOLDER = {
    ".mvn": Later("", "maven (its extensions and options, at every mvn or ./mvnw)"),
    ".storybook": Later("javascript", "Storybook"),
    "_plugins": Later("ruby", "jekyll (its plugins, at every build or serve)"),
    "plugins": Later("", "yarn (every yarn command)"),  # .yarn/plugins
    "releases": Later("", "yarn (every yarn command)"),  # .yarn/releases
}
"""Files in a folder of that name; ``plugins`` and ``releases`` only inside ``.yarn``."""
_VENVS = frozenset({".venv", "venv"})
"""The folders a project's virtual environment is made in by convention."""
_JS_RC = re.compile(
    r"^(?:\.[\w-]+rc|[\w-]+\.conf|gulpfile(?:\.[\w-]+)?|gruntfile)\.(?:[cm]?js|[cm]?ts)$"
)
"""A tool's settings written as JavaScript (``.eslintrc.js``, ``.prettierrc.cjs``,
``karma.conf.js``) or a task runner's file in any of its spellings (``gulpfile.ts``,
``gulpfile.babel.js``): the tool loads it as code at every run."""


CREDENTIAL_NAMES = frozenset(
    {".netrc", "_netrc", ".git-credentials", ".pypirc", ".pgpass", ".my.cnf", ".s3cfg",
     ".vault-token", ".dockercfg", ".boto", "rclone.conf", ".htpasswd", "htpasswd",
     "auth.json", "token.json", "credentials", ".vault_pass", ".vault-pass", "wp-config.php",
     ".npmrc", ".yarnrc.yml", "cypress.env.json"}
)  # fmt: skip
"""Files that exist to hold passwords or tokens, in lower case: read in the workspace
too, never under a grant (in the home folder `credential-read` denies them). ``auth.json``
is Composer's tokens, ``token.json`` a Google OAuth client's, ``credentials`` the AWS
CLI's (and many tools'), ``.vault_pass`` an Ansible Vault password; ``.npmrc`` and
``.yarnrc.yml`` may hold a registry's auth token; ``cypress.env.json`` holds the test
accounts' passwords Cypress reads."""
CREDENTIAL_STEMS = re.compile(
    r"^(?:.*[-_.])?(?:passwords?|passphrases?|tokens?|api[-_]?tokens?|credentials|secrets?|vault[-_]pass(?:word)?)"
    r"(?:\.(?:txt|ya?ml|toml|ini|conf|cfg|json|tfvars))?$|.*\.tfvars(?:\.json)?$"
    r"|^(?:.*[-_.])?(?:sessions?|cookies?|cookie[-_]?jar)\.(?:json|txt)$|.*\.har$"
    r"|^(?:stripe|braintree|adyen|paypal|square|klarna|mollie|razorpay|checkout)[-_.]"
    r"(?:prod|production|live)\.(?:ya?ml|json|toml|ini|properties|env)$"
)
"""Names that say the file holds passwords or tokens (``password.txt``, ``api_token``,
``secrets.yml``, ``credentials.toml``) or Terraform variables (``prod.tfvars``: a
database password, a provider token), a browser session's cookies (``session.json``,
``cookies.txt``), a recording of its requests (``.har``: their Authorization headers) or a
payment provider's live settings (``braintree.production.yml``: its merchant keys), matched
in lower case like `CREDENTIAL_NAMES`."""
CREDENTIAL_FOLDERS = frozenset({"secrets", ".secrets", "credentials", ".credentials", ".aws",
                                ".docker", ".auth", "creds"})  # fmt: skip
"""Folders kept for secrets (a project's ``secrets/``, an ``.aws`` or ``.docker`` copied in,
a browser test's saved logins in ``playwright/.auth``, git-annex's special remotes' in
``.git/annex/creds``): nothing below one is read under a grant."""
_SHORT = re.compile(r"^[^.~ ]{1,6}~[0-9]{1,6}(?:\.[^.]{0,3})?$")


def windows_name(name: str) -> str:
    """``name`` as Windows (and macOS) would find it: case ignored, and Windows drops
    trailing dots and spaces (``package.json.`` opens ``package.json``)."""
    stripped = name.rstrip(". ")
    return (stripped if stripped and name not in (".", "..") else name).lower()


def is_short_name(name: str) -> bool:
    """An 8.3 short name (``PACKAG~1.JSO``): on Windows it may open any file of a long
    name, ``package.json`` or ``.git`` among them."""
    return _SHORT.match(name) is not None


def _game_editor(folder: str, lowered: str) -> Later | None:
    """A game engine's editor runs some of a project's code when the project opens, before
    any build: Unity its editor scripts (any ``Editor`` folder under ``Assets``) and the
    packages ``Packages/manifest.json`` names (fetched, git URLs among them), Godot its
    editor plugins (``addons/``)."""
    parts = folder.lower().split("/")
    if lowered.endswith(".cs") and "editor" in parts and "assets" in parts:
        return Later("", "Unity's editor (its editor scripts, when the project opens)")
    if lowered == "manifest.json" and parts[-1] == "packages":
        return Later("", "Unity's editor (the packages it fetches, when the project opens)")
    if lowered.endswith((".gd", ".cfg", ".cs")) and "addons" in parts:
        return Later("", "Godot's editor (its plugins, when the project opens)")
    return None


def later_runner(folder: str, name: str) -> Later | None:
    """What runs the code of the file ``name`` in ``folder`` later (None: nothing here
    knows it)."""
    if name in ("BUILD", "WORKSPACE"):  # bazel's (or pants'); `build` is a folder's name
        return Later("", "bazel")
    if name == "DESCRIPTION":  # an R package's; `.git/description` is git's own
        return Later("", "R's devtools and remotes (its Remotes: sources)")
    lowered = windows_name(name)
    found = _BY_NAME.get(lowered)
    if found is not None:
        return found
    parent = folder.rpartition("/")[2].lower()
    grandparent = folder.rpartition("/")[0].rpartition("/")[2].lower()
    in_folder = _BY_FOLDER.get(parent)
    if in_folder is not None and (parent not in ("plugins", "releases") or grandparent == ".yarn"):
        return in_folder
    if (parent == ".devcontainer" and lowered.endswith(".json")) or (
        grandparent == ".devcontainer" and lowered == "devcontainer.json"  # one per folder
    ):
        return _BY_NAME[".devcontainer.json"]
    if parent == ".hg" and lowered == "hgrc":  # its [hooks] run at every hg command
        return Later("hgrc", "mercurial (its hooks)")
    if lowered == "pip.conf" and parent in _VENVS:  # read from $VIRTUAL_ENV
        return Later("", "pip in the environment (where every install fetches from)")
    if grandparent == "plugins" and lowered.endswith(".swift"):  # a package plugin's code
        return Later("", "swift build (a package plugin, before or during every build)")
    if parent == "project" and lowered.endswith(".scala"):
        return Later("", "sbt (its build definition)")
    if lowered.endswith((".bb", ".bbappend", ".bbclass")):  # a Yocto layer's recipes
        return Later("", "bitbake (a recipe's shell and Python tasks, at every image build)")
    engine = _game_editor(folder, lowered)
    if engine is not None:
        return engine
    if _JS_RC.match(lowered):
        return Later("javascript", "the tool it configures")
    system = fleet_system(f"{folder}/{name}")
    if system is not None:  # a host's setup, applied to many (`fleetcode`)
        return Later("fleet", f"{system}, on every machine it manages")
    dot = lowered.rfind(".")
    return _BY_ENDING.get(lowered[dot:]) if dot > 0 else None
