"""A stored game as the JSON the client draws: ``table(record, tr, shown)``.

Everything a player reads is written here, in their language (``tr``), so the client needs no translations of
its own. What it holds is what the chat's picture and buttons show, never more: the dungeon is a count (its
cards are the deal), a daily never names its seed, and par, the hint mark and the offers are what
``app.shown`` allows its player (the same answer the chat's message draws).
"""

from __future__ import annotations

from functools import lru_cache

from app.shown import NOTHING, Shown
from games.engine import (
    AT_MERCHANT,
    MONSTER,
    NECROMANCER_COST,
    POTION,
    WEAPON,
    Action,
    Card,
    IllegalAction,
    State,
    legal_actions,
    preview,
    seed_to_text,
)
from games.engine import actions as A
from games.i18n import N_, Messages, outcome_text

ABANDONED, EXPIRED = "abandoned", "expired"
DAILY, PRACTICE = "daily", "practice"

_KIND_NAMES = {MONSTER: N_("monster {card}"), WEAPON: N_("weapon {card}"), POTION: N_("potion {card}")}


@lru_cache(maxsize=1024)  # every card in every language is a few hundred; each table shows up to a dozen
def card_json(card: Card, tr: Messages) -> dict:
    """A card as the client draws it: its code, printed rank and suit, kind and a name a screen reader says.
    Written once per card and language and shared by the tables that show it: never changed once written."""
    return {"code": card.code, "rank": card.rank, "suit": card.suit, "kind": card.kind, "label": card.label,
            "name": tr(_KIND_NAMES[card.kind], card=card.label) if card.kind in _KIND_NAMES else card.label}




def _card_action(state: State, action: Action, card: Card, tr: Messages) -> dict:
    """One way to play a room card: its code, the short outcome and the button's accessible name."""
    short = outcome_text(preview(state, action), tr)
    if action.kind == A.FIGHT_WITH_WEAPON:
        name = tr("Fight {card} with your weapon: {outcome}", card=card.label, outcome=short)
    elif card.kind == MONSTER:
        name = tr("Fight {card} barehanded: {outcome}", card=card.label, outcome=short)
    elif card.kind == POTION:
        name = tr("Drink {card}: {outcome}", card=card.label, outcome=short)
    elif card.kind == WEAPON:
        name = tr("Equip {card}", card=card.label)
    else:
        name = tr("Take {card}: {outcome}", card=card.label, outcome=short)
    return {"code": action.code, "short": short, "name": name}


def _slot(state: State, legal: set[Action], slot: int, card: Card | None, tr: Messages) -> dict:
    if card is None:
        return {"slot": slot, "card": None}
    out: dict = {"slot": slot, "card": card_json(card, tr)}
    weapon, take = A.fight_with_weapon(slot), A.take(slot)
    if weapon in legal:
        out["weapon"] = _card_action(state, weapon, card, tr)
    if take in legal:
        out["take"] = _card_action(state, take, card, tr)
    return out


def _choices(state: State, legal: set[Action], tr: Messages) -> list[dict]:
    """The expansion's choices (the merchant's offer, the necromancer, the crossroads) as labelled buttons."""
    out = []
    if state.pending and state.pending[0] == AT_MERCHANT:
        for i, card in enumerate(state.pending[1]):
            if A.buy(i) in legal:
                label = tr("Buy {card} ({price})", card=card.label, price=outcome_text(preview(state, A.buy(i)), tr))
                out.append({"code": A.buy(i).code, "name": label})
    labels = {A.LEAVE: lambda: tr("Leave the merchant"),
              A.RAISE: lambda: tr("Pay {cost} health: raise the dead", cost=NECROMANCER_COST),
              A.DECLINE: lambda: tr("Decline"),
              A.LOOP: lambda: tr("Descend again (loop {loop})", loop=state.loop + 1),
              A.RETIRE: lambda: tr("Retire with {health} health", health=state.health)}
    for action in sorted(legal, key=lambda a: a.code):
        if action.kind in labels:
            out.append({"code": action.code, "name": labels[action.kind]()})
    return out


def headline(record, tr: Messages) -> str:
    """How the game stands in one line: its end and score, or what it is (the daily, a practice, a seed)."""
    state = record.state
    if record.status == ABANDONED:
        if record.score is None:
            return tr("🏳️ Scoundrel — abandoned")
        if record.ended_by == EXPIRED:
            return tr("⌛ Time ran out · Score {score}", score=record.score)
        return tr("🏳️ Given up · Score {score}", score=record.score)
    if state.status == "won":
        return tr("🏆 You survived! Score {score}", score=state.score)
    if state.status == "dead":
        return tr("💀 You died · Score {score}", score=state.score)
    if record.kind == DAILY:
        return tr("Daily #{day}", day=record.day)
    if record.kind == PRACTICE:
        return tr("Daily #{day} practice · never counts", day=record.day)
    if record.challenge_id is not None:  # its deal is everyone's in the challenge (its seed is never shown)
        return tr("⚔️ Challenge")
    return tr("Seed {seed}", seed=seed_to_text(record.seed)) if record.seed is not None else tr("Custom deck")


def par_text(par: int, coach: int | None, tr: Messages) -> str:
    """Par as the chat's finished game says it: beside the coach's score, what each of them saw."""
    if coach is None:
        return tr("par {par}", par=par)
    return " · ".join([tr("par {par} seeing every card", par=par), tr("coach {coach}", coach=coach)])


def table(record, tr: Messages, shown: Shown = NOTHING) -> dict:
    """The game as the client draws it, as ``shown`` says its player may see it (``app.shown``, the answer
    chat draws too): par and a daily's coach score, the hint mark, and which of Hint, Review, Replay and Share the
    table offers."""
    state: State = record.state
    over = state.over or record.status == ABANDONED
    legal = set() if over else set(legal_actions(state))
    try:
        avoid = {"code": A.AVOID_ACTION.code} if A.AVOID_ACTION in legal else None
    except IllegalAction:  # pragma: no cover - legal_actions never lists an illegal avoid
        avoid = None
    return {
        "id": record.id, "version": record.version, "kind": record.kind, "day": record.day,
        "status": record.status, "over": over, "score": record.score if over else None,
        "headline": headline(record, tr),
        "events": [tr.event(event) for event in state.events],
        "room_number": state.turn,
        "health": state.health, "max_health": state.rules.max_health,
        "weapon": card_json(state.weapon, tr) if state.weapon is not None else None,
        "kills": [card_json(card, tr) for card in state.kills],
        "dungeon": len(state.dungeon),
        "room": [] if over else [_slot(state, legal, i, card, tr) for i, card in enumerate(state.room)],
        "avoid": avoid,
        "choices": [] if over else _choices(state, legal, tr),
        "par": shown.par, "coach": shown.coach,
        "par_text": par_text(shown.par, shown.coach, tr) if shown.par is not None else None,
        "hinted": shown.hinted, "hint": shown.hint, "review": shown.review, "replay": shown.replay,
        "share": shown.share,
    }
