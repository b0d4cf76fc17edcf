"""/scoundrel rules and /scoundrel help in the reader's language (German, French here); others keep theirs."""

from __future__ import annotations

import discord

from cogs.game.commands import WHERE
from cogs.game.rules_text import PAGES, RULE_PAGES, page_text, pages
from cogs.text.card_text import readable
from cogs.text.embed_fields import CONTINUED, FIELD_LIMIT, add_lines_field
from games.i18n.messages import SHIPPED, SOURCE, messages_for
from tests.daily.helpers import admin_of
from tests.discord.harness import button
from tests.discord.test_member_menu_and_help import all_commands

GERMAN = messages_for("de")
# Words a German reader finds on each page (a lookup that fell back to English would not have them).
GERMAN_WORDS = (
    ("Das Deck", "Monster", "Tränke", "Meiden", "Stellen", "Verlies"),
    ("Kartenknöpfe", "Kampfmodus", "`/scoundrel fortsetzen`"),
    ("Regelwerke", "Waffenlimit", "`/scoundrel spielen regelwerk:`", "Gewonnen, sobald"),
    ("Händler", "Totenbeschwörer", "Schleifen", "Friedhof"),
    ("Tagesspiel", "Bestenlisten", "`/scoundrel statistik`"),
)


async def test_a_german_member_reads_every_rules_page_in_german_and_an_english_one_in_english(world, locales):
    locales.speak(world.alice, "de")
    rules = await world.alice.slash(world.channel, "scoundrel rules")
    english = await world.bob.slash(world.channel, "scoundrel rules")
    german_pages = pages(GERMAN)
    for number, words in enumerate(GERMAN_WORDS):
        embed = rules.response.embeds[0]
        assert embed.title == german_pages[number][0] == GERMAN(RULE_PAGES[number].title)
        assert embed.description == readable(german_pages[number][1])
        assert all(word in embed.description for word in words), (number, words)
        assert embed.footer.text == f"Seite {number + 1} von {len(PAGES)}"
        assert button(rules.response, "◀ Zurück").disabled == (number == 0)
        if number < len(GERMAN_WORDS) - 1:
            await world.alice.click(rules.response, label="Weiter ▶")
    assert button(rules.response, "Weiter ▶").disabled
    await world.alice.click(rules.response, label="◀ Zurück")
    assert rules.response.embeds[0].title == "Die Erweiterungskarten"

    # bob's client is in English: his copy of the rules, and the page he turns to, stay English.
    assert english.response.embeds[0].title == "Scoundrel — the classic rules"
    assert english.response.embeds[0].description == readable(page_text(RULE_PAGES[0]))
    await world.bob.click(english.response, label="Next ▶")
    assert english.response.embeds[0].title == "Playing with buttons"
    assert english.response.embeds[0].footer.text == "Page 2 of 5" and "`/scoundrel resume`" in \
        english.response.embeds[0].description


def with_continuations(embed_fields) -> dict[str, str]:
    """An embed's fields by name, a field with a blank name (cogs/text/embed_fields.py) joined to the one before."""
    fields: dict[str, str] = {}
    name = ""
    for field in embed_fields:
        if field.name == CONTINUED:
            fields[name] += "\n" + field.value
        else:
            name = field.name
            fields[name] = field.value
    return fields


async def test_a_german_member_reads_help_in_german_with_the_command_names_of_their_discord(world, locales):
    locales.speak(world.alice, "de")
    helped = (await all_commands(world.alice, world.channel)).response.embeds[0]
    assert helped.title == "Scoundrel – Befehle" and "`/scoundrel regeln` erklärt das Spiel" in helped.description
    fields = with_continuations(helped.fields)  # the German list of commands runs on in a field with a blank name
    assert set(fields) == {"Spielen", "Wo spielen", "Auf einem Mitglied (Rechtsklick → Apps)"}  # no admin part
    assert "`/scoundrel spielen [regelwerk] [seed] [leben]` — Eine Partie Scoundrel beginnen" in fields["Spielen"]
    assert "`/scoundrel bestenliste [tafel] [bereich] [tag] [monat]`" in fields["Spielen"]
    assert "`/scoundrel erinnern [wann]`" in fields["Spielen"]
    assert fields["Wo spielen"] == GERMAN(WHERE)
    assert "Ein Tagesspiel außerhalb eines Servers" in fields["Wo spielen"]
    assert "**Scoundrel-Statistik** – Spiele" in fields["Auf einem Mitglied (Rechtsklick → Apps)"]
    assert "`/scoundrel duell gegner:`" in fields["Auf einem Mitglied (Rechtsklick → Apps)"]

    english = (await all_commands(world.bob, world.channel)).response.embeds[0]
    fields = {f.name: f.value for f in english.fields}
    assert english.title == "Scoundrel — commands" and "`/scoundrel rules` explains the game" in english.description
    assert "`/scoundrel play [preset] [seed] [health]` — Start a game of Scoundrel" in fields["Playing"]


async def test_a_french_admin_reads_the_admin_commands_in_french(world, locales):
    admin = admin_of(world)
    locales.speak(admin, "fr")
    helped = (await all_commands(admin, world.channel)).response.embeds[0]
    fields = {f.name: f.value for f in helped.fields}
    assert helped.title == "Scoundrel — commandes" and "Jouer" in fields
    admin_text = fields["Administrateurs du serveur (Gérer le serveur)"]
    assert "`/scoundrel-admin quotidien salon [heure] [rôle]` — Publier le défi du jour" in admin_text
    assert "`/scoundrel-admin quotidien-arrêt` — Ne plus publier le défi du jour sur ce serveur" in admin_text
    assert "`/scoundrel-admin règles règles`" in admin_text


async def test_help_fits_discords_embed_limits_in_every_language(world, locales):
    admin = admin_of(world)  # an admin's help is the longest: it adds the admin commands
    for code in (SOURCE, *SHIPPED):
        locales.speak(admin, code)
        helped = (await all_commands(admin, world.channel)).response.embeds[0]
        named = [f.name for f in helped.fields if f.name != CONTINUED]
        assert len(named) == 4 and len(helped.title) <= 256 and len(helped.description) <= 4096
        assert all(len(f.name) <= 256 and 0 < len(f.value) <= 1024 for f in helped.fields), code
        assert len(helped) <= 6000 and len(helped.fields) <= 25


def test_a_list_longer_than_a_field_continues_in_a_blank_named_field_without_splitting_a_line():
    lines = [f"`/scoundrel command{n}` — " + "a long description " * 6 for n in range(20)]
    embed = discord.Embed()
    add_lines_field(embed, "Playing", lines)
    assert len(embed.fields) > 1 and embed.fields[0].name == "Playing"
    assert all(f.name == CONTINUED for f in embed.fields[1:])
    assert all(0 < len(f.value) <= FIELD_LIMIT for f in embed.fields)
    assert [line for f in embed.fields for line in f.value.split("\n")] == lines  # every line, whole, in order
    short = discord.Embed()
    add_lines_field(short, "Where", ["one", "two"])
    assert [(f.name, f.value) for f in short.fields] == [("Where", "one\ntwo")]


async def test_the_admin_refusal_is_in_the_readers_language(world, locales):
    command = next(c for c in await world.bot.tree.fetch_commands() if c.name == "scoundrel-admin")
    world.guild.set_command_permissions(command, {world.alice: True})  # past Discord's default permission
    locales.speak(world.alice, "es-ES")
    refused = await world.alice.slash(world.channel, "scoundrel-admin preset", preset="expansion")
    assert refused.ephemeral and refused.response.content.startswith("Necesitas el permiso **Gestionar servidor**")
    assert (await world.store.get_guild_settings(world.guild.id)).preset is None
