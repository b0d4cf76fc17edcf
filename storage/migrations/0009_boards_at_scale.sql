-- Schema version 9: boards that stay fast at any size.
--
-- Running week totals: one row per player, server (0 = every server) and week, the week named by its last day
-- (the week ending at day D holds days D-6 … D). Kept up to date in the transaction that scores a counted daily
-- (added to the 7 weeks holding its day), so the week board reads 10 rows of an index instead of summing every
-- result of 7 days.
CREATE TABLE week_totals (
    week_end   INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    total      INTEGER NOT NULL,                 -- the sum of the scores
    days       INTEGER NOT NULL,                 -- counted dailies scored in the week
    wins       INTEGER NOT NULL,
    forfeits   INTEGER NOT NULL,                 -- of those days, given up or expired
    best       INTEGER NOT NULL,
    last_at    INTEGER,                          -- the latest finish
    PRIMARY KEY (week_end, guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX week_totals_board ON week_totals (week_end, guild_id, total DESC, days DESC, last_at, user_id);

INSERT INTO week_totals (week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at)
SELECT day + w.n, gid, user_id, sum(score), count(*), sum(status = 'won'), sum(ended_by IS NOT NULL), max(score),
       max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
) JOIN (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
        UNION ALL SELECT 5 UNION ALL SELECT 6) AS w
GROUP BY day + w.n, gid, user_id;

-- Counted dailies abandoned before version 7 have no score yet: the store scores them once when it opens (the
-- forfeit needs the game's state); this index finds them, and is empty once that has run.
CREATE INDEX games_forfeit_unscored ON games (id) WHERE kind = 'daily' AND status = 'abandoned' AND score IS NULL;
-- Posts claimed and not delivered: what the retry loop looks at.
CREATE INDEX daily_posts_undelivered ON daily_posts (day) WHERE delivered_at IS NULL;
