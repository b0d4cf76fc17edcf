"""The leaderboard tells the caller their own place, even off the top 10."""

from __future__ import annotations

from app.daily.days import DAILY_RULES, daily_seed
from games.engine import Action, deal, legal_actions
from tests.daily.helpers import CARD_CODES, play_to_end


def first_playable(state) -> Action:
    """The policy ``play_to_end`` clicks: the first card button in ``CARD_CODES`` order."""
    legal = {a.code: a for a in legal_actions(state)}
    return legal[next(code for code in CARD_CODES if code in legal)]


async def test_the_caller_sees_their_rank_off_the_top_ten(world):
    store = world.store
    deck = deal(DAILY_RULES, daily_seed(await store.daily_secret(), 1))
    for user in range(1, 12):  # eleven players finish the same line before alice: same score, earlier finish
        record = await store.create_game(user, world.guild.id, world.channel.id, DAILY_RULES, deck=deck,
                                         kind="daily", day=1)
        while record.status == "playing":
            record = await store.play(record.id, user, record.version, first_playable(record.state))
    result = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, result.response)
    mine = await store.daily_attempt(world.alice.id, 1)
    assert mine.score == record.score

    board = (await world.alice.slash(world.channel, "scoundrel leaderboard")).response.embeds[0]
    assert board.footer.text == "you: #12 of 12" and "**alice**" not in board.description
    bobs = (await world.bob.slash(world.channel, "scoundrel leaderboard", board="week")).response.embeds[0]
    assert bobs.footer.text == "you: not on this board yet"
    week = (await world.alice.slash(world.channel, "scoundrel leaderboard", board="week")).response.embeds[0]
    assert week.footer.text == "you: #12 of 12"
