"""qpdf's words (``qpdf --decrypt --password-file=~/.secrets/p in.pdf out.pdf``): the
input file and the files its options name are read (a password file is read as the
password, never printed), and only the output, its second operand, is written
(`pathwords`); given one operand (``--check``, ``--show-npages``) it writes nothing.

Options that take files until a ``--`` (``--pages``, ``--overlay``, ``--underlay``), write
the input over (``--replace-input``), split into many outputs (``--split-pages``), read a
job or more words from a file (``--job-json-file``, ``@FILE``), update from JSON or print
the document's key (``--show-encryption-key``) are not read here (None): the words stay
judged as any program's.
"""

from __future__ import annotations

__all__ = ["qpdf_written"]

_APART = ("--pages", "--overlay", "--underlay", "--replace-input", "--split-pages",
          "--job-json-file", "--update-from-json", "--add-attachment", "--copy-attachments-from",
          "--empty", "--show-encryption-key")  # fmt: skip
"""Options whose files are not the two operands (or none: ``--empty`` has no input), and
``--show-encryption-key``, which prints the document's key where the model reads it."""


def qpdf_written(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The file ``qpdf ARGS`` writes (its second operand; none with one operand), or None
    when its words are not read here (module doc)."""
    operands: list[str] = []
    for arg in args:
        if arg == "--" or arg.startswith("@"):
            return None
        if arg.startswith("-"):
            if not arg.startswith("--") or arg.split("=", 1)[0] in _APART:
                return None
            continue  # `--decrypt`, `--password-file=F`: each takes its value glued
        operands.append(arg)
    if len(operands) == 1:
        return ()
    return (operands[1],) if len(operands) == 2 else None
