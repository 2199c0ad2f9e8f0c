"""The viewers of structured data files whose options name places *inside* a file:
``h5dump -d /entry/data -c 10 run.h5`` prints a dataset of an HDF5 file (``/entry/data``
is its path in the file, not on the disk), ``xmllint --xpath '//issue/severity/text()'
report.xml`` prints what an XPath expression selects. Each option is listed with what
its value is: a word (a path in the file, an expression, a count, a format), a file read
(a schema), or a file written (``h5dump -o F``, ``xmllint --output F``). Their operands
are the files they read.

BIND's checkers read the same way: ``named-checkzone example.com db.example.com`` checks
a zone's file.

Any option not listed (``xmllint --shell``, whose commands write files; ``--noent``, which
reads the files a document's entities name; ``h5dump``'s cloud drivers) leaves the call
unread (None): every word stays a path, written, as for any program.
"""

from __future__ import annotations

from typing import NamedTuple

from amplifier_hooks.guard.table.options import Options, opts, read_options

__all__ = ["DATA_VIEWERS", "ViewerFiles", "viewer_files"]

_H5DUMP = opts(
    "-h,--help -V,--version -n,--contents=? -B,--superblock -H,--header -A,--onlyattr=? "
    "-i,--object-ids -r,--string -e,--escape -p,--properties -y,--noindex -R,--region "
    "-x,--xml -u,--use-dtd -a,--attribute= -d,--dataset= -g,--group= -l,--soft-link= "
    "-t,--datatype= -N,--any_path= -s,--start= -S,--stride= -c,--count= -k,--block= "
    "-w,--width= -m,--format= -D,--xml-dtd= -X,--xml-ns= -q,--sort_by= -z,--sort_order= "
    "-M,--packedbits= -b,--binary=? -o,--output=:write -O,--ddl=:write",
    abbreviations=False,
)
"""h5dump's options (HDF5 1.10 to 1.14). ``-o`` and ``-O`` are read as taking the next
word, which is then written: a file named that way is never missed."""
_XMLLINT = opts(
    "--version --debug --recover --huge --noenc --nocdata --nsclean --noout --nonet "
    "--nowarning --noblanks --format --encode= --xpath= --pattern= --pretty= --output=:write "
    "-o=:write --html --xmlout --nodict --dropdtd --timing --repeat --stream --walker "
    "--quiet --c14n --c14n11 --exc-c14n --oldxml10 --maxmem= --schema=:read "
    "--relaxng=:read --valid --postvalid --dtdvalid=:read --schematron=:read",
    abbreviations=False,
)
"""xmllint's options that print or check what it reads (libxml2 2.9 to 2.13)."""
_CHECKZONE = opts(
    "-d -h -j -q -v -D -c= -f= -F= -i= -J=:read -k= -l= -L= -m= -M= -n= -o=:write -r= -s= "
    "-S= -T= -W=",
    abbreviations=False,
)
"""BIND's named-checkzone and named-compilezone (9.16 to 9.20): they check a zone file,
an operand, and print what is wrong; ``-o`` writes the zone out. (``-t`` and ``-w``, a
chroot and a working folder, are not read: the zone's file is then elsewhere.)"""
_CHECKCONF = opts("-h -j -l -v -z -p -x -c", abbreviations=False)
"""BIND's named-checkconf: reads named.conf (an operand) and prints it (``-p``) or what
is wrong with it and its zones (``-z``)."""
_TABLES: dict[str, Options] = {"h5dump": _H5DUMP, "xmllint": _XMLLINT,
                               "named-checkzone": _CHECKZONE, "named-compilezone": _CHECKZONE,
                               "named-checkconf": _CHECKCONF}  # fmt: skip
DATA_VIEWERS = frozenset(_TABLES)


class ViewerFiles(NamedTuple):
    """The files a viewer reads and writes."""

    read: tuple[str, ...]
    written: tuple[str, ...]


def viewer_files(program: str, args: tuple[str, ...]) -> ViewerFiles | None:
    """The files ``program args`` reads and writes (None: not a viewer of `DATA_VIEWERS`,
    or a word the table does not read)."""
    options = _TABLES.get(program)
    if options is None:
        return None
    read = read_options(options, args)
    if read.doubt is not None or any(g.opt.does == "unknown" for g in read.given):
        return None
    written = read.values("write")
    if any(g.opt.does == "write" and g.value is None for g in read.given):
        return None  # (`--ddl` with no file: which word it takes is not certain)
    return ViewerFiles((*read.values("read"), *read.operands), written)
