"""The duel on Discord, through SimCord: challenge, accept, refused outsiders, plays, stale clicks, restart."""

from games.duel import replay
from games.engine.seeds import seed_from_text
from games.picture.duel import FILENAME as DUEL_FILENAME
from games.picture.duel import render_duel
from storage.duels import load_duel, open_duel
from tests.discord.harness import button, buttons, click_on_snapshot, press_again, snapshot

SEED = "0000-0005"


def custom_ids(message) -> list[str]:
    return [b.custom_id for b in buttons(message)]


def selects(message):
    from simcord.components import walk_components
    return [c for c in walk_components(message.components) if c.get("type") == 3]


async def start(world):
    result = await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob, seed=SEED)
    return result.response


async def accepted(world):
    challenge = await start(world)
    await world.bob.click(challenge, label="Accept")
    return challenge


async def test_challenge_then_outsider_and_challenger_cannot_accept(world):
    carol = world.guild.add_member(world.env.create_user("carol"))
    challenge = await start(world)
    assert f"<@{world.bob.id}>" in challenge.content  # the one mention that pings, so it resolves
    # The embed names the players as they were when challenged: a mention there may show as a raw id.
    assert challenge.embeds[0].description.startswith("**alice** challenges **bob** to a Scoundrel duel.")
    assert "<@" not in str(challenge.embeds[0].to_dict())
    assert {b.label for b in buttons(challenge)} == {"Accept", "Decline", "Rules"}
    outsider = await carol.click(challenge, label="Accept")
    assert outsider.ephemeral and outsider.response.content == "This challenge is for **bob**."
    own = await world.alice.click(challenge, label="Accept")
    assert own.ephemeral and "Waiting for your opponent" in own.response.content
    await world.bob.click(challenge, label="Accept")
    board = challenge.embeds[0]
    record = await open_duel(world.store, world.bob.id)
    # the board is a picture of the started duel, attached to the challenge message it replaces
    assert board.image.url == f"attachment://{DUEL_FILENAME}" and not board.fields
    assert [a.filename for a in challenge.message.attachments] == [DUEL_FILENAME]
    assert await challenge.message.attachments[0].read() == render_duel(record.state)
    # who is who in the message's own text, by the names kept with the duel (the board pings no one, and a mention
    # that pings no one may show as a raw id); "Player 1" as on the picture
    assert challenge.content == "Player 1: **alice** · Player 2: **bob**"
    assert board.description.startswith("Player 1 rolled ") and "<@" not in board.description
    assert {b.label for b in buttons(challenge)} == {"My hand", "Resign", "Rules"}
    record = await open_duel(world.store, world.bob.id)
    assert record.status == "playing" and record.players == (world.alice.id, world.bob.id)


async def test_decline_and_second_challenge_refused(world):
    challenge = await start(world)
    again = await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob)
    assert again.ephemeral and "already have an open duel" in again.response.content
    await world.bob.click(challenge, label="Decline")
    assert "declined" in challenge.embeds[0].description and buttons(challenge) == []
    assert await open_duel(world.store, world.alice.id) is None


async def test_bad_input_is_refused(world):
    self_duel = await world.alice.slash(world.channel, "scoundrel duel", opponent=world.alice)
    assert self_duel.ephemeral and "yourself" in self_duel.response.content
    bad_seed = await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob, seed="??")
    assert bad_seed.ephemeral and "not a seed" in bad_seed.response.content
    assert await open_duel(world.store, world.alice.id) is None


async def test_placing_playing_and_stale_clicks(world):
    carol = world.guild.add_member(world.env.create_user("carol"))
    board = await accepted(world)
    outsider = await carol.click(board, label="My hand")
    assert outsider.ephemeral and "This duel is between" in outsider.response.content

    waiting = await world.bob.click(board, label="My hand")  # alice rolls first
    assert waiting.ephemeral and "Not your turn" in waiting.response.embeds[0].footer.text
    assert buttons(waiting.response) == []

    hand = (await world.alice.click(board, label="My hand")).response
    assert hand.ephemeral
    current = await load_duel(world.store, (await open_duel(world.store, world.alice.id)).id)
    assert await hand.message.attachments[0].read() == render_duel(current.state)  # the board, in the hand too
    # shown inside the embed: its image names the attached file (else Discord shows it loose, under an empty frame)
    assert hand.embeds[0].image.url == f"attachment://{hand.message.attachments[0].filename}"
    for pair in (1, 2):
        await world.alice.click(hand, label=f"🎲{replay(seed_from_text(SEED), []).dice[pair - 1]} → pair {pair}")
    before_last = snapshot(world.alice, hand.message)
    last_die = [b for b in buttons(hand) if b.label.endswith("pair 3")][0]
    await world.alice.click(hand, custom_id=last_die.custom_id)
    assert board.embeds[0].description.startswith("Player 2 (non-roller) plays cards")
    assert "· Player 2 plays" in board.embeds[0].description  # events name players as the picture does
    assert board.content == "Player 1: **alice** · Player 2: **bob**"  # kept on each move

    stale = await click_on_snapshot(world.alice, before_last, last_die.custom_id)  # a double press
    assert stale.response.content.startswith("The duel had moved on")  # the hand, redrawn as it is now
    assert "Not your turn" in stale.response.embeds[0].footer.text
    # The same press on the hand as Discord has it now (the button is gone): answered, not dropped.
    again = await press_again(world.alice, hand.message, last_die.custom_id)
    assert again.acknowledged and again.response.content.startswith("The duel had moved on")

    bob_hand = (await world.bob.click(board, label="My hand")).response
    menus = selects(bob_hand)
    assert [o["label"] for o in menus[0]["options"]] == [  # only legal plays, K→A wrapping included
        "♥️A on your pair 1 (on ♧K; 🎲1: 1 more allowed)", "♦️4: steal pair 1 (1 card)",
        "♥️9 on your pair 3 (on ♦️8; 🎲3: 3 more allowed)", "♥️10: steal pair 3 (1 card)"]
    code = menus[0]["options"][0]["value"]
    await world.bob.select(bob_hand, [code], custom_id=menus[0]["custom_id"])
    await world.bob.click(bob_hand, label="Done")
    record = await load_duel(world.store, (await open_duel(world.store, world.bob.id)).id)
    assert record.state == replay(seed_from_text(SEED), ["P00", "P11", "P22", code, "D"])
    assert record.state.actor == 0 and "Player 1 (roller)" in board.embeds[0].description
    assert await board.message.attachments[0].read() == render_duel(record.state)  # the picture follows each move
    assert buttons(bob_hand) == [] and selects(bob_hand) == []  # bob's controls are gone once his play is over
    assert "Not your turn" in bob_hand.embeds[0].footer.text


async def test_buttons_survive_a_restart_and_resign(world):
    board = await accepted(world)
    await world.restart()
    hand = await world.alice.click(board, label="My hand")
    assert hand.ephemeral and len([b for b in buttons(hand.response) if "→ pair" in (b.label or "")]) == 4
    ask = await world.bob.click(board, label="Resign")
    await world.bob.click(ask.response, custom_id=button(ask.response, "Yes, resign").custom_id)
    assert "wins" in board.embeds[0].description and [b.label for b in buttons(board)] == ["Replay"]
    record = await load_duel(world.store, 1)
    assert record.status == "abandoned" and record.winner == 0


async def test_rules_button_and_reposting_the_board(world):
    board = await accepted(world)
    rules = await world.bob.click(board, label="Rules")
    assert rules.ephemeral and "Goal:" in rules.response.embeds[0].description
    busy = await world.bob.slash(world.channel, "scoundrel duel", opponent=world.alice)
    assert busy.ephemeral and f"/{board.channel_id}/{board.id}" in busy.response.content
    again = await world.alice.slash(world.channel, "scoundrel duel")
    assert not again.ephemeral and {b.label for b in buttons(again.response)} == {"My hand", "Resign", "Rules"}
    hand = (await world.alice.click(again.response, label="My hand")).response
    await world.alice.click(hand, custom_id=[b for b in buttons(hand) if not b.disabled][0].custom_id)
    assert "goes on pair" in again.response.embeds[0].description  # the new copy is the live one


async def test_no_open_duel_to_repost(world):
    result = await world.alice.slash(world.channel, "scoundrel duel")
    assert result.ephemeral and "no open duel" in result.response.content


def eager_history(seed: int) -> tuple[str, ...]:
    """A whole duel, played by the engine: finish when possible, else a random card play, else Done."""
    import random

    from games.duel import apply, legal_actions, new_duel
    rng, state = random.Random(seed), new_duel(seed)
    while not state.over:
        actions = legal_actions(state)
        finishes = [a for a in actions if a.kind == "F"]
        plays = [a for a in actions if a.kind != "D"]
        state = apply(state, finishes[0] if finishes else rng.choice(plays or actions))
    return state.history


async def test_the_winning_finish_by_click_ends_the_duel_on_the_board(world):
    from storage.duels import play_duel
    history = eager_history(seed_from_text(SEED))
    board = await accepted(world)
    record = await open_duel(world.store, world.alice.id)
    for code in history[:-1]:  # everything but the winning move, through the real storage path
        record = await play_duel(world.store, record.id, record.players[record.state.actor], record.version, code)
    winner = (world.alice, world.bob)[record.state.actor]
    hand = (await winner.click(board, label="My hand")).response
    await winner.click(hand, label=f"Finish pair {int(history[-1][1]) + 1}")
    assert f"🏆 Player {record.players.index(winner.id) + 1} wins" in board.embeds[0].description
    assert [b.label for b in buttons(board)] == ["Replay"]  # a finished duel takes no more moves
    final = await load_duel(world.store, record.id)
    assert final.status == "won" and final.state == replay(seed_from_text(SEED), history)
    assert await open_duel(world.store, world.alice.id) is None
