-- Schema version 5 on PostgreSQL: a server's preset becomes optional (NULL = the bot's configured default).
ALTER TABLE guild_settings ALTER COLUMN preset DROP NOT NULL;
ALTER TABLE guild_settings ALTER COLUMN preset DROP DEFAULT;
UPDATE guild_settings SET preset = NULL WHERE preset = 'classic';
