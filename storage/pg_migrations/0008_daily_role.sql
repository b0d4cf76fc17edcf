-- Schema version 8 on PostgreSQL: a role to ping with the daily post (storage/migrations/0008_daily_role.sql).
ALTER TABLE guild_settings ADD COLUMN daily_role_id BIGINT;
