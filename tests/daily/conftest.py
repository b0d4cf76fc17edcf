from tests.discord.fixtures import db_path, simcord_bot, world  # noqa: F401
