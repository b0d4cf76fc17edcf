"""The interaction plumbing every feature shares: taking an interaction in (intake, clicks), answering it in time
(respond), errors and their wording (errors), bounds and options checked before code runs (bounds, options),
the bot as the cogs see it (interaction), the clock, and the database's outages."""
