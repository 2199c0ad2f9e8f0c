"""The files that decide where a project's code comes from, or whether it is verified.

A lock file (``package-lock.json``, ``Cargo.lock``, ``go.sum``, a hash-pinned
``requirements.lock``) says which archive each dependency is and the hash it must have;
its package manager writes it, and every later install trusts it without a look. Code
vendored into the project (``vendor/``, ``node_modules/``, ``third_party/``, a
patch-package ``patches/*.patch``) is run as the dependency's own, and nobody reviews it
as the project's. A wrapper's properties (``.mvn/wrapper/maven-wrapper.properties``) name
the build tool every ``./mvnw`` downloads and runs; MSBuild's ``Directory.Build.props``
and ``.targets`` are imported into every project's build below them. Writing any of these
by hand is never granted (`grant` withholds); what the text says is judged
(`supplytexts`, `planted`).
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["lock_file", "vendored_language"]

_LOCKS = {
    "package-lock.json": "npm install",
    "npm-shrinkwrap.json": "npm install",
    "yarn.lock": "yarn install (yarn up PACKAGE)",
    "pnpm-lock.yaml": "pnpm install (pnpm update PACKAGE)",
    "bun.lock": "bun install",
    "bun.lockb": "bun install",
    "deno.lock": "deno install",
    "Cargo.lock": "cargo update -p CRATE",
    "poetry.lock": "poetry lock",
    "uv.lock": "uv lock (uv lock --upgrade-package NAME)",
    "pdm.lock": "pdm lock",
    "Pipfile.lock": "pipenv lock",
    "Gemfile.lock": "bundle lock (bundle update GEM)",
    "composer.lock": "composer update VENDOR/PACKAGE",
    "go.sum": "go mod tidy",
    "gradle.lockfile": "./gradlew dependencies --write-locks",
    "buildscript-gradle.lockfile": "./gradlew dependencies --write-locks",
    "packages.lock.json": "dotnet restore --force-evaluate",
    "Package.resolved": "swift package update",
    "pubspec.lock": "dart pub get",
    "mix.lock": "mix deps.get",
    "flake.lock": "nix flake update",
    "conda-lock.yml": "conda-lock",
    ".terraform.lock.hcl": "terraform init -upgrade (terraform providers lock)",
    ".tofu.lock.hcl": "tofu init -upgrade",
    "renv.lock": "renv::snapshot() (renv::update(\"PACKAGE\"))",
}  # fmt: skip
"""Lock files by name, and the command that writes each."""
_REQUIREMENTS_LOCK = re.compile(r"^requirements[\w.-]*\.lock$")

_VENDOR_FOLDERS = frozenset(
    {"vendor", "node_modules", "third_party", "third-party", "thirdparty", "_vendor",
     "vendored", "bower_components", "Pods", "site-packages"}
)  # fmt: skip
"""Folders that hold other people's code, copied in or installed: run as theirs."""
_LANGUAGES = {
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".py": "python", ".rb": "ruby", ".pl": "perl", ".pm": "perl", ".php": "php",
    ".sh": "shell", ".bash": "shell", ".go": "go-code", ".rs": "", ".c": "", ".h": "",
    ".java": "", ".kt": "", ".ts": "javascript",
}  # fmt: skip
"""The language the guard reads vendored code with, by its file's ending (``""``: none;
the commands it spells out with literal words are still read: `supplycode`)."""
_PATCHES = re.compile(r"\.(?:patch|diff)$")


def lock_file(path: str) -> str | None:
    """The command that writes the lock file at ``path`` (None: ``path`` is no lock file)."""
    folder, name = posixpath.split(path)
    found = _LOCKS.get(name)
    if found is not None:
        return found
    if _REQUIREMENTS_LOCK.match(name):
        return "pip-compile --generate-hashes (uv pip compile --generate-hashes)"
    if name.endswith(".lockfile") and posixpath.basename(folder) == "dependency-locks":
        return "./gradlew dependencies --write-locks"
    return None


def vendored_language(path: str) -> str | None:
    """The language the guard reads the vendored code at ``path`` with (``patch``: a
    patch-package patch, read as the files it changes; ``""``: one it does not read);
    None: ``path`` is the project's own."""
    folder, name = posixpath.split(path)
    parts = folder.split("/")
    if _PATCHES.search(name) and parts[-1:] == ["patches"]:
        return "patch"
    if _VENDOR_FOLDERS.isdisjoint(parts):
        return None
    _, ending = posixpath.splitext(name)
    return _LANGUAGES.get(ending, "")
