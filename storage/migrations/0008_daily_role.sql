-- Schema version 8: a server may name a role to ping with its daily post.
ALTER TABLE guild_settings ADD COLUMN daily_role_id INTEGER;
