"""The command groups every feature adds its subcommands to: ``/scoundrel`` (group) and ``/scoundrel-admin``
(admin_group), and the options several commands share (presets)."""
