"""Run the real ScoundrelBot under SimCord on a temporary SQLite file.

Reusable from any test package::

    # tests/<yours>/conftest.py
    from tests.discord.fixtures import db_path, simcord_bot, world  # noqa: F401

    async def test_something(world):
        result = await world.alice.slash(world.channel, "scoundrel play", seed="K7Q2-M9XD")
        message = result.response.message
        await world.alice.click(message, custom_id=button(message, "♠J").custom_id)

``world.restart()`` closes the bot and attaches a new ScoundrelBot on the same database and virtual Discord.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import discord
import simcord

from bot.client import ScoundrelBot
from bot.config import Config

# Shaped like a real token so config validation accepts it; SimCord never sends it anywhere.
FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.fake-token-for-tests-only-0000000000"


def make_config(database: Path, **overrides) -> Config:
    return Config(token=FAKE_TOKEN, database=database, **overrides)


def make_bot(database: Path, *, par_solver=None, coach_player=None, own_process=False, **overrides) -> ScoundrelBot:
    """The real bot on ``database``; without par unless a test passes a solver (a real solve costs seconds), and
    without the coach's score of the daily unless a test passes ``app.solver.worker.coach_score`` (a deal costs
    tens)."""
    return ScoundrelBot(make_config(database, **overrides), par_solver=par_solver, coach_player=coach_player,
                        own_process=own_process)


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    database: Path

    @property
    def bot(self) -> ScoundrelBot:
        return self.env.bot

    @property
    def store(self):
        return self.env.bot.store

    async def restart(self) -> ScoundrelBot:
        """A bot restart: the old process closes, a new one starts on the same database and Discord."""
        old = self.env.bot
        await old.close()
        new = make_bot(self.database, par_solver=old.par_solver, coach_player=old.coach_player)
        await self.env.restart_bot(new)
        return new


def buttons(message) -> list[discord.Button]:
    """Every button of a message (``discord.Message`` or SimCord ``ResponseMessage``), in order."""
    if isinstance(message, simcord.ResponseMessage):
        message = message.message
    return [c for row in message.components for c in row.children if isinstance(c, discord.Button)]


def button(message, label_start: str) -> discord.Button:
    """The one button whose label starts with ``label_start``; card labels may be written as the engine writes
    them (``♠J``): buttons show suits readable on every theme (``♤J``)."""
    from cogs.text.card_text import readable

    found = [b for b in buttons(message) if (b.label or "").startswith(readable(label_start))]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} buttons start with {label_start!r}: {[b.label for b in buttons(message)]}")
    return found[0]


def button_by_code(message, code: str) -> discord.Button:
    """The game button for an engine action code (``T2``, ``W0``, ``A``, ``mode``...)."""
    found = [b for b in buttons(message)
             if (b.custom_id or "").startswith("sc:g:") and b.custom_id.split(":")[-1] == code]
    if len(found) != 1:
        raise AssertionError(f"no single button for {code!r}: {[b.custom_id for b in buttons(message)]}")
    return found[0]


def private_notes(result: simcord.InteractionResult) -> list[str]:
    """What only the clicker saw: an ephemeral response message, then ephemeral follow-ups."""
    from simcord.backend.models.interaction import ResponseKind

    notes = []
    if result._interaction.response_kind is ResponseKind.MESSAGE and result.ephemeral and result.response:
        notes.append(result.response.content)
    return notes + [m.content for m in result.followups if m.ephemeral]


def answer_kind(result: simcord.InteractionResult) -> str | None:
    """How the interaction was first answered: ``message``, ``update`` (the clicked message edited as the
    response), ``deferred`` or ``deferred_update``."""
    kind = result._interaction.response_kind
    return None if kind is None else kind.value


async def press_again(actor: simcord.MemberActor, message, custom_id: str) -> simcord.InteractionResult:
    """A press of ``custom_id`` on ``message`` as Discord has the message *now*, even if the button is gone.

    That is a double click: the player's client still shows the button it drew before the first press edited
    the message, and Discord sends the second press with the message as it is stored at that moment.
    """
    return await click_on_snapshot(actor, snapshot(actor, message), custom_id)


def snapshot(actor: simcord.MemberActor, message) -> tuple:
    """The message as Discord would send it with a click made now (components included)."""
    from simcord.actors import _visible_message
    from simcord.backend import serializers

    stored = _visible_message(actor, message)
    return stored, copy.deepcopy(dict(serializers.message_payload(actor._env.backend, stored)))


async def click_on_snapshot(actor: simcord.MemberActor, taken: tuple, custom_id: str) -> simcord.InteractionResult:
    """Deliver a click made on the message as it looked when ``snapshot`` was taken.

    That is what Discord does on a double click or a click on a message that changed meanwhile: the second
    interaction carries the message as the player saw it. SimCord's public ``click`` only offers the message as
    it is now, so this uses its interaction dispatcher directly.
    """
    from simcord.actors import _dispatch_actor_interaction
    from simcord.enums import InteractionType

    stored, payload = taken
    backend = actor._env.backend
    channel = simcord.ChannelHandle(actor._env, actor.guild, backend.get_channel(stored.channel_id))
    return await _dispatch_actor_interaction(actor, InteractionType.MESSAGE_COMPONENT, channel,
                                             {"custom_id": custom_id, "component_type": 2},
                                             extra={"message": payload}, source_message_id=stored.id)


class Locales:
    """Discord's locale fields on interactions, which SimCord always sends as ``en-US``.

    Discord sends each interaction with ``locale`` (the clicking user's client language) and, in a
    server, ``guild_locale`` (the server's preferred locale). SimCord 3.2 fixes both to ``en-US``; this
    sets them from ``users`` (user id -> locale) and from each guild's ``preferred_locale``, by wrapping
    SimCord's interaction payload builder for the test. Use the ``locales`` fixture.
    """

    def __init__(self, monkeypatch) -> None:
        from simcord import interactions

        self.users: dict[int, str] = {}
        build = interactions.base_payload

        def with_locales(backend, *, user_id, guild_id=None, **rest):
            record, payload = build(backend, user_id=user_id, guild_id=guild_id, **rest)
            payload["locale"] = self.users.get(user_id, payload["locale"])
            if guild_id is not None:
                payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
            return record, payload

        monkeypatch.setattr(interactions, "base_payload", with_locales)

    def speak(self, actor, locale: str) -> None:
        """From now on ``actor``'s interactions arrive in ``locale`` (a Discord locale value, e.g. ``de``)."""
        self.users[actor.id] = locale
