"""gptme/tools/complete.py @ d27f98d3: the exception that ends a session."""


class SessionCompleteException(Exception):
    """Exception raised to signal that the session should end."""
