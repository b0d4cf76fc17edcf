-- Schema version 16: the two players' names as they were when the challenge was made, kept with the duel. A
-- mention that pings no one may not resolve in a reader's client (it shows a raw id), so a duel's board and
-- texts name its players with these. NULL for duels from before this migration (shown by mention).
ALTER TABLE duels ADD COLUMN name0 TEXT;
ALTER TABLE duels ADD COLUMN name1 TEXT;
