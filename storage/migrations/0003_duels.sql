-- Schema version 3: two-player duels (bot/duel) and their action log.
--
-- A duel starts as a challenge ('challenged'); the opponent accepts ('playing') or declines, or the challenger
-- withdraws ('declined'). The action log is the truth; `snapshot` caches bot.duel.to_json of the state after
-- `version` actions. player0 is the challenger (the first roller), player1 the challenged player (the dealer).
CREATE TABLE duels (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER,
    channel_id   INTEGER,
    message_id   INTEGER,                        -- the live board message, when there is one
    player0      INTEGER NOT NULL,
    player1      INTEGER NOT NULL CHECK (player1 <> player0),
    seed         INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'challenged'
                 CHECK (status IN ('challenged', 'declined', 'playing', 'won', 'abandoned')),
    winner       INTEGER CHECK (winner IS NULL OR winner IN (0, 1)),
    version      INTEGER NOT NULL DEFAULT 0,
    snapshot     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    ended_at     INTEGER
);
-- "Does this player have an open duel?" (challenged or playing) from either seat.
CREATE INDEX duels_open_player0 ON duels (player0) WHERE status IN ('challenged', 'playing');
CREATE INDEX duels_open_player1 ON duels (player1) WHERE status IN ('challenged', 'playing');

CREATE TABLE duel_actions (
    duel_id  INTEGER NOT NULL REFERENCES duels (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    code     TEXT    NOT NULL,                   -- DuelAction.code: P02, B1H11, S3C5, F2, D, R0
    user_id  INTEGER NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (duel_id, seq)
) WITHOUT ROWID;
