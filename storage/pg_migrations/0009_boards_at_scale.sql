-- Schema version 9 on PostgreSQL: running week totals and the indexes that keep boards fast
-- (storage/migrations/0009_boards_at_scale.sql).
CREATE TABLE week_totals (
    week_end   BIGINT NOT NULL,
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    total      BIGINT NOT NULL,
    days       BIGINT NOT NULL,
    wins       BIGINT NOT NULL,
    forfeits   BIGINT NOT NULL,
    best       BIGINT NOT NULL,
    last_at    BIGINT,
    PRIMARY KEY (week_end, guild_id, user_id)
);
CREATE INDEX week_totals_board ON week_totals (week_end, guild_id, total DESC, days DESC, last_at, user_id);

INSERT INTO week_totals (week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at)
SELECT day + w.n, gid, user_id, sum(score), count(*), count(*) FILTER (WHERE status = 'won'),
       count(*) FILTER (WHERE ended_by IS NOT NULL), max(score), max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
) AS scored CROSS JOIN generate_series(0, 6) AS w(n)
GROUP BY day + w.n, gid, user_id;

CREATE INDEX games_forfeit_unscored ON games (id) WHERE kind = 'daily' AND status = 'abandoned' AND score IS NULL;
CREATE INDEX daily_posts_undelivered ON daily_posts (day) WHERE delivered_at IS NULL;
