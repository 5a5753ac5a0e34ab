"""Independent rule checkers: plain Python (and networkx), never pysat.

Each checker takes a puzzle's clues and a candidate solution as plain data and returns the list of
broken rules (empty = the solution is valid). They share no code with the encoders, so an encoding
bug cannot hide behind the same bug in the checker. A test enforces that nothing here imports pysat.
"""
