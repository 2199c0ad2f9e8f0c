"""Validating a hook module's ``config`` from a bundle, with errors a user can act on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

ConfigModel = TypeVar("ConfigModel", bound=BaseModel)


def parse_module_config(
    model: type[ConfigModel], raw: Mapping[str, Any] | None, module_id: str
) -> ConfigModel:
    """Validate ``raw`` (None means all defaults) against ``model``.

    Raises ``ValueError("invalid <module> config: <key>: <problem>; ...")`` naming every bad
    key, so the loader can report it against the bundle entry that set it.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"{module_id} config must be a mapping, got {type(raw).__name__}")
    try:
        return model.model_validate(dict(raw))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<config>'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ValueError(f"invalid {module_id} config: {problems}") from None
