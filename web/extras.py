"""The table's other buttons: Hint, Review, Replay and Share, with the chat's rules for each.

A hint is never given in a counted daily, is asked for once with ``confirm`` in a normal game (a hinted game
leaves the boards) and marks the game before it is shown. Review and Replay wait for the game's end; a daily's
are its player's once their counted attempt is over (``app.shown``), and par's line joins the replay once the
day is over. A review is worked out once and kept: until it is, a request answers 202 with how far it is (the
table asks again), and a second request joins the first. Share is the spoiler-free grid of a finished counted
daily (par only once its day is over), for the Embedded App SDK's share call.
"""

from __future__ import annotations

import logging

from aiohttp import web

from app.coach import access as coaching
from app.coach import reviews
from app.coach.advice import hint_for, review_game
from app.daily import attempt as daily_attempt
from app.daily import share as daily_share
from app.daily.days import share_text
from app.errors import CoachRefused, HintNeedsConsent, NotShareable, ReplayRefused
from app.replays.access import check_game, pars_line
from app.replays.gifs import ReplayBusy, shared
from app.solver.progress import Progress
from app.solver.worker import ParTimeout, SolverBusy
from games.i18n import N_, translated
from games.solver import SolverRefused
from web import play
from web.http import PLAYER, SECURITY_HEADERS, answer, game_id_of, locale_of, read_json
from web.http import refusal as refused

log = logging.getLogger(__name__)

REVIEW_WAIT = 1.0  # seconds a review request waits for the answer before it says how far it is (202)

NO_HINT_DAILY = N_("There are no hints in a counted daily: it is your own play that counts.")
NO_HINT_CHALLENGE = N_("There are no hints in a challenge: everyone plays this deal on their own.")
HINT_GAME_OVER = N_("This game is over: use Review to see where the best moves were.")
HINT_MOVED_ON = N_("The game moved on while the hint was being found; ask again for the position as it is now.")
HINT_WARNING = N_("💡 A hint shows the best move now, but this game will then no longer count on the boards or "
                  "in your stats.")
HINTED_MARK = N_("(hinted — not counted)")
STILL_PLAYING = N_("Finish the game first: the review is shown once it is over.")
DAY_RUNNING = N_("Play this daily yourself first: its replay would give the deal away.")
CHALLENGE_RUNNING = N_("This game is part of a challenge still running: its replay comes once the challenge closes.")
TOO_LONG = N_("This is taking the solver too long; please try again later.")
ONLY_DAILY = N_("Only a finished counted daily can be shared.")
FINISH_ATTEMPT = N_("Finish your counted attempt at Daily #{day} first.")
# How each refusal of ``app.coach.access`` reads at the table (NOT_YOURS is "not found"; RULES the solver's words).
HINT_WORDS = {coaching.COUNTED_DAILY: NO_HINT_DAILY, coaching.IN_CHALLENGE: NO_HINT_CHALLENGE,
              coaching.OVER: HINT_GAME_OVER, coaching.MOVED_ON: HINT_MOVED_ON,
              coaching.UNAVAILABLE: N_("Hints are not available on this bot.")}
REVIEW_WORDS = {coaching.STILL_PLAYING: STILL_PLAYING,
                coaching.UNAVAILABLE: N_("Reviews are not available on this bot.")}


def progress_text(progress: Progress, tr) -> str:
    """How far a review is, in the player's words (the chat's words, without its bar)."""
    if progress.ahead:
        return tr.plural("Waiting for the solver: {n} request ahead of yours.",
                         "Waiting for the solver: {n} requests ahead of yours.", progress.ahead)
    if not progress.total:
        return tr("Reviewing your game…")
    return tr("Reviewing your game: {done}/{total} moves judged.", done=progress.done, total=progress.total)


def add_extras(app: web.Application, routes) -> None:
    extras = Extras(routes)
    app.router.add_post(r"/api/games/{game}/hint", extras.hint)
    app.router.add_get(r"/api/games/{game}/review", extras.review)
    app.router.add_get(r"/api/games/{game}/replay", extras.replay)
    app.router.add_get(r"/api/games/{game}/share", extras.share)


class Extras:
    def __init__(self, routes) -> None:
        self.routes = routes
        self.hint_for, self.review_game = hint_for, review_game  # the solver's worker (app.coach.advice)

    async def _game(self, request: web.Request):
        record = await play.own_game(self.routes.store, request[PLAYER].id, game_id_of(request))
        return record, locale_of(request), request[PLAYER].id

    async def hint(self, request: web.Request) -> web.Response:
        body = await read_json(request)
        record, tr, player_id = await self._game(request)
        store = self.routes.store
        try:
            record = await coaching.check_hint(store, record.id, player_id, hinter=self.hint_for,
                                               confirmed=body.get("confirm") is True)
        except HintNeedsConsent:
            return refused(428, "confirm", tr(HINT_WARNING))  # the first hint says what it costs, and waits
        except CoachRefused as no:
            raise self._refusal(no, HINT_WORDS) from None
        try:
            found = await coaching.hint(store, record, player_id, self._solver(self.hint_for))
        except CoachRefused as no:
            raise self._refusal(no, HINT_WORDS) from None
        # judged on what the player can see (the same words as the Discord Hint)
        text = translated(found.sentence, tr)
        return answer({"text": f"{text} {tr(HINTED_MARK)}", "action": found.code})

    async def review(self, request: web.Request) -> web.Response:
        record, tr, player_id = await self._game(request)
        self._after_the_game(record)
        store = self.routes.store
        try:
            record = await coaching.check_review(store, record.id, player_id, reviewer=self.review_game)
            reviewed = await reviews.review_within(store, record, player_id, self._solver(self.review_game),
                                                   REVIEW_WAIT)
        except CoachRefused as no:
            raise self._refusal(no, REVIEW_WORDS) from None
        if isinstance(reviewed, Progress):  # still being worked out: how far it is; the table asks again
            return answer({"progress": {"ahead": reviewed.ahead, "done": reviewed.done, "total": reviewed.total},
                           "text": progress_text(reviewed, tr)}, status=202)
        lines = [translated(line, tr) for line in reviewed.text.lines]
        if reviewed.hinted and lines:
            lines[-1] += " " + tr(HINTED_MARK)
        return answer({"lines": lines})

    @staticmethod
    def _solver(job):
        """``job`` with the solver's refusals said to the player (busy, too slow, rules it cannot play)."""
        async def asked(*args, **kwargs):
            try:
                return await job(*args, **kwargs)
            except SolverBusy as busy:
                raise play.PlayError(503, str(busy)) from None
            except ParTimeout:
                raise play.PlayError(503, TOO_LONG) from None
            except SolverRefused as no:
                raise play.PlayError(409, str(no)) from None
        return asked

    @staticmethod
    def _refusal(no: CoachRefused, words: dict[str, str]) -> play.PlayError:
        if no.code == coaching.RULES and no.reason:
            return play.PlayError(409, no.reason)
        if no.code == coaching.DAILY_RUNNING:
            return play.PlayError(409, FINISH_ATTEMPT, day=no.day)
        if no.code == coaching.NOT_YOURS:
            return play.PlayError(404, play.NOT_FOUND)
        return play.PlayError(409, words[no.code])

    async def replay(self, request: web.Request) -> web.StreamResponse:
        record, tr, player_id = await self._game(request)
        self._after_the_game(record)
        try:  # a challenge's game waits for the challenge's close
            await check_game(self.routes.store, record, player_id, daily_attempt.now(self.routes.store))
        except ReplayRefused:
            raise play.PlayError(409, CHALLENGE_RUNNING) from None
        state = record.state
        par_line = await pars_line(self.routes.store, record, daily_attempt.now(self.routes.store))  # after the day
        try:
            gif = await shared().render(state.rules, state.start_deck, state.history, seed=state.rng_seed,
                                        par=par_line, abandoned=record.status == "abandoned", tr=tr,
                                        requester=player_id)
        except ReplayBusy as busy:
            raise play.PlayError(503, str(busy)) from None
        headers = dict(SECURITY_HEADERS, **{"Content-Type": "image/gif"})
        return web.Response(body=gif, headers=headers)

    async def share(self, request: web.Request) -> web.Response:
        record, tr, player_id = await self._game(request)
        store = self.routes.store
        try:
            record = await daily_share.shareable(store, record.id, player_id)
        except NotShareable:
            raise play.PlayError(409, ONLY_DAILY) from None
        shown = await daily_share.shared_result(store, record, play.today(store))  # par only once the day is over
        day = record.day
        assert day is not None  # (shareable: a counted daily has its day)
        return answer({"text": share_text(day, record.state, shown.par, shown.streak, tr)})

    def _after_the_game(self, record) -> None:
        """Review and Replay wait for the game's end. A daily's are its player's once their counted attempt is
        over, while its day runs too (``app.shown``; only par's line waits for the day's end)."""
        if record.status not in ("won", "dead", "abandoned"):
            raise play.PlayError(409, STILL_PLAYING)
