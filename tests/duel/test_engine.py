"""Duel engine: one table test per rule of the duel (docs/RULES.md) and per decision, then hypothesis playouts."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.duel import (
    OVER,
    PLACING,
    PLAYING,
    Card,
    Column,
    DuelAction,
    IllegalDuelAction,
    apply,
    build,
    dice_count,
    done,
    finish,
    finish_fits,
    from_json,
    legal_actions,
    new_duel,
    place,
    replay,
    resign,
    steal,
    to_json,
)


def c(code: str) -> Card:
    return Card.parse(code)


def col(codes: str, direction: int = 0, finished: bool = False) -> Column:
    return Column(tuple(c(x) for x in codes.split()), direction, finished)


def play_state(hand0="H5 S5 D6 C4 H7 H9 C13", mine=None, theirs=None, dice=(3, 6, 1), placed=(0, 1, 2),
               actor=0, roller=1):
    """Player ``actor`` to play, with chosen hands, columns and dice (the rest from seed 7's deal)."""
    base = new_duel(7)
    hands = list(base.hands)
    hands[actor] = tuple(c(x) for x in hand0.split())
    columns = list(base.columns)
    if mine is not None:
        columns[actor] = tuple(mine)
    if theirs is not None:
        columns[1 - actor] = tuple(theirs)
    return replace(base, hands=tuple(hands), columns=tuple(columns), dice=dice, placed=placed, phase=PLAYING,
                   actor=actor, roller=roller, usage=(0, 0, 0, 0))


FOUR = [col("H4"), col("C10"), col("S1"), col("D7")]
OPP = [col("S8"), col("D9"), col("C12"), col("H2")]


def test_deal_shape():
    s = new_duel(42)
    assert [len(h) for h in s.hands] == [7, 7]
    assert all(len(column.cards) == 1 for side in s.columns for column in side)
    assert len(s.stock) == 52 - 14 - 8 and s.card_count() == 52
    assert s.phase == PLACING and s.roller == 0 and s.actor == 0 and len(s.dice) == 3
    assert all(1 <= d <= 6 for d in s.dice)
    assert new_duel(42, dealer=0).roller == 1


def test_same_seed_same_deal_and_dice():
    assert new_duel(99) == new_duel(99)
    assert new_duel(99) != new_duel(100)


@pytest.mark.parametrize("top, direction, card, ok", [
    ("H4", 0, "C4", True),    # same rank
    ("H4", 0, "C5", True),    # one higher decides "ascending"
    ("H4", 0, "C3", True),    # one lower decides "descending"
    ("H4", 0, "C6", False),
    ("H4", 1, "C3", False),   # ascending: no lower card
    ("H4", -1, "C5", False),  # descending: no higher card
    ("H4", 1, "C4", True),
    ("S13", 0, "C1", True),   # K -> A wraps
    ("S1", 0, "C13", True),   # A -> K wraps
    ("S13", 1, "C1", True),
    ("S1", -1, "C13", True),
])
def test_build_adjacency_and_direction(top, direction, card, ok):
    s = play_state(hand0=f"{card} H9", mine=[col(top, direction)] + FOUR[1:], dice=(3, 2, 1), placed=(0, 1, 2))
    action = build(0, c(card))
    if ok:
        after = apply(s, action)
        assert after.columns[0][0].top == c(card)
    else:
        with pytest.raises(IllegalDuelAction, match="can't go on"):
            apply(s, action)


def test_direction_is_set_by_the_first_step():
    s = play_state(hand0="C5 D6 H4", mine=FOUR, dice=(3, 2, 1))
    s = apply(s, build(0, c("C5")))
    assert s.columns[0][0].direction == 1
    s = apply(s, build(0, c("D6")))
    with pytest.raises(IllegalDuelAction):
        apply(s, build(0, c("H4")))  # 4 on an ascending 6: refused though the die still allows a card


def test_die_value_caps_cards_per_pair_per_play():
    s = play_state(hand0="H4 C4 D4 S4 H9", mine=FOUR, dice=(3, 2, 1))
    for card in ("H4", "C4", "D4"):
        s = apply(s, build(0, c(card)))
    with pytest.raises(IllegalDuelAction, match="allows 3 cards"):
        apply(s, build(0, c("S4")))


def test_six_allows_one_card_of_any_rank_and_clears_direction():
    s = play_state(hand0="C9 D9 H2", mine=[FOUR[0], col("C10 C11", 1)] + FOUR[2:], dice=(3, 6, 1))
    s = apply(s, build(1, c("C9")))  # 9 on an ascending J: fine with a six
    assert s.columns[0][1].direction == 0 and s.columns[0][1].top == c("C9")
    with pytest.raises(IllegalDuelAction, match="allows 1 card"):
        apply(s, build(1, c("D9")))


def test_no_play_on_a_pair_without_a_die():
    s = play_state(hand0="D7 H9", mine=FOUR, dice=(3, 6, 1), placed=(0, 1, 2))
    with pytest.raises(IllegalDuelAction, match="no die"):
        apply(s, build(3, c("D7")))


def test_empty_column_takes_any_card():
    s = play_state(hand0="H9 C2", mine=[Column()] + FOUR[1:], dice=(2, 6, 1))
    s = apply(s, build(0, c("H9")))
    assert s.columns[0][0] == col("H9")


def test_steal_takes_the_whole_column_with_the_stealing_card():
    s = play_state(hand0="H9 C2", mine=FOUR, theirs=[col("S8 D9", 1)] + OPP[1:], dice=(2, 6, 1))
    after = apply(s, steal(0, c("H9")))
    assert after.columns[1][0] == Column()
    assert after.stolen == (c("S8"), c("D9"), c("H9"))
    assert after.card_count() == s.card_count()  # cards move, none appear or vanish


def test_steal_needs_same_rank_and_an_unfinished_column():
    s = play_state(hand0="H8 C2 D9", mine=FOUR, theirs=[col("S8 D9")] + OPP[1:], dice=(2, 6, 1))
    with pytest.raises(IllegalDuelAction, match="same rank"):
        apply(s, steal(0, c("H8")))
    done_col = play_state(hand0="D9", mine=FOUR, theirs=[col("S8 D9 D9 D9", finished=True)] + OPP[1:])
    with pytest.raises(IllegalDuelAction, match="finished column can't be stolen"):
        apply(done_col, steal(0, c("D9")))


def test_either_build_or_steal_on_one_pair():
    s = play_state(hand0="H4 S2 D2", mine=FOUR, theirs=[col("C2")] + OPP[1:], dice=(3, 6, 1))
    built = apply(s, build(0, c("H4")))
    with pytest.raises(IllegalDuelAction, match="built on that pair"):
        apply(built, steal(0, c("S2")))
    stole = apply(s, steal(0, c("S2")))
    with pytest.raises(IllegalDuelAction, match="stole on that pair"):
        apply(stole, build(0, c("H4")))


def test_finished_columns_cannot_be_built():
    s = play_state(hand0="H4", mine=[col("H4 H4 H4 H4", finished=True)] + FOUR[1:])
    with pytest.raises(IllegalDuelAction, match="finished"):
        apply(s, build(0, c("H4")))


def test_running_out_mid_turn_draws_seven():
    s = play_state(hand0="C4", mine=FOUR, dice=(3, 6, 1))
    after = apply(s, build(0, c("C4")))
    assert len(after.hands[0]) == 7 and after.phase == PLAYING and after.actor == 0
    assert after.stock == s.stock[7:]


@pytest.mark.parametrize("lengths, ok", [
    ([4], True), ([5, 4], True), ([4, 4], False), ([6, 6, 6], True), ([4, 5, 5, 6], True),
    ([6, 5, 5, 4], True), ([7, 7, 7, 4], True), ([5, 5, 5, 5], False), ([4, 6, 6, 6], True), ([4, 4, 6, 6], False),
])
def test_finish_targets_are_matched_by_length(lengths, ok):
    assert finish_fits(lengths) is ok


def test_finish_needs_four_cards_and_a_free_target():
    short = play_state(hand0="H9", mine=[col("H4 H4 H4")] + FOUR[1:])
    with pytest.raises(IllegalDuelAction, match="at least 4"):
        apply(short, finish(0))
    two_fours = play_state(hand0="H9", mine=[col("H4 H4 H4 H4", finished=True), col("C4 C4 C4 C4")] + FOUR[2:])
    with pytest.raises(IllegalDuelAction, match="would not fit"):
        apply(two_fours, finish(1))


def test_finishing_all_four_wins_at_once():
    mine = [col("H4 H4 H4 H4", finished=True), col("C5 C5 C5 C5 C5", finished=True),
            col("D5 D5 D5 D5 D5", finished=True), col("S6 S6 S6 S6 S6 S6")]
    s = apply(play_state(hand0="H9", mine=mine), finish(3))
    assert s.phase == OVER and s.winner == 0 and legal_actions(s) == []
    with pytest.raises(IllegalDuelAction, match="over"):
        apply(s, done())


def test_turn_order_place_then_non_roller_then_roller_then_replenish_and_swap():
    s = new_duel(5)  # player 1 deals: player 0 rolls
    assert s.actor == 0 and s.phase == PLACING
    with pytest.raises(IllegalDuelAction, match="place the dice first"):
        apply(s, done())
    for die, pair in enumerate((0, 1, 2)):
        s = apply(s, place(die, pair))
    assert s.phase == PLAYING and s.actor == 1
    s = apply(s, done())
    assert s.actor == 0
    before = s.stock
    s = apply(s, done())
    assert s.roller == 1 and s.actor == 1 and s.phase == PLACING and s.turn == 2
    assert s.stock == before  # nobody played, nobody draws


def test_replenish_alternates_starting_with_the_non_roller():
    s = play_state(hand0="H4 C4 D4 H5 H6 H7 H8", mine=FOUR, dice=(3, 6, 1), actor=0, roller=0)
    hands = (s.hands[0][:5], s.hands[1][:5])  # both short by two
    stock = tuple(c(x) for x in "S1 S2 S3 S4".split())
    s = replace(s, hands=hands, stock=stock, stolen=())
    after = apply(s, done())
    assert c("S1") in after.hands[1] and c("S3") in after.hands[1]  # non-roller (1) draws first
    assert c("S2") in after.hands[0] and c("S4") in after.hands[0]


def test_empty_stock_is_refilled_from_the_stolen_pile_and_stops_when_both_are_empty():
    s = play_state(hand0="C4", mine=FOUR, dice=(3, 6, 1))
    s = replace(s, stock=(), stolen=(c("S1"), c("S2")))
    after = apply(s, build(0, c("C4")))
    assert sorted(after.hands[0]) == sorted((c("S1"), c("S2"))) and after.stolen == () and after.reshuffles == 1


def test_placing_rules():
    s = new_duel(5)
    s = apply(s, place(0, 3))
    with pytest.raises(IllegalDuelAction, match="already has a die"):
        apply(s, place(1, 3))
    with pytest.raises(IllegalDuelAction, match="already placed"):
        apply(s, place(0, 2))
    closed = replace(new_duel(5), columns=tuple(
        (col("H4 H4 H4 H4", finished=True),) + side[1:] for side in new_duel(5).columns))
    closed = replace(closed, dice=closed.dice[:dice_count(closed)], placed=(-1,) * dice_count(closed))
    assert dice_count(closed) == 2
    with pytest.raises(IllegalDuelAction, match="both columns of that pair are finished"):
        apply(closed, place(0, 0))


def test_dice_count():
    s = new_duel(1)
    fin = col("H4 H4 H4 H4", finished=True)

    def closing(n):
        return replace(s, columns=tuple(tuple(fin if p < n else side[p] for p in range(4)) for side in s.columns))
    assert [dice_count(closing(n)) for n in range(4)] == [3, 2, 1, 1]


def test_resign():
    s = apply(new_duel(3), resign(0))
    assert s.over and s.winner == 1


@pytest.mark.parametrize("code", ["", "X", "P9", "B0Z3", "B0H14", "F", "R2", "S0"])
def test_bad_codes_are_refused(code):
    with pytest.raises(IllegalDuelAction):
        DuelAction.parse(code)


def test_illegal_action_changes_nothing():
    s = new_duel(8)
    snapshot = to_json(s)
    with pytest.raises(IllegalDuelAction):
        apply(s, done())
    assert to_json(s) == snapshot


# --- property tests --------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, (1 << 40) - 1), choices=st.lists(st.integers(0, 10**6), min_size=0, max_size=300))
def test_random_playouts(seed, choices):
    state = new_duel(seed)
    for pick in choices:
        actions = legal_actions(state)
        if state.over:
            assert actions == []
            break
        assert actions, "a duel in progress always has a legal action"
        action = actions[pick % len(actions)]
        assert DuelAction.parse(action.code) == action
        state = apply(state, action)
        assert state.card_count() == 52
    assert replay(seed, state.history) == state
    assert from_json(to_json(state)) == state
    cards = list(state.stock) + list(state.stolen) + [x for h in state.hands for x in h] + [
        x for side in state.columns for column in side for x in column.cards]
    assert len(set(cards)) == 52


@pytest.mark.parametrize("seed", range(12))
def test_eager_playouts_reach_a_winner(seed):
    """Players who play whenever they can (finishing first, ending their play last) bring the duel to an end."""
    import random
    rng = random.Random(seed)
    state = new_duel(seed)
    for _ in range(5000):
        if state.over:
            break
        actions = legal_actions(state)
        finishes = [a for a in actions if a.kind == "F"]
        plays = [a for a in actions if a.kind != "D"]
        state = apply(state, (finishes or plays or actions)[0] if finishes else rng.choice(plays or actions))
    assert state.over and state.winner in (0, 1)
    assert all(column.finished for column in state.columns[state.winner])
    assert replay(seed, state.history) == state and from_json(to_json(state)) == state
