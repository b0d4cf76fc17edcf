-- Schema version 17 on PostgreSQL: the boards of several days rank by points (storage/migrations/0017_points.sql).
ALTER TABLE week_totals RENAME COLUMN total TO points;
UPDATE week_totals SET points = points + 208 * days;
ALTER TABLE month_totals RENAME COLUMN total TO points;
UPDATE month_totals SET points = points + 208 * days;

ALTER TABLE player_totals ADD COLUMN points BIGINT NOT NULL DEFAULT 0;
UPDATE player_totals SET points = (
    SELECT coalesce(sum(g.score + 208), 0) FROM games g
    WHERE g.user_id = player_totals.user_id AND g.kind = 'daily' AND g.score IS NOT NULL AND g.hinted = 0
      AND g.status <> 'playing' AND (player_totals.guild_id = 0 OR g.guild_id = player_totals.guild_id)
      AND player_totals.rules_key IN ('*', 'daily', g.rules_key));
CREATE INDEX player_totals_daily_board ON player_totals (guild_id, points DESC, games DESC, last_at, user_id)
    WHERE rules_key = 'daily';
