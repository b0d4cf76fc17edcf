"""A game in chat: the commands (play, resume, abandon, rules, help), starting and posting games (flow), Open the
table and Replay. The game message itself, which the daily and the challenge post too, is in ``cogs/game_message/``."""
