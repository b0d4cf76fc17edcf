-- Schema version 14 on PostgreSQL: the player's name kept with each game (storage/migrations/0014_player_names.sql).
ALTER TABLE games ADD COLUMN player_name TEXT;
