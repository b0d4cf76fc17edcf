"""What a message offers besides its own buttons, declared once and in the order players see it.

Under a finished game: New game, Review, Share (a counted daily), Best possible, Replay; under an abandoned game,
New game only; under a game being played: Hint, Open the table (with ``[activity]``); under a finished duel:
Replay; under a streak reminder: the daily's Play button. Each offer is a function of an extension, shown while
that extension is loaded, where the game's view for its viewer allows it (``app.shown``: the one answer chat and
the table both draw). The bot hands this to the views (``bot.offers``): the views do not import the features whose
buttons they show, since those features post game messages themselves. One command is lent the same way: the
``duel:`` option of ``/scoundrel replay`` (the game's) posts a duel's replay with the duel's own function.
"""

from __future__ import annotations

from cogs.plumbing.interaction import Offer, Offers

OFFERS = Offers(
    finished=(
        Offer("cogs.game.commands", "new_game_extras", "new_game"),
        Offer("cogs.coach.advice", "review_extras", "review"),
        Offer("cogs.daily.commands", "share_extras", "share"),
        Offer("cogs.coach.best_possible", "par_extras", "best_possible"),
        Offer("cogs.game.replay", "replay_extras", "replay"),
    ),
    playing=(Offer("cogs.coach.advice", "hint_extras", "hint"), Offer("cogs.game.activity", "table_extras")),
    duel_over=(Offer("cogs.duel.replay", "duel_replay_extras"),),
    reminder=(Offer("cogs.daily.commands", "play_extras"),),
    replay_duel=Offer("cogs.duel.replay", "replay_own_duel"),
)
