"""JVM agents set for every JVM (JAVA_TOOL_OPTIONS, .mvn/jvm.config) are judged as the
``java -javaagent:FILE`` they stand for (guard/jvmoptions.py)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import judge
from amplifier_hooks.guard.jvmoptions import agent_commands
from tests.guard.conftest import DEV_PLACES, _default_pack, decided

ASKED = ("ask", "jvm-agent-outside")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("JAVA_TOOL_OPTIONS=-javaagent:/home/dev/.cache/a.jar mvn test", ASKED),
        ("JAVA_TOOL_OPTIONS='-Xmx2g -javaagent:~/.cache/a.jar' ./gradlew test", ASKED),
        ("JDK_JAVA_OPTIONS=-agentpath:/opt/x/libx.so java -jar app.jar", ASKED),
        ("env _JAVA_OPTIONS=-javaagent:../shared/a.jar mvn verify", ASKED),
        ("_JAVA_OPTIONS=-javaagent:/tmp/x.jar ./gradlew build", ("deny", "env-code-from-tmp")),
        ("JDK_JAVA_OPTIONS=-javaagent:/tmp/x.jar java -jar app.jar", ("deny", "env-code-from-tmp")),
    ],
)
def test_agent_in_a_jvm_variable(command: str, expected: tuple[str, str]) -> None:
    assert decided(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "JAVA_TOOL_OPTIONS=-Xmx2g mvn test",
        "JAVA_TOOL_OPTIONS=-javaagent:target/agent.jar mvn test",
        "JAVA_TOOL_OPTIONS=-agentlib:jdwp=transport=dt_socket,server=y mvn test",
        "java -javaagent:build/libs/agent.jar -jar app.jar",
    ],
)
def test_options_loading_no_outside_agent_stay_unasked(command: str) -> None:
    decision, _ = decided(command)
    assert decision is None  # a variable that changes the JVM is never granted


def _written(path: str, content: str) -> tuple[str | None, str | None]:
    call = {"tool_name": "write_file", "tool_input": {"file_path": path, "content": content}}
    found = judge(call, _default_pack(), DEV_PLACES)
    return found.decision, found.rule


def test_jvm_config_agent_from_outside_is_asked() -> None:
    text = "-Xmx2g\n-javaagent:/home/dev/.cache/a.jar=debug\n"
    assert _written("/home/dev/project/.mvn/jvm.config", text) == ("ask", "planted-code-ask")


def test_jvm_config_without_an_outside_agent_is_not_asked() -> None:
    for text in ("-Xmx2g -XX:+UseG1GC\n", "-javaagent:target/jacoco.jar\n"):
        decision, _ = _written("/home/dev/project/.mvn/jvm.config", text)
        assert decision is None


def test_agent_commands() -> None:
    assert agent_commands("-Xmx1g") == []
    assert agent_commands("-javaagent:a.jar -agentpath:/x/y.so") == [
        "java -javaagent:a.jar", "java -agentpath:/x/y.so"]  # fmt: skip
    assert agent_commands("# -javaagent:/x.jar\n-Xss4m") == []  # a comment line
    assert agent_commands("'-javaagent:a b.jar") == ["java -javaagent:a"]  # unbalanced
    assert agent_commands("-javaagent:a.jar " * 2000) == []  # too long to read
