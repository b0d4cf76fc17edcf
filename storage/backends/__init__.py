"""The databases the store runs on, siblings behind one interface (``base.Db``): ``sqlite`` (aiosqlite) and
``postgres`` (asyncpg, imported only when a PostgreSQL URL is opened)."""
