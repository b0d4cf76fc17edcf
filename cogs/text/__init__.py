"""How the bot's words read in Discord: the reader's language (locale), cards and commands named in message
text, players and months named on boards and posts, embed fields within Discord's limits, and the slash commands'
translations."""
