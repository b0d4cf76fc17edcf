-- Schema version 12 on PostgreSQL: the health check's row (storage/migrations/0012_heartbeat.sql).
CREATE TABLE heartbeat (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    at  BIGINT  NOT NULL
);
