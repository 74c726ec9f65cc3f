"""fedtool: the fedhead's processor for play-by-mail pro-wrestling leagues."""

__version__ = "0.1.0"
