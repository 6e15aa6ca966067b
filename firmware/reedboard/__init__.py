"""reedboard: the firmware of an open electronic chessboard."""

__version__ = "0.1.0"
