-- Schema version 7 on PostgreSQL: forfeits are scored (storage/migrations/0007_forfeits.sql).
ALTER TABLE games ADD COLUMN ended_by TEXT CHECK (ended_by IS NULL OR ended_by IN ('abandoned', 'expired'));
UPDATE games SET ended_by = 'abandoned' WHERE status = 'abandoned';

DROP INDEX games_daily_board_guild;
DROP INDEX games_daily_board_all;
CREATE INDEX games_daily_board_guild ON games (guild_id, day, score DESC, (ended_by IS NOT NULL), ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;
CREATE INDEX games_daily_board_all ON games (day, score DESC, (ended_by IS NOT NULL), ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;

CREATE INDEX games_running_dailies ON games (day) WHERE status = 'playing' AND kind <> 'normal';
