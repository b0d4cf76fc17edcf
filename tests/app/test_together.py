"""Who sees what at one table (app.play.together): a name always; room and health only for today's daily or the
same challenge; a score once over; seats that go quiet are gone; a move wakes the table."""

import asyncio
from datetime import timedelta

from app.play.together import SEAT_LIFE, Tables
from games.engine import Rules, legal_actions
from games.engine.calendar import day_of

ALICE, BOB, CAROL = 11, 22, 33


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_friend_shows_room_and_health_only_for_a_game_played_together(store, clock):
    tables = Tables()
    challenge = await store.challenges.create(place=1, guild_id=1, channel_id=2, starter_id=ALICE, rules=Rules(),
                                              seed=5, locale="en-US", lasts=timedelta(minutes=10))
    alice, _ = await store.challenges.join(challenge.id, ALICE, "alice")
    bob, _ = await store.challenges.join(challenge.id, BOB, "bob")
    carol = await store.create_game(CAROL, 1, 2, Rules(), seed=9)  # a game of her own
    for player, game in ((ALICE, alice), (BOB, bob), (CAROL, carol)):
        tables.sit("i", player, f"p{player}", game.id)
    await store.play(bob.id, BOB, 0, legal_actions(bob.state)[0])
    strip = {f.player_id: f for f in await tables.strip(store, "i", ALICE, clock())}
    assert strip.keys() == {BOB, CAROL}
    moved = await store.load_game(bob.id)
    assert strip[BOB].playing == "challenge" and strip[BOB].room == moved.state.turn == 2 and strip[BOB].score is None
    assert strip[CAROL].playing is None and strip[CAROL].room is None and strip[CAROL].health is None
    daily = await store.create_game(CAROL, 1, 2, Rules(), seed=3, kind="daily", day=day_of(clock()))
    tables.sit("i", CAROL, "carol", daily.id)
    strip = {f.player_id: f for f in await tables.strip(store, "i", ALICE, clock())}
    assert strip[CAROL].playing == "daily" and strip[CAROL].health == 20  # the daily is everyone's


async def test_seats_go_quiet_and_moves_wake_the_table(store):
    ticks = Ticks()
    tables = Tables(clock=ticks)
    game = await store.create_game(BOB, 1, 2, Rules(), seed=9)
    tables.sit("i", ALICE, "alice", None)
    tables.sit("i", BOB, "bob", game.id)
    version = tables.instances["i"].version
    waiting = asyncio.ensure_future(tables.wait("i", version, 5.0))
    await asyncio.sleep(0)
    tables.moved(await store.play(game.id, BOB, 0, legal_actions(game.state)[0]))
    assert await waiting == version + 1
    ticks.now += SEAT_LIFE + 1
    tables.sit("i", ALICE, "alice", None)
    assert [f.player_id for f in await tables.strip(store, "i", ALICE, store.now())] == []  # bob went quiet


async def test_a_change_is_read_once_and_built_once_however_many_follow(store, clock):
    """Twenty players of one challenge at one table, all asking at once: each game is read once, one view is built
    for all of them; a move (heard through the application's event) is then shown without reading anything."""
    from app import events
    from app.play import solo

    tables = Tables()
    stop = events.listen_moves(store, tables.moved)
    challenge = await store.challenges.create(place=1, guild_id=1, channel_id=2, starter_id=ALICE, rules=Rules(),
                                              seed=5, locale="en-US", lasts=timedelta(minutes=10))
    players = list(range(100, 120))
    games = {p: (await store.challenges.join(challenge.id, p, f"p{p}"))[0] for p in players}
    for player in players:
        tables.sit("i", player, f"p{player}", games[player].id)
    reads = []
    get_game = store.get_game

    async def counted(game_id):
        reads.append(game_id)
        return await get_game(game_id)

    store.get_game = counted
    try:
        views = await asyncio.gather(*(tables.view(store, "i", p, clock()) for p in players))
        assert sorted(reads) == sorted(g.id for g in games.values())  # each game once, not once per viewer
        assert len({id(view) for view in views}) == 1 and len(views[0].friends) == 20
        reads.clear()
        mover = games[players[0]]
        await solo.move(store, mover.id, players[0], 0, "A")  # avoids room 1: the event carries the game
        views = await asyncio.gather(*(tables.view(store, "i", p, clock()) for p in players))
        assert reads == [] and len({id(view) for view in views}) == 1
        shown = {f.player_id: f for f in views[0].without(players[1])}
        assert shown[players[0]].room == 2 and players[1] not in shown
    finally:
        store.get_game = get_game
        stop()
