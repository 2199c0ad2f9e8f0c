"""Django's management commands, read as what each does to the database its settings
point at: a wipe, a change, a print of its settings, or a look.

``python manage.py flush`` on the developer's own database is everyday; the same command
pointed at production (``--settings=config.settings.production``, ``DJANGO_SETTINGS_MODULE``
naming it, or run there by a platform's runner: `prodruns`) takes the customers' data. So
the command is read here once, as its program reads it, and `prodruns` decides by where it
runs. A command the table does not name (a project's own) is a change: its code is the
project's, and what it does to production is not known.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.options import opts, read_options
from amplifier_hooks.guard.table.python import is_python

__all__ = [
    "CHANGE",
    "LOOK",
    "PRINTS_SQL",
    "SECRETS",
    "STDIN_CODE",
    "WIPE",
    "manage_command",
    "manage_kind",
    "settings_module",
]

WIPE, SECRETS, CHANGE, LOOK = "wipe", "secrets", "change", "look"
"""What a command does to the database or machine it runs against, worst first."""

_WIPES = frozenset({"flush", "reset_db", "reset_schema"})
"""Commands that empty or drop the whole database (``reset_db``, ``reset_schema``: the
django-extensions commands)."""
_LOOKS = frozenset(
    {"check", "showmigrations", "sqlmigrate", "sqlflush", "sqlsequencereset", "help", "version",
     "inspectdb", "makemigrations", "show_urls", "validate_templates",
     "test", "runserver", "collectstatic", "findstatic", "compilemessages", "makemessages"}
)  # fmt: skip
"""Commands that change no database: they print, or work on the project's files (a test
run makes its own ``test_`` database). ``diffsettings`` prints the settings' values
(SECRET_KEY, the database's password): of production, that is for a person to allow."""
PRINTS_SQL = frozenset({"sqlmigrate", "sqlflush", "sqlsequencereset"})
"""Commands that print SQL a client may be fed (``sqlmigrate --backwards X | psql``)."""
STDIN_CODE = frozenset({"shell", "shell_plus", "dbshell"})
"""Commands that run the code or SQL on their input when given none on the command line."""
_SETTINGS = "--settings"
_OPTIONS = opts(f"{_SETTINGS}= --pythonpath= --database= -v,--verbosity= -c,--command= "
               "-i,--interface= -o,--output= --format=", abbreviations=False)  # fmt: skip
"""Options whose value is the next word (never an app label or migration); any other is
read as taking none, and no abbreviation is read, so no operand is taken for a value."""


def manage_command(program: str | None, args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The management command's words (its name first) when ``program args`` runs one:
    ``python manage.py NAME ..``, ``./manage.py NAME``, ``django-admin NAME``, ``python -m
    django NAME``; None otherwise."""
    if program is None:
        return None
    if program in ("django-admin", "manage.py"):
        rest = args
    elif is_python(program):
        if args[:1] and args[0].endswith("manage.py"):
            rest = args[1:]
        elif args[:2] == ("-m", "django"):
            rest = args[2:]
        else:
            return None
    else:
        return None
    words = _words(rest)
    return words if words else None


def manage_kind(words: tuple[str, ...], whole: tuple[str, ...]) -> str:
    """What the command ``words`` (`manage_command`; ``whole``: every word given, options
    too) does to its database."""
    name = words[0]
    if name in _WIPES:
        return WIPE
    if name == "migrate":
        if "--plan" in whole or "--check" in whole:
            return LOOK
        if "--fake" in whole or "--fake-initial" in whole:
            return CHANGE  # (the migration records change; no table is touched)
        # `migrate APP zero` unapplies every migration of the app (its tables dropped);
        # `migrate APP 0007` unapplies those after 0007 when they were applied
        return WIPE if len(words) > 2 else CHANGE
    if name in _LOOKS:
        return LOOK
    return CHANGE


def settings_module(args: tuple[str, ...], env: tuple[str, ...]) -> str:
    """The settings module the command runs with: ``--settings X`` (or ``=X``) given, else
    ``DJANGO_SETTINGS_MODULE`` among ``env`` (``NAME=value`` words); "" when neither."""
    for index, arg in enumerate(args):
        if arg.startswith(_SETTINGS + "="):
            return arg.partition("=")[2]
        if arg == _SETTINGS and index + 1 < len(args):
            return args[index + 1]
    for setting in env:
        name, _, value = setting.partition("=")
        if name == "DJANGO_SETTINGS_MODULE":
            return value
    return ""


def _words(args: tuple[str, ...]) -> tuple[str, ...]:
    """The command's name and operands: options and their values left out."""
    return read_options(_OPTIONS, args).operands
