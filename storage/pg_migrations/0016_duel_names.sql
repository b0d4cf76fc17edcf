-- Schema version 16 on PostgreSQL: the players' names kept with each duel (storage/migrations/0016_duel_names.sql).
ALTER TABLE duels ADD COLUMN name0 TEXT;
ALTER TABLE duels ADD COLUMN name1 TEXT;
