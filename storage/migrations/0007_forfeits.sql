-- Schema version 7: a counted daily given up or left unfinished past its day is scored, never dropped.
--
-- `ended_by` says why a game stopped before the engine ended it: 'abandoned' (the player gave up) or 'expired'
-- (its daily's UTC day ended first); status stays 'abandoned' for both. A counted daily ended that way carries
-- a forfeit score (bot.engine.forfeit_score: every monster not yet slain counts against the player), so it is on
-- the boards, never ranked above a death with the same score. Games ended before this version keep no score.
ALTER TABLE games ADD COLUMN ended_by TEXT CHECK (ended_by IS NULL OR ended_by IN ('abandoned', 'expired'));
UPDATE games SET ended_by = 'abandoned' WHERE status = 'abandoned';

-- The daily boards order forfeits after deaths of the same score: the indexes follow that order exactly, so a
-- top-10 is still read straight off the index.
DROP INDEX games_daily_board_guild;
DROP INDEX games_daily_board_all;
CREATE INDEX games_daily_board_guild ON games (guild_id, day, score DESC, (ended_by IS NOT NULL), ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;
CREATE INDEX games_daily_board_all ON games (day, score DESC, (ended_by IS NOT NULL), ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;

-- The sweep at 00:00 UTC finds the daily and practice games still running on a past day.
CREATE INDEX games_running_dailies ON games (day) WHERE status = 'playing' AND kind <> 'normal';
