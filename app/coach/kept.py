"""A review as kept in the database: its ``Phrase``s as JSON, so it is shown again in any language.

A ``Phrase`` keeps its template and fields (``games.i18n.phrase``); here a field that is itself a phrase, or a
tuple of them (a room's mistakes), is written as such and read back the same, so the kept review translates as the
fresh one did.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.coach.advice import ReviewText
from games.i18n.phrase import Phrase

VERSION = 1  # the shape below; a kept review of another shape is worked out again


def _out(value: Any) -> Any:
    if isinstance(value, Phrase):
        return {"t": value.template, "p": value.plural_template, "s": value.sentence,
                "f": {name: _out(field) for name, field in value.fields.items()}}
    if isinstance(value, tuple):
        return {"tuple": [_out(item) for item in value]}
    return value


def _in(value: Any) -> Any:
    if isinstance(value, dict) and "tuple" in value:
        return tuple(_in(item) for item in value["tuple"])
    if isinstance(value, dict):
        fields = {name: _in(field) for name, field in value["f"].items()}
        return Phrase(value["t"], _plural=value["p"], _sentence=value["s"], **fields)
    return value


def review_to_json(text: ReviewText) -> str:
    return orjson.dumps({"v": VERSION, "summary": _out(text.summary), "lines": [_out(line) for line in text.lines],
                         "machine": text.machine}).decode()


def review_from_json(kept: str | None) -> ReviewText | None:
    """The kept review (None when there is none, or it was kept in another shape)."""
    if kept is None:
        return None
    data = orjson.loads(kept)
    if data.get("v") != VERSION:
        return None
    return ReviewText(_in(data["summary"]), [_in(line) for line in data["lines"]], data["machine"])
