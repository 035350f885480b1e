"""The games on puerto's shelf: one module per game, each declaring its ``GAME``
(``games.registry.GameSpec``). The setting ``PUERTO_GAMES`` lists the modules."""
