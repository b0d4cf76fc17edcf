"""The duel in its players' languages: alice reads German, bob French, carol English.

Each private answer is in its reader's language; the shared board is in the language of whoever's click or
command produced it, its picture too (and the same state in the same language is always the same picture).
"""

from cogs.duel.view import counts_line, refused_text
from cogs.text.card_text import readable
from games.duel import apply, from_json, new_duel, refusal, replay, to_json
from games.duel.actions import DuelAction, IllegalDuelAction
from games.duel.cards import Card
from games.duel.text import event_text, rules_text
from games.engine.seeds import seed_from_text
from games.i18n.messages import ENGLISH, messages_for
from games.picture.duel import duel_layout, render_duel
from storage.duels import load_duel, open_duel
from tests.discord.harness import button, buttons, press_again
from tests.duel.test_discord import SEED, selects

DE, FR = messages_for("de"), messages_for("fr")


def labels(message) -> set[str]:
    return {b.label for b in buttons(message)}


async def test_a_duel_between_a_german_and_a_french_player(world, locales):
    locales.speak(world.alice, "de")
    locales.speak(world.bob, "fr")
    carol = world.guild.add_member(world.env.create_user("carol"))
    bob_mention, alice, bob = f"<@{world.bob.id}>", "**alice**", "**bob**"  # names as kept with the duel

    # alice's command posts the challenge: in German, buttons included
    challenge = (await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob, seed=SEED)).response
    duel_id = (await open_duel(world.store, world.alice.id)).id
    assert challenge.content == DE("{opponent}, you are challenged!", opponent=bob_mention)
    assert challenge.content == f"{bob_mention}, du wirst herausgefordert!"  # the mention that pings him
    assert challenge.embeds[0].title == DE("Scoundrel duel #{number}", number=duel_id) == f"Scoundrel-Duell #{duel_id}"
    assert labels(challenge) == {"Annehmen", "Ablehnen", "Regeln"}
    waiting = await world.alice.click(challenge, label="Annehmen")  # a private answer: alice's German
    assert waiting.response.content == DE("Waiting for your opponent to accept.") == "Warte, bis dein Gegner annimmt."
    outsider = await carol.click(challenge, label="Annehmen")  # carol reads English
    assert outsider.response.content == f"This challenge is for {bob}."

    # bob accepts: the board is redrawn by his click, so it is French now, picture included
    await world.bob.click(challenge, label="Annehmen")
    record = await load_duel(world.store, duel_id)
    board = challenge.embeds[0]
    assert labels(challenge) == {"Ma main", "Abandonner", "Règles"}
    assert challenge.content == FR("Player 1: {first} · Player 2: {second}", first=alice, second=bob)
    assert challenge.content == f"Joueur 1 : {alice} · Joueur 2 : {bob}"
    assert FR("{player} rolled **{dice}** and places the dice.", player="Joueur 1",
              dice=" ".join(map(str, record.state.dice))) in board.description
    assert "Joueur 1 lance " in board.description  # the engine's event, in French
    dice = " ".join(map(str, record.state.dice))  # the counts the picture leaves out, then the turn
    assert board.footer.text == f"à placer : {dice} · pioche 30 · vols 0 · mains 7 / 7 · Tour 1 · seed {SEED}"
    french_picture = await challenge.message.attachments[0].read()
    assert french_picture == render_duel(record.state, FR) != render_duel(record.state, ENGLISH)

    # alice's hand: her German, and the picture in it German too
    hand = (await world.alice.click(challenge, label="Ma main")).response
    assert hand.embeds[0].title == f"Deine Hand · Duell #{duel_id}"
    assert hand.embeds[0].description.endswith("\n" + DE("Your turn: place the dice."))
    assert await hand.message.attachments[0].read() == render_duel(record.state, DE) != french_picture
    dice = record.state.dice
    assert {b.label for b in buttons(hand)} == {f"🎲{dice[0]} → Paar {pair}" for pair in (1, 2, 3, 4)}
    # bob's own look at his hand meanwhile: French
    early = (await world.bob.click(challenge, label="Ma main")).response
    assert early.embeds[0].footer.text == FR("Not your turn yet: press My hand again when it is.")
    assert early.embeds[0].footer.text.startswith("Ce n’est pas encore votre tour")

    first_die = button(hand, f"🎲{dice[0]} → Paar 1").custom_id
    for pair in (1, 2, 3):
        await world.alice.click(hand, label=f"🎲{dice[pair - 1]} → Paar {pair}")
    # alice's last die redrew the board: in German now
    record = await load_duel(world.store, duel_id)
    board = challenge.embeds[0]
    assert labels(challenge) == {"Meine Hand", "Aufgeben", "Regeln"}
    assert DE("{player} (non-roller) plays cards. Press **My hand** to see yours.", player="Spieler 2") in \
        board.description
    assert f"· Würfel {dice[2]} kommt auf Paar 3" in board.description
    assert "· Spieler 2 ist am Zug" in board.description
    assert await challenge.message.attachments[0].read() == render_duel(record.state, DE)

    # bob's play: his menu and buttons in French; a stale click is told in French
    bob_hand = (await world.bob.click(challenge, label="Meine Hand")).response
    options = [o["label"] for o in selects(bob_hand)[0]["options"]]
    assert options[:2] == ["♥️A sur votre paire 1 (sur ♧K ; 🎲1 : encore 1 permises)",
                           "♦️4 : voler la paire 1 (1 carte)"]
    assert options[1] == readable(FR.plural("{card}: steal pair {pair} ({n} card)",
                                            "{card}: steal pair {pair} ({n} cards)", 1, card="♦4", pair=1))
    assert "Terminé" in labels(bob_hand)
    code = selects(bob_hand)[0]["options"][0]["value"]
    await world.bob.select(bob_hand, [code], custom_id=selects(bob_hand)[0]["custom_id"])
    assert "· Joueur 2 pose ♥️A sur la paire 1" in challenge.embeds[0].description  # his move: the board in French
    stale = await press_again(world.alice, hand.message, first_die)  # a click on an old copy of alice's hand
    assert stale.response.content == DE("The duel had moved on, so that did nothing: here is your hand as it is now.")

    # the rules, each in their own language; carol (English) is told the duel is not hers
    rules = (await world.bob.click(challenge, label="Règles")).response
    assert rules.embeds[0].title == "Duel de Scoundrel — règles" and rules.embeds[0].description == rules_text(FR)
    assert rules.embeds[0].description.startswith("**Objectif :**")
    not_hers = await carol.click(challenge, label="Ma main")
    assert not_hers.response.content.startswith("This duel is between")

    # bob resigns in French; the board says so in French
    ask = (await world.bob.click(challenge, label="Abandonner")).response
    assert ask.content == "Abandonner ce duel ? Votre adversaire gagne."
    await world.bob.click(ask, label="Oui, abandonner")
    assert FR("🏆 {winner} wins (the other player resigned)!", winner="Joueur 1") in challenge.embeds[0].description
    assert "· Joueur 2 abandonne ; Joueur 1 gagne" in challenge.embeds[0].description
    over = await press_again(world.alice, hand.message, first_die)
    assert over.response.content == DE("This duel is over.") == "Dieses Duell ist vorbei."
    # text that names a command names it as alice's Discord shows it
    none_open = await world.alice.slash(world.channel, "scoundrel duel")
    assert none_open.response.content == ("Du hast kein offenes Duell – fordere jemanden heraus mit "
                                          "`/scoundrel duell gegner:@jemand`.")


def test_the_picture_words_translate_and_stay_deterministic():
    state = replay(seed_from_text(SEED), ["P00", "P11"])
    english, german = duel_layout(state), duel_layout(state, DE)
    assert english.players == ("▸ PLAYER 1", "PLAYER 2")
    assert german.players == ("▸ SPIELER 1", "SPIELER 2")
    # the counts are the board message's footer: too many words for the picture on a phone
    assert counts_line(state, DE).startswith(f"zu legen: {state.dice[2]} · Stapel {len(state.stock)} · Beutestapel")
    assert counts_line(state).startswith(f"to place: {state.dice[2]} · stock {len(state.stock)} · stolen pile")
    assert german.places == english.places and german.dice == english.dice  # only the words differ
    png = render_duel(state, DE)
    assert render_duel(state, DE) == png  # the same state and language: the same picture, byte for byte
    assert png != render_duel(state, FR) and png != render_duel(state, ENGLISH)
    assert render_duel(state) == render_duel(state, ENGLISH)


def test_refusals_and_events_keep_their_meaning_in_every_language():
    state = new_duel(seed_from_text(SEED))
    absent = next(Card(rank, suit) for rank in range(1, 14) for suit in "CDHS"
                  if Card(rank, suit) not in state.hands[0])
    action = DuelAction("B", pair=0, card=absent)
    reason = refusal(apply(apply(apply(state, "P00"), "P11"), "P22"), action)
    assert reason == f"{absent.label} is not in your hand"  # the engine's own text is English
    refused = IllegalDuelAction(reason)
    assert refused_text(refused, DE) == f"Das geht nicht: {absent.label} ist nicht auf deiner Hand."
    assert refused_text(refused, ENGLISH) == f"You can't do that: {absent.label} is not in your hand."

    # events saved in a snapshot are still translated when the snapshot is read back
    played = replay(seed_from_text(SEED), ["P00", "P11", "P22", "D"])
    restored = from_json(to_json(played))
    assert restored == played
    names = ("<@1>", "<@2>")
    assert [event_text(e, names, FR) for e in restored.events] == [event_text(e, names, FR) for e in played.events]
    mover = names[played.actor]  # after the non-roller's Done, the roller plays
    assert event_text(restored.events[0], names, FR) == f"{mover} joue"
    assert event_text(restored.events[0], names) == f"{mover} plays"
    # an event saved before events kept their template reads as it was written
    assert event_text("{1} plays", names, DE) == "<@2> plays"
