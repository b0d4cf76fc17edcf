-- A server's preset for /scoundrel play becomes optional (NULL = the bot's configured default), so a server
-- that never chose one follows the bot's config instead of being pinned to 'classic'. No command could set
-- it before this version, so a stored 'classic' (the old column default) means "not chosen".
CREATE TABLE guild_settings_v5 (
    guild_id          INTEGER PRIMARY KEY,
    daily_channel_id  INTEGER,
    daily_time        TEXT CHECK (daily_time IS NULL OR daily_time GLOB '[0-2][0-9]:[0-5][0-9]'),  -- HH:MM UTC
    preset            TEXT,
    updated_at        INTEGER NOT NULL
);
INSERT INTO guild_settings_v5 (guild_id, daily_channel_id, daily_time, preset, updated_at)
SELECT guild_id, daily_channel_id, daily_time, NULLIF(preset, 'classic'), updated_at FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_v5 RENAME TO guild_settings;
