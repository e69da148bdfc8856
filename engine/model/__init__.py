"""The engine's value types: the board, cards and their abilities, positions, actions."""
