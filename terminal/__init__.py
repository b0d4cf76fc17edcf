"""The terminal surface: ``scoundrel-bot play``, ``duel``, ``solve``, ``review``, ``replay``: the games in a
terminal, worded for it (``bot.cli`` dispatches to each module's ``main(argv)``)."""
