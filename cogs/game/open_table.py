"""**Open the table**: the game message's button that opens the table as a Discord Activity (``web/``, see
docs/ACTIVITY.md).

The button (``sc:table:<game id>``) is offered under a game still being played, from ``/scoundrel play`` and
``/scoundrel daily`` alike, only when the bot's ``[activity]`` section is configured. A click is answered with
Discord's ``LAUNCH_ACTIVITY`` callback: the Activity opens for the player who clicked, on their own game (the
table shows the player's daily while it is being played, else their game). When Discord refuses the launch (the
app has no Activity enabled), the player is told so privately.

The private messages the table's moves redraw are kept in ``cogs.game_message.private``.
"""

from __future__ import annotations

import logging

import discord

from cogs.plumbing.errors import NOT_OFFERED, NOT_OPENED, GameIdButton, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.i18n import N_

log = logging.getLogger(__name__)



class OpenTableButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "table", N_("Open the table"), "🃏", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        tr = for_reader(interaction)
        if getattr(interaction.client.config, "activity", None) is None:
            await send_private(interaction, tr(NOT_OFFERED))
            return
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as refused:  # no Activity enabled on the app, say: the interaction is unanswered
            log.warning("Discord refused to launch the Activity: %s %s", refused.status, refused.text)
            await send_private(interaction, tr(NOT_OPENED))
        except discord.InteractionResponded:  # deferred by the deadline before it could launch
            await send_private(interaction, tr(NOT_OPENED))
