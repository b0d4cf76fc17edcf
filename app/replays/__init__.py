"""Replays: GIFs drawn off the event loop (``gifs``); who may replay what, and when par's line shows (``access``)."""
