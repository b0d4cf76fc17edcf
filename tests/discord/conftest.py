from tests.discord.fixtures import db_path, locales, simcord_bot, world  # noqa: F401
