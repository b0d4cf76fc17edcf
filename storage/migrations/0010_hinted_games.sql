-- A game in which the player asked for a hint (normal and practice games only): it is never counted in the
-- running totals (all-time boards, stats' best scores and averages). Streaks and the daily and week boards
-- only count counted dailies, which never offer hints.
ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1));
