"""The application layer: the game's use cases over the store, the clock and the solver service, shared by
every surface (Discord, the terminal, the web). No Discord, no HTTP, no database driver: it takes ids and
values, returns plain results and raises coded errors; each surface words them.

- ``games``: a single-player game: start (or the one in progress offered back), find, move on the version seen,
  give up.
- ``daily_attempt``: the daily's counted attempt and its day, and practice after it; ``daily_share``: sharing a
  result; ``daily_challenge``: each day's deal and the pars known; ``daily``: the calendar, deals, share text.
- ``coaching``: who may have a hint or a review, and when; ``coach`` and ``par``: the solver's worker behind its
  queue; ``replays``: replay GIFs drawn off the event loop.
- ``errors``: the coded refusals; ``scratch_store``: a store that lasts one process (the terminal's).
"""
