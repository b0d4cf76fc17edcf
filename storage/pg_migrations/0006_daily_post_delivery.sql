-- Schema version 6 on PostgreSQL: daily posts are leased, confirmed and retried
-- (storage/migrations/0006_daily_post_delivery.sql).
ALTER TABLE daily_posts ADD COLUMN delivered_at BIGINT;
ALTER TABLE daily_posts ADD COLUMN owner TEXT;
ALTER TABLE daily_posts ADD COLUMN lease_until BIGINT;
ALTER TABLE daily_posts ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE daily_posts ADD COLUMN last_error TEXT;
ALTER TABLE daily_posts ADD COLUMN retry_at BIGINT;

UPDATE daily_posts SET delivered_at = claimed_at;
