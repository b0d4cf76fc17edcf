-- Schema version 1: games and their action log, the daily challenge, guild settings.
--
-- Conventions: Discord ids are INTEGER (snowflakes fit in 64 bits); times are INTEGER microseconds since
-- 1970-01-01 UTC (storage/models.py converts them to aware datetimes at the boundary); a game's rules are
-- Rules.to_dict() JSON with Rules.key beside it; a deck is its card codes, top card first.

-- One row per game. The action log (game_actions) is the truth; `snapshot` is a cache of the state after
-- `version` actions (bot.engine.to_json) so a click does not replay the whole game.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER,                         -- NULL when played in a DM
    channel_id  INTEGER,
    message_id  INTEGER,                         -- the game's live message, when it has one
    kind        TEXT    NOT NULL CHECK (kind IN ('normal', 'daily', 'practice')),
    slot        TEXT    NOT NULL CHECK (slot IN ('normal', 'daily')),
    day         INTEGER,                         -- the daily number, for daily and practice games
    rules_json  TEXT    NOT NULL,
    rules_key   TEXT    NOT NULL,
    rules_name  TEXT    NOT NULL,                -- the preset name or 'custom' (stats breakdown)
    seed        INTEGER,                         -- NULL for an explicit deck
    deck        TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'won', 'dead', 'abandoned')),
    version     INTEGER NOT NULL DEFAULT 0,      -- number of actions applied = len(state.history)
    snapshot    TEXT,
    score       INTEGER,                         -- set when won or dead; NULL while playing and when abandoned
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    CHECK ((kind = 'normal') = (slot = 'normal')),
    CHECK (kind = 'normal' OR day IS NOT NULL)
);

-- One active game per user per slot ('normal', and 'daily' shared by daily and practice games),
-- enforced by the database itself so it holds across processes.
CREATE UNIQUE INDEX games_one_active ON games (user_id, slot) WHERE status = 'playing';
CREATE INDEX games_by_user ON games (user_id, started_at);

-- The action log: one row per move, seq = the game's version after the move (1, 2, ...).
-- The primary key is the second guard against a move being applied twice.
CREATE TABLE game_actions (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    code     TEXT    NOT NULL,                   -- Action.code: A, T2, W2, ...
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- One row per day: the deal everyone plays.
CREATE TABLE daily_challenges (
    day         INTEGER PRIMARY KEY,
    seed        INTEGER NOT NULL,
    rules_json  TEXT    NOT NULL,
    rules_key   TEXT    NOT NULL,
    par         INTEGER,
    par_line    TEXT,
    created_at  INTEGER NOT NULL
);

-- The counted attempt: at most one per user and day, created with the daily game in one transaction.
CREATE TABLE daily_attempts (
    user_id     INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
) WITHOUT ROWID;

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    daily_channel_id  INTEGER,
    daily_time        TEXT CHECK (daily_time IS NULL OR daily_time GLOB '[0-2][0-9]:[0-5][0-9]'),  -- HH:MM UTC
    preset            TEXT NOT NULL DEFAULT 'classic',
    updated_at        INTEGER NOT NULL
);

-- A guild's daily post: the row exists once the post of that day has been claimed (never posted twice).
CREATE TABLE daily_posts (
    guild_id    INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    channel_id  INTEGER,
    message_id  INTEGER,
    claimed_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day)
) WITHOUT ROWID;

CREATE TABLE bot_secrets (
    name   TEXT PRIMARY KEY,
    value  BLOB NOT NULL
);
