-- Schema version 6: a daily post is delivered exactly once, and retried until it is.
--
-- A row used to mean "claimed, so never post again", written before the message was sent: a failed send lost
-- the day's post for that server. Now a process takes a *lease* on the post (owner, lease_until), sends, and
-- confirms (delivered_at, with the message); a failed send releases the lease with the error and the time of
-- the next attempt. A lease left by a process that died expires, and another process takes the post over.
ALTER TABLE daily_posts ADD COLUMN delivered_at INTEGER;  -- set once the message exists: never posted again
ALTER TABLE daily_posts ADD COLUMN owner TEXT;            -- the process holding the lease
ALTER TABLE daily_posts ADD COLUMN lease_until INTEGER;
ALTER TABLE daily_posts ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE daily_posts ADD COLUMN last_error TEXT;
ALTER TABLE daily_posts ADD COLUMN retry_at INTEGER;      -- no new attempt before this time (back-off)

-- Posts claimed under the old rule are settled: they were sent, or their day is gone.
UPDATE daily_posts SET delivered_at = claimed_at;
