"""The week: a card booked, opened, run (or rerun) and told; status and odds along the way; its dice verified after.

- `booking`: a week's card, its wrestlers and their states read once, every match booked.
- `run`: `open_week`, `run_week` (atomic: the league's commit decides), `play_card`, the writeups.
- `status`: how a strategy file reads and whether it stands; what each side has sent.
- `odds`: a booking played many times with fresh seeds.
- `verify`: a run week replayed from its revealed seeds, against its commitments, logs and results.
"""
