"""A challenge in a channel: ``/scoundrel challenge``, its invite with Join (and Close, for its starter), the
standings kept on that one message while it runs, and its final standings with par, the coach's score and each
player's replay.

``board``: the message drawn from ``app.challenges.standings``; ``buttons``: Join, Close and the replay menu;
``commands``: the slash command (an extension); ``keeper``: the extension that keeps each running challenge's
standings up to date, closes it on time, and resumes the open ones after a restart.
"""
