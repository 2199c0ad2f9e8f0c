"""The bundle data model: one file as written (`BundleFile`), and the composed `Bundle`.

Every model forbids unknown keys except a hook entry's ``config``, which belongs to the
module and is validated by it when it is mounted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)

from amplifier_hooks.approvals.models import AllowOrDeny
from amplifier_hooks.approvals.policy import PolicyRule
from amplifier_hooks.bundles.amplifier_format import OTHER_SECTIONS, OTHER_SESSION_KEYS
from amplifier_hooks.bundles.reading import KeyPath, Problem, Written

CompatName = Literal["amplifier_core", "none"]
MEMORY_STORE = ":memory:"
STATE_STORE = "state"

_MODULE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


class _Closed(BaseModel):
    # Unknown keys are errors: a misspelt key silently ignored is the worst kind of
    # configuration bug. Attribute docstrings become schema descriptions for editors.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class BundleMeta(_Closed):
    """Who this bundle is."""

    name: str | None = Field(None, min_length=1)
    """The bundle's name (defaults to the file name without its extension)."""
    version: str | None = None
    """Free-form version, e.g. "1.0"."""
    description: str | None = None
    """One line on what the bundle is for."""

    @field_validator("version", mode="before")
    @classmethod
    def _version_text(cls, value: Any) -> Any:
        # `version: 1.0` is a float in YAML; nobody means a float here.
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        return value


class HandlerOverride(_Closed):
    """Settings that replace what a module chose for one of its handlers (by name)."""

    enabled: bool | None = None
    """false: the handler is not registered at all."""
    priority: int | None = None
    """Replaces the handler's priority (lower runs first)."""
    timeout: float | None = Field(None, ge=0)
    """Replaces the handler's timeout in seconds (0 means none)."""
    fail_closed: bool | None = None
    """true: a failure of this handler (error, timeout) denies instead of continuing."""


class HookEntry(_Closed):
    """One hook module to mount, with its configuration."""

    module: str | None = None
    """The module id, e.g. ah-logging (imported as amplifier_module_ah_logging)."""
    source: str | None = None
    """A module project directory (or a .py file), relative to the bundle file; or a
    file:// or git+<url>@<ref>#subdirectory=<path> URI (fetched into the cache)."""
    id: str | None = Field(None, min_length=1)
    """The entry's key for merging with included bundles (defaults to the module id);
    give two entries of the same module different ids."""
    enabled: bool | None = None
    """false removes the entry (one inherited from an include, typically)."""
    optional: bool | None = None
    """true: if the module cannot be found, imported, configured or mounted, the failure
    is reported and the bundle loads without it. Unset or false: the load fails."""
    config: dict[str, Any] = Field(default_factory=dict)
    """The module's own settings; the module validates them when it is mounted."""
    handlers: dict[str, HandlerOverride] = Field(default_factory=dict)
    """Per-handler overrides, keyed by the handler names the module registers."""

    # Where the entry, and each key of its config, was last written (set by load_bundle).
    _written: Written | None = PrivateAttr(default=None)
    _config_written: dict[KeyPath, Written] = PrivateAttr(default_factory=dict)

    @field_validator("config", "handlers", mode="before")
    @classmethod
    def _empty_mapping(cls, value: Any) -> Any:
        return {} if value is None else value

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        # `- ah-logging` is short for `- module: ah-logging`.
        return {"module": value} if isinstance(value, str) else value

    @field_validator("module")
    @classmethod
    def _module_id(cls, value: str | None) -> str | None:
        if value is not None and not _MODULE_ID.fullmatch(value):
            raise ValueError(
                f"expected a module id such as ah-logging (letters, digits, '-' and '_'), "
                f"got {value!r}"
            )
        return value

    @model_validator(mode="after")
    def _named(self) -> HookEntry:
        if self.module is None and self.id is None:
            raise ValueError(
                "expected 'module' (a module id such as ah-logging), "
                "or 'id' to change an entry inherited from an include"
            )
        return self

    @property
    def key(self) -> str:
        """What entries merge by: the id, else the module id."""
        return self.id or self.module or ""

    @property
    def origin(self) -> Problem | None:
        """Where this entry was last written (file, line, key path), if loaded from a file."""
        return self._written.problem((), "") if self._written is not None else None

    def config_problem(self, path: Sequence[str | int], message: str) -> Problem | None:
        """``message`` placed where ``config.<path>`` was written: that key's file, line
        and key path, even in an included bundle. A key written nowhere (a missing one) is
        placed at its nearest written parent, else at the entry. None when the entry was
        not loaded from a file."""
        below: KeyPath = ("config", *path)
        for end in range(len(path), -1, -1):
            written = self._config_written.get(tuple(path[:end]))
            if written is not None:
                return written.problem(below, message)
        return self._written.problem(below, message) if self._written is not None else None

    @property
    def import_name(self) -> str:
        """The package name the module is imported as: ``amplifier_module_<id with _>``."""
        return "amplifier_module_" + (self.module or "").replace("-", "_")


class PolicySettings(_Closed):
    """Rules for the policy approval provider: the first matching rule decides."""

    default: AllowOrDeny = "deny"
    """The answer when no rule matches."""
    rules: list[PolicyRule] = Field(default_factory=list)
    """Globs on event, source (handler), tool, command and path, with a decision."""


class ApprovalSettings(_Closed):
    """How ask_user results are decided. Arguments given to the coordinator win."""

    provider: Literal["auto", "textual", "console", "policy", "queue", "host"] | None = None
    """Who answers: textual, console, policy, auto, or queue (an approver's console over
    the shared store; see docs/shared-approvals.md), or host (the agent CLI's own
    permission prompt, where it has one; see docs/claude-code.md). auto: outside an agent
    CLI, textual on a terminal, else policy; behind one, the host's prompt where it can
    ask, else the queue when an approver is present, else a deny saying how to answer
    (docs/approvals.md). Unset: the caller's provider, or none (every ask_user is then
    denied)."""
    approver: Literal["auto", "present", "absent"] = "auto"
    """For provider auto behind an agent CLI: whether an approver watches the queue. auto:
    when an `amplifier-hooks approve` console (or approve --web) has beaten its heartbeat
    in this store within 30 seconds; present: always (questions wait in the queue for
    their timeout); absent: never (questions the host cannot ask are denied)."""
    store: str | None = None
    """Where remembered answers, the audit and queued requests live: ":memory:", "state"
    (the user's state directory), a file path relative to the bundle file, or a
    postgresql:// URL shared by many agents. Unset: ":memory:"."""
    policy: PolicySettings | None = None
    """Rules for the policy provider (implies provider: policy when provider is unset; with
    provider: auto they answer whenever no terminal is attached)."""
    max_prompts: int = Field(5, ge=1)
    """At most this many questions reach a person per per_seconds."""
    per_seconds: float = Field(1.0, gt=0)
    """The window of max_prompts, in seconds."""
    queue_retention_days: float | None = Field(7.0, gt=0)
    """Days a queued request is kept once it is over (answered, expired or past its
    deadline) before it is deleted; null: kept for ever. A request still waiting is never
    deleted. The audit trail is not affected."""
    audit_retention_days: float | None = Field(90.0, gt=0)
    """Days an audit row is kept before it is deleted; null: kept for ever."""

    @model_validator(mode="after")
    def _policy_needs_policy_provider(self) -> ApprovalSettings:
        if "approver" in self.model_fields_set and self.provider != "auto":
            raise ValueError(
                f"approver applies only with provider: auto (got provider: {self.provider})"
            )
        if self.policy is not None and self.provider not in (None, "policy", "auto"):
            raise ValueError(
                "policy rules apply only with provider: policy or auto "
                f"(got provider: {self.provider}, which never consults them)"
            )
        return self


class SessionSettings(_Closed):
    """Settings of the running session: the injection budget and approvals."""

    injection_budget_per_turn: int | None = Field(10_000, ge=0)
    """Tokens of injected context allowed per turn (null: unlimited)."""
    injection_size_limit: int | None = Field(10_240, ge=0)
    """UTF-8 bytes allowed per injection (null: unlimited)."""
    injection_refuse_roles: list[Literal["system", "user", "assistant"]] = Field(
        default_factory=list
    )
    """Injection roles to refuse, e.g. [user, assistant] so hooks cannot speak for them."""
    approvals: ApprovalSettings = Field(default_factory=ApprovalSettings)
    """Who decides ask_user results, and where decisions are remembered."""

    @field_validator("approvals", mode="before")
    @classmethod
    def _empty_mapping(cls, value: Any) -> Any:
        return {} if value is None else value


class BundleFile(_Closed):
    """One bundle file, as written (the format the JSON Schema describes)."""

    model_config = ConfigDict(title="amplifier-hooks bundle")

    bundle: BundleMeta = Field(default_factory=BundleMeta)
    """Name, version and description."""
    includes: list[str] = Field(default_factory=list)
    """Bundle files composed before this one, left to right: paths relative to this file,
    file:// or git+<url>@<ref>#subdirectory=<path> URIs, each also as {bundle: <uri>}."""
    strict: bool | None = None
    """true: entries marked optional must load too (any module failure fails the load)."""
    compat: list[CompatName] = Field(default_factory=list)
    """Modules written for the reference system import amplifier_core; this project
    provides it when no real amplifier_core is installed. On by default; off (or none,
    false) turns it off; [amplifier_core] asks for it even when the environment says off."""
    session: SessionSettings = Field(default_factory=SessionSettings)
    """Settings of the running session: injection budget and approvals."""
    hooks: list[HookEntry] = Field(default_factory=list)
    """Hook modules to mount, in order."""

    # What an Amplifier bundle configures besides hooks (set by load_bundle).
    _amplifier: Any = PrivateAttr(default=None)

    @field_validator("bundle", "session", mode="before")
    @classmethod
    def _empty_mapping(cls, value: Any) -> Any:
        return {} if value is None else value

    @field_validator("compat", mode="before")
    @classmethod
    def _compat_switch(cls, value: Any) -> Any:
        # YAML reads `off`, `no` and `false` as False, `on`/`true` as True.
        def one(item: Any) -> Any:
            if item is False or (isinstance(item, str) and item.lower() in ("off", "none")):
                return "none"
            if item is True or item == "on":
                return "amplifier_core"
            return item

        if isinstance(value, list):
            return [one(item) for item in value]
        return value if value is None else [one(value)]

    @field_validator("includes", "compat", "hooks", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        if value is None:
            return []
        # `includes: base.yaml` for one include; not for hooks, where a string is an entry.
        return [value] if isinstance(value, str) else value


class Bundle(BaseModel):
    """A composed bundle: what `load_bundle` returns and the loader mounts.

    May also be built in code (``Bundle(hooks=[HookEntry(module="ah-logging")])``);
    relative ``source`` paths are then taken relative to ``path``'s directory, or to the
    working directory when there is no ``path``.
    """

    model_config = ConfigDict(extra="forbid")

    name: str = "bundle"
    version: str | None = None
    description: str | None = None
    strict: bool = False
    """True: entries marked optional must load too."""
    compat: list[CompatName] = Field(default_factory=list)
    session: SessionSettings = Field(default_factory=SessionSettings)
    hooks: list[HookEntry] = Field(default_factory=list)
    path: Path | None = None
    """The bundle file this was loaded from."""
    files: list[Path] = Field(default_factory=list)
    """Every file composed into this bundle, in composition order (this one last)."""
    disabled: list[str] = Field(default_factory=list)
    """Keys of entries removed with ``enabled: false``."""
    warnings: list[str] = Field(default_factory=list)
    """Things that load but are probably mistakes (file:line: what), for ``check``."""
    ignored: list[str] = Field(default_factory=list)
    """Sections for other kinds of module (an Amplifier bundle's tools, providers, ...),
    one line each (file:line: key: not hook modules: ignored (...)), for ``check``."""
    other_sections: dict[str, Any] = Field(default_factory=dict)
    """Those sections as written (``session`` holds orchestrator/context), composed."""
    body: str = ""
    """The Markdown after the front matter (documentation for people)."""

    @model_validator(mode="after")
    def _entries_usable(self) -> Bundle:
        seen: set[str] = set()
        for index, entry in enumerate(self.hooks):
            if entry.module is None:
                raise ValueError(f"hooks[{index}] ({entry.key}) has no module")
            if entry.key in seen:
                raise ValueError(
                    f"hooks[{index}]: two entries for {entry.key!r}; give one of them an id"
                )
            seen.add(entry.key)
        return self

    @property
    def base_dir(self) -> Path:
        """The directory relative ``source`` paths are resolved against."""
        return self.path.parent if self.path is not None else Path.cwd()

    def hook(self, key: str) -> HookEntry | None:
        """The entry with this key (id, else module id), if any."""
        return next((e for e in self.hooks if e.key == key), None)


def bundle_json_schema() -> dict[str, Any]:
    """The JSON Schema of a bundle file (for editors; docs/bundle.schema.json)."""
    schema = BundleFile.model_json_schema()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    schema["description"] = (
        "A bundle of amplifier-hooks modules: plain YAML, or the YAML front matter of a "
        "Markdown file. ${VAR} and ${VAR:-default} expand from the environment."
    )
    hooks = schema["properties"]["hooks"]
    hooks["items"] = {
        "anyOf": [
            {"type": "string", "description": "Short for {module: <this id>}."},
            hooks["items"],
        ]
    }
    # Amplifier's bundle format: include mappings, and sections for other kinds of module
    # (accepted, reported as ignored by `check`).
    schema["properties"]["includes"]["items"] = {
        "anyOf": [
            {"type": "string"},
            {
                "type": "object",
                "properties": {"bundle": {"type": "string"}},
                "required": ["bundle"],
                "additionalProperties": False,
            },
        ]
    }
    ignored = "Amplifier: configures another kind of module; ignored here (listed by check)."
    for key in OTHER_SECTIONS:
        schema["properties"][key] = {"description": ignored}
    session = schema["$defs"]["SessionSettings"]["properties"]
    for key in OTHER_SESSION_KEYS:
        session[key] = {"description": ignored}
    return schema
