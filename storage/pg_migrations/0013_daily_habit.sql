-- Schema version 13 on PostgreSQL: month totals and streak reminders
-- (storage/migrations/0013_daily_habit.sql).
CREATE TABLE month_totals (
    month      BIGINT NOT NULL,
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    total      BIGINT NOT NULL,
    days       BIGINT NOT NULL,
    wins       BIGINT NOT NULL,
    forfeits   BIGINT NOT NULL,
    best       BIGINT NOT NULL,
    last_at    BIGINT,
    PRIMARY KEY (month, guild_id, user_id)
);
CREATE INDEX month_totals_board ON month_totals (month, guild_id, total DESC, days DESC, last_at, user_id);

INSERT INTO month_totals (month, guild_id, user_id, total, days, wins, forfeits, best, last_at)
SELECT ((extract(year FROM date '2025-12-31' + day::integer))::bigint - 2026) * 12
       + (extract(month FROM date '2025-12-31' + day::integer))::bigint AS month,
       gid, user_id, sum(score), count(*), count(*) FILTER (WHERE status = 'won'),
       count(*) FILTER (WHERE ended_by IS NOT NULL), max(score), max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
) AS scored
GROUP BY 1, gid, user_id;

CREATE TABLE reminders (
    user_id          BIGINT PRIMARY KEY,
    hours            INTEGER NOT NULL CHECK (hours IN (1, 2, 4, 8)),
    locale           TEXT,
    undelivered_day  BIGINT,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX reminders_by_hours ON reminders (hours);

CREATE TABLE reminder_sends (
    user_id     BIGINT NOT NULL,
    day         BIGINT NOT NULL,
    owner       TEXT NOT NULL,
    claimed_at  BIGINT NOT NULL,
    outcome     TEXT,
    PRIMARY KEY (user_id, day)
);
CREATE INDEX reminder_sends_by_claim ON reminder_sends (claimed_at);
