"""The commands the other ecosystems' build files run, spelled out with literal words.

A ``mix.exs`` alias, a ``rebar.config`` hook, a ``Setup.hs`` hook, a ``dune`` rule's
action, a Leiningen ``:injections`` form, a Swift package plugin, a Nix ``shellHook``, a
``build.zig`` step: each runs a program when the person next builds, tests or enters the
project, and the guard has no grammar for these languages. Their calls that start a
process have few shapes, found here by those shapes with their literal words (a word the
code computes is not read: that command is missed, and the file is never granted either
way, `laterfiles`):

- Elixir ``System.cmd("sh", ["-c", "..."])``, ``System.shell("...")``, ``:os.cmd('...')``;
  Erlang ``os:cmd("...")`` and rebar3's ``{pre_hooks, [{compile, "..."}]}``;
- Haskell ``callCommand "..."``, ``system "..."``, ``spawnCommand``, ``shell "..."``,
  ``callProcess "p" ["a"]``, ``rawSystem``, ``readProcess``, ``proc``;
- OCaml ``Sys.command "..."``, ``Unix.system``; dune's ``(system "...")``, ``(bash "...")``;
- Clojure ``(clojure.java.shell/sh "sh" "-c" "...")``, babashka's ``(shell "...")``;
- Swift ``executable: ...("/bin/sh"), arguments: ["-c", "..."]`` (a plugin's command);
- Nix ``shellHook = '' ... ''`` (devenv's ``enterShell``): a shell script;
- Julia ``run(`...`)``; Zig ``addSystemCommand(&.{ "sh", "-c", "..." })``; Lua and
  NimScript ``os.execute("...")``, ``io.popen("...")``, ``exec "..."``;
- game engines' editor code: C# ``Process.Start("sh", "-c ...")`` and
  ``new ProcessStartInfo(...)`` (Unity), GDScript ``OS.execute("sh", ["-c", "..."])``
  and ``OS.create_process`` (Godot).
"""

from __future__ import annotations

import re
import shlex

__all__ = ["process_calls"]

_STR = r'"(?:[^"\\]|\\.)*"'
_WORDS = re.compile(_STR)
_SHELL_STRING = re.compile(
    r"(?:\bSystem\.shell|:os\.cmd|\bos:cmd|\bcallCommand|\bsystem|\bspawnCommand|\bshell"
    r"|\bSys\.command|\bUnix\.system|\(\s*bash|\bos\.execute|\bio\.popen|\bexec)"
    r"\s*\(?\s*(?:~c)?(" + _STR + r"|'(?:[^'\\]|\\.)*')"
)
"""A call that hands one string to a shell."""
_PROGRAM_AND_LIST = re.compile(
    r"(?:\bSystem\.cmd|\bOS\.execute|\bOS\.create_process|\bcallProcess|\brawSystem|\breadProcess(?:WithExitCode)?|\bproc)"
    r"\s*\(?\s*(" + _STR + r")\s*,?\s*\[((?:\s*" + _STR + r"\s*,?)*)\s*\]"
)
"""A call given a program and a list of its arguments."""
_DOTNET = re.compile(
    r"\b(?:Process\.Start|ProcessStartInfo)\s*\(\s*(" + _STR + r")"
    r"(?:\s*,\s*(" + _STR + r"))?"
)
"""C#'s ``Process.Start(program, arguments)``: the arguments are one command line."""
_CLOJURE_SH = re.compile(r"\((?:clojure\.java\.shell/|shell/)?sh((?:\s+" + _STR + r")+)")
_SWIFT = re.compile(
    r"executable(?:URL)?\s*[:=][^\n]{0,80}?(" + _STR + r")[^\]]{0,200}?"
    r"arguments\s*[:=]\s*\[((?:\s*" + _STR + r"\s*,?)*)\s*\]",
    re.DOTALL,
)
_ZIG = re.compile(r"addSystemCommand\s*\(\s*&\s*\.\s*\{((?:\s*" + _STR + r"\s*,?)*)\s*\}")
_JULIA = re.compile(r"\brun\s*\(\s*`([^`]*)`")
_HOOK = re.compile(r"^\s*(?:shellHook|enterShell)\s*=\s*''(.*?)(?:''(?!\$|')|\Z)", re.M | re.S)
_REBAR_HOOK = re.compile(r"\{\s*(?:" + _STR + r"\s*,\s*)?'?[a-z_]+'?\s*,\s*(" + _STR + r")\s*\}")
_SCREEN = (
    "System.",
    "os:cmd",
    ":os.",
    "callCommand",
    "system",
    "Command",
    "shell",
    "Process",
    "proc",
    "Sys.command",
    "bash",
    "sh ",
    "executable",
    "addSystemCommand",
    "run(",
    "Hook",
    "enterShell",
    "os.execute",
    "io.popen",
    "exec",
    "_hooks",
)
"""The words a text must hold for any shape here to match (a cheap test first)."""
_MAX = 64


def process_calls(text: str) -> list[str]:
    """The shell command lines ``text``'s process calls spell out with literal words."""
    if not any(word in text for word in _SCREEN):
        return []
    found: list[str] = []
    for match in _SHELL_STRING.finditer(text):
        found.append(_text(match.group(1)))
    for match in _PROGRAM_AND_LIST.finditer(text):
        found.append(_joined([match.group(1), *_WORDS.findall(match.group(2))]))
    for match in _DOTNET.finditer(text):
        program, arguments = match.group(1), match.group(2)
        found.append(shlex.quote(_text(program)) + (" " + _text(arguments) if arguments else ""))
    for match in _CLOJURE_SH.finditer(text):
        found.append(_joined(_WORDS.findall(match.group(1))))
    for match in _SWIFT.finditer(text):
        found.append(_joined([match.group(1), *_WORDS.findall(match.group(2))]))
    for match in _ZIG.finditer(text):
        found.append(_joined(_WORDS.findall(match.group(1))))
    for match in _JULIA.finditer(text):
        found.append(match.group(1))
    for match in _HOOK.finditer(text):
        found.append(match.group(1).strip())
    if "_hooks" in text:  # rebar3's {pre_hooks, [{compile, "CMD"}]}
        found.extend(_text(m.group(1)) for m in _REBAR_HOOK.finditer(text))
    return [line for line in found if line.strip()][:_MAX]


def _text(literal: str) -> str:
    """A string literal's text, its common escapes read."""
    body = literal[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _joined(literals: list[str]) -> str:
    return shlex.join(_text(w) for w in literals)
