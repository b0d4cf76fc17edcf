"""The pure games: the engine (classic rules, options, the expansion), the exact solver and the coach's
search, the two-player duel, the pictures, and the words (i18n). No I/O, no Discord, no database."""
