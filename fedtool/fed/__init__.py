"""The fed on disk: its settings, its cards, its templates and how its folders are written.

- `settings`: `Fed` (the folder and rosters/fed.yaml, checked for shape) and the fed's paths.
- `card`: a week's card.yaml and opening.yaml, and where each side's strategy file is.
- `render`: the fed's templates (its own first, then fedtool's), Markdown, HTML pages and mails.
- `files`: folders built beside their target and swapped in whole; atomic file writes.
- `lock`: the fed's lock: one writing command at a time.
- `skeleton`: `fedtool init`.

This layer knows no ruleset: checks that need one (a sheet, a title) are made above it.
"""
