"""One sub-package per game: rules engine, solver, generator (UI-free) and a Textual screen."""
