"""What a hosted warehouse's statements do to the account's protections and its bill.

A warehouse (Snowflake, BigQuery) keeps its users' data safe by the account's settings
rather than a server's files: a column's masking policy or a table's row access policy
(who sees an email in the clear), the network policy (from where anyone may log in), the
time travel that brings a dropped table back (``DATA_RETENTION_TIME_IN_DAYS``), the
settings that keep rows from being unloaded to an arbitrary URL, and multi-factor
authentication. A statement that unsets or drops one of these, or turns it to its weak
side, is `safety_off`; the account's are every connection's, and a retention cut to
nothing counts on production only (a scratch schema's is the person's own).

Compute is billed by size and time: a warehouse made or resized, left running
(``AUTO_SUSPEND = 0``), scaled out, or a resource monitor (the bill's cap) changed or
dropped, is `spends`.
"""

from __future__ import annotations

from amplifier_hooks.guard.sqltokens import Token

__all__ = ["safety_off", "spends"]

_POLICIES = frozenset({"MASKING", "ROW", "NETWORK", "AUTHENTICATION", "PASSWORD", "SESSION",
                       "AGGREGATION", "PROJECTION"})  # fmt: skip
"""The words before ``POLICY`` that name a protection (``UNSET MASKING POLICY``,
``DROP ROW ACCESS POLICY``, ``UNSET NETWORK_POLICY`` is `_UNSET_SETTINGS`')."""
_UNSET_SETTINGS = frozenset({"NETWORK_POLICY", "AUTHENTICATION_POLICY", "PASSWORD_POLICY",
                             "SESSION_POLICY", "MASKING_POLICY"})  # fmt: skip
_FALSE_WEAKENS = frozenset({"PREVENT_UNLOAD_TO_INLINE_URL", "PREVENT_UNLOAD_TO_INTERNAL_STAGES",
                            "REQUIRE_STORAGE_INTEGRATION_FOR_STAGE_CREATION",
                            "REQUIRE_STORAGE_INTEGRATION_FOR_STAGE_OPERATION",
                            "ENFORCE_NETWORK_RULES_FOR_INTERNAL_STAGES",
                            "PREVENT_LOAD_FROM_INLINE_URL"})  # fmt: skip
"""Settings whose ``FALSE`` lets rows leave, or stages be made, without the account's
integration (``PREVENT_UNLOAD_TO_INLINE_URL = FALSE``: ``COPY INTO 's3://anyone'``)."""
_TRUE_WEAKENS = frozenset({"DISABLE_MFA"})
_ANY_VALUE_WEAKENS = frozenset({"MINS_TO_BYPASS_MFA", "MINS_TO_BYPASS_NETWORK_POLICY"})
_RETENTION = frozenset({"DATA_RETENTION_TIME_IN_DAYS"})
_COMPUTE = frozenset({"WAREHOUSE", "COMPUTE", "RESOURCE"})
"""What a ``CREATE``/``ALTER``/``DROP`` names that bills: a warehouse, a compute pool, a
resource monitor (``RESOURCE MONITOR``)."""
_BILLED = frozenset({"WAREHOUSE_SIZE", "AUTO_SUSPEND", "MAX_CLUSTER_COUNT", "MIN_CLUSTER_COUNT",
                     "CREDIT_QUOTA", "RESOURCE_MONITOR", "MAX_NODES", "MIN_NODES",
                     "INSTANCE_FAMILY", "SCALING_POLICY", "WAREHOUSE_TYPE"})  # fmt: skip
_SMALL = frozenset({"XSMALL", "X-SMALL", "SMALL"})


def safety_off(read: list[list[Token]], production: bool) -> bool:
    """Whether a statement of ``read`` takes one of the account's protections away
    (``production``: the connection says production, where a retention cut counts)."""
    for statement in read:
        upper = [t.text.upper() for t in statement if t.kind in ("word", "literal")]
        if not upper or upper[0] not in ("ALTER", "DROP", "CREATE"):
            continue
        if upper[0] == "DROP" and "POLICY" in upper[:4] and not _POLICIES.isdisjoint(upper[1:3]):
            return True  # `DROP MASKING POLICY`, `DROP ROW ACCESS POLICY`
        account = upper[1:2] == ["ACCOUNT"]
        for i, word in enumerate(upper):
            after = upper[i + 1 : i + 3]
            if word in ("UNSET", "DROP") and _names_policy(after):
                return True  # `MODIFY COLUMN EMAIL UNSET MASKING POLICY`
            value = after[0] if after else ""
            if word in _FALSE_WEAKENS and value in ("FALSE", "0"):
                return True
            if word in _TRUE_WEAKENS and value in ("TRUE", "1"):
                return True
            if word in _ANY_VALUE_WEAKENS and value and value not in ("0", "NULL"):
                return True
            if word in _RETENTION and value == "0" and (production or account):
                return True  # time travel gone: a dropped table stays dropped
    return False


def _names_policy(after: list[str]) -> bool:
    """Whether the words after an ``UNSET`` or a ``DROP`` name a protection's policy."""
    if not after:
        return False
    return (
        after[0] in _UNSET_SETTINGS
        or (after[0] in _POLICIES and "POLICY" in after)
        or (after[0] == "ROW" and "ACCESS" in after)
    )


def spends(read: list[list[Token]]) -> bool:
    """Whether a statement of ``read`` makes, resizes, keeps running or uncaps compute the
    account pays for (a small warehouse that suspends is not counted)."""
    for statement in read:
        upper = [t.text.upper() for t in statement if t.kind in ("word", "literal")]
        if len(upper) < 2 or upper[0] not in ("CREATE", "ALTER", "DROP"):
            continue
        named = [w for w in upper[1:5] if w in _COMPUTE]
        if not named:
            continue
        if named[0] == "RESOURCE" and upper[0] in ("ALTER", "DROP"):
            return True  # the bill's cap changed or taken away
        if upper[0] == "DROP":
            continue
        for i, word in enumerate(upper):
            if word not in _BILLED:
                continue
            value = upper[i + 1] if i + 1 < len(upper) else ""
            if word == "WAREHOUSE_SIZE" and value in _SMALL:
                continue
            if word == "AUTO_SUSPEND" and value not in ("0", "NULL"):
                continue
            if word in ("MAX_CLUSTER_COUNT", "MIN_CLUSTER_COUNT", "MAX_NODES", "MIN_NODES") and (
                value in ("0", "1")
            ):
                continue
            return True
    return False
