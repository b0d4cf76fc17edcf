"""Server settings (``/scoundrel-admin preset``)."""
