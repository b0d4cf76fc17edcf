"""The table picture: its size, its bytes, where the cards go and what colour they are drawn in."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.engine import PRESETS, Action, apply, legal_actions, new_game, preset, replay, seed_from_text
from games.engine.cards import Card
from games.picture import HEIGHT, WIDTH, render_room, room_layout
from games.picture.draw import BAR_EMPTY, FELT_DARK, HEALTH, HEALTH_LOW, card_face
from games.picture.room import CARD_H, CARD_W, health_bar

MAX_BYTES = 60_000


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def random_states(rules, seed: int, moves: int = 200):
    """Every state of one game played at random (weapon fights preferred, so kills pile up)."""
    state, rng = new_game(rules, seed=seed), random.Random(seed)
    yield state
    for _ in range(moves):
        actions = legal_actions(state)
        if not actions:
            return
        fights = [a for a in actions if a.kind == "weapon"]
        state = apply(state, rng.choice(fights) if fights and rng.random() < 0.8 else rng.choice(actions))
        yield state


def first_state(rules, predicate, seeds=range(300)):
    for seed in seeds:
        for state in random_states(rules, seed):
            if predicate(state):
                return state
    raise AssertionError("no such state in the seeds tried")


def is_red(pixel) -> bool:
    r, g, b = pixel
    return r > 150 and g < 90 and b < 90


def is_ink_black(pixel) -> bool:
    return max(pixel) < 45


def ink_counts(image: Image.Image, box) -> tuple[int, int]:
    """(red pixels, black pixels) inside a card's box."""
    x, y, w, h = box
    pixels = list(image.crop((x, y, x + w, y + h)).getdata())
    return sum(map(is_red, pixels)), sum(map(is_ink_black, pixels))


def test_the_picture_decodes_at_the_documented_size_and_stays_small():
    for name, rules in PRESETS.items():
        for state in random_states(rules, seed=7, moves=60):
            png = render_room(state)
            assert len(png) <= MAX_BYTES, name
            assert png.startswith(b"\x89PNG\r\n\x1a\n") and Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_the_same_state_gives_the_same_bytes_and_another_state_other_bytes():
    rules = preset("classic")
    state = new_game(rules, seed=seed_from_text("K7Q2-M9XD"))
    moved = apply(state, legal_actions(state)[1])
    again = replay(rules, state.start_deck, list(moved.history), seed=state.rng_seed)  # a new, equal object
    assert again is not moved and render_room(again) == render_room(moved)
    assert render_room(moved) != render_room(state)
    assert render_room(moved, abandoned=True) != render_room(moved)


def test_room_cards_sit_in_four_slots_left_to_right_and_resolved_ones_are_empty_places():
    state = new_game(preset("classic"), seed=seed_from_text("0000-0004"))  # ♦7 ♥2 ♠4 ♠5
    state = apply(state, Action.parse("T2"))  # fight ♠4 barehanded: its slot is now empty
    layout = room_layout(state)
    room = [p for p in layout.places if p.role == "room"]
    assert [p.card.label if p.card else None for p in room] == ["♦7", "♥2", None, "♠5"]
    assert [p.box.x for p in room] == sorted(p.box.x for p in room)
    assert all(a.box.x + a.box.w < b.box.x for a, b in zip(room, room[1:], strict=False))  # no overlap
    image = decode(render_room(state))
    expected = {"♦7": "red", "♥2": "red", "♠5": "black"}
    for place in room:
        red, black = ink_counts(image, place.box)
        if place.card is None:
            assert image.getpixel(place.box.centre) == FELT_DARK and red == black == 0
        elif expected[place.card.label] == "red":
            assert red > 400 and black < 50, place.card.label
        else:
            assert black > 400 and red < 50, place.card.label


def test_the_weapon_carries_its_kills_fanned_in_order_and_inside_the_picture():
    state = first_state(preset("classic"), lambda s: len(s.kills) >= 3 and not s.over)
    layout = room_layout(state)
    weapon = next(p for p in layout.places if p.role == "weapon")
    kills = [p for p in layout.places if p.role == "kill"]
    assert weapon.card == state.weapon and [k.card for k in kills] == list(state.kills)
    previous = weapon.box
    for kill in kills:  # each kill lies over the card before it, lower and to the right, its corner left showing
        assert kill.box.x > previous.x and kill.box.y > previous.y
        previous = kill.box
    image = decode(render_room(state))
    last = kills[-1]
    red, black = ink_counts(image, last.box)
    assert black > 300 and red < 50  # the monsters slain are black cards, the last one drawn in full


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_place_of_every_state_lies_inside_the_picture(name):
    for seed in range(3):
        for state in random_states(PRESETS[name], seed):
            for place in room_layout(state).places:
                x, y, w, h = place.box
                assert 0 <= x and x + w <= WIDTH and 0 <= y and y + h <= HEIGHT, (name, place)


def test_the_full_deck_ace_is_drawn_with_its_low_value():
    low, high = Card("S", 1, "monster"), Card("S", 14, "monster")
    assert low.rank == high.rank == "A"
    assert card_face(low, CARD_W, CARD_H).tobytes() != card_face(high, CARD_W, CARD_H).tobytes()
    state = first_state(preset("full-deck"), lambda s: any(c is not None and c.value == 1 for c in s.room))
    ace = next(p for p in room_layout(state).places if p.role == "room" and p.card and p.card.value == 1)
    red, black = ink_counts(decode(render_room(state)), ace.box)
    assert (red > 300) == (ace.card.suit in "HD") and (black > 300) == (ace.card.suit in "CS")


@pytest.mark.parametrize("health,maximum", [(20, 20), (10, 40), (3, 7), (99, 99), (1, 99)])
def test_the_health_bar_is_filled_in_proportion_to_custom_health(health, maximum):
    rules = preset("classic").with_health(maximum)
    state = new_game(rules, seed=1)._replace(health=health)
    image = decode(render_room(state))
    box, filled = health_bar(health, maximum)
    middle = box.y + box.h // 2
    fill = HEALTH_LOW if health <= maximum * 0.3 else HEALTH
    assert image.getpixel((box.x + 14, middle)) == fill
    assert abs((filled - box.x) - box.w * health / maximum) <= 28  # the minimum visible sliver for low health
    if filled < box.x + box.w - 16:
        assert image.getpixel((box.x + box.w - 8, middle)) == BAR_EMPTY


def test_expansion_phases_show_their_cards_and_labels():
    rules = preset("expansion")
    merchant = first_state(rules, lambda s: bool(s.pending) and s.pending[0] == "merchant")
    layout = room_layout(merchant)
    assert [p.card for p in layout.places if p.role == "offer"] == list(merchant.pending[1])
    assert layout.phase == "MERCHANT" and not layout.chips  # the loop is in the message's footer meanwhile
    under = first_state(rules, lambda s: bool(s.pending) and s.pending[0] == "underworld")
    layout = room_layout(under)
    assert [p.card for p in layout.places if p.role == "above"] == list(under.pending[1])
    assert [p.card for p in layout.places if p.role == "room"][:len(under.room)] == list(under.room)
    necro = first_state(rules, lambda s: bool(s.pending) and s.pending[0] == "necromancer")
    assert room_layout(necro).chips[0].text == "NECROMANCER"  # what he costs: the message's status line


def test_avoid_and_the_end_of_the_game_are_shown():
    state = new_game(preset("classic"), seed=3)
    assert room_layout(state).chips[0].text == "AVOID ✓"
    avoided = apply(state, Action.parse("A"))
    assert room_layout(avoided).chips[0].text == "AVOID ✗"
    final = first_state(preset("classic").with_health(99), lambda s: s.final_room)
    assert room_layout(final).chips[0].text == "FINAL ROOM"
    dead = first_state(preset("classic"), lambda s: s.status == "dead")
    layout = room_layout(dead)
    assert layout.banner == f"DIED · SCORE {dead.score}" and layout.health == dead.health
    assert room_layout(dead, abandoned=True).banner == "GIVEN UP"


def test_the_table_is_painted_in_the_shared_palette_and_written_as_painted():
    from games.picture.draw import palette_colours
    from games.picture.room import paint

    state = first_state(preset("classic"), lambda s: len(s.kills) >= 2)
    painted = paint(room_layout(state))
    assert painted.mode == "P" and painted.getpalette()[:3 * len(palette_colours())] == [
        v for colour in palette_colours() for v in colour]
    written = Image.open(io.BytesIO(render_room(state)))
    assert written.mode == "P" and written.tobytes() == painted.tobytes()  # the indices as painted, no conversion
    assert written.getpalette() == painted.getpalette()[:len(written.getpalette())]
