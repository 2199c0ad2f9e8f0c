"""Publishing in the other ecosystems is asked by table (publish-package-ecosystems,
-jvm, -uploader, -subcommand in packs/default.yaml); dry runs and local builds stay free."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("mix hex.publish --yes", "publish-package-ecosystems"),
        ("mix hex.retire my_lib 0.3.0 security --message bad", "publish-package-ecosystems"),
        ("rebar3 hex publish --yes", "publish-package-ecosystems"),
        ("rebar3 hex cut", "publish-package-ecosystems"),
        ("cabal upload --publish dist-newstyle/sdist/x-0.1.tar.gz", "publish-package-ecosystems"),
        ("stack upload .", "publish-package-ecosystems"),
        ("dune-release publish", "publish-package-ecosystems"),
        ("opam publish", "publish-package-ecosystems"),
        ("luarocks upload x-1.0-1.rockspec", "publish-package-ecosystems"),
        ("cachix push acme ./result", "publish-package-ecosystems"),
        ("sbt +publishSigned sonatypeBundleRelease", "publish-package-jvm"),
        ("lein deploy clojars", "publish-package-jvm"),
        ("cpan-upload My-Module-0.05.tar.gz", "publish-package-uploader"),
        ("dart pub publish --force", "store-pub-publish"),
        ("flutter pub publish -f", "store-pub-publish"),
        ("swift package-registry publish acme.MyLib 1.2.0", "publish-package-subcommand"),
        ("dotnet nuget delete MyLib 1.3.0 --non-interactive", "publish-package-subcommand"),
        ("nix copy --to s3://acme-cache ./result", "publish-package-subcommand"),
        ("gem owner mygem --add someone@example.com", "publish-package-subcommand"),
        ("mix hex.owner add my_lib someone@example.com", "publish-package-subcommand"),
    ],
)
def test_publishing_is_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    [
        "mix hex.publish --dry-run",
        "mix hex.build",
        "mix release",
        "rebar3 hex build",
        "dart pub publish --dry-run",
        "flutter pub publish -n",
        "sbt publishLocal",
        "lein install",
        "cabal sdist",
        "stack sdist",
        "nix copy --from https://cache.nixos.org ./result",
        "gem owner mygem",
        "mix hex.owner list my_lib",
        "dotnet nuget list source",
    ],
)
def test_dry_runs_and_local_builds_are_not_publishing(command: str) -> None:
    decision, rule = decided(command)
    assert not (rule or "").startswith("publish-package"), (decision, rule)
