"""Players: which board a request means and a player's stats (``boards``); forgetting a player (``forget``)."""
