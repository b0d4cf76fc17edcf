"""The table in a browser: the Discord Activity and ``scoundrel-bot web`` (a surface, like cogs and the terminal).

``web/client/`` is the TypeScript client (built into ``web/static/``, shipped as package data); the server is
aiohttp routes (``web.routes``) over the game's use cases, mounted on the bot's service app or served alone by
``scoundrel-bot web`` (``web.local``). The server is the only authority on a game: the client draws what it is sent
and sends back an action with the version it saw.
"""
