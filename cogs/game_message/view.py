"""The game message's buttons, ``render_game(record) -> (embed, view)`` and ``game_message(record)`` (the
embed, the buttons and the table picture to send or edit with).

Every button is a persistent ``DynamicItem``: its custom_id says everything the click needs, so buttons work
after a restart and nothing is kept in memory::

    sc:g:<game id>:<version>:<mode>:<code>

``version`` is the number of moves made (``GameRecord.version``); a click carrying another version is refused as
out of date, and of two racing clicks ``Store.play`` lets exactly one through. ``mode`` is the fight mode the
message shows, ``w`` (weapon) or ``b`` (barehanded): UI state only, never written to the database. ``code`` is an
engine action code (``T2``, ``W2``, ``A``, ``B3``, ``L``, ``R``, ``D``, ``O``, ``E``) or ``mode`` for the toggle.

What else a game message offers (New game, Review, Share, Best possible, Replay under a finished game; Hint under
one being played) is declared in cogs/offers.py and reaches ``render_game`` through the bot (``bot.offers``).

The message is written in its player's language: ``tr`` (a ``Messages``, English by default) is the clicking
player's for a click (only the player's clicks redraw it) and the server's for an edit made without one.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections import OrderedDict
from typing import NamedTuple

import discord

from app.errors import DayOver, NotYourGame, StaleVersion
from app.play import solo
from app.shown import NOTHING, Shown, shown_to
from app.shown import shown as seen
from cogs.game_message.embed import (
    ABANDONED,
    KIND_EMOJI,
    day_over_text,
    game_embed,
    other_players_game,
    out_of_date,
    table_description,
)
from cogs.plumbing import clock
from cogs.plumbing.bounds import ID, VERSION
from cogs.plumbing.errors import report_error, send_private
from cogs.plumbing.interaction import Bot, Interaction, offered
from cogs.plumbing.respond import edit_message, in_time
from cogs.text.card_text import card_text
from cogs.text.locale import for_reader
from games.engine import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    IN_UNDERWORLD,
    MAX_LOOPS,
    MONSTER,
    NECROMANCER,
    NECROMANCER_COST,
    POTION,
    WEAPON,
    Action,
    Card,
    IllegalAction,
    State,
    legal_actions,
    preview,
    refusal,
)
from games.engine import actions as A
from games.i18n import ENGLISH, Messages, outcome_text
from games.picture import FILENAME, render_room

log = logging.getLogger(__name__)

WEAPON_MODE, BAREHANDED = "w", "b"
TOGGLE = "mode"

_STYLE = {MONSTER: discord.ButtonStyle.danger, WEAPON: discord.ButtonStyle.primary,
          POTION: discord.ButtonStyle.success}


# --- the fight mode ---------------------------------------------------------------------

def mode_after_move(previous_mode: str, state: State) -> str:
    """Keep the player's choice, but a freshly equipped weapon is meant to be used."""
    if any(e.kind == "equip" for e in state.events):
        return WEAPON_MODE
    return previous_mode


# --- buttons ------------------------------------------------------------------------------

class GameButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"sc:g:(?P<game>{ID}):(?P<version>{VERSION}):(?P<mode>[wb]):(?P<code>[A-Z][0-9]?|mode)"):
    def __init__(self, game_id: int, version: int, mode: str, code: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80] or None, style=style, emoji=emoji, disabled=disabled,
                                           row=row, custom_id=f"sc:g:{game_id}:{version}:{mode}:{code}"))
        self.game_id, self.version, self.mode, self.code = game_id, version, mode, code

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["game"]), int(match["version"]), match["mode"], match["code"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            await handle_game_click(interaction, self.game_id, self.version, self.mode, self.code)
        except Exception as error:  # discord.py only logs DynamicItem errors; the player must hear too
            await report_error(interaction, error, where=f"game button {self.custom_id}")
        finally:
            if self.view is not None:  # the view discord.py rebuilt from the message to find this button
                self.view.clear_items()  # (unused once the click is handled; see redraw)


async def handle_game_click(interaction: Interaction, game_id: int, version: int, mode: str,
                            code: str) -> None:
    metrics = getattr(interaction.client, "metrics", None)
    started = time.perf_counter()
    try:
        await _handle_game_click(interaction, game_id, version, mode, code)
    finally:
        if metrics is not None and interaction.response.is_done():
            metrics.click_seconds.observe(time.perf_counter() - started)


async def _handle_game_click(interaction: Interaction, game_id: int, version: int, mode: str,
                             code: str) -> None:
    """One click on a game button; answered in one request (the edited message) unless the work is slow.

    A click on the game's current message that shows an older state than the store's (a second press after
    the first one's edit, or a move saved just before the bot was stopped) redraws the game in place. A click
    on an old copy of the game (after Resume) points to the current one.
    """
    store = interaction.client.store
    tr = for_reader(interaction)  # the player's own clicks are the only ones that redraw the game
    user_id = interaction.user.id
    try:
        record = await in_time(interaction, solo.own_game(store, game_id, user_id))
    except NotYourGame as theirs:
        await send_private(interaction, other_players_game(theirs.owner_id, tr))
        return
    if interaction.message is not None and record.message_id not in (None, interaction.message.id):
        await send_private(interaction, out_of_date(record, tr))
        return
    if record.message_id is None and interaction.message is not None:  # posted, but its id was never saved
        await solo.posted(store, game_id, interaction.message.channel.id, interaction.message.id)
    try:
        if code == TOGGLE:  # the fight mode is the message's alone: nothing is played
            solo.check_move(record, user_id, version)
            await redraw(interaction, record, BAREHANDED if mode == WEAPON_MODE else WEAPON_MODE)
            return
        moved = await in_time(interaction, solo.move(store, game_id, user_id, version, code, loaded=record))
    except DayOver as over:  # the daily's day ended before this move: the attempt was closed instead
        await redraw(interaction, over.record, mode)
        await send_private(interaction, day_over_text(over.record, tr))
        return
    except StaleVersion as stale:  # a second press, a race with another device, or a game that has ended
        log.info("redrawing game %s: click at version %s, stored %s", game_id, version, stale.record.version)
        await redraw(interaction, stale.record, mode)
        return
    if getattr(interaction.client, "metrics", None) is not None:
        interaction.client.metrics.moves.inc()
    await redraw(interaction, moved.record, mode_after_move(mode, moved.record.state))


async def redraw(interaction: Interaction, record, mode: str) -> None:
    """Show the game as stored (embed, buttons and the table picture) on the message that was clicked, in the
    clicking player's language."""
    shown = await in_time(interaction, game_message(record, mode, bot=interaction.client, tr=for_reader(interaction),
                                                    viewer=interaction.user.id))
    try:
        await edit_message(interaction, **shown.edit())
    finally:
        shown.view.clear_items()  # sent: a view and its buttons refer to each other, which only the collector frees


# --- rendering ------------------------------------------------------------------------------

def render_game(record, mode: str = WEAPON_MODE, par: int | None = None,
                tr: Messages = ENGLISH, hinted: bool = False, coach: int | None = None, bot: Bot | None = None,
                shown: Shown | None = None) -> tuple[discord.Embed, discord.ui.View]:
    """The embed and the buttons for a game as stored, in ``tr``'s language; usable for public and ephemeral
    messages. ``shown``: what its viewer may see and be offered (``app.shown``; else worked out from ``par``,
    ``hinted`` and ``coach`` as the game's player's). With ``bot``, the offers it allows follow the game's own
    buttons (``bot.offers``, cogs/offers.py).

    The embed shows the table picture as an attachment: send it with ``game_message`` (which renders the
    picture too) rather than alone."""
    if shown is None:
        shown = seen(record, None, clock.now(), par=par, coach_score=coach, hinted=hinted)
    embed = game_embed(record, shown.par, tr, hinted=shown.hinted, coach=shown.coach)
    view = discord.ui.View(timeout=None)
    if record.state.over or record.status == ABANDONED:
        items = offered(bot, bot.offers.finished if bot else (), record, tr, shown)
    else:
        items = [*game_buttons(record, mode, tr), *offered(bot, bot.offers.playing if bot else (), record, tr, shown)]
    for item in items:
        view.add_item(item)
    return embed, view


class GameMessage(NamedTuple):
    """Everything a game message shows: the embed, the buttons and the picture of the table (PNG bytes)."""

    embed: discord.Embed
    view: discord.ui.View
    picture: bytes
    description: str = "The table"  # the picture's alt text

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.picture), filename=FILENAME, description=self.description)

    def send(self) -> dict:
        """Keyword arguments for sending it as a new message."""
        return dict(embed=self.embed, view=self.view, file=self.file())

    def edit(self) -> dict:
        """Keyword arguments for editing a game message into it (the old picture is replaced)."""
        return dict(embed=self.embed, view=self.view, attachments=[self.file()])


async def game_message(record, mode: str = WEAPON_MODE, *, bot: Bot | None = None, tr: Messages = ENGLISH,
                       viewer: int | None = None) -> GameMessage:
    """The message of a game in ``tr``'s language (its player's, or the server's for an edit made without the
    player), drawn as ``app.shown`` says ``viewer`` (the player when None) may see it: with ``bot``, par and
    the coach's score where they may show, and the offers."""
    shown = NOTHING if bot is None else await shown_to(bot.store, record, viewer, clock.now())
    embed, view = render_game(record, mode, tr=tr, bot=bot, shown=shown)
    return GameMessage(embed, view, await table_picture(record, tr), table_description(record.state, tr))


_PICTURES: OrderedDict[tuple, bytes] = OrderedDict()
PICTURE_CACHE = 256  # pictures kept: a toggle or a resume shows the same state again


async def table_picture(record, tr: Messages = ENGLISH) -> bytes:
    """The table's PNG with its words in ``tr``'s language, drawn right here: about 0.4 ms of pasting palette tiles
    (``games/picture/tiles.py``), less than handing it to a worker thread and back would cost."""
    state = record.state  # the deal and the moves made fix the table (game ids repeat across databases)
    abandoned = record.status == ABANDONED
    key = (state.rules, state.start_deck, state.rng_seed, state.history, abandoned, tr.locale)
    picture = _PICTURES.get(key)
    if picture is None:
        picture = render_room(state, abandoned=abandoned, tr=tr)
        _PICTURES[key] = picture
        if len(_PICTURES) > PICTURE_CACHE:
            _PICTURES.popitem(last=False)
    return picture


def game_buttons(record, mode: str, tr: Messages = ENGLISH) -> list[GameButton]:
    state: State = record.state
    legal = set(legal_actions(state))
    make = lambda code, **kw: GameButton(record.id, record.version, mode, code, **kw)  # noqa: E731
    if state.pending and state.pending[0] != IN_UNDERWORLD:
        # A merchant, a necromancer or the crossroads: only its choices; the waiting room is in the picture.
        return _expansion_buttons(state, legal, make, tr)
    buttons = [_card_button(state, legal, mode, i, card, make, tr) for i, card in enumerate(state.room)]
    buttons.append(fight_switch(make, mode, any(a.kind == A.FIGHT_WITH_WEAPON for a in legal)))
    buttons.append(make("A", label=tr("Avoid"), emoji="🏃", style=discord.ButtonStyle.secondary,
                        disabled=A.AVOID_ACTION not in legal, row=1))
    buttons += _expansion_buttons(state, legal, make, tr)
    return buttons


# The fight-mode switch shows both modes with the signs the monsters' buttons use (⚔️ the weapon, 👊 bare hands)
# and ticks the one that is on, so it reads as a switch, not as one more move. Signs, not words: it shares its row
# with Avoid and Hint, which say their words, on a 390 px phone in every language.
WEAPON_ON, FISTS_ON = "⚔️ ✓ · 👊", "⚔️ · 👊 ✓"


def fight_switch(make, mode: str, usable: bool) -> GameButton:
    """The grey switch between fighting with the weapon and barehanded; greyed out, on 👊, while no weapon can be
    used (none held, or these monsters are too strong for it: the picture shows its reach)."""
    return make(TOGGLE, label=WEAPON_ON if usable and mode == WEAPON_MODE else FISTS_ON,
                style=discord.ButtonStyle.secondary, disabled=not usable, row=1)


def _card_button(state: State, legal: set[Action], mode: str, slot: int, card: Card | None, make,
                 tr: Messages) -> GameButton:
    if card is None:
        return make(f"T{slot}", label=tr("played"), style=discord.ButtonStyle.secondary, disabled=True, row=0)
    action = A.take(slot)
    if card.kind == MONSTER and mode == WEAPON_MODE and A.fight_with_weapon(slot) in legal:
        action = A.fight_with_weapon(slot)
    style = _STYLE.get(card.kind, discord.ButtonStyle.secondary)
    name = card_text(card)
    if action not in legal:  # e.g. while the merchant is open: show the card, but it cannot be played
        return make(action.code, label=name, style=style, disabled=True, row=0)
    if state.pending and state.pending[0] == IN_UNDERWORLD and card.kind not in _STYLE:
        return make(action.code, label=tr("{card} nothing", card=name), emoji=KIND_EMOJI[card.kind], row=0)
    outcome = preview(state, action)
    emoji = KIND_EMOJI[card.kind]
    if card.kind == MONSTER:
        emoji = "☠️" if outcome.lethal else "⚔️" if action.kind == A.FIGHT_WITH_WEAPON else "👊"
    if outcome.wasted:
        style = discord.ButtonStyle.secondary  # grey: drinking it does nothing
    return make(action.code, label=f"{name} {outcome_text(outcome, tr)}".strip(), style=style, emoji=emoji, row=0)


def _expansion_buttons(state: State, legal: set[Action], make, tr: Messages) -> list[GameButton]:
    """Buttons for actions that are not room cards: merchant offers, necromancer, loop or retire."""
    out: list[GameButton] = []
    if state.pending and state.pending[0] == AT_MERCHANT:
        for i, card in enumerate(state.pending[1]):
            action = A.buy(i)
            if action in legal:
                outcome = preview(state, action)
                price = outcome_text(outcome, tr) if card.kind == POTION else \
                    tr("−{price} health, equip", price=outcome.damage)
                out.append(make(action.code, label=tr("Buy {card} ({price})", card=card_text(card), price=price),
                                emoji="💰", style=_STYLE.get(card.kind, discord.ButtonStyle.secondary)))
            elif card.kind in (WEAPON, POTION):  # on offer, but not now (a weapon dearer than you can pay)
                out.append(make(action.code, label=tr("{card} (can't buy now)", card=card_text(card)),
                                disabled=True))
            # Monsters are never for sale: no button (the picture and the status line show the whole offer).
    for action in sorted(legal, key=lambda a: _CHOICE_ORDER.get(a.kind, 99)):
        if action.kind in (A.TAKE, A.FIGHT_WITH_WEAPON, A.AVOID, A.BUY):
            continue
        out.append(make(action.code, **_special_look(state, action, tr)))
    # A choice the rules refuse right now is shown disabled, with the reason, rather than left out.
    for refused in (A.RAISE_ACTION, A.LOOP_ACTION):
        reason = refusal(state, refused)
        if refused not in legal and state.pending and reason and _PHASE_OF[refused.kind] == state.pending[0]:
            look = _special_look(state, refused, tr)
            look["label"] = f"{look['label']} — {_short_reason(refused.kind, state, tr)}"
            out.insert(0, make(refused.code, disabled=True, **look))
    for i, item in enumerate(out):
        item.item.row = 2 + i // 5
    return out


_PHASE_OF = {A.RAISE: AT_NECROMANCER, A.LOOP: AT_CROSSROADS}
_CHOICE_ORDER = {A.LEAVE: 0, A.RAISE: 1, A.DECLINE: 2, A.LOOP: 3, A.RETIRE: 4}


def _short_reason(kind: str, state: State, tr: Messages) -> str:
    if kind == A.RAISE:
        return tr("not enough health") if state.health <= NECROMANCER_COST else tr("graveyard too small")
    return tr("no more loops") if state.loop >= MAX_LOOPS else tr("graveyard empty")


def _special_look(state: State, action: Action, tr: Messages = ENGLISH) -> dict:
    looks: dict[str, dict] = {
        A.LEAVE: dict(label=tr("Leave the merchant"), emoji="🚪"),
        A.RAISE: dict(label=tr("Pay {cost} health: raise the dead", cost=NECROMANCER_COST),
                      emoji=KIND_EMOJI[NECROMANCER], style=discord.ButtonStyle.danger),
        A.DECLINE: dict(label=tr("Decline"), emoji="🚫"),
        A.LOOP: dict(label=tr("Descend again (loop {loop})", loop=state.loop + 1), emoji="🔁",
                     style=discord.ButtonStyle.success),
        A.RETIRE: dict(label=tr("Retire with {health} health", health=state.health), emoji="🏁",
                       style=discord.ButtonStyle.primary),
    }
    look = looks.get(action.kind)
    if look is None:  # an action this view does not know yet: still playable, labelled by its preview
        try:
            short = outcome_text(preview(state, action), tr)
        except IllegalAction:
            short = ""
        look = dict(label=f"{action.code} {short}".strip())
    return look


DYNAMIC_ITEMS = (GameButton,)
