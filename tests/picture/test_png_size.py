"""The table's PNG stays small: no state of any rule set, in any language, is over 16 KB, and the busiest pictures
are deflated again, harder, to the same pixels."""

from __future__ import annotations

import io

from PIL import Image

from games.engine import PRESETS, Rules
from games.i18n.messages import SHIPPED, SOURCE, messages_for
from games.picture import render_room, room_layout
from games.picture.draw import to_png
from games.picture.room import DEFLATE_AGAIN_OVER, paint
from tests.picture.test_room import first_state, random_states

MOST_BYTES = 16_000
RULE_SETS = [*PRESETS.values(), Rules(merchants=True), Rules(jokers=True), Rules(necromancers=True),
             Rules(looping=True), PRESETS["expansion"].with_health(99)]


def test_no_table_is_over_16_kb_in_any_rule_set_or_language():
    largest = (0, "")
    for language in (SOURCE, *SHIPPED):
        tr = messages_for(language)
        for rules in RULE_SETS:
            for seed in (1, 8):
                for i, state in enumerate(random_states(rules, seed)):
                    abandoned = i % 7 == 3 and not state.over
                    size = len(render_room(state, abandoned=abandoned, tr=tr))
                    largest = max(largest, (size, f"{rules.key} {language} seed {seed} state {i}"))
    assert largest[0] <= MOST_BYTES, largest


def test_a_busy_table_is_deflated_again_smaller_to_the_same_pixels():
    state = first_state(PRESETS["expansion"], lambda s: len(s.kills) >= 4 and not s.over)
    painted = paint(room_layout(state))
    once, again = to_png(painted), to_png(painted, again_over=0)
    assert len(again) < len(once) * 0.9
    decoded = [Image.open(io.BytesIO(png)) for png in (once, again)]
    assert decoded[0].tobytes() == decoded[1].tobytes() == painted.tobytes()
    assert decoded[0].getpalette() == decoded[1].getpalette()
    assert to_png(painted, again_over=len(once)) == once  # at the limit: deflated once
    assert render_room(state) == (again if len(once) > DEFLATE_AGAIN_OVER else once)
