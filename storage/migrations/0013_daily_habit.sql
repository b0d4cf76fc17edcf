-- Schema version 13: the daily as a habit — month totals, and streak reminders sent at most once a day.
--
-- Running month totals, as week_totals (0009) but one row per player, server (0 = every server) and calendar
-- month (Month #1 is January 2026, see bot.daily.month_of): kept up to date in the transaction that scores a
-- counted daily, so the month board reads 10 rows of an index.
CREATE TABLE month_totals (
    month      INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    total      INTEGER NOT NULL,                 -- the sum of the scores
    days       INTEGER NOT NULL,                 -- counted dailies scored in the month
    wins       INTEGER NOT NULL,
    forfeits   INTEGER NOT NULL,                 -- of those days, given up or expired
    best       INTEGER NOT NULL,
    last_at    INTEGER,                          -- the latest finish
    PRIMARY KEY (month, guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX month_totals_board ON month_totals (month, guild_id, total DESC, days DESC, last_at, user_id);

INSERT INTO month_totals (month, guild_id, user_id, total, days, wins, forfeits, best, last_at)
SELECT (CAST(strftime('%Y', '2025-12-31', '+' || day || ' days') AS INTEGER) - 2026) * 12
       + CAST(strftime('%m', '2025-12-31', '+' || day || ' days') AS INTEGER) AS month,
       gid, user_id, sum(score), count(*), sum(status = 'won'), sum(ended_by IS NOT NULL), max(score), max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
)
GROUP BY month, gid, user_id;

-- Players who asked to be reminded before the UTC day ends (hours: 1, 2, 4 or 8). No row: never messaged.
-- `undelivered_day`: the last day a reminder could not be delivered (DMs closed), told at the next /remind.
CREATE TABLE reminders (
    user_id          INTEGER PRIMARY KEY,
    hours            INTEGER NOT NULL CHECK (hours IN (1, 2, 4, 8)),
    locale           TEXT,
    undelivered_day  INTEGER,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX reminders_by_hours ON reminders (hours);

-- One row per reminder claimed: the first process to insert it sends it, so a player gets at most one a day.
CREATE TABLE reminder_sends (
    user_id     INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    owner       TEXT NOT NULL,
    claimed_at  INTEGER NOT NULL,
    outcome     TEXT,                            -- 'sent', 'closed' (DMs closed) or 'failed'; NULL while sending
    PRIMARY KEY (user_id, day)
) WITHOUT ROWID;
-- Old claims are pruned with the daily posts' records (storage/maintenance.py): found by when they were made.
CREATE INDEX reminder_sends_by_claim ON reminder_sends (claimed_at);
