"""Nothing a person cannot get back: a delete, discard or overwrite is granted only on
evidence that it loses no work, and asked when it would.

Deleting what git ignores and a build or an install makes again (build outputs,
``node_modules``, caches: `ignorednames`) or what git can give back (a tracked file with
no change) loses nothing; an ignored database, state file or ``.env`` is asked, and another
ignored path gets no grant. Deleting, discarding or truncating a changed
file, an untracked file git does not ignore, the commits only a branch or tag reaches, or
a worktree with changes loses work: asked. Where the guard cannot tell (no repository,
git too slow, a path known only at run time) the grant is taken away and the host decides.
Secrets by name are judged here too, in any case and with their backups: reading a key is
denied, reading a ``.env`` asked, overwriting or deleting one that exists asked.

The facts come from `repo.ask_git`, asked before judging (`asks_of` says what to ask);
`review` is pure: the pieces, their verdicts, the places and git's answer in.
"""

from __future__ import annotations

import os

from amplifier_hooks.guard.archivechanges import PACKERS, packed_and_deleted
from amplifier_hooks.guard.emptiers import EMPTIERS, emptied
from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.findnames import NAMES_LISTED
from amplifier_hooks.guard.gitlosses import git_losses, no_git_losses
from amplifier_hooks.guard.keyusers import unshown_secrets
from amplifier_hooks.guard.lookalikes import lookalike_path
from amplifier_hooks.guard.lossrules import RULES
from amplifier_hooks.guard.lost import Loss, happens, ignored_stake
from amplifier_hooks.guard.minus import minus
from amplifier_hooks.guard.model import DECISION_RANK, Piece, PieceVerdict, Places
from amplifier_hooks.guard.outputfiles import OUTPUT_WRITERS, output_files
from amplifier_hooks.guard.overwrites import FILE_WRITERS, WRITERS, moved_out, overwritten
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.paths import GLOB_CHARS, Located, locate_all
from amplifier_hooks.guard.readings import READINGS_KEPT, Reading
from amplifier_hooks.guard.recurring import Sightings
from amplifier_hooks.guard.redirects import appended_only
from amplifier_hooks.guard.repo import GitQuery, RepoFacts, in_new_folder, repository_of
from amplifier_hooks.guard.searchfilters import filtered_secrets
from amplifier_hooks.guard.secretfolders import holds_key
from amplifier_hooks.guard.secrets import lost_unseen, maybe_secret, secret_kind, shows_text
from amplifier_hooks.guard.table import PATTERN_FIRST, patterned
from amplifier_hooks.guard.table.options import looks_like_option
from amplifier_hooks.guard.table.text import SEARCHES
from amplifier_hooks.guard.valueless import COUNTED, NAMES_READ, VALUES_UNREAD

__all__ = ["RULES", "asks_of", "losses_of", "review"]  # RULES: `lossrules`

_VALUELESS = frozenset({VALUES_UNREAD, NAMES_READ})
_ENV_RULES = ("env-file-read", "env-file-print")  # a .env read: asked; shown (`shows_text`): denied
DELETERS = frozenset({"rm", "unlink", "trash", "trash-put", "gio", "shred", "srm"})
_NOT_READING = frozenset(
    {"ls", "stat", "test", "[", "[[", "chmod", "chown", "touch", "mkdir", "rm", "rmdir",
     "unlink", "trash", "mv", "list_dir", "glob", "ssh-add", "realpath", "readlink", "file",
     "shred", "srm"}
)  # fmt: skip
_NULLS = frozenset({"/dev/null", "if=/dev/null"})
_IGNORED_DATA = "ignored-data-loss"


def asks_of(pieces: tuple[Piece, ...], places: Places, command: str | None) -> list[GitQuery]:
    """What to ask git before judging the ``pieces`` of a call (`policy.pieces_for`; empty:
    its verdict needs no git facts)."""
    asks: list[GitQuery] = []
    if command is not None and any(p.program and not p.program.islower() for p in pieces):
        pieces += parse_command(command.lower()).pieces  # judged in lower case too (`FIND`)
    for piece in pieces:
        if piece.program is not None and not piece.program.islower():
            piece = piece._replace(program=piece.program.lower())
        if _may_lose(piece):
            asks.extend(loss.ask for loss in losses_of(piece, places, command)
                        if loss.ask is not None and not loss.certain)  # fmt: skip
    return asks


def _may_lose(piece: Piece) -> bool:
    program = piece.program
    return program is not None and (
        program in DELETERS or program == "git" or program == "truncate" or bool(piece.writes)
        or program in WRITERS or piece.tool in FILE_WRITERS or program in EMPTIERS
        or program in OUTPUT_WRITERS or program in PACKERS
    )  # fmt: skip


def losses_of(piece: Piece, places: Places, command: str | None,
              facts: Facts | None = None) -> list[Loss]:  # fmt: skip
    """What ``piece`` (of ``command``) could lose, each with the question that tells
    (``facts``: the piece's, when the rules have them)."""
    if piece.opaque is not None or piece.program is None:
        return []
    found: list[Loss] = []
    program = piece.program
    if program in DELETERS or program == "truncate":
        rule = "rm-loses-work" if program != "truncate" else "truncate-loses-work"
        facts = facts if facts is not None else Facts(piece, places)
        found += _path_losses(rule, facts.paths("read"), places, program, deleting=True)
    elif program == "git":
        found += git_losses(piece, places)
    elif program in WRITERS or (piece.tool in FILE_WRITERS and not piece.writes):
        # a file tool's write of no text is `> FILE`: judged below, as a truncation
        empties = not _NULLS.isdisjoint(piece.args)  # `cp /dev/null .env` empties it: no copy
        found += _path_losses("overwrite-loses-work", overwritten(piece, places, facts), places,
                              "" if empties else program, deleting=False)  # fmt: skip
        if program == "mv":  # `mv src /tmp/src`: gone from the project, as deleted there
            found += _path_losses("rm-loses-work", moved_out(piece, places), places, program,
                                  deleting=True)  # fmt: skip
    elif program in PACKERS:  # `tar --remove-files`, `zip -m`, `7z a -sdel`: deleted once packed
        packed = packed_and_deleted(piece, places)
        found += _path_losses("rm-loses-work", locate_all(packed, piece.cwd, places), places,
                              program, deleting=True)  # fmt: skip
    elif program in EMPTIERS:  # `sed -i d F`, `vim -es -c '%d' -c wq F`: `> F`
        kept_none = emptied(program, piece.args)
        if kept_none:
            located = locate_all(kept_none, piece.cwd, places)
            found += _path_losses("truncate-loses-work", located, places, "", deleting=False)
    if program in OUTPUT_WRITERS:  # `sed -n 'w F'`, `tree -o F`: F's text replaced, as by tee
        outputs = output_files(piece)
        if outputs:
            found += _path_losses("overwrite-loses-work", locate_all(outputs, piece.cwd, places),
                                  places, program, deleting=False)  # fmt: skip
    if piece.writes:
        appended = appended_only(command) if command else frozenset()
        truncated = tuple(w for w in piece.writes if w not in appended)
        located = locate_all(truncated, piece.cwd, places)
        found += _path_losses("truncate-loses-work", located, places, "", deleting=False)
    return found


def _path_losses(rule: str, located: tuple[Located, ...], places: Places, program: str,
                 deleting: bool) -> list[Loss]:  # fmt: skip
    found: list[Loss] = []
    for path in located:
        where = path.where
        if "unknown" in where:
            found.append(Loss(rule, path.path, None))
            continue
        if lost_unseen(path.path, program):  # asked whether or not it is there to see
            found.append(Loss("secret-overwrite", path.path.removesuffix("/…"), None, certain=True))
            continue
        if "inside_workspace" not in where and "workspace_root" not in where:
            if _existing_secret(path.path):  # a key in ~/ or /tmp is as secret
                found.append(Loss("secret-overwrite", path.path, None, certain=True))
            continue  # outside the workspace the place rules judge it
        loss = _loss_of_path(rule, path.path.removesuffix("/…"), deleting,
                             places.known.workspace)  # fmt: skip
        found += [x._replace(found=True) for x in loss] if path.path.endswith("/…") else loss
    return found


def _loss_of_path(rule: str, path: str, deleting: bool, workspace: str) -> list[Loss]:
    name = path.rsplit("/", 1)[-1]
    globbed = not GLOB_CHARS.isdisjoint(name)
    parent = os.path.dirname(path)
    if not os.path.isdir(parent):
        if not globbed and in_new_folder(parent, workspace):
            return []  # its folder is yet to be made: no file there to lose
        return [Loss(rule, path, None)]  # not there to look at: cannot tell
    if not globbed:
        if not os.path.lexists(path):
            return []  # nothing there to lose: creating or deleting nothing
        if _existing_secret(path) or (deleting and os.path.isdir(path) and holds_key(path)):
            return [Loss("secret-overwrite", path, None, certain=True)]  # (`rm -rf ios/certs`)
        if deleting and os.path.isdir(os.path.join(path, ".git")) and not os.path.islink(path):
            # a repository's own folder: its history goes with it, whatever its status says
            return [Loss(rule, path + "/.git", None, certain=True)]
    elif deleting and secret_kind(name) is not None:
        return [Loss("secret-overwrite", path, None, certain=True)]
    root = repository_of(path if not globbed and os.path.isdir(path) else parent)
    if root is None:
        return [Loss(rule, path, None)]
    spec = os.path.relpath(path, root) if path != root else "."
    return [Loss(rule, path, GitQuery("status", root, frozenset({spec})), spec)]


def _existing_secret(path: str) -> bool:
    return secret_kind(path) is not None and os.path.lexists(path)


def review(facts: tuple[Facts, ...], verdicts: tuple[PieceVerdict, ...],
           repo: RepoFacts | None, command: str | None,
           enabled: frozenset[str]) -> tuple[PieceVerdict, ...]:  # fmt: skip
    """``verdicts`` with this layer's rules applied to the pieces the rules judged (their
    ``facts``): a loss is asked, a secret read denied or asked, and a grant taken away where
    the guard cannot tell."""
    changed: list[PieceVerdict] | None = None
    for index, piece_facts in enumerate(facts):
        verdict = verdicts[index]
        if verdict.decision == "deny" or piece_facts.piece.program is None:
            continue
        if piece_facts.reading is not None and _kept_inert(piece_facts):
            continue  # a recurring piece this layer leaves as it is (`_inert`)
        found = _review(piece_facts, verdict, repo, command, enabled)
        if found is not verdict:
            if changed is None:
                changed = list(verdicts)
            changed[index] = found
    return verdicts if changed is None else tuple(changed)


_INERT: dict[int, tuple[Reading, bool]] = {}
_INERT_SIGHTED = Sightings(READINGS_KEPT)


def _kept_inert(facts: Facts) -> bool:
    """`_inert` of a piece whose reading is kept (`readings`), kept beside that reading
    (by its identity, the reading held so the identity is not reused) from the pair's
    second sight on: `git status` in a new line at every call is screened once, not its
    words searched for secrets and git's losses at each (``bench_guard``'s fresh row)."""
    reading = facts.reading
    key = id(reading)
    found = _INERT.get(key)
    if found is not None and found[0] is reading:
        return found[1]
    inert = _inert(facts.piece)
    if reading is not None and _INERT_SIGHTED.again(key):
        if len(_INERT) >= READINGS_KEPT:
            _INERT.clear()
        _INERT[key] = (reading, inert)
    return inert


def _inert(piece: Piece) -> bool:
    """Whether `_review` leaves any verdict on ``piece`` as it is, told from the piece
    alone (its words, whatever the places, git's answers and the command): a bash piece of
    ASCII words naming nothing of a secret's name, no search, no redirection, and nothing
    it may lose but a git call of no discarding subcommand and no output file (False
    whenever unsure: `_review` then looks)."""
    args = piece.args
    joined = "\x00".join(args)
    if piece.tool != "bash" or piece.reads or piece.writes or not joined.isascii():
        return False
    if piece.program in SEARCHES or maybe_secret(joined):
        return False
    if not _may_lose(piece):
        return True
    return piece.program == "git" and no_git_losses(args) and not output_files(piece)


def _not_patterns(piece: Piece) -> tuple[str, ...]:
    """The arguments but those a search or sed reads as its pattern or script (``grep -rn
    '—' docs/`` looks for an em dash: it reads as no option to a person either)."""
    if piece.program not in PATTERN_FIRST:
        return piece.args
    return minus(piece.args, patterned(piece.program or "", piece.args)[0])


def _review(facts: Facts, verdict: PieceVerdict, repo: RepoFacts | None,
            command: str | None, enabled: frozenset[str]) -> PieceVerdict:  # fmt: skip
    piece, places = facts.piece, facts.places
    best: tuple[str, str] | None = None
    rank = DECISION_RANK[verdict.decision]
    unsure = False
    args = piece.args
    joined = "\x00".join(args)
    shown = looks_like_option(_not_patterns(piece)) if not joined.isascii() else None
    if shown is not None and "guard-lookalike" in enabled:
        best, rank = _stronger(best, rank, "guard-lookalike", shown[:40])
    odd = lookalike_path(args) if piece.tool != "bash" else None  # a file tool's paths
    if odd is not None and "guard-lookalike-path" in enabled:
        best, rank = _stronger(best, rank, "guard-lookalike-path", ascii(odd)[1:-1][:80])
    filtered = filtered_secrets(piece) if piece.program in SEARCHES else []
    if filtered or ((maybe_secret(joined) or piece.reads) and any(
        secret_kind(a) is not None for a in _shown(piece, piece.reads) if a
    )):  # fmt: skip
        for kind, path in (*_secrets_read(facts), *filtered):
            if kind == "env" and not _VALUELESS.isdisjoint(piece.wrappers):
                continue  # `wc -l .env`, `grep -q '^KEY=' .env`, `cut -d= -f1 .env`
            if COUNTED in piece.wrappers:  # `wc -l ~/.ssh/id_ed25519`: a count of its lines
                unsure = True  # (shown nothing, but a key's read is never granted)
                continue
            if NAMES_LISTED in piece.wrappers:
                continue  # `find . -name '*.pem'` prints names (guard/findnames.py)
            printed = "env-file-print" in enabled and shows_text(piece)
            rule = "secret-file-read" if kind == "key" else _ENV_RULES[printed]
            if rule in enabled:
                best, rank = _stronger(best, rank, rule, path)
    if _may_lose(piece):
        for loss in losses_of(piece, places, command, facts):
            if loss.rule not in enabled:
                continue
            lost = happens(loss, repo)
            if lost:
                best, rank = _stronger(best, rank, loss.rule, loss.what)
            elif lost is None:
                unsure = True
            elif (stake := ignored_stake(loss, repo)) is not None:  # ignored: made again?
                if stake[0] == "data" and _IGNORED_DATA in enabled:
                    best, rank = _stronger(best, rank, _IGNORED_DATA, stake[1])
                else:
                    unsure = True  # ignored, yet not known to be made again: no grant
    if best is not None:
        decision, reason = RULES[best[0]]
        return PieceVerdict(verdict.text, verdict.program, decision, best[0],
                            reason.format(what=best[1]))  # fmt: skip
    if verdict.decision == "allow" and unsure:
        return PieceVerdict(verdict.text, verdict.program, None, None, None)
    return verdict


def _shown(piece: Piece, reads: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The arguments (and ``reads``: the files redirected in) whose secrets the program
    may show (`keyusers`: ``keytool -list`` reads a keystore for its certificates,
    fastlane signs requests with its key, ``wg pubkey < KEY`` prints the public half)."""
    unshown = unshown_secrets(piece)
    words = (*piece.args, *reads)
    return tuple(a for a in words if a not in unshown) if unshown else words


def _stronger(best: tuple[str, str] | None, rank: int, rule: str,
              what: str) -> tuple[tuple[str, str] | None, int]:  # fmt: skip
    mine = DECISION_RANK[RULES[rule][0]]
    return ((rule, what), mine) if mine > rank else (best, rank)


def _secrets_read(facts: Facts) -> list[tuple[str, str]]:
    """(kind, path) of each secret by name that ``piece`` reads (a search pattern or a
    copy's new destination is not read: `Facts.paths`)."""
    piece = facts.piece
    if piece.program in _NOT_READING or piece.tool in _NOT_READING:
        return []
    found: list[tuple[str, str]] = []
    for located in facts.paths("read"):
        kind = secret_kind(located.path)
        if kind is not None:
            found.append((kind, located.path))
    return found
