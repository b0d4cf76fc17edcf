"""Server boards, a player's stats, and the member menu (stats, or a duel challenge)."""
