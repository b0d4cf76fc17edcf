"""The application layer: the game's use cases over the store, the clock and the solver service, shared by
every surface (Discord, the terminal, the web). No Discord, no HTTP, no database driver: it takes ids and
values, returns plain results and raises coded errors (``errors``); each surface words them.

Grouped by area: ``play`` (a game, a duel), ``daily`` (the daily challenge), ``coach`` (hint and review),
``solver`` (the solver's worker process), ``replays``, ``players`` (boards, stats, forgetting).
"""
