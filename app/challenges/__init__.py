"""A challenge in a channel: one deal for everyone who joins, each in a game of their own, and the standings.

``play``: start, join, close (by the starter or by time) and a member gone; ``standings``: what the standings
show of each player (room, health, how their game went, never a card), the same to everyone; ``par``: the deal's
par and the coach's score, worked out while the challenge runs.
"""
