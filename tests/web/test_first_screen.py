"""The table's first screen: what the game is, how a turn goes, the rules a tap away and the daily offered, all
in the player's language from the bot's own catalogues."""

from __future__ import annotations

from cogs.game.rules_text import CLASSIC
from games.i18n.messages import messages_for
from web.words import RULES, rules, words


async def test_me_answers_the_rules_and_whether_the_daily_is_on(served, alice):
    client, table = served
    body = await (await client.get("/api/me?locale=fr", headers=alice)).json()
    assert body["daily"] is True  # the first screen offers today's daily beside a new game
    assert body["words"]["how_to_play"].startswith("Chaque salle compte 4 cartes : jouez-en 3")
    assert body["words"]["rules_title"] == "Scoundrel — les règles classiques"
    assert body["rules"][0].startswith("**Le paquet.** 44 cartes")  # the numbers filled in, the bold kept
    assert all("{" not in line for line in body["rules"])
    table.daily_enabled = False
    assert (await (await client.get("/api/me", headers=alice)).json())["daily"] is False


def test_the_tables_rules_are_the_chats_classic_rules_word_for_word():
    assert set(RULES) <= set(CLASSIC.paragraphs)  # one message id each: one translation for both surfaces
    for locale in ("en-US", "de", "fr", "es-ES"):
        tr = messages_for(locale)
        shown = rules(tr)
        assert len(shown) >= len(RULES) and all(line.strip() for line in shown)
        assert "44" in shown[0] and any("♠" in line for line in shown)
        said = words(tr)
        assert "{" not in said["how_to_play"] and "4" in said["how_to_play"] and "3" in said["how_to_play"]
        if locale != "en-US":  # translated, not the English source
            assert said["how_to_play"] != words(messages_for("en-US"))["how_to_play"]
            assert said["tagline"] != words(messages_for("en-US"))["tagline"]
