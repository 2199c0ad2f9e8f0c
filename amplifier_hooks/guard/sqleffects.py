"""What SQL statements do, read from their tokens (`sqltokens`), worst kinds only.

- **wipe**: ``DROP DATABASE|SCHEMA|TABLE|KEYSPACE``, ``TRUNCATE``, and a ``DELETE`` (or
  ClickHouse's ``ALTER TABLE .. DELETE``) or ``UPDATE`` of every row: no ``WHERE``, or one
  that always holds (``WHERE 1=1``, ``WHERE 1``, ``WHERE true``, ``.. OR 'a'='a'``), and
  MySQL's ``RESET MASTER`` (every binary log: the recovery to a point in time);
- **privilege**: a role made or made a superuser or able to bypass row security, a grant
  to every role (``TO PUBLIC``), row security switched off;
- **opens**: the server set to listen on every address (``listen_addresses = '*'``), or a
  user for any host (``'app'@'%'``) with no password or every privilege;
- **sends**: ClickHouse's ``INSERT INTO FUNCTION url(..)|s3(..)|remote(..)`` and
  Snowflake's ``COPY INTO 's3://..'`` (a URL, not a stage the account keeps: ``@stage``),
  which send the rows to another machine;
- **wipe-production**: a wipe of an object whose name says production (``DROP TABLE
  prod.events``, ``DROP DATABASE ANALYTICS_PROD``, ```acme-data-prod.core.t```);
- **access**: any ``GRANT`` or ``REVOKE``, a share or listing given to other accounts
  (who may reach the data changes).

A warehouse's admin roles granted (Snowflake's ``GRANT ROLE ACCOUNTADMIN TO USER x``) are a
privilege: the whole account's.

Words inside literals, comments and quoted names are never read as keywords.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.sqltokens import Token, statements

__all__ = ["ACCESS", "OPENS", "PRIVILEGE", "SENDS", "WIPE", "WIPE_PRODUCTION", "effects",
           "statement_effects"]  # fmt: skip

WIPE, PRIVILEGE, OPENS, SENDS = "wipe", "privilege", "opens", "sends"
WIPE_PRODUCTION, ACCESS = "wipe-production", "access"
_PRODUCTION_NAME = re.compile(r"(?:^|[-_.])prod(?:uction)?(?:[-_.]|$)", re.I)
"""A database's, schema's or table's name (or one part of it) that says production:
``prod.events``, ``ANALYTICS_PROD``, ``acme-data-prod`` (never ``products``)."""
_ADMIN_ROLES = frozenset({"ACCOUNTADMIN", "SECURITYADMIN", "ORGADMIN", "SYSADMIN",
                          "USERADMIN"})  # fmt: skip
"""Snowflake's system roles: granted to a user or a role, it administers the account."""
_DROPPED = frozenset({"DATABASE", "SCHEMA", "TABLE", "KEYSPACE", "COLLECTION", "OWNED"})
_ENDS_CONDITION = frozenset({"RETURNING", "ORDER", "LIMIT", "SETTINGS"})
_SENDERS = frozenset({"URL", "S3", "REMOTE", "REMOTESECURE", "MYSQL", "POSTGRESQL", "HDFS",
                      "AZUREBLOBSTORAGE", "GCS"})  # fmt: skip
_EVERY_ADDRESS = frozenset({"*", "0.0.0.0", "::"})


def effects(sql: str) -> frozenset[str]:
    """The kinds of effect (`WIPE`, `PRIVILEGE`, `OPENS`, `SENDS`) ``sql``'s statements
    have."""
    return statement_effects(statements(sql))


def statement_effects(read: list[list[Token]]) -> frozenset[str]:
    """`effects` of statements already read (`sqltokens.statements`)."""
    found: set[str] = set()
    for statement in read:
        words = [t.text for t in statement if t.kind == "word"]
        if not words:
            continue
        if _wipes(words, statement):
            found.add(WIPE)
            if _names_production(statement):
                found.add(WIPE_PRODUCTION)
        if words[0] in ("GRANT", "REVOKE") or _shares(words):
            found.add(ACCESS)
        if _gives_privilege(words, statement):
            found.add(PRIVILEGE)
        if words[0] in ("CREATE", "GRANT", "ALTER") and _any_host(statement):
            found.add(OPENS)
        if words[:3] == ["ALTER", "SYSTEM", "SET"] and _every_address(statement):
            found.add(OPENS)
        if words[:3] == ["INSERT", "INTO", "FUNCTION"] and words[3:4] and words[3] in _SENDERS:
            found.add(SENDS)
        if words[:2] == ["COPY", "INTO"] and _into_url(statement):
            found.add(SENDS)
    return frozenset(found)


def _wipes(words: list[str], statement: list[Token]) -> bool:
    """A DROP of a database, schema, table or keyspace, a TRUNCATE, or every row deleted
    or rewritten (ClickHouse's ``ALTER TABLE t DELETE WHERE 1`` too)."""
    first = words[0]
    if first == "TRUNCATE" or (first == "DROP" and words[1:2] and words[1] in _DROPPED):
        return True
    if words[:2] == ["RESET", "MASTER"] or words[:3] == ["RESET", "BINARY", "LOGS"]:
        return True  # every binary log deleted: the point-in-time recovery and replicas' feed
    if first in ("DELETE", "UPDATE"):
        return _every_row(statement)
    if words[:2] == ["ALTER", "TABLE"] and "DELETE" in words:
        return _every_row(statement[statement.index(Token("word", "DELETE")) :])
    return False


def _gives_privilege(words: list[str], statement: list[Token]) -> bool:
    """A role made a superuser (or one that bypasses row security or makes roles), a grant
    to every role, row security switched off."""
    if words[0] in ("CREATE", "ALTER") and words[1:2] in (["ROLE"], ["USER"]):
        return bool({"SUPERUSER", "BYPASSRLS", "CREATEROLE"} & set(words))
    if words[0] == "GRANT":
        return _to_public(statement) or (words[1:2] == ["ROLE"] and words[2:3] != []
                                         and words[2] in _ADMIN_ROLES)  # fmt: skip
    return words[0] == "ALTER" and "DISABLE" in words and "SECURITY" in words


def _shares(words: list[str]) -> bool:
    """Snowflake's share or listing given to other accounts (``ALTER SHARE s ADD ACCOUNTS =
    ..``, ``CREATE LISTING``): another company's users read the tables it holds."""
    if words[:2] == ["ALTER", "SHARE"] or words[:3] == ["ALTER", "LISTING"]:
        return "ACCOUNTS" in words or "PUBLISH" in words
    return words[:2] == ["CREATE", "LISTING"] or words[:4] == ["CREATE", "OR", "REPLACE", "LISTING"]


def _into_url(statement: list[Token]) -> bool:
    """``COPY INTO 'scheme://..'``: the rows unloaded to a URL named in the statement."""
    target = statement[2] if len(statement) > 2 else None
    return target is not None and target.kind == "literal" and "://" in target.text


def _names_production(statement: list[Token]) -> bool:
    """Whether a name the statement gives before its ``WHERE`` says production."""
    for token in statement:
        if token == ("word", "WHERE"):
            return False
        if token.kind in ("word", "ident") and _PRODUCTION_NAME.search(token.text):
            return True
    return False


def _every_row(statement: list[Token]) -> bool:
    """Whether the statement's ``WHERE`` is missing or always holds."""
    where = next((i for i, t in enumerate(statement) if t == ("word", "WHERE")), None)
    if where is None:
        return True
    condition: list[Token] = []
    for token in statement[where + 1 :]:
        if token.kind == "word" and token.text in _ENDS_CONDITION:
            break
        condition.append(token)
    disjunct: list[Token] = []
    for token in [*condition, Token("word", "OR")]:  # any side of an OR that always holds
        if token == ("word", "OR"):
            if _always(disjunct):
                return True
            disjunct = []
        else:
            disjunct.append(token)
    return False


def _always(tokens: list[Token]) -> bool:
    """``1``, ``true``, ``1=1``, ``'a'='a'``, ``(1=1)``: a condition every row meets."""
    while len(tokens) >= 2 and tokens[0] == ("mark", "(") and tokens[-1] == ("mark", ")"):
        tokens = tokens[1:-1]
    if len(tokens) == 1:
        only = tokens[0]
        return only == ("word", "TRUE") or (only.kind == "word" and only.text[:1].isdigit()
                                            and only.text.strip("0.") != "")  # fmt: skip
    if len(tokens) == 3 and tokens[1] == ("mark", "="):
        left, right = tokens[0], tokens[2]
        return left == right and left.kind in ("literal", "word") and left.text != "NULL"
    return False


def _to_public(statement: list[Token]) -> bool:
    """``TO PUBLIC``, or Snowflake's ``TO ROLE PUBLIC`` (every user of the account)."""
    for i, token in enumerate(statement[:-1]):
        if token != ("word", "TO"):
            continue
        after = statement[i + 1 : i + 3]
        if after[:1] == [("word", "PUBLIC")] or after == [("word", "ROLE"), ("word", "PUBLIC")]:
            return True
    return False


def _every_address(statement: list[Token]) -> bool:
    words = [t.text for t in statement if t.kind == "word"]
    literals = [t.text.strip() for t in statement if t.kind == "literal"]
    return "LISTEN_ADDRESSES" in words and any(v in _EVERY_ADDRESS for v in literals)


def _any_host(statement: list[Token]) -> bool:
    """A MySQL account for any host (``'app'@'%'``) given no password or every privilege."""
    hosts = [statement[i + 1] for i, t in enumerate(statement[:-1]) if t == ("mark", "@")]
    if not any(h.kind == "literal" and h.text == "%" for h in hosts):
        return False
    words = [t.text for t in statement if t.kind == "word"]
    empty_password = any(
        statement[i].text == "BY" and statement[i + 1] == ("literal", "")
        for i in range(len(statement) - 1)
    )
    return (
        empty_password
        or ("ALL" in words and "GRANT" in words and "OPTION" in words)
        or ("ALL" in words and Token("mark", "*") in statement)
    )
