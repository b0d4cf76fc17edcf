"""The terminal is one tool: what ``solve`` prints, ``review --moves`` reads and ``play`` accepts (and prints back
at the end), in one notation; ``play --seed "#N"`` and ``--preset`` as in ``solve``."""

from __future__ import annotations

import io

from bot.__main__ import main as bot_main
from games.engine import PRESETS, apply, deal, new_game, preview, seed_to_text
from games.engine import actions as A
from games.engine.cards import readable
from terminal.play import card_detail, run
from terminal.usage import invocation


def solved_line(capsys, seed: str = "#7") -> str:
    assert bot_main(["solve", "--seed", seed, "--no-coach"]) == 0
    out = capsys.readouterr().out
    prefix = "Optimal line, as typed in `scoundrel-bot play`: "
    return next(line for line in out.splitlines() if line.startswith(prefix))[len(prefix):]


def test_solve_then_review_then_play_read_the_same_moves(capsys):
    line = solved_line(capsys)
    opening = " ".join(line.split()[:3])  # the review reads the same notation (judging a whole game takes longer)
    assert bot_main(["review", "--seed", "#7", "--moves", opening]) == 0
    review = capsys.readouterr().out.splitlines()
    assert review[-2] == "Reviewed 3 moves in " + review[-2].split(" in ", 1)[1]
    assert review[-1].startswith("par=30 score=- ") and " mistakes=" in review[-1]

    out = io.StringIO()
    assert run(7, "classic", io.StringIO("\n".join(line.split()) + "\n"), out) == 0
    text = out.getvalue()
    assert "You survived the dungeon! Score: 30." in text
    assert f"Moves: {line}\n" in text  # printed back, ready for review
    assert f'Review them: {invocation()} review --seed {seed_to_text(7)} --moves "{line}"' in text


def test_review_says_what_the_notation_is_when_it_refuses_a_move(capsys):
    assert bot_main(["review", "--seed", "#7", "--moves", "4 zz"]) == 2
    err = capsys.readouterr().err
    assert "move 2, 'zz', is not a move" in err and "as typed in `scoundrel-bot play`" in err
    assert bot_main(["review", "--seed", "#7", "--moves", "T0 T1 T2 A"]) == 0  # action codes still read
    assert capsys.readouterr().out.splitlines()[-1].startswith("par=30 score=- ")


def test_play_takes_a_seed_number_and_the_same_preset_choices(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert bot_main(["play", "--seed", "#5"]) == 0
    assert f"seed {seed_to_text(5)} · classic" in capsys.readouterr().out
    assert bot_main(["play", "--preset", "nope"]) == 2
    assert "invalid choice: 'nope' (choose from " + ", ".join(repr(name) for name in sorted(PRESETS)) + ")" in \
        capsys.readouterr().err


def test_a_potion_at_full_health_says_plus_zero_full_as_on_discord():
    rules = PRESETS["classic"]
    for seed in range(200):
        state = new_game(rules, deck=deal(rules, seed))
        potion = next((i for i, card in enumerate(state.room) if card is not None and card.kind == "potion"), None)
        if potion is not None:
            break
    assert state.health == rules.max_health
    assert card_detail(preview(state, A.take(potion))) == "+0 (full)"
    out = io.StringIO()
    run(seed, "classic", io.StringIO("q\n"), out)
    assert readable(f"{potion + 1}) {state.room[potion].label:<4} +0 (full)") in out.getvalue()
    assert apply(state, A.take(potion)).health == rules.max_health
