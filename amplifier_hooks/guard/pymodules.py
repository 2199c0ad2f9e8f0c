"""``python -m TOOL ...`` runs the tool the pack judges by name: ``python -m mkdocs
gh-deploy`` publishes the site as ``mkdocs gh-deploy`` does, ``python -m twine upload``
uploads, ``python -m keyring get S U`` prints a password. `unwrap` judges the tool's
words as that program's too (beside the Python piece, which is never granted), so every
rule and table entry on the program meets its module spelling.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.python import is_python, python_read

__all__ = ["MODULE_PROGRAMS", "module_program"]

MODULE_PROGRAMS = {
    "pip": "pip", "pip3": "pip", "twine": "twine", "mkdocs": "mkdocs",
    "sphinx": "sphinx-build", "build": "pyproject-build", "flit": "flit", "poetry": "poetry",
    "hatch": "hatch", "pdm": "pdm", "pipx": "pipx", "uv": "uv", "pre_commit": "pre-commit",
    "awscli": "aws", "jupyter": "jupyter", "notebook": "jupyter-notebook",
    "celery": "celery", "alembic": "alembic", "keyring": "keyring", "dvc": "dvc",
    "ansible": "ansible", "pytest": "pytest", "huggingface_hub.commands.huggingface_cli":
    "huggingface-cli", "conda": "conda", "gunicorn": "gunicorn", "uvicorn": "uvicorn",
}  # fmt: skip
"""Modules whose ``python -m`` runs the command-line program of that name (Sphinx's is
``sphinx-build``, build's ``pyproject-build``, pre-commit's module ``pre_commit``)."""


def module_program(program: str, args: tuple[str, ...]) -> tuple[str, int] | None:
    """The program ``program args`` runs as ``python -m MODULE`` (of `MODULE_PROGRAMS`),
    and the index in ``args`` of its first word; None: not such a call. A cheap test
    first: most Python calls run a script."""
    if not any(a[:2] == "-m" for a in args[:6]) or not is_python(program):
        return None
    read, rest = python_read(args)
    modules = [g.value for g in read.given if g.opt.does == "module"]
    if read.doubt is not None or len(modules) != 1 or modules[0] not in MODULE_PROGRAMS:
        return None
    return MODULE_PROGRAMS[modules[0] or ""], len(args) - len(rest)
