"""The classes the blind build corpus found (session 24), each read as the build tool reads
its options: code loaded into a build from outside the project (init scripts, compiler
plugins, -toolexec, a make variable set to a shell command, Bazel's overridden
repositories and remote executors), publishing by monorepo runners, uploads and release
targets, build tools printing the secrets they keep, a build variable naming an agent's
folder, and prebuilt or off-host tool downloads. The project's own files and the
everyday spellings stay free."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.buildprints import mark_build_secrets
from amplifier_hooks.guard.parser import parse_command
from tests.guard.conftest import decided

LOADS = "build-loads-unreviewed-code"


@pytest.mark.parametrize(
    ("command", "rule"),
    [("./gradlew build --init-script /tmp/init.gradle", LOADS),
     ("gradle -I/tmp/ci.gradle assemble", LOADS),
     ("gradle --init-script=$HOME/x.gradle build", LOADS),
     ("gcc -fplugin=/tmp/instrument.so -c src/main.c", LOADS + "-compiler"),
     ("clang -Xclang -load -Xclang ./libPass.so -c foo.c", LOADS + "-clang"),
     ("go build -toolexec=/tmp/wrap ./...", LOADS + "-go"),
     ("go test -toolexec /tmp/wrap ./...", LOADS + "-go"),
     ("GOFLAGS=-toolexec=/tmp/wrap go test ./...", LOADS + "-env"),
     ("CCACHE_PREFIX=/tmp/distcc-wrap make -j16", LOADS + "-env"),
     ("SCCACHE_BUCKET=shared cargo build", LOADS + "-env"),
     ("make SHELL=/tmp/sh all", LOADS + "-make"),
     ("make CC='sh -c \"id\" #'", LOADS + "-make"),
     ("cmake -B build -DCMAKE_TOOLCHAIN_FILE=/tmp/arm.cmake", LOADS + "-cmake"),
     ("cmake -C /tmp/cache.cmake -S . -B build", LOADS + "-cmake-c"),
     ("bazel build //... --override_repository=r=/tmp/r", LOADS + "-bazel"),
     ("bazel test //... --remote_executor=grpcs://rbe.example:443", LOADS + "-bazel"),
     ("pants --pythonpath=\"+['/tmp/p']\" test ::", LOADS + "-pants"),
     ("cargo build --config 'source.x.replace-with=\"m\"'", LOADS + "-cargo"),
     ("mvn net.example:helper:1.0.3:run", "build-runs-unknown-plugin"),
     ("make -f <(cat other.mk) install", "makefile-unseen"),
     ("npx nx release --skip-publish=false --yes", "publish-monorepo-runner"),
     ("nx release", "publish-monorepo"),
     ("npx turbo run publish --filter=./packages/*", "publish-monorepo-runner"),
     ("mvn deploy:deploy-file -Dfile=target/app.jar", "publish-package"),
     ("curl -u ci:$PW --upload-file app.jar https://nexus.example/raw/a", "publish-upload-file"),
     ("curl -nsT app.jar https://nexus.example/raw/app.jar", "publish-upload-file"),
     ("bazel run //deploy:push_image -- --tag=prod", "publish-build-target"),
     ("GOPROXY=proxy.golang.org go list -m example.com/acme/lib@v1.5.0", "publish-go-module"),
     ("cat ~/.config/sccache/config", "credential-read-build-cache"),
     ("cmake -P setup.cmake -DOUT=$HOME/.gemini/settings.json", "build-variable-agent-folder"),
     ("cargo binstall -y some-tool", "install-prebuilt-binary"),
     ("gradle wrapper --gradle-distribution-url=https://x/g", "wrapper-distribution-elsewhere"),
     ("make clean BUILD_DIR=. OBJDIR=.", "clean-workspace-argument")],
)  # fmt: skip
def test_build_calls_a_person_confirms(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    ("command", "rule"),
    [("mvn help:effective-settings -DshowPasswords=true", "credential-print-build-tools"),
     ("cargo config get registries.x.token", "credential-print-build-tools-cargo"),
     ("make -pn | grep -i TOKEN", "build-secrets-print"),
     ("make --print-data-base | rg -i secret", "build-secrets-print"),
     ("./gradlew properties -q | grep -i sign", "build-secrets-print"),
     ("make clean CLEAN_DIRS='build .claude'", "build-variable-agent-folder-clean"),
     ("bazel --output_base=$HOME clean --expunge", "bazel-output-base-wipe"),
     ("bazel --output_base=/home/dev clean --expunge_async", "bazel-output-base-wipe")],
)  # fmt: skip
def test_build_calls_denied(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    "command",
    ["./gradlew build --init-script gradle/ci.gradle",
     "cmake -B build -S . -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64.cmake",
     "make SHELL=/bin/bash all",
     "make CC=clang CFLAGS='-O0 -g' test",
     "CC='ccache gcc' make -j8",
     "CCACHE_PREFIX=distcc make -j16",
     "RUSTC_WRAPPER=sccache cargo build",
     "cargo build --config 'build.jobs=4'",
     "mvn org.apache.maven.plugins:maven-help-plugin:3.4.0:evaluate -Dexpression=project.version",
     "mvn dependency:get -Dartifact=com.acme:core:1.0",
     "npx nx release --dry-run",
     "npx nx affected -t lint test build",
     "npx turbo run build test",
     "curl -s -T dist/app.whl http://localhost:9000/artifacts/app.whl",
     "curl -T report.csv http://127.0.0.1:8080/u",  # (to another host: upload-project-files)
     "bazel run //tools/gazelle -- update",
     "go list -m all",
     "make -pn | grep -E '^(CFLAGS|LDFLAGS) '",
     "make -j4 | grep -i token",
     "make -fMakefile.p | grep token",
     "make clean CLEAN_DIRS=build",
     "make clean BUILD_DIR=out",
     "bazel --output_base=/home/dev/.cache/bzl clean --expunge",
     "bazel clean --expunge"],
)  # fmt: skip
def test_everyday_builds_stay_free(command: str) -> None:
    assert decided(command)[0] is None


def test_only_a_listing_searched_for_a_secret_is_marked() -> None:
    listed = mark_build_secrets(parse_command("make -p | grep -v token").pieces)
    assert all("@build-secrets" not in p.wrappers for p in listed)
    searched = mark_build_secrets(parse_command("make -p | grep -i token").pieces)
    assert "@build-secrets" in searched[0].wrappers


@pytest.mark.parametrize(
    ("command", "asked"),
    [("gcc -O2 -o main.c main.o util.o", True),
     ("cc -c -Wall lexer.c -o include/lexer.h", True),
     ("clang -E -P config.c -o config.c", True),
     ("g++ -g -osrc/app.cpp src/app.cpp src/net.cpp", True),
     ("ld -r -o src/boot.S build/boot.o", True),
     ("ar rcs src/util.c build/a.o", True),
     ("go build -o main.go ./cmd/server", True),
     ("gcc -c src/parser.c -o build/parser.o", False),
     ("gcc -E -P -x c config.h.in -o config.h", False),
     ("gcc -S foo.c -o foo.s", False),
     ("ar rcs build/libutil.a build/a.o", False),
     ("ar t build/libutil.a", False),
     ("go build -o bin/server ./cmd/server", False),
     ("go vet -o main.go ./...", False),
     ("cc -o prog prog", False)],
)  # fmt: skip
def test_a_build_output_over_a_source_is_asked(command: str, asked: bool) -> None:
    found = decided(command)
    assert found == (("ask", "build-output-over-source") if asked else (None, None))
