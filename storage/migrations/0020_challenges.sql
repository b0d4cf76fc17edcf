-- Schema version 20: challenges in a channel. One deal, posted with a Join button; everyone who joins plays it in
-- a game of their own (a normal game tied to the challenge by ``games.challenge_id``), beside their normal game
-- and their daily: the one-running-game rule of a slot leaves challenge games out. ``place`` is the server (the
-- channel outside servers) where a player may be in one running challenge at a time. ``status`` goes running ->
-- closing (the close is taken, the final standings not written yet) -> closed (written, once).
CREATE TABLE challenges (
    id           INTEGER PRIMARY KEY,
    place        INTEGER NOT NULL,
    guild_id     INTEGER,
    channel_id   INTEGER,
    message_id   INTEGER,
    starter_id   INTEGER NOT NULL,
    rules_json   TEXT    NOT NULL,
    seed         INTEGER NOT NULL,
    locale       TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'closing', 'closed')),
    par          INTEGER,
    coach_score  INTEGER,
    created_at   INTEGER NOT NULL,
    closes_at    INTEGER NOT NULL,
    closed_at    INTEGER
);
CREATE INDEX challenges_open ON challenges (closes_at) WHERE status <> 'closed';

CREATE TABLE challenge_players (
    challenge_id  INTEGER NOT NULL REFERENCES challenges (id),
    user_id       INTEGER NOT NULL,
    game_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    gone          INTEGER NOT NULL DEFAULT 0,  -- left the server while the challenge ran: shown as gone
    joined_at     INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);
CREATE INDEX challenge_players_by_user ON challenge_players (user_id);

ALTER TABLE games ADD COLUMN challenge_id INTEGER;
DROP INDEX games_one_active;
CREATE UNIQUE INDEX games_one_active ON games (user_id, slot) WHERE status = 'playing' AND challenge_id IS NULL;
