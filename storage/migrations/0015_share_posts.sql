-- Schema version 15: the Share posts of a daily made while its day still ran. Par is public only once the day is
-- over, so such a post is finished (par and the player's streak added) after midnight; a row is taken (deleted)
-- by the process that finishes it, so each post is edited once across processes.
CREATE TABLE share_posts (
    message_id  INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    locale      TEXT
);
CREATE INDEX share_posts_by_day ON share_posts (day, message_id);
