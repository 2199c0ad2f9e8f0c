"""Programs that reach other machines: ssh, scp and rsync. Never granted (each reaches a
host); read here so that what else they run is named: ``ssh -o ProxyCommand=...``,
``-o LocalCommand``, ``rsync -e``/``--rsync-path``, and what ``rsync --delete`` removes.
sftp's and ssh-add's options are listed for the keys they are handed (`identities`:
``-i KEY`` is an ``identity``, a key ssh signs with and never shows)."""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry
from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["NETWORKING", "SCP", "SFTP", "SSH", "SSH_ADD"]

_RUNS_OPTION = re.compile(r"^(proxycommand|localcommand|permitlocalcommand|knownhostscommand"
                          r"|match|remotecommand|include)\b", re.I)  # fmt: skip
SSH = opts("-4 -6 -A -a -C -f -G -g -K -k -M -N -n -q -s -T -t -V -v -X -x -Y -B= -b= -c= "
           "-D= -E=:write -e= -F=:doubt -I= -i=:identity -J=:network -L= -l= -m= -O= -o=:option "
           "-P= -p= -Q= -R= -S=:doubt -W= -w=", permute=False)  # fmt: skip
SCP = opts("-3 -4 -6 -A -B -C -O -p -q -R -r -T -v -c= -D= -F=:doubt -i=:identity "
           "-J=:network -l= -o=:option -P= -S=:run -X=")  # fmt: skip
SFTP = opts("-4 -6 -A -a -C -f -N -p -q -r -v -B= -b=:read -c= -D=:run -F=:doubt -i=:identity "
            "-J=:network -l= -o=:option -P= -R= -S=:run -s= -X=", permute=False)  # fmt: skip
SSH_ADD = opts("-C -c -D -d -K -k -L -l -q -T -v -X -x -E= -e= -H= -h= -S= -s= -t=",
               permute=False)  # fmt: skip
"""sftp's and ssh-add's options (OpenSSH's getopt: short only; `identities` reads where
each key is given)."""
RSYNC = opts(
    "-v,--verbose -q,--quiet -c,--checksum -a,--archive -r,--recursive -R,--relative "
    "-b,--backup --backup-dir=:write --suffix= -u,--update --inplace --append "
    "-d,--dirs -l,--links -L,--copy-links -k,--copy-dirlinks -K,--keep-dirlinks "
    "-H,--hard-links -p,--perms -E,--executability -o,--owner -g,--group -D --devices "
    "--specials -t,--times -O,--omit-dir-times -S,--sparse -n,--dry-run:dry "
    "-W,--whole-file -x,--one-file-system -e,--rsh=:run --rsync-path=:run --existing "
    "--ignore-existing --remove-source-files:moves --delete:delete --delete-before:delete "
    "--delete-during:delete --delete-delay:delete --delete-after:delete "
    "--delete-excluded:delete --delete-missing-args:delete --force --max-delete= "
    "--max-size= --min-size= --partial --partial-dir= -m,--prune-empty-dirs "
    "--numeric-ids --timeout= -I,--ignore-times --size-only -z,--compress "
    "--exclude= --include= --exclude-from=:read --include-from=:read -f,--filter= "
    "-F --files-from=:read -0,--from0 --progress -P -h,--human-readable --stats "
    "-i,--itemize-changes --log-file=:write --info= --debug= --chmod= --chown= "
    "--usermap= --groupmap= --port= --password-file=:read --mkpath --help --version "
    "-A,--acls -X,--xattrs -U,--atimes -N,--crtimes --no-perms --no-owner --no-group "
    "--no-times --safe-links --copy-unsafe-links --ignore-errors --delay-updates "
    "--append-verify --list-only --bwlimit= --compress-level= --zc= --zl= --cc= "
    "-y,--fuzzy --compare-dest= --copy-dest= --link-dest= --modify-window= --contimeout=",
)
_REMOTE = re.compile(r"^[^/]*:|^rsync://")


def _ssh(args: tuple[str, ...]) -> Reading:
    read = read_options(SSH, args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    acts = [Act(Does.NETWORK, read.operands[0] if read.operands else "")]
    for given in read.given:
        if given.opt.does == "doubt":
            return doubtful(f"ssh {given.opt.names[0]} reads settings the guard does not")
        if given.opt.does == "option" and _RUNS_OPTION.match(given.value or ""):
            acts.append(Act(Does.RUN, given.value or ""))
        elif given.opt.does == "identity":  # read to sign with (never shown: `identities`)
            acts.append(Act(Does.READ, given.value or ""))
    return Reading(tuple(acts))


def _scp(args: tuple[str, ...]) -> Reading:
    read = read_options(SCP, args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    acts = [Act(Does.NETWORK, o) for o in read.operands if _REMOTE.match(o)]
    for given in read.given:
        if given.opt.does == "doubt":
            return doubtful(f"scp {given.opt.names[0]} reads settings the guard does not")
        if given.opt.does == "run" or (
            given.opt.does == "option" and _RUNS_OPTION.match(given.value or "")
        ):
            acts.append(Act(Does.RUN, given.value or ""))
    local = [o for o in read.operands if not _REMOTE.match(o)]
    if read.operands and _REMOTE.match(read.operands[-1]):  # an upload: every local is sent
        acts += acts_of(Does.READ, local)
    else:
        acts += acts_of(Does.READ, local[:-1]) + acts_of(Does.WRITE, local[-1:])
    return Reading(tuple(acts))


def _rsync(args: tuple[str, ...]) -> Reading:
    read = read_options(RSYNC, args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    if len(read.operands) < 2:
        return doubtful("rsync with one operand lists a remote folder")
    *sources, destination = read.operands
    acts: list[Act] = []
    for given in read.given:
        if given.opt.does in ("run", "read", "write"):
            does = {"run": Does.RUN, "read": Does.READ, "write": Does.WRITE}[given.opt.does]
            acts.append(Act(does, given.value or ""))
    for place in (*sources, destination):
        if _REMOTE.match(place):
            acts.append(Act(Does.NETWORK, place))
    acts += [Act(Does.READ, s) for s in sources if not _REMOTE.match(s)]
    if not read.has("dry") and not _REMOTE.match(destination):
        acts += [Act(Does.WRITE, destination), Act(Does.LINK, destination)]
        if read.has("delete"):
            acts.append(Act(Does.DELETE, destination))
    if read.has("moves"):
        acts += [Act(Does.DELETE, s) for s in sources if not _REMOTE.match(s)]
    return Reading(tuple(acts))


NETWORKING: dict[str, Entry] = {"ssh": _ssh, "scp": _scp, "rsync": _rsync}
