"""The two-player duel: ``/scoundrel duel`` (commands), its public board and private hands (view), and Replay."""
