"""The words of a chat screen: what a message says, as committed beside its capture (``docs/screens/<name>.json``).

A capture of SimCord's preview is Chromium's pixels, which move with its fonts and build; what the bot sent is
exact. So each chat screen is also kept as the message's words: its text, embeds and components (labels, emoji,
styles, whether disabled; no custom ids, which hold database ids) and each attached picture's SHA-256 (the pictures
are drawn deterministically by ``games/picture``). ``tests/test_screens.py`` reaches every screen again and
compares these files, so a committed screen that no longer matches what the code draws fails CI.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

DROPPED = frozenset({"custom_id", "id", "proxy_url", "proxy_icon_url", "sku_id"})


def message_of(env, channel, target):
    """The backend's record of ``target`` (a Message, a ResponseMessage or an InteractionResult) in ``channel``."""
    response = getattr(target, "response", None)
    if response is not None and not hasattr(target, "embeds"):
        target = response
    return env.backend.get_message(channel.id, target.id)


def words(env, channel, target) -> dict[str, Any]:
    """The message's words and its pictures' digests, ready to compare and to commit as JSON."""
    message = message_of(env, channel, target)
    pictures = []
    for attachment in message.attachments:
        data = env.backend.cdn.get(attachment["url"]) or b""
        pictures.append({"filename": attachment["filename"], "description": attachment.get("description"),
                         "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    return {"content": message.content, "ephemeral": message.is_ephemeral,
            "embeds": [_kept(embed) for embed in message.embeds],
            "components": [_kept(row) for row in message.components], "attachments": pictures}


def _kept(value):
    if isinstance(value, dict):
        return {key: _kept(item) for key, item in sorted(value.items()) if key not in DROPPED}
    if isinstance(value, list):
        return [_kept(item) for item in value]
    return value


def dumps(found: dict[str, Any]) -> str:
    return json.dumps(found, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def write(folder: Path, name: str, found: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(dumps(found), encoding="utf-8")
