"""JVM options that load an agent into every JVM: ``-javaagent:JAR``, ``-agentpath:LIB``.

The JVM reads them from ``JAVA_TOOL_OPTIONS``, ``JDK_JAVA_OPTIONS`` and ``_JAVA_OPTIONS``
(every JVM the command starts: Maven's, Gradle's daemon, each forked test JVM) and Maven
from ``.mvn/jvm.config`` (every later ``mvn`` or ``./mvnw``). An agent is code the JVM runs
before ``main``, unseen: its options are judged as the ``java`` call they stand for
(`agent_commands`), so the pack's rules on ``java -javaagent:`` meet them (`envs`,
`buildfiles`).
"""

from __future__ import annotations

import shlex

__all__ = ["AGENT_PREFIXES", "JVM_OPTION_VARIABLES", "agent_commands"]

JVM_OPTION_VARIABLES = frozenset({"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"})
"""Variables every JVM (``JDK_JAVA_OPTIONS``: the ``java`` launcher) reads its options from."""
AGENT_PREFIXES = ("-javaagent:", "-agentpath:")
"""Options naming a file of code the JVM loads (``-agentlib:NAME`` names one of the JDK's
own libraries, such as ``jdwp``)."""
_MAX_TEXT = 16 * 1024
"""A longer options file is not read (the write stays ungranted)."""


def agent_commands(options: str) -> list[str]:
    """``java OPTION`` for each agent option in ``options`` (a variable's value, or a
    ``jvm.config``'s text); none when it loads no agent. A cheap test of the text first:
    most values hold no agent."""
    if "agent" not in options or len(options) > _MAX_TEXT:
        return []
    try:
        words = shlex.split(options, comments=True)
    except ValueError:  # unbalanced quotes: each word, its quotes dropped
        words = [w.strip("'\"") for w in options.split()]
    # `-J-javaagent:X` is sbt's and the JDK tools' spelling of the JVM's option
    words = [w[2:] if w.startswith("-J-") else w for w in words]
    return [f"java {shlex.quote(w)}" for w in words if w.startswith(AGENT_PREFIXES)]
