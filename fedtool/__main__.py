"""`python -m fedtool`: the same command as `fedtool`."""

from .cli import cli

cli(prog_name="fedtool")
