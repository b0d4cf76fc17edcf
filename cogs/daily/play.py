"""Playing the daily: start or resume it privately, replay it as practice, share the result.

Every daily message is ephemeral so nobody sees the cards before playing. The counted attempt is the
store's (UNIQUE user+day); a second ``/scoundrel daily`` is refused and offers a practice replay instead,
which never reaches a board. Buttons are persistent ``DynamicItem``\\ s::

    sc:dplay:<day>                 the Play button of a daily post (plays *today's* daily)
    sc:dpractice:<day>:<game id>   replay the day as practice; <game id> is the clicker's counted attempt
    sc:dshare:<game id>            post the spoiler-free result of a finished counted daily
"""

from __future__ import annotations

import logging
import re

import discord

from app.daily import attempt as daily_attempt
from app.daily import share as daily_share
from app.daily.days import day_end, day_of, share_text
from app.daily.deal import par_and_coach
from app.errors import PAST_DAY, NotShareable, NotYourGame, PracticeRefused
from app.records import DAILY, DEAD, PRACTICE, WON, GameRecord, SharePost
from cogs.game_message.private import send_private_game
from cogs.plumbing import clock
from cogs.plumbing.bounds import DAY, ID
from cogs.plumbing.errors import DAILY_OFF, GameIdButton, report_error, send_private
from cogs.plumbing.interaction import Interaction
from cogs.plumbing.respond import send_message
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, N_, Messages

log = logging.getLogger(__name__)

# A daily game is created from the day's explicit deck, without its seed: the game message shows a game's seed
# and a "replay this deal" line, and today's seed would give away today's deal. The daily post reveals the seed
# once the day is over.


def ends_at(day: int) -> str:
    """When daily ``day`` ends, as a Discord timestamp (each reader sees it in their own time)."""
    return discord.utils.format_dt(day_end(day), 'R')


async def play_daily(interaction: Interaction, note: str = "") -> None:
    """``/scoundrel daily`` and the post's Play button: resume, start the counted attempt, or refuse
    (``app.daily.attempt.open_daily`` decides which)."""
    tr = for_reader(interaction)
    if not interaction.client.config.daily_enabled:
        await send_private(interaction, tr(DAILY_OFF))
        return
    user = interaction.user
    turn = await daily_attempt.open_daily(interaction.client.store, user.id, clock.now,
                                          guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                          name=user.global_name or user.name)  # the account's, never a nickname
    await show_daily_turn(interaction, turn, note)


async def show_daily_turn(interaction: Interaction, turn: daily_attempt.DailyTurn, note: str = "") -> None:
    tr = for_reader(interaction)
    lines = [note] if note else []
    if turn.closed is not None:
        lines.append(day_ended_text(tr, turn.closed.kind, turn.closed.day, turn.closed.score))
    if turn.outcome == daily_attempt.DAMAGED:
        await send_private(interaction, tr("Your daily game's saved data is damaged and cannot be played; it "
                                           "has been closed and the problem logged."))
    elif turn.outcome == daily_attempt.USED:
        await refuse_second_attempt(interaction, turn.day, turn.record, lines)
    elif turn.outcome == daily_attempt.RESUMED:
        # One short line: the title says which daily and whether it is the counted try or practice, and a
        # longer note would push the buttons past a phone's screen.
        lines.append(tr("Resumed · ends {when}", when=ends_at(turn.day)))
        await send_private_game(interaction, turn.record, "\n".join(lines))
    else:
        # Which day, that this try counts and when the day ends are in the embed (its title and first line): a
        # line of text above it would push the buttons past a phone's screen.
        await send_private_game(interaction, turn.record, "\n".join(lines))


def day_ended_text(tr: Messages, kind: str, day: int, score: int | None) -> str:
    """An attempt (or practice replay) left unfinished when its day ended: closed, scored if it can be."""
    if kind == PRACTICE:
        if score is None:
            return tr("Your unfinished practice replay of Daily #{day} ended with its day.", day=day)
        return tr("Your unfinished practice replay of Daily #{day} ended with its day, scored {score} as if you "
                  "had died there.", day=day, score=score)
    if score is None:
        return tr("Your unfinished attempt at Daily #{day} ended with its day.", day=day)
    return tr("Your unfinished attempt at Daily #{day} ended with its day, scored {score} as if you had died "
              "there.", day=day, score=score)


async def refuse_second_attempt(interaction: Interaction, day: int, counted: GameRecord | None,
                                lines: list[str]) -> None:
    tr = for_reader(interaction)
    result = None
    finished = counted is not None and counted.status in (WON, DEAD)
    if counted is not None and counted.score is not None:
        if finished:
            result = tr("score {score}", score=counted.score)
        elif counted.ended_by == "expired":
            result = tr("time ran out, score {score}", score=counted.score)
        else:
            result = tr("given up, score {score}", score=counted.score)
        par, coach = await par_and_coach(interaction.client.store, counted)
        if par is not None and coach is not None:  # as the finished game says it: the coach saw what you saw
            result += "; " + " · ".join([tr("par {par} seeing every card", par=par), tr("coach {coach}", coach=coach)])
        elif par is not None:
            result += "; " + tr("par {par}", par=par)  # inside parentheses already: no "(winnable)"
    elif counted is not None and counted.status == "abandoned":
        result = tr("you gave up")
    if result is None:
        lines.append(tr("You have already played Daily #{day}: only the first attempt counts.", day=day))
    else:
        lines.append(tr("You have already played Daily #{day} ({result}): only the first attempt counts.",
                        day=day, result=result))
    lines[-1] += " " + tr("You can replay the same dungeon as practice; it never reaches the leaderboard.")
    view = discord.ui.View(timeout=None)
    if counted is not None:
        view.add_item(PracticeButton(day, counted.id, tr))
    if finished and counted is not None and counted.kind == DAILY:
        view.add_item(ShareButton(counted.id, tr))  # the game's own message may be long gone
    await send_private(interaction, "\n".join(lines), view=view)


async def play_practice(interaction: Interaction, day: int, counted_game_id: int) -> None:
    tr = for_reader(interaction)
    try:
        turn = await daily_attempt.open_practice(interaction.client.store, interaction.user.id, day,
                                                 counted_game_id, clock.now, guild_id=interaction.guild_id,
                                                 channel_id=interaction.channel_id)
    except PracticeRefused as refused:
        if refused.code == PAST_DAY:
            text = tr("Daily #{day} is over; `{command}` plays today's (#{today}).", day=day, today=refused.today,
                      command=slash(tr, "daily"))
        else:
            text = tr("Practice opens after your own counted attempt: play `{command}`.", command=slash(tr, "daily"))
        await send_private(interaction, text)
        return
    if turn.record is None or turn.record.kind != PRACTICE:  # the counted attempt is still on: it comes first
        await show_daily_turn(interaction, turn)
    elif turn.outcome == daily_attempt.RESUMED:
        await send_private_game(interaction, turn.record, tr("Resuming your practice replay of Daily #{day}.", day=day))
    else:
        await send_private_game(interaction, turn.record)  # the embed says it is a practice that never counts


async def share_result(interaction: Interaction, game_id: int) -> None:
    tr = for_reader(interaction)  # the player's own post: in their language
    store = interaction.client.store
    try:
        record = await daily_share.shareable(store, game_id, interaction.user.id)
    except NotYourGame:
        await send_private(interaction, tr("Only the player can share their result."))
        return
    except NotShareable:
        await send_private(interaction, tr("Only a finished counted daily can be shared."))
        return
    assert record.day is not None  # a daily's record has its day
    today = day_of(clock.now())
    view = discord.ui.View(timeout=None)  # whoever reads the post can play the day's deal from it
    view.add_item(PlayDailyButton(today, tr))
    message = await send_message(interaction, await share_post_text(store, record, tr, today), view=view,
                                 allowed_mentions=discord.AllowedMentions.none())
    if record.day >= today:  # par is added once the day is over (cogs/daily/share_finish.py)
        await daily_share.keep_until_par(store, SharePost(message.id, message.channel.id, record.id, record.day,
                                                           tr.locale))


async def share_post_text(store, record, tr: Messages, today: int) -> str:
    """A Share post: the player, their result and grid, the legend (what it may show:
    ``app.daily.share.shared_result``)."""
    shared = await daily_share.shared_result(store, record, today)
    text = share_text(record.day, record.state, shared.par, shared.streak, tr, shared.coach)
    text += "\n-# " + tr(SHARE_LEGEND)
    # The name kept with the result: the post pings no one, and a mention that pings no one may show as a raw id.
    name = shared.name
    player = f"**{discord.utils.escape_markdown(name)}**" if name else f"<@{record.user_id}>"
    return tr("{player}'s {result}", player=player, result=text)


# What the share's marks mean (app.daily.days.room_marks), on one line under them.
SHARE_LEGEND = N_("🟩 no damage · 🟨 up to 5 · 🟧 up to 10 · 🟥 more · ⏭️ avoided · 🏆 cleared · 💀 died")


# --- buttons -----------------------------------------------------------------------------------

class PlayDailyButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"sc:dplay:(?P<day>{DAY})"):
    def __init__(self, day: int, tr: Messages = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=tr("Play today's daily"), emoji="🗝️",
                                           style=discord.ButtonStyle.success, custom_id=f"sc:dplay:{day}"))
        self.day = day

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["day"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            today = day_of(clock.now())
            tr = for_reader(interaction)
            note = "" if self.day == today else tr("That post was for Daily #{day}; here is today's.", day=self.day)
            await play_daily(interaction, note)
        except Exception as error:  # discord.py only logs DynamicItem errors; the player must hear too
            await report_error(interaction, error, where=f"daily play button {self.custom_id}")


class PracticeButton(discord.ui.DynamicItem[discord.ui.Button],
                     template=rf"sc:dpractice:(?P<day>{DAY}):(?P<game>{ID})"):
    def __init__(self, day: int, game_id: int, tr: Messages = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=tr("Replay as practice"), emoji="🔁",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"sc:dpractice:{day}:{game_id}"))
        self.day, self.game_id = day, game_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["day"]), int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            await play_practice(interaction, self.day, self.game_id)
        except Exception as error:
            await report_error(interaction, error, where=f"daily practice button {self.custom_id}")


class ShareButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "dshare", N_("Share result"), "📣", discord.ButtonStyle.primary

    async def run(self, interaction: Interaction) -> None:
        await share_result(interaction, self.game_id)


def play_extras(day: int, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """The Play button of daily ``day`` under its streak reminder (cogs/offers.py)."""
    return [PlayDailyButton(day, tr)]


def share_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """Share, under a finished counted daily (cogs/offers.py), in the player's language ``tr``."""
    if record.kind not in (DAILY, PRACTICE) or record.score is None:
        return []
    return [ShareButton(record.id, tr)] if record.kind == DAILY else []  # par is in the text, not on a button


DYNAMIC_ITEMS = (PlayDailyButton, PracticeButton, ShareButton)
