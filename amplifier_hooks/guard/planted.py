"""Code planted in the project: a write whose text a build, test or install tool runs later.

``npm install`` runs ``package.json``'s ``postinstall``, ``make`` a Makefile's recipes,
``pytest`` every ``conftest.py``, ``pip install .`` ``setup.py``, ``go generate`` each
``//go:generate`` line, ``bundle``/Rails the ``Gemfile`` and ``config/initializers``,
``husky`` its hook scripts, ``source .venv/bin/activate`` the activate script, Xcode a
scheme's actions and run-script phases, ``pod install`` the Podfile, fastlane the Fastfile,
``./gradlew`` its wrapper's distribution (`mobilebuild`). None of them shows the person
that code first, so writing it is judged by what it would do when run: the text is read
with the readers the guard has (the shell's grammar for scripts, recipes and
``package.json`` scripts; Python, JavaScript, Ruby, Perl and PHP with theirs) and each
command or act it spells out becomes a piece marked `PLANTED`, judged by the same rules as
a command and never granted; code the tool fetches from a URL is a piece marked
`FETCHED_SCRIPT_MARK` or `FETCHED_SOURCE_MARK` (a download into such a file too). A deny
among them denies the write (``planted-code``), an ask asks it (``planted-code-ask``). A
file such tools run whose language the guard cannot read (``build.rs``, ``pom.xml``,
``Cargo.toml``) is never granted (`buildfiles.runs_later` names it; `grant` withholds): a
grant is a promise. A file with more scripts than are read one by one, or more text than
is read, is asked (`unreadscripts`): what is past them is never judged.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from amplifier_hooks.guard.appsource import APP_CODE, HIDDEN, app_code
from amplifier_hooks.guard.buildfiles import (
    MAX_TEXT,
    PLANTED,
    PROC_MACRO,
    go_generate,
    planted_code,
    proc_macro,
    runs_later,
)
from amplifier_hooks.guard.cisteps import ci_pieces
from amplifier_hooks.guard.codeacts import CodeReading
from amplifier_hooks.guard.codecalls import shell_commands
from amplifier_hooks.guard.codepieces import code_pieces
from amplifier_hooks.guard.codereaders import code_reader
from amplifier_hooks.guard.docsources import doc_code
from amplifier_hooks.guard.fedcode import printed_text, written_into
from amplifier_hooks.guard.iacfiles import iac_file, iac_pieces
from amplifier_hooks.guard.mobilebuild import FETCHED_SCRIPT, FETCHED_SOURCE
from amplifier_hooks.guard.model import Piece, PieceVerdict, Places
from amplifier_hooks.guard.notebooks import NOTEBOOK_TOOL, is_notebook, notebook_code
from amplifier_hooks.guard.patchfiles import PATCH_FILE, patched_parts
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.prodruns import mark_deployed
from amplifier_hooks.guard.pylookalikes import DISGUISED
from amplifier_hooks.guard.rubyreader import read_fastfile
from amplifier_hooks.guard.supplycode import VENDORED_REACH, is_script, vendored_code
from amplifier_hooks.guard.supplyfiles import vendored_language
from amplifier_hooks.guard.table.fetch import FETCHING, fetched_urls
from amplifier_hooks.guard.tlsfiles import tls_off_pieces
from amplifier_hooks.guard.unreadscripts import read_first, unread_text
from amplifier_hooks.guard.webshells import web_backdoor_pieces
from amplifier_hooks.guard.winscripts import windows_script
from amplifier_hooks.guard.writtenscripts import (
    SCRIPT,
    SCRIPT_DENIED,
    SCRIPT_TOOL,
    on_disk_script,
    script_named,
    shell_script,
)

__all__ = ["ASKED", "DENIED", "FETCHED_SCRIPT_MARK", "FETCHED_SOURCE_MARK", "PLANTED",
           "patch_planted", "planted_pieces", "planted_verdicts",
           "planted_writes"]  # fmt: skip

DENIED = "@planted-denied"
"""The mark a planted piece that the rules deny is judged again with (``planted-code``)."""
ASKED = "@planted-asked"
"""The mark a planted piece that the rules ask about is judged again with."""
_SHOWN = frozenset({"env-file-read", "environment-dump"})
"""Rules that ask only because the model would read what a piece reads or prints: planted
code runs later, for the tool that runs it and the person's terminal (``dotenv .env`` in
an ``.envrc``, ``. ./.env`` in a Makefile recipe load the variables, as the project means
them to). Sending them anywhere is still judged (``env | curl``)."""
FETCHED_SCRIPT_MARK = "@fetched-script"
"""A build file's code fetched from a URL and run as it is (``build-fetched-script``)."""
FETCHED_SOURCE_MARK = "@fetched-source"
"""A source a build or install tool fetches code from (``build-fetched-source``)."""
_APP = "the application's own code: nothing it runs or sends is judged a risk"
_PROGRAMS = {"javascript": "node"}
"""The program whose reader reads a language named otherwise (`codereaders`)."""
HIDDEN_MARK = "@hidden-code"
"""Code computed at run time and run, unread (``app-hidden-code``)."""
DISGUISED_MARK = "@disguised-names"
"""Python names in look-alike letters (``app-disguised-names``)."""
_FETCHED = {FETCHED_SCRIPT: FETCHED_SCRIPT_MARK, FETCHED_SOURCE: FETCHED_SOURCE_MARK,
            HIDDEN: HIDDEN_MARK, DISGUISED: DISGUISED_MARK,
            VENDORED_REACH: "@vendored-reach"}  # fmt: skip
# -- the pieces ------------------------------------------------------------------------------

Split = Callable[[str], tuple[Piece, ...]]
"""The pieces of a shell script, judged as a command of its own would be."""


def planted_pieces(path: str, text: str, places: Places, split: Split,
                   edit: bool = False, near: str = "") -> tuple[Piece, ...]:  # fmt: skip
    """The pieces of the code writing ``text`` into ``path`` plants (none: the file is not
    one a tool runs, or its text holds no code the guard can read), each marked `PLANTED`
    and never granted; and a piece of TLS checking switched off in a tool's settings
    (`tlsfiles`). ``edit``: ``text`` is an edit's part of the file, not all of it;
    ``near``: the file's text around it (an edit's old text, a patch's context lines),
    which tells what kind of code the part is in (a proc macro's)."""
    located = locate(path, ".", places).path
    home = places.known.home
    if iac_file(located) is not None:  # applied outside the machine (`iacfiles`), and
        # what a plan or apply runs here (`data "external"`, `local-exec`: `runs_later`)
        return (*iac_pieces(located, text), *_planted(located, text, split, edit, near, home))
    weakened = tls_off_pieces(located, text) + web_backdoor_pieces(located, text)
    found = _planted(located, text, split, edit, near, home)
    return (*found, *weakened) if weakened else found


def _edits_script(located: str) -> bool:
    """An edit of ``located`` changes a shell script (`writtenscripts`)."""
    return is_script(located) or script_named(located) or on_disk_script(located)


def _planted(located: str, text: str, split: Split, edit: bool, near: str,
             home: str) -> tuple[Piece, ...]:  # fmt: skip
    steps = ci_pieces(located, text, split)
    if steps is not None:  # run on CI, with the project's secrets: judged as CI steps
        return steps
    runner = runs_later(located) or (PROC_MACRO if proc_macro(located, text + near) else None)
    unread: tuple[Piece, ...] = ()  # past the scripts read one by one: asked (`unreadscripts`)
    marks: tuple[str, ...] = (PLANTED,)
    if runner is not None:
        tool = runner.tool
        if len(text) > MAX_TEXT:  # none of its code is read
            return (unread_text(located, tool, MAX_TEXT),)
        code = planted_code(runner, text)
        if code:
            code, unread = read_first(code, located, tool)
    elif (vendored := vendored_language(located)) is not None:  # another project's code
        code, tool = vendored_code(vendored, text), "whatever imports the vendored code"
        code, unread = read_first(code, located, tool)
    elif is_script(located) and shell_script(text, edit) is None:
        return _fetched_runs(text, split)  # only what it fetches and runs (`supplycode`)
    elif located.endswith(".go"):
        code, tool = go_generate(text) or app_code(located, text), "go generate or go test"
        code, unread = read_first(code, located, tool)
    elif (document := doc_code(located, text)) is not None:  # TeX, Lua, Lisp (`docsources`)
        tool, code = document[0], [("shell", c) for c in document[1]]
    elif (windows := windows_script(located, text, home)) is not None:
        code, tool, marks = [("shell", windows)], SCRIPT_TOOL, (PLANTED, SCRIPT)  # (`winscripts`)
    elif (script := shell_script(text, edit and _edits_script(located))) is not None:
        # the agent runs it next (an edit's lines of `scripts/dev.sh`: `writtenscripts`)
        if len(text) > MAX_TEXT:
            return (unread_text(located, SCRIPT_TOOL, MAX_TEXT),)
        code, tool, marks = [("shell", script)], SCRIPT_TOOL, (PLANTED, SCRIPT)
        if is_script(located):  # its fetch-and-run denied as planted, the rest as a script
            unread = _fetched_runs(text, split)
    elif is_notebook(located, text):  # a person runs it later, trusting its author
        code, tool = notebook_code(located, text), NOTEBOOK_TOOL
        if code is None:
            why = f"{located} is a notebook too long for the guard to read"
            return (Piece(text=located, program=None, wrappers=(PLANTED,), doubt=why),)
    else:  # any other Python: what it runs or sends is judged, the rest left as it is
        code, tool = app_code(located, text), "the application (at import or start)"
        marks = (PLANTED, APP_CODE)
    if not code:  # a proc macro's Rust is not read: it is never granted (`grant` withholds
        # the other files `runs_later` names by their name alone)
        why = f"{located} holds code {PROC_MACRO.tool}, which the guard cannot read"
        unread_macro = Piece(text=located, program=None, wrappers=(PLANTED,), doubt=why)
        return (unread_macro,) if runner is PROC_MACRO else ()
    why = f"it is code {tool} runs later, and planted code is never granted"
    folder = posixpath.dirname(located)
    found: list[Piece] = []
    for language, source in code:
        for piece in _code_pieces(language, source, folder, split):
            cwd = piece.cwd
            where = folder if cwd == "." else None if cwd is None else posixpath.join(folder, cwd)
            found.append(piece._replace(wrappers=(*piece.wrappers, *marks), doubt=why, cwd=where))
    if runner is not None and runner.language == "procfile":  # run on the deployed app
        found = [mark_deployed(piece) for piece in found]
    elif runner is not None and runner.language == "fleet":  # sets hosts up: `fleetcode`
        found = [piece for piece in found if piece.feeds_code]
    return (*found, *unread)


def _fetched_runs(text: str, split: Split) -> tuple[Piece, ...]:
    """A script's pieces that fetch code and run it (``curl ... | sh`` added to
    ``docker/entrypoint.sh``), planted: denied whatever else the script holds."""
    tool = "whoever runs the script (a person, CI, a container's start)"
    why = f"it is code {tool} runs later, and planted code is never granted"
    return tuple(p._replace(wrappers=(*p.wrappers, PLANTED), doubt=why)
                 for p in split(text) if p.feeds_code)  # fmt: skip


def _code_pieces(language: str, code: str, folder: str, split: Split) -> list[Piece]:
    if language == "shell":
        return list(split(code))
    mark = _FETCHED.get(language)
    if mark is not None:  # code fetched from ``code`` (a URL): judged by its mark's rule
        return [Piece(text=code[:200], program="true", wrappers=(mark,))]
    reader = (
        read_fastfile  # Ruby with a `sh` that runs its command (fastlane's, Rake's)
        if language in ("fastlane", "rake")
        else code_reader(_PROGRAMS.get(language, language))
    )
    base = Piece(text=code[:200], program=language, cwd=".")
    if reader is not None:
        reading = reader(code)
        closed = code
        for _ in range(_MAX_OPEN if language in _BLOCKS and not reading.parsed else 0):
            closed += "\nend"  # an edit's lines open blocks (`lane :x do`) the file closes
            reading = reader(closed)
            if reading.parsed:
                break
        if not reading.parsed and language == "python":
            reading = _python_closed(reader, code) or reading
        if reading.parsed:
            return code_pieces(base, _acted(reading), split)
    return [p for command in shell_commands(language, code) for p in split(command)]


def _python_closed(reader: Callable[[str], CodeReading], code: str) -> CodeReading | None:
    """The reading of an edit's Python that ends inside a block the file goes on with
    (``def test_health(client):`` after the lines it adds): read with a body given to its
    last line, or without its last lines; None when none of those parses."""
    lines = code.rstrip().split("\n")
    last = lines[-1]
    indent = last[: len(last) - len(last.lstrip())]
    tries = [code.rstrip() + "\n" + indent + "    pass\n"]
    tries += ["\n".join(lines[:-cut]) for cut in range(1, min(4, len(lines)))]
    for text in tries:
        reading = reader(text)
        if reading.parsed:
            return reading
    return None


_BLOCKS = frozenset({"ruby", "fastlane", "rake"})
"""Languages whose blocks end with ``end``: an edit's lines that open one are read with
the ``end`` the rest of the file gives them (more is read, never less: planted code is
never granted)."""
_MAX_OPEN = 3


def _acted(reading: CodeReading) -> CodeReading:
    """``reading`` with what code run later does that the model never sees left out: a
    variable it reads (the settings a test or a build takes from its environment) is
    printed nowhere, and a file it prints is shown in the person's terminal, not the
    model's (a read, still judged as sent where the code sends it). The whole environment
    sent somewhere stays (``env | curl``)."""
    sends = any(act.does == "network" for act in reading.acts)
    acts = tuple(a._replace(does="read") if a.does == "show" else a for a in reading.acts
                 if a.does not in ("env", "show-env")
                 or (sends and a.does == "env" and a.target is None))  # fmt: skip
    return reading._replace(acts=acts) if acts != reading.acts else reading


def planted_writes(
    pieces: tuple[Piece, ...], places: Places, text_of: Callable[[Piece], str | None], split: Split
) -> tuple[Piece, ...]:
    """``pieces``, and the pieces of the code a shell command writes into a file a tool
    runs later (``echo '...' >> .venv/bin/activate``, ``cat > Makefile <<EOF``), where
    ``text_of`` knows the text it writes."""
    out = list(pieces)
    for piece in pieces:
        if piece.program in FETCHING:
            out.extend(_downloaded(piece, places))
            continue
        targets = written_into(piece)
        if not targets:
            continue
        text = text_of(piece)
        if text is None:
            continue
        for target in targets:
            path = locate(target, piece.cwd, places).path
            # a printf's format applied, for the tool that reads the file (`.mvn/jvm.config`)
            written = (printed_text(piece) if runs_later(path) else None) or text
            # into a shell script (``>> bin/dev``): its lines, as an edit's (`writtenscripts`)
            out.extend(planted_pieces(path, written, places, split, _edits_script(path)))
    return tuple(out)


def _downloaded(piece: Piece, places: Places) -> list[Piece]:
    """A download into a file a tool runs later (``curl -o gradle-wrapper.jar URL``):
    the tool runs what the URL served, which nobody read (`FETCHED_SCRIPT_MARK`)."""
    urls, targets = fetched_urls(piece.program or "", piece.args)
    found: list[Piece] = []
    for target in targets if urls else ():
        runner = runs_later(locate(target, piece.cwd, places).path)
        if runner is not None:
            why = f"it is code {runner.tool} runs later, and planted code is never granted"
            marks = (FETCHED_SCRIPT_MARK, PLANTED)
            found.extend(
                Piece(text=url[:200], program="true", cwd=piece.cwd, doubt=why, wrappers=marks)
                for url in urls[:4]
            )
    return found


def planted_verdicts(
    pieces: tuple[Piece, ...],
    verdicts: tuple[PieceVerdict, ...],
    judge: Callable[[Piece], PieceVerdict],
) -> tuple[PieceVerdict, ...]:
    """``verdicts``, each planted piece's deny or ask said as planting: its piece judged
    again marked `DENIED` or `ASKED` (``judge``), so the rule that names the mark
    (``planted-code``, ``planted-code-ask``) decides and says what the code would do;
    a bundle that disables that rule has no opinion on it."""
    out: list[PieceVerdict] = []
    # what a mark says depends on the mark and the doubt, never on the piece's text: a file
    # that plants many commands is judged so once (the slowest corpus case: 6 times)
    said_of: dict[tuple[str, str | None], PieceVerdict] = {}
    # what the same call also does itself (`python3 t.py` after writing it) is said so
    direct = {(v.text, v.decision) for p, v in zip(pieces, verdicts, strict=True)
              if PLANTED not in p.wrappers}  # fmt: skip
    for piece, verdict in zip(pieces, verdicts, strict=True):
        if APP_CODE in piece.wrappers and (verdict.text, verdict.decision) in direct:
            out.append(verdict)
            continue
        if PLANTED not in piece.wrappers or verdict.decision not in ("deny", "ask"):
            # the application's own code: only a deny or ask of what it does counts
            kept = APP_CODE not in piece.wrappers or verdict.decision is not None
            out.append(verdict if kept else verdict._replace(decision="allow", reason=_APP))
            continue
        if verdict.rule in _SHOWN:  # the code runs later, in the person's terminal
            out.append(
                PieceVerdict(piece.text, piece.program, None, None, f"not granted: {piece.doubt}")
            )
            continue
        if SCRIPT in piece.wrappers and verdict.decision == "ask":  # (`writtenscripts`)
            out.append(
                PieceVerdict(piece.text, piece.program, None, None, f"not granted: {piece.doubt}")
            )
            continue
        mark = (
            (SCRIPT_DENIED if SCRIPT in piece.wrappers else DENIED)
            if verdict.decision == "deny"
            else ASKED
        )
        said = said_of.get((mark, piece.doubt))
        if said is None:
            said = said_of[mark, piece.doubt] = judge(
                Piece(text=piece.text, program="true", wrappers=(mark,), doubt=piece.doubt)
            )
        if said.decision not in ("deny", "ask") or said.rule is None:
            why = f"not granted: {piece.doubt}"
            out.append(PieceVerdict(piece.text, piece.program, None, None, why))
            continue
        inner = f"{verdict.rule}: {verdict.reason}"
        reason = f"{said.reason} (it would run `{piece.text[:160]}`; {inner})"
        out.append(PieceVerdict(piece.text, piece.program, said.decision, said.rule, reason))
    return tuple(out)


def patch_planted(patch: str | None, places: Places, split: Split) -> tuple[Piece, ...]:
    """The planted pieces of every file an ``apply_patch`` patch adds to or updates."""
    if patch is None or len(patch) > MAX_TEXT:
        return ()
    kept = _patch_context(patch) if "proc_macro" in patch else {}
    return tuple(p for path, text, part in patched_parts(patch)
                 for p in planted_pieces(path, text, places, split, part,
                                         kept.get(path, "")))  # fmt: skip


def _patch_context(patch: str) -> dict[str, str]:
    """Each updated file's lines a patch keeps or removes (what the file held around the
    lines it adds)."""
    found: dict[str, list[str]] = {}
    lines: list[str] | None = None
    for line in patch.splitlines():
        header = PATCH_FILE.match(line)
        if header is not None:
            lines = found.setdefault(header.group(2).strip(), [])
        elif lines is not None and line[:1] in (" ", "-"):
            lines.append(line[1:])
    return {path: "\n".join(kept) for path, kept in found.items()}
