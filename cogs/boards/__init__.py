"""Server boards, a player's stats, and the member menu's "Scoundrel stats"."""
