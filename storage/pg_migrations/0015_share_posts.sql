-- Schema version 15 on PostgreSQL: the Share posts of a daily made while its day still ran
-- (storage/migrations/0015_share_posts.sql).
CREATE TABLE share_posts (
    message_id  BIGINT PRIMARY KEY,
    channel_id  BIGINT NOT NULL,
    game_id     BIGINT NOT NULL,
    day         BIGINT NOT NULL,
    locale      TEXT
);
CREATE INDEX share_posts_by_day ON share_posts (day, message_id);
