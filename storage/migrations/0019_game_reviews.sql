-- Schema version 19: a finished game's review, kept once worked out (the coach judges every move, which takes
-- seconds of solving), so a second ask is answered at once. ``review`` is the application layer's text (JSON of
-- the review's phrases, translated when shown); a game's row goes with the game when its player is forgotten.
CREATE TABLE game_reviews (
    game_id     INTEGER PRIMARY KEY,
    review      TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
