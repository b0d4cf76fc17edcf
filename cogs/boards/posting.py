"""How a board goes out: a public post, at most 3 a minute a member (``PUBLIC_POSTS``); past that, the board is
shown to that member alone instead of refused, so browsing the boards never hits a wall while the channel stays
safe from floods. One budget for every board a member posts (the leaderboards and ``/scoundrel stats``), kept by
the bot (a restarted process starts with none)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

import discord
from discord import app_commands

from cogs.plumbing import clock
from cogs.plumbing.bounds import PUBLIC_POSTS, per_member
from cogs.plumbing.interaction import Interaction
from games.i18n import Messages

NO_MENTIONS = discord.AllowedMentions.none()
KEPT = 10_000  # members' budgets kept before the full ones are forgotten
_budgets: WeakKeyDictionary = WeakKeyDictionary()  # bot -> {member: Cooldown}


def may_post(interaction: Interaction) -> bool:
    """Whether this member may post one more board in the channel now (and it is counted)."""
    budgets: dict[tuple, app_commands.Cooldown] = _budgets.setdefault(interaction.client, {})
    now = clock.now().timestamp()
    if len(budgets) > KEPT:  # forget members whose minute has passed: their budget is full again
        for key in [k for k, b in budgets.items() if b.get_tokens(now) == b.rate]:
            del budgets[key]
    budget = budgets.setdefault(per_member(interaction), app_commands.Cooldown(PUBLIC_POSTS["rate"],
                                                                                PUBLIC_POSTS["per"]))
    return not budget.update_rate_limit(now)


async def show_board(interaction: Interaction, tr: Messages, embed: discord.Embed, note: str = "") -> None:
    """Post ``embed`` in the channel, or, past the member's budget, show it to them alone, saying why."""
    if may_post(interaction):
        await interaction.response.send_message(note, embed=embed, allowed_mentions=NO_MENTIONS)
        return
    alone = tr("Only you can see this: the channel shows at most {rate} boards a minute from each member.",
               rate=PUBLIC_POSTS["rate"])
    await interaction.response.send_message(f"{note}\n{alone}" if note else alone, embed=embed, ephemeral=True,
                                            allowed_mentions=NO_MENTIONS)
