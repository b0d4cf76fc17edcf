-- Schema version 18: the coach's score of the daily, beside its par. The coach plays the day's deal move by move
-- seeing only what a player sees (par sees every card); the night's par job stores both in one write, under the
-- par's lease. NULL for days solved before this migration, or when the coach did not finish in time.
ALTER TABLE daily_challenges ADD COLUMN coach_score INTEGER;
