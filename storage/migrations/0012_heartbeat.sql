-- Schema version 12: one row the health check writes, so a check proves the database can still store something
-- (a full disk or a read-only file answers reads but refuses this).
CREATE TABLE heartbeat (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    at  INTEGER NOT NULL
);
