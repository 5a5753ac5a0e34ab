"""Genre modules: each states its rules in its docstring and encodes them on the shared core."""
