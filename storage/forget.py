"""Forgetting a player: everything the bot keeps about one Discord user removed, in one transaction.

What goes: their games (finished or not) with their action logs, kept reviews and kept names, their daily attempts,
their places in challenges, the Share posts of their dailies, their reminder setting and its sent-reminder records,
their rows of every board's running totals, and their duels still open (a challenge, or a duel being played: the
other player's message then says the duel no longer exists).

What stays, anonymous: a finished duel is the other player's record too. The forgotten seat keeps its moves (the
duel cannot be replayed without them) but its user id becomes ``FORGOTTEN`` (0, which no Discord user has) and its
kept name goes; a finished duel whose other player was forgotten already is deleted whole.

The boards: each running-totals row belongs to one player (``player_totals``, ``week_totals``, ``month_totals``
are keyed by user), so deleting the player's rows leaves exactly what ``rebuild_totals`` would compute from the
games that remain, without rewriting every other player's rows.
"""

from __future__ import annotations

from storage.backends.base import Db, Tx

FORGOTTEN = 0  # the user id a forgotten duel seat is left with

OPEN_DUELS = "(player0 = $1 OR player1 = $1) AND status IN ('challenged', 'playing')"
# A finished duel whose other seat was forgotten before: nobody is left whose record it is.
NOBODY_LEFT = (f"(player0 = $1 AND player1 = {FORGOTTEN}) OR (player1 = $1 AND player0 = {FORGOTTEN})")

# (what the count is called, the statement); in this order: children before their parents.
STEPS: tuple[tuple[str, str], ...] = (
    ("share posts", "DELETE FROM share_posts WHERE game_id IN (SELECT id FROM games WHERE user_id = $1)"),
    ("moves", "DELETE FROM game_actions WHERE game_id IN (SELECT id FROM games WHERE user_id = $1)"),
    ("reviews", "DELETE FROM game_reviews WHERE game_id IN (SELECT id FROM games WHERE user_id = $1)"),
    ("daily attempts", "DELETE FROM daily_attempts WHERE user_id = $1"),
    ("challenge places", "DELETE FROM challenge_players WHERE user_id = $1"),
    ("challenges kept anonymous", f"UPDATE challenges SET starter_id = {FORGOTTEN} WHERE starter_id = $1"),
    ("games", "DELETE FROM games WHERE user_id = $1"),
    ("board rows", "DELETE FROM player_totals WHERE user_id = $1"),
    ("board rows", "DELETE FROM week_totals WHERE user_id = $1"),
    ("board rows", "DELETE FROM month_totals WHERE user_id = $1"),
    ("reminders", "DELETE FROM reminders WHERE user_id = $1"),
    ("reminders", "DELETE FROM reminder_sends WHERE user_id = $1"),
    ("duels deleted", f"DELETE FROM duel_actions WHERE duel_id IN (SELECT id FROM duels WHERE {OPEN_DUELS})"),
    ("duels deleted", f"DELETE FROM duels WHERE {OPEN_DUELS}"),
    ("duels deleted", f"DELETE FROM duel_actions WHERE duel_id IN (SELECT id FROM duels WHERE {NOBODY_LEFT})"),
    ("duels deleted", f"DELETE FROM duels WHERE {NOBODY_LEFT}"),
    ("duels kept anonymous", f"UPDATE duels SET player0 = {FORGOTTEN}, name0 = NULL WHERE player0 = $1"),
    ("duels kept anonymous", f"UPDATE duels SET player1 = {FORGOTTEN}, name1 = NULL WHERE player1 = $1"),
    ("duel moves kept anonymous", f"UPDATE duel_actions SET user_id = {FORGOTTEN} WHERE user_id = $1"),
)
# Counted once: the rows of a parent, not of its children as well.
COUNTED_ONCE = {"duels deleted": "DELETE FROM duels"}


async def forget_player(db: Db, user_id: int) -> dict[str, int]:
    """Remove everything kept about ``user_id`` (see the module's docstring); how many rows of each kind went (or,
    for duels, stayed anonymous). Raises ``ValueError`` for an id no Discord user has."""
    if user_id <= FORGOTTEN:
        raise ValueError("a Discord user id is a positive whole number")

    async def body(tx: Tx) -> dict[str, int]:
        counts: dict[str, int] = {}
        for name, sql in STEPS:
            changed = await tx.execute(sql, (user_id,))
            if name not in COUNTED_ONCE or sql.startswith(COUNTED_ONCE[name]):
                counts[name] = counts.get(name, 0) + changed
        return counts

    return await db.write(body, slow=True)  # a player of many years has many thousands of moves


__all__ = ["FORGOTTEN", "forget_player"]
