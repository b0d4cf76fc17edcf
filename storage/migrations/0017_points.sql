-- Schema version 17: the boards of several days (week, month, all-time dailies) rank by points, so playing one
-- more daily can never cost a player a place (games/engine/tally.py). A scored counted daily is worth its score
-- above the lowest score a daily can end with: -208, given up before the first move with every monster of the
-- classic deck unslain (``DAY_FLOOR``). Summed scores, which most dailies (deaths) make negative, ranked a player
-- who skipped a day above one who played it.
--
-- Week and month totals: the sum of the scores becomes the sum of the points (each row counts its days).
ALTER TABLE week_totals RENAME COLUMN total TO points;
UPDATE week_totals SET points = points + 208 * days;
ALTER TABLE month_totals RENAME COLUMN total TO points;
UPDATE month_totals SET points = points + 208 * days;

-- Player totals: the points of the counted dailies among each row's games (the all-time daily board reads the
-- 'daily' rows; a daily also adds to its rule set's and every rule set's rows).
ALTER TABLE player_totals ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
UPDATE player_totals SET points = (
    SELECT coalesce(sum(g.score + 208), 0) FROM games g
    WHERE g.user_id = player_totals.user_id AND g.kind = 'daily' AND g.score IS NOT NULL AND g.hinted = 0
      AND g.status <> 'playing' AND (player_totals.guild_id = 0 OR g.guild_id = player_totals.guild_id)
      AND player_totals.rules_key IN ('*', 'daily', g.rules_key));
-- The all-time daily board, read in its order: most points, then most days, then the earlier last finish.
CREATE INDEX player_totals_daily_board ON player_totals (guild_id, points DESC, games DESC, last_at, user_id)
    WHERE rules_key = 'daily';
