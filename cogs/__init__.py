"""The Discord surface, one package per feature (game, daily, duel, challenge, coach, boards, account, admin) over
the shared interaction plumbing (plumbing) and the command tree (commands).

The extensions the bot loads, in the order it loads them. The order is what players see: each adds its subcommands
to ``/scoundrel`` and its persistent buttons in turn.
"""

EXTENSIONS = (
    "cogs.plumbing.clicks",
    "cogs.coach.advice",
    "cogs.daily.commands",
    "cogs.daily.count",
    "cogs.duel.commands",
    "cogs.challenge.commands",
    "cogs.duel.replay",
    "cogs.account.forget_me",
    "cogs.game.commands",
    "cogs.plumbing.intake",
    "cogs.boards.leaderboard",
    "cogs.boards.member_menu",
    "cogs.duel.member_menu",
    "cogs.coach.best_possible",
    "cogs.account.reminders",
    "cogs.game.replay",
    "cogs.game.activity",
    "cogs.admin.preset",
)
