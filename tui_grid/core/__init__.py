"""Shared, UI-free building blocks: geometry, board files, errors, history, solver control."""
