"""Seeds (portable deals, shareable text) and the JSON snapshot form."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    PRESETS,
    Rules,
    SeedError,
    SnapshotError,
    apply,
    deal,
    deck_codes,
    from_json,
    legal_actions,
    new_game,
    parse_deck,
    seed_from_text,
    seed_to_text,
    take,
    to_json,
)
from games.engine.cards import CardParseError
from games.engine.seeds import SEED_BITS, Stream, shuffled


def test_seed_text_round_trip_and_forgiving_input():
    for seed in (0, 1, 12345, (1 << SEED_BITS) - 1):
        text = seed_to_text(seed)
        assert len(text) == 9 and text[4] == "-"
        assert seed_from_text(text) == seed
        assert seed_from_text(text.lower().replace("-", " ")) == seed
    assert seed_from_text("oooo-ooo1") == seed_from_text("0000-0001") == 1
    assert seed_from_text("LLLL-IIII") == seed_from_text("1111-1111")


@given(st.integers(min_value=0, max_value=(1 << SEED_BITS) - 1))
def test_every_seed_round_trips(seed):
    assert seed_from_text(seed_to_text(seed)) == seed


@pytest.mark.parametrize("bad", ["", "K7Q2", "K7Q2-M9XD-1", "K7Q2-M9XU", "hello world", "K7Q2!M9XD"])
def test_bad_seed_text_is_refused_clearly(bad):
    with pytest.raises(SeedError, match="seed"):
        seed_from_text(bad)


def test_same_deal_in_a_fresh_interpreter_with_hash_randomisation():
    """The deal must not depend on the process (hash seeds, dict order, random module state)."""
    code = ("from games.engine import deal, Rules, seed_from_text, deck_codes;"
            "print(deck_codes(deal(Rules(), seed_from_text('K7Q2-M9XD'))))")
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": str(h), "PATH": ""}).stdout.strip()
        for h in (1, 2, 3)
    }
    assert outputs == {deck_codes(deal(Rules(), seed_from_text("K7Q2-M9XD")))}


def test_stream_is_the_documented_shake256_words():
    import hashlib
    import struct

    digest = hashlib.shake_256(b"scoundrel/1" + struct.pack("<QQ", 7, 3)).digest(16)
    expected = struct.unpack("<2Q", digest)
    rng = Stream(7, 3)
    assert (rng.word(), rng.word()) == expected


def test_fisher_yates_is_unbiased_on_a_small_list():
    counts = {}
    for seed in range(6000):
        order = shuffled("abc", seed)
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 6
    assert all(800 < n < 1200 for n in counts.values())


def test_explicit_deck_parsing():
    rules = Rules()
    deck = deal(rules, 42)
    assert parse_deck(deck_codes(deck), rules.full_deck()) == deck
    assert parse_deck(deck_codes(deck).lower(), rules.full_deck()) == deck
    with pytest.raises(CardParseError, match="exactly once"):
        parse_deck(" ".join(deck_codes(deck).split()[:-1]), rules.full_deck())
    with pytest.raises(CardParseError, match="not a card"):
        parse_deck("S15 " + deck_codes(deck), rules.full_deck())
    with pytest.raises(CardParseError, match="not a card"):
        parse_deck("H14 " + deck_codes(deck), rules.full_deck())  # red aces are not in the classic deck


def test_explicit_deck_game_matches_seeded_game():
    rules = Rules()
    seeded = new_game(rules, seed=99)
    explicit = new_game(rules, deck=deal(rules, 99), seed=99)
    assert seeded == explicit
    with pytest.raises(ValueError, match="44 cards"):
        new_game(rules, deck=deal(rules, 99)[:-1])


def test_snapshot_round_trip_mid_game():
    s = new_game(PRESETS["expansion"], seed=3)
    for _ in range(12):
        if s.over:
            break
        s = apply(s, legal_actions(s)[-1])
    assert from_json(to_json(s)) == s
    assert json.loads(to_json(s))["format"] == 1


def test_a_snapshot_is_the_standard_librarys_compact_text_whatever_its_numbers():
    """orjson writes a stored game; the text is the one ``json.dumps`` writes, unicode unescaped (the events' suits),
    and a number beyond 64 bits (which orjson refuses) is still written and read back."""
    s = new_game(PRESETS["classic"], seed=3)
    for _ in range(6):
        s = apply(s, legal_actions(s)[0])
    standard = json.dumps(json.loads(to_json(s)), separators=(",", ":"), ensure_ascii=False)
    assert to_json(s) == standard and "♦" in standard
    huge = s._replace(rng_seed=2**70)
    assert from_json(to_json(huge)) == huge


def test_snapshot_errors_are_clear():
    s = apply(new_game(Rules(), seed=5), take(0))
    data = json.loads(to_json(s))
    with pytest.raises(SnapshotError, match="format"):
        from_json(json.dumps({**data, "format": 99}))
    with pytest.raises(SnapshotError, match="not JSON"):
        from_json("{oops")
    damaged = {**data, "dungeon": " ".join(data["dungeon"].split()[1:])}  # a card vanished
    with pytest.raises(SnapshotError, match="do not add up"):
        from_json(json.dumps(damaged))
    with pytest.raises(SnapshotError, match="damaged"):
        from_json(json.dumps({**data, "weapon": "Z9"}))
    with pytest.raises(SnapshotError, match="damaged"):
        from_json(json.dumps({**data, "health": 500}))
    with pytest.raises(SnapshotError):
        from_json(json.dumps({k: v for k, v in data.items() if k != "room"}))


def _documented_deal(rules, seed):
    """An independent implementation of the algorithm written in seeds.py's docstring."""
    import hashlib
    import struct

    xof = hashlib.shake_256(b"scoundrel/1" + struct.pack("<QQ", seed, 0)).digest(8 * 4096)
    words = iter(struct.unpack(f"<{4096}Q", xof))

    def below(n):
        limit = 2**64 - 2**64 % n
        while (x := next(words)) >= limit:
            pass
        return x % n

    cards = list(rules.full_deck())
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_deal_follows_the_documented_algorithm(name):
    rules = PRESETS[name]
    for seed in (0, 1, 2**39 + 12345, 2**40 - 1):
        assert deal(rules, seed) == _documented_deal(rules, seed)
