-- Schema version 19 on PostgreSQL: a finished game's review, kept once worked out
-- (storage/migrations/0019_game_reviews.sql).
CREATE TABLE game_reviews (
    game_id     BIGINT PRIMARY KEY,
    review      TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
