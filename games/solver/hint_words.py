"""What a hint says, and how sure it says it: exact figures where every order was judged, "about" and the
interval where the orders were sampled, and the move that may be as good when the orders judged cannot tell.

One sentence for every surface (the bot's Hint in chat, the table's, the terminal's ``hint``), as a ``Phrase``
each translates.
"""

from __future__ import annotations

from games.engine import State
from games.i18n import N_
from games.i18n.phrase import Phrase
from games.solver.fair import Advice, MoveValue
from games.solver.review import move_words

WIDE = 0.10  # a chance to win whose 95 % interval is wider than this is given as the interval, not "about"


def win_words(move: MoveValue) -> str:
    """The chance to win: "83 %" exact, "about 83 %", or "between 71 and 90 %" when the interval is wide."""
    win = round(100 * move.win)
    if move.win_low is None or move.win_high is None:
        return f"{win}\N{NO-BREAK SPACE}%"
    if move.win_high - move.win_low <= WIDE:
        return Phrase(N_("about {win}\N{NO-BREAK SPACE}%"), win=win)
    return Phrase(N_("between {low} and {high}\N{NO-BREAK SPACE}%"), low=round(100 * move.win_low),
                  high=round(100 * move.win_high))


def score_words(move: MoveValue) -> str:
    """The expected score: "21.5" exact, else "about 21 ± 3"."""
    if move.win_low is None:
        return f"{move.expected:.1f}"
    return Phrase(N_("about {expected} ± {margin}"), expected=round(move.expected), margin=max(1, round(move.margin)))


def hint_phrase(state: State, advice: Advice) -> Phrase:
    """The hint as the player reads it (``state``: the position the advice is for)."""
    best = advice.best
    fields: dict = dict(move=move_words(state, best.action), win=win_words(best), expected=score_words(best))
    if advice.exact:
        return Phrase(N_("💡 Best now: **{move}** — wins {win} of the deals you could be in (expected score "
                         "{expected})."), **fields)
    if advice.sure:
        return Phrase(N_("💡 Best now: **{move}** — wins {win} of the deals you could be in (expected score "
                         "{expected}, judged on {orders} of them)."), orders=advice.orders, **fields)
    other = move_words(state, advice.close[0])
    return Phrase(N_("💡 Best now, by a little: **{move}** — wins {win} of the deals you could be in (expected score "
                     "{expected}, judged on {orders} of them); {other} may be as good."), orders=advice.orders,
                  other=other, **fields)
