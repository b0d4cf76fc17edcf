"""The game message every feature posts: a game drawn in chat (its embed, buttons and picture: view, embed), its
cards' clicks, and a game shown to its player alone and redrawn after a move at the table (private). Shared by the
game, the daily and the challenge, which import it and not each other."""
