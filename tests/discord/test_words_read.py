"""What reads oddly, fixed: French singulars, the reader's decimal separator, no nested parentheses, a short link
instead of a bare URL, preset names in the reader's language."""

from __future__ import annotations

import re
from types import SimpleNamespace

from cogs.boards.leaderboard import _average
from cogs.game_message.embed import out_of_date, rules_label
from games.engine import PRESETS, apply, new_game
from games.engine import actions as A
from games.i18n.messages import SHIPPED, messages_for
from tests.daily.helpers import play_to_end


def test_french_damage_reads_right_for_one_point_and_for_none():
    fr = messages_for("fr")
    for seed in range(300):
        state = new_game(PRESETS["classic"], seed=seed)
        monster = next((i for i, c in enumerate(state.room) if c.kind == "monster" and c.value == 2), None)
        if monster is not None:
            break
    fought = apply(state, A.take(monster))
    text = " ".join(fr.event(e) for e in fought.events)
    assert "combattu à mains nues : vie −2." in text and "dégâts" not in text


def test_averages_use_the_readers_decimal_separator():
    assert _average(12.5) == "12.5" and _average(12.5, messages_for("de")) == "12,5"
    assert _average(-3.0, messages_for("fr")) == "-3,0" and _average(None) == "—"


def test_an_old_copy_links_to_the_game_in_a_few_words():
    record = SimpleNamespace(status="playing", message_id=3, channel_id=2, guild_id=1)
    for code in ("en-US", *SHIPPED):
        text = out_of_date(record, messages_for(code))
        assert re.search(r"\[[^\]]{4,30}\]\(https://discord\.com/channels/1/2/3\)", text), text


def test_preset_names_in_the_readers_language():
    assert rules_label(PRESETS["expansion"]) == "expansion"
    assert rules_label(PRESETS["expansion"], messages_for("de")) == "Erweiterung"
    assert rules_label(PRESETS["full-deck"].with_health(30), messages_for("fr")) == "jeu complet · vie 30"


async def test_a_second_daily_attempt_says_its_result_without_nested_parentheses(world):
    first = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, first.response)
    record = await world.store.daily_attempt(world.alice.id, 1)
    await world.store.set_daily_par(1, 30)  # the day's par, as the night's job stores it
    again = await world.alice.slash(world.channel, "scoundrel daily")
    text = again.response.content
    assert f"(score {record.score}; par 30)" in text and "))" not in text
