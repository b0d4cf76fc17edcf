"""How the bot's words read in Discord: the reader's language (locale), cards and commands named in message
text, embed fields within Discord's limits, and the slash commands' translations."""
