"""The two-player duel: ``/scoundrel duel`` (commands), its public board and private hands (view), Replay, and
the member menu's "Challenge to a duel"."""
