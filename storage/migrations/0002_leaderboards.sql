-- Schema version 2: what leaderboards and stats need to stay fast with millions of finished games,
-- and the par cache for arbitrary deals.

-- Daily boards read finished counted dailies straight from `games`, newest day first, best score first,
-- earlier finish first on ties. Partial indexes: only scored (won/dead) counted dailies are in them.
CREATE INDEX games_daily_board_guild ON games (guild_id, day, score DESC, ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;
CREATE INDEX games_daily_board_all ON games (day, score DESC, ended_at)
    WHERE kind = 'daily' AND score IS NOT NULL;
-- A user's counted daily days (streaks).
CREATE INDEX games_daily_by_user ON games (user_id, day) WHERE kind = 'daily' AND score IS NOT NULL;

-- Running totals per player, kept up to date in the transaction that finishes (or abandons) a game, so the
-- all-time board and a player's stats never scan their games. Normal games and counted dailies only
-- (practice games never count). guild_id 0 = every server (and DMs); rules_key '*' = every rule set.
CREATE TABLE player_totals (
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    rules_key    TEXT    NOT NULL,
    games        INTEGER NOT NULL,               -- finished + abandoned
    wins         INTEGER NOT NULL,
    scored       INTEGER NOT NULL,               -- won + dead (abandoned games have no score)
    total_score  INTEGER NOT NULL,
    best_score   INTEGER,
    average      REAL,                           -- total_score / scored
    last_at      INTEGER,
    PRIMARY KEY (user_id, guild_id, rules_key)
) WITHOUT ROWID;
CREATE INDEX player_totals_board ON player_totals (guild_id, rules_key, wins DESC, best_score DESC, average DESC);

-- Everyone's counted attempt at one day (the day's results, finished or not).
CREATE INDEX daily_attempts_by_day ON daily_attempts (day);

-- Fill the totals from the games already finished (a database upgraded from version 1).
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, rk, count(*), sum(status = 'won'), count(score), coalesce(sum(score), 0), max(score),
       avg(score), max(ended_at)
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
)
GROUP BY user_id, gid, rk;

-- Par (the best possible score) of arbitrary deals, found by the solver and kept.
CREATE TABLE par_cache (
    rules_key   TEXT    NOT NULL,
    deck        TEXT    NOT NULL,
    best_score  INTEGER NOT NULL,
    line        TEXT    NOT NULL,                -- an optimal line, as action codes
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (rules_key, deck)
) WITHOUT ROWID;
