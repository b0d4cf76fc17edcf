-- Schema version 10 on PostgreSQL: games in which a hint was used (storage/migrations/0010_hinted_games.sql).
ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1));
