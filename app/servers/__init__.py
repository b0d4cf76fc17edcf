"""A server's own settings: the rules its games get by default, and where and when its daily post goes out."""
