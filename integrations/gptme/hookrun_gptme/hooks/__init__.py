"""gptme loads `hookrun_gptme.hooks` and calls its register() (gptme/plugins/__init__.py)."""

from .lifecycle import register as register
