-- Schema version 18 on PostgreSQL: the coach's score of the daily, beside its par
-- (storage/migrations/0018_daily_coach.sql).
ALTER TABLE daily_challenges ADD COLUMN coach_score BIGINT;
