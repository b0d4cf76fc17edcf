-- Schema version 11: the daily's par is solved once, by one process, however many share the database.
--
-- A process that wants the par takes a lease on it (par_owner, par_lease_until) before starting the solve; the
-- others wait and read the par when it is stored. A lease left by a process that died mid-solve expires, and
-- another process takes the solve over.
ALTER TABLE daily_challenges ADD COLUMN par_owner TEXT;
ALTER TABLE daily_challenges ADD COLUMN par_lease_until INTEGER;
