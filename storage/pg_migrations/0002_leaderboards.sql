-- Schema version 2 on PostgreSQL: board indexes, running totals and the par cache
-- (storage/migrations/0002_leaderboards.sql explains each).
CREATE INDEX games_daily_board_guild ON games (guild_id, day, score DESC, ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;
CREATE INDEX games_daily_board_all ON games (day, score DESC, ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;
CREATE INDEX games_daily_by_user ON games (user_id, day) WHERE kind = 'daily' AND score IS NOT NULL;

CREATE TABLE player_totals (
    user_id      BIGINT NOT NULL,
    guild_id     BIGINT NOT NULL,
    rules_key    TEXT   NOT NULL,
    games        BIGINT NOT NULL,
    wins         BIGINT NOT NULL,
    scored       BIGINT NOT NULL,
    total_score  BIGINT NOT NULL,
    best_score   BIGINT,
    average      DOUBLE PRECISION,
    last_at      BIGINT,
    PRIMARY KEY (user_id, guild_id, rules_key)
);
-- NULLS LAST: the board sorts a missing best score or average last, as SQLite does (storage/postgres.py).
CREATE INDEX player_totals_board ON player_totals (guild_id, rules_key, wins DESC, best_score DESC NULLS LAST,
                                                   average DESC NULLS LAST);

CREATE INDEX daily_attempts_by_day ON daily_attempts (day);

INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, rk, count(*), count(*) FILTER (WHERE status = 'won'), count(score),
       coalesce(sum(score), 0)::bigint, max(score), avg(score)::double precision, max(ended_at)
FROM (
    SELECT user_id, guild_id AS gid, rules_key AS rk, status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, guild_id, '*', status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, 0, rules_key, status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing'
    UNION ALL
    SELECT user_id, 0, '*', status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing'
) AS finished
GROUP BY user_id, gid, rk;

CREATE TABLE par_cache (
    rules_key   TEXT   NOT NULL,
    deck        TEXT   NOT NULL,
    best_score  BIGINT NOT NULL,
    line        TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (rules_key, deck)
);
