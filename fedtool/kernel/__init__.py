"""The kernel: what every other layer stands on and which stands on nothing of fedtool's.

- `errors`: `Problem` (file, place, message, rule) and `FedError`, the only error a user sees.
- `yamlio`: YAML read with line numbers, size caps and hostile-input guards.
- `validation`: pydantic models that refuse unknown fields and name the line of each problem.
- `dice`: the one source of chance: seeded or scripted dice that log every roll with its purpose.
- `clock`: the one clock (runs' times, mails' Date headers); `SOURCE_DATE_EPOCH` fixes it.
"""
