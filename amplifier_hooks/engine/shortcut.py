"""The one place the engine reaches past pydantic's public API, because an emit cannot
afford it.

An emit builds one `Resolution` and reads every result a handler returns; pydantic's
public ways to do those (``model_construct``, attribute access, ``model_fields_set``) cost
more than the rest of a small emit together (``benchmarks.bench_plain_calls`` times it).
So these few functions rely on how pydantic 2 lays out a model instance:

1. a model's field values are its instance ``__dict__``, one entry per field;
2. the other per-instance state is three slots of `BaseModel`:
   ``__pydantic_fields_set__``, ``__pydantic_extra__`` and ``__pydantic_private__``;
3. ``model_construct`` and ``model_copy`` keep whatever set object ``fields set`` holds
   as it is (its type included), and validation always makes a plain ``set``.

tests/engine/test_shortcut.py checks each of these against the installed pydantic, so a
release that changes one fails a test, not an emit. Two callers inline a function of this
module where it runs once per handler result (a call there is a measurable share of an
emit), and say so: `engine.calling`'s loop (`is_checked`) and `engine.fold.Fold.returned`
(`fields`). Everything else in the package goes through pydantic's public API.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["construct", "fields", "is_checked", "mark_unchecked"]

M = TypeVar("M", bound=BaseModel)

_object_new = object.__new__
# The setters of BaseModel's instance slots: what object.__setattr__ would find for these
# names, minus its lookup (which costs more than everything else in `construct`).
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_FIELD_NAMES: dict[type[BaseModel], set[str]] = {}


def construct(model: type[M], values: dict[str, Any]) -> M:
    """A ``model`` whose field dict is ``values`` (every field present), unvalidated:
    ``model.model_construct(**values)``, without its per-call look at every field's
    default factory. Only for values validated where they were made."""
    instance: M = _object_new(model)
    _set_dict(instance, values)
    names = _FIELD_NAMES.get(model)
    if names is None:
        names = _FIELD_NAMES[model] = set(model.model_fields)
    # Every instance of a model shares one fields set: all its fields are set, and the
    # models are frozen, so pydantic never adds to it (model_copy copies it first).
    _set_fields_set(instance, names)
    _set_extra(instance, None)
    _set_private(instance, None)
    return instance


def fields(model: BaseModel) -> dict[str, Any]:
    """The field values of ``model``, by name (its own dict: read it, never write it)."""
    return model.__dict__


class _UncheckedFields(set[str]):
    """The fields set of a model that skipped validation: a set like any other, whose
    type is the mark."""


def mark_unchecked(model: BaseModel) -> None:
    """Mark ``model`` (made by ``model_construct`` or ``model_copy(update=...)``) as not
    validated, so `is_checked` says so."""
    object.__setattr__(model, "__pydantic_fields_set__", _UncheckedFields(model.model_fields_set))


def is_checked(model: BaseModel) -> bool:
    """Whether ``model`` passed validation (nothing marked it with `mark_unchecked`)."""
    return type(model.__pydantic_fields_set__) is set
