"""The standings of every running challenge, kept on its one message; its close, on time; its final standings, once.

Event-driven, so a quiet bot runs nothing: a join, or a move in a challenge's game (the event ``challenge_moved``,
``app/events.py``, whichever surface made it), schedules an edit of its standings, at once if the message was
not edited in the last ``EDIT_EVERY``, otherwise when that interval is up, however many more players move or
finish meanwhile (the edit reads the standings as they are then). So a message is edited at most once every 2 s
(Discord allows 5 edits per 5 s in a channel) and is never more than ``EDIT_EVERY`` and one edit behind. Each edit
takes its turn from the bot's request budget (``bot.send_budget``, after the daily posts), never from a player's
click: the click is answered first, and the edit is a task of its own.

Each running challenge has a timer that closes it when its time is up (``app.challenges.play.close``); its final
standings wait for par and the coach's score (worked out from its start) for at most ``PAR_WAIT``, are written,
and only then is the challenge settled. At start-up the keeper takes up every challenge not settled: its timer
again, an edit to catch up, and for one closed but not settled its final standings, written again on the same
message; a settled challenge is never written again. So after a restart a challenge closes on time and its final
standings come out once.

Where the bot cannot edit a message on its own (installed by a user: a group DM, a server without the bot), a
message can only be edited through an interaction's token, which lasts 15 minutes. The command and every click on
the challenge's message (Join, Close) hand the keeper their token; the keeper edits through the freshest one still
valid (``TOKEN_LIFE``, with a margin). A challenge there keeps its standings as long as someone clicks within each
14 minutes, and its final standings are written by the starter's Close, or by the first Join after the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import discord
from discord.ext import commands

from app.challenges import par as challenge_par
from app.challenges import play, standings
from app.challenges.standings import Board
from app.solver.worker import DEFAULT_TIMEOUT
from cogs.challenge.board import SHOWN_PLAYERS, embed, starter_of
from cogs.challenge.buttons import controls
from cogs.commands.group import bot_can_post
from cogs.plumbing import clock
from games.i18n import messages_for

log = logging.getLogger(__name__)

EDIT_EVERY = 2.0  # seconds at least between two edits of one challenge's message
PAR_WAIT = DEFAULT_TIMEOUT + 30.0  # seconds the final standings wait for par and the coach's score
TOKEN_LIFE = timedelta(minutes=15) - timedelta(minutes=1)  # an interaction's token, less a margin


@dataclass
class Token:
    """An interaction whose original response is the challenge's message (the command's, or a click on it
    answered by deferring): its token edits that message until ``until``, where the bot cannot on its own."""

    interaction: discord.Interaction
    until: datetime


@dataclass
class Watch:
    drawn: object = None  # the standings last written, to edit only when they changed
    edited_at: float = -math.inf  # when the last edit began, on the event loop's clock
    dirty: bool = False  # changed while an edit was waiting or on its way
    edits: int = 0
    token: Token | None = None
    times: list[float] = field(default_factory=list)  # when each edit went (the benchmark reads them)


class StandingsKeeper(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot
        self.watched: dict[int, Watch] = {}
        self.pending: dict[int, asyncio.Task] = {}  # challenge id -> the edit waiting for its turn
        self.timers: dict[int, asyncio.Task] = {}  # challenge id -> its close when its time is up
        self.par_tasks: dict[int, asyncio.Task] = {}
        self.finishing: dict[int, asyncio.Task] = {}
        self.finals = 0  # final standings written by this process (the tests read it)

    async def cog_load(self) -> None:
        self.resuming = asyncio.get_running_loop().create_task(self.resume())

    async def cog_unload(self) -> None:
        tasks = [self.resuming, *self.pending.values(), *self.timers.values(), *self.par_tasks.values(),
                 *self.finishing.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- what is kept --------------------------------------------------------------------------------------
    def watch(self, challenge_id: int) -> Watch:
        return self.watched.setdefault(challenge_id, Watch())

    def token_from(self, interaction, challenge_id: int) -> None:
        """Keep ``interaction``'s token, whose original response is the challenge's message, for a challenge the
        bot cannot edit on its own."""
        if bot_can_post(interaction):
            return
        self.watch(challenge_id).token = Token(interaction, clock.now() + TOKEN_LIFE)

    def started(self, challenge) -> None:
        """A challenge to keep: its timer, par and the coach's score in the background."""
        self.watch(challenge.id)
        if challenge.id not in self.timers:
            self.timers[challenge.id] = asyncio.get_running_loop().create_task(self.close_on_time(challenge))
        if challenge.par is None and challenge.id not in self.par_tasks:
            self.par_tasks[challenge.id] = asyncio.get_running_loop().create_task(challenge_par.work_out(
                self.bot.store, challenge, self.bot.par_solver, getattr(self.bot, "coach_player", None)))

    def mine(self, challenge) -> bool:
        """This process keeps the challenges of the servers it sees (and those started through it elsewhere)."""
        return challenge.guild_id is None or self.bot.get_guild(challenge.guild_id) is not None

    async def resume(self) -> None:
        for attempt in range(60):
            try:
                found = await play.open_challenges(self.bot.store)
                break
            except Exception:  # noqa: BLE001 - the database is down as the bot starts: try again
                log.exception("could not read the open challenges (attempt %s)", attempt + 1)
                await asyncio.sleep(5)
        else:
            return
        for challenge in found:
            if self.mine(challenge):
                self.started(challenge)
                self.schedule(challenge.id)

    # --- the events ------------------------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_challenge_moved(self, record) -> None:
        if record.challenge_id is not None:
            self.schedule(record.challenge_id)

    def schedule(self, challenge_id: int) -> None:
        """Edit the standings now, or when their interval is up; once however often called meanwhile (a change
        made while an edit is on its way schedules the next one when it is done)."""
        watch = self.watch(challenge_id)
        if challenge_id in self.pending:
            watch.dirty = True
            return
        wait = max(0.0, watch.edited_at + EDIT_EVERY - asyncio.get_running_loop().time())
        self.pending[challenge_id] = asyncio.get_running_loop().create_task(self._edit_later(challenge_id, wait))

    async def _edit_later(self, challenge_id: int, wait: float) -> None:
        watch = self.watch(challenge_id)
        try:
            if wait:
                await asyncio.sleep(wait)
            watch.dirty = False  # what changes from now on is read by the next edit
            board = await standings.board(self.bot.store, challenge_id)
            if board.final:
                self.finish_soon(challenge_id)
            elif board.rows != watch.drawn and await self.edit(board, watch):
                watch.drawn = board.rows
        except Exception:  # noqa: BLE001 - standings are not worth a crash; the next change tries again
            log.exception("could not edit the standings of challenge %s", challenge_id)
        finally:
            self.pending.pop(challenge_id, None)
            if watch.dirty and challenge_id in self.watched:
                self.schedule(challenge_id)

    async def close_on_time(self, challenge) -> None:
        try:
            await asyncio.sleep(max(0.0, (challenge.closes_at - clock.now()).total_seconds()))
            for attempt in range(10):
                try:
                    await play.close(self.bot.store, challenge.id)
                    break
                except Exception:  # noqa: BLE001 - the database is down: try again shortly
                    log.exception("could not close challenge %s (attempt %s)", challenge.id, attempt + 1)
                    await asyncio.sleep(5)
            self.finish_soon(challenge.id)
        finally:
            self.timers.pop(challenge.id, None)

    def finish_soon(self, challenge_id: int) -> None:
        if challenge_id not in self.finishing:
            self.finishing[challenge_id] = asyncio.get_running_loop().create_task(self.finish(challenge_id))

    async def finish(self, challenge_id: int) -> None:
        """The final standings of a closed challenge, once par is known (or its wait is over); then settled."""
        store = self.bot.store
        try:
            challenge = await play.to_settle(store, challenge_id)
            if challenge.running:
                return
            task = self.par_tasks.get(challenge_id)
            if challenge.par is None and task is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(task), PAR_WAIT)
            await self.note_gone(challenge)
            board = await standings.board(store, challenge_id)
            watch = self.watch(challenge_id)
            if await self.edit(board, watch):
                if await play.settled(store, challenge_id):
                    self.finals += 1
                self.watched.pop(challenge_id, None)
                self.par_tasks.pop(challenge_id, None)
        except Exception:  # noqa: BLE001 - tried again at the next change, or the next start
            log.exception("could not write the final standings of challenge %s", challenge_id)
        finally:
            self.finishing.pop(challenge_id, None)

    # --- the edit ------------------------------------------------------------------------------------------
    async def edit(self, board: Board, watch: Watch) -> bool:
        """Write ``board`` on the challenge's message, in its turn of the request budget; False when it cannot
        be reached now (no valid token for a user install). A message that is gone is given up (True)."""
        challenge = board.challenge
        tr = messages_for(challenge.locale)
        table = getattr(getattr(self.bot, "config", None), "activity", None) is not None
        guild = self.bot.get_guild(challenge.guild_id) if challenge.guild_id is not None else None
        member = getattr(guild, "get_member", lambda _: None)(challenge.starter_id)
        starter = starter_of(board, member.display_name if member is not None else None)
        shown, view = embed(board, tr, starter), controls(board, tr, table)
        token = watch.token if watch.token is not None and watch.token.until > clock.now() else None
        if token is None and (challenge.guild_id is not None and self.bot.get_guild(challenge.guild_id) is None
                              or challenge.channel_id is None or challenge.message_id is None):
            return False
        await self.bot.send_budget.take(urgent=False)  # after any daily post waiting for its turn
        watch.edited_at = asyncio.get_running_loop().time()  # the next edit is due 2 s after this one began
        try:
            if token is not None:
                await token.interaction.edit_original_response(embed=shown, view=view)
            else:
                channel = self.bot.get_partial_messageable(challenge.channel_id)
                await channel.get_partial_message(challenge.message_id).edit(embed=shown, view=view)
        except discord.NotFound:
            if token is not None:  # the token no longer reaches it: wait for a fresh one
                watch.token = None
                return False
            log.warning("challenge %s: its message is gone", challenge.id)
            return True
        except discord.HTTPException as error:
            log.warning("challenge %s: could not edit its standings: %r", challenge.id, error)
            return False
        watch.edits += 1
        watch.times.append(watch.edited_at)
        del watch.times[:-50]
        return True

    async def note_gone(self, challenge) -> None:
        """Before the final standings: which of the players shown have left the server since they joined. The bot
        asks for no member events (the ``guilds`` intent only), so each is looked up once, in the budget's turn."""
        guild = self.bot.get_guild(challenge.guild_id) if challenge.guild_id is not None else None
        if guild is None:
            return
        board = await standings.board(self.bot.store, challenge.id)
        for row in board.rows[:SHOWN_PLAYERS]:
            if row.gone:
                continue
            await self.bot.send_budget.take(urgent=False)
            try:
                await guild.fetch_member(row.user_id)
            except discord.NotFound:
                await play.member_gone(self.bot.store, guild.id, row.user_id)
            except discord.HTTPException:
                log.info("challenge %s: could not look up member %s", challenge.id, row.user_id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """With the members intent (an operator's choice), a member who leaves is shown as gone at once."""
        with contextlib.suppress(Exception):
            await play.member_gone(self.bot.store, payload.guild_id, payload.user.id)
