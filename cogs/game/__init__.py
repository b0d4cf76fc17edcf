"""A game in chat: the commands (play, resume, abandon, rules, help), starting and posting games (flow), the game
message (view, embed, card_text) and Replay."""
