"""Robinson Table: the Raspberry Pi banker built on ``robinson_core``."""

__version__ = "0.1.0"
