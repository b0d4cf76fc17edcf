"""Playing: a single-player game (``solo``: start, find, move on the version seen, give up), a two-player duel
(``duels``), and the terminal's one-process store (``scratch_store``)."""
