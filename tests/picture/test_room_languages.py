"""The table picture in the reader's language: its words translated, one picture per state and language, and
words longer than the English drawn smaller rather than over the cards beside them."""

from __future__ import annotations

import pytest

from games.engine import PRESETS, Action, apply, new_game, preset
from games.i18n.messages import ENGLISH, SHIPPED, Messages, messages_for
from games.picture import HEIGHT, WIDTH, render_room, room_layout
from games.picture.draw import text_length
from games.picture.room import CHIP_FONT, DUNGEON_W, FRAME, LOWER_Y, MARGIN, PANEL_RIGHT, SMALLEST, health_bar
from tests.picture.test_room import decode, first_state, random_states

DE = messages_for("de")
EXPANSION = preset("expansion")


def states():
    return {
        "start": new_game(preset("classic"), seed=3),
        "kills": first_state(EXPANSION, lambda s: len(s.kills) >= 2 and not s.pending and not s.over),
        "merchant": first_state(EXPANSION, lambda s: bool(s.pending) and s.pending[0] == "merchant"),
        "necromancer": first_state(EXPANSION, lambda s: bool(s.pending) and s.pending[0] == "necromancer"),
        "underworld": first_state(EXPANSION, lambda s: bool(s.pending) and s.pending[0] == "underworld"),
        "dead": first_state(preset("classic"), lambda s: s.status == "dead"),
    }


@pytest.mark.parametrize("locale", SHIPPED)
def test_each_language_draws_its_own_deterministic_picture(locale):
    tr = messages_for(locale)
    for name, state in states().items():
        translated = render_room(state, tr=tr)
        assert translated == render_room(state, tr=tr), name  # the same state and language: the same bytes
        assert translated != render_room(state), f"{name} is drawn in English for {locale}"
        assert render_room(state) == render_room(state, tr=ENGLISH)  # English stays the default


def test_the_pictures_words_are_german():
    start = new_game(preset("classic"), seed=3)
    assert [c.text for c in room_layout(start, tr=DE).chips] == ["MEIDEN ✓"]
    assert room_layout(apply(start, Action.parse("A")), tr=DE).chips[0].text == "MEIDEN ✗"
    found = states()
    assert room_layout(found["merchant"], tr=DE).phase == "HÄNDLER"
    assert room_layout(found["necromancer"], tr=DE).chips[0].text == "NEKROMANT"
    dead = found["dead"]
    assert room_layout(dead, tr=DE).banner == f"TOT · {dead.score} PUNKTE"
    assert room_layout(dead, tr=DE).banner_lines == ("TOT", f"{dead.score} PUNKTE")
    assert room_layout(dead, abandoned=True, tr=DE).banner == "AUFGEGEBEN"
    assert room_layout(found["kills"], tr=DE).weapon_label.startswith("⚔ trifft")


class Longwinded(Messages):
    """A language that says everything twice: each text twice as long as the English."""

    def __init__(self) -> None:
        super().__init__("en-US")

    def __call__(self, text: str, /, **fields) -> str:
        said = ENGLISH(text, **fields)
        return f"{said} {said}"


def felt_only(image, box) -> bool:
    x0, y0, x1, y1 = box
    felt = image.getpixel((2, HEIGHT - 2))  # the corner is bare felt (as the fixed palette holds it)
    return all(image.getpixel((x, y)) == felt for x in range(x0, x1) for y in range(y0, y1))


def test_long_words_shrink_no_smaller_than_a_phone_reads_and_stay_off_the_weapons_frame():
    long = Longwinded()
    kills = states()["kills"]
    layout = room_layout(kills, tr=long)
    assert [c.text for row in layout.chip_rows for c, _ in row] == ["AVOID ✗ AVOID ✗"]  # the loop's is too long
    assert layout.chip_size == SMALLEST < CHIP_FONT  # smaller, never under 11 px on a phone
    assert layout.weapon_label == f"⚔ <{kills.last_kill.value}"  # the words too long for the frame: the sign
    image = decode(render_room(kills, tr=long))
    # The felt between the panel and the weapon's frame stays bare: every chip ends before it.
    assert felt_only(image, (PANEL_RIGHT + 1, LOWER_Y + 44, FRAME[0] - 1, HEIGHT))
    assert felt_only(image, (0, HEIGHT - 3, FRAME[0], HEIGHT))  # nor off the bottom: at most two rows of chips


def overlaps(a, b) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_banner_never_covers_a_card_in_any_language(name):
    """Over, given up at any point, or at a loop's crossroads: the banner lies in the panel, clear of every card
    (the room, the weapon, its fanned kills, a phase's small cards), of the dungeon and the health bar, with its
    words inside it."""
    tongues = [ENGLISH, *(messages_for(locale) for locale in SHIPPED)]
    shown = 0
    for seed in range(3):
        for state in random_states(PRESETS[name], seed):
            for abandoned in (False, True):
                for tr in tongues:
                    layout = room_layout(state, abandoned=abandoned, tr=tr)
                    if layout.banner is None:
                        continue
                    shown += 1
                    box = layout.banner_box
                    assert 0 <= box.x and box.x + box.w <= WIDTH and 0 <= box.y and box.y + box.h <= HEIGHT
                    for place in layout.places:
                        assert not overlaps(box, place.box), (name, layout.banner, place)
                    bar = health_bar(layout.health, layout.max_health)[0]
                    assert box.x >= MARGIN + DUNGEON_W + 9 and box.y >= bar.y + bar.h
                    for line in layout.banner_lines:
                        assert text_length(line, layout.banner_size) <= box.w - 24, layout.banner
    assert shown > 0


def test_the_banner_is_painted_in_its_box_and_the_room_stays_visible():
    dead = first_state(preset("classic"), lambda s: s.status == "dead" and any(s.room))
    layout = room_layout(dead)
    image = decode(render_room(dead))
    x, y, w, h = layout.banner_box
    assert image.getpixel((x + 12, y + h // 2)) == (120, 20, 28)  # the banner's fill, left of its words
    for place in layout.places:
        if place.role == "room" and place.card is not None:
            assert image.crop(corners(place.box)).tobytes() == card_face_on_felt(place, layout)


def card_face_on_felt(place, layout) -> bytes:
    """The room card's pixels as the picture draws them with no banner."""
    from games.picture.room import paint

    bare = paint(layout._replace(banner=None, banner_box=None, banner_lines=()))
    return bare.convert("RGB").crop(corners(place.box)).tobytes()


def corners(box) -> tuple[int, int, int, int]:
    return box.x, box.y, box.x + box.w, box.y + box.h
