-- Schema version 11 on PostgreSQL: one process at a time solves the daily's par
-- (storage/migrations/0011_daily_par_lease.sql).
ALTER TABLE daily_challenges ADD COLUMN par_owner TEXT;
ALTER TABLE daily_challenges ADD COLUMN par_lease_until BIGINT;
