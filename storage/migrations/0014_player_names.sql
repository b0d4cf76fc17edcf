-- The player's name as it was when they played, kept with the game: boards that list players from other servers
-- (the global boards) show it, since a mention there may not resolve in the reader's client. NULL for games
-- from before this migration (those are shown by mention).
ALTER TABLE games ADD COLUMN player_name TEXT;
