"""gptme/hooks/__init__.py @ d27f98d3: the names it re-exports that the plugin and tests use."""

from .confirm import ConfirmAction as ConfirmAction
from .confirm import ConfirmationResult as ConfirmationResult
from .confirm import get_confirmation as get_confirmation
from .registry import clear_hooks as clear_hooks
from .registry import get_hooks as get_hooks
from .registry import register_hook as register_hook
from .registry import trigger_hook as trigger_hook
from .types import HookType as HookType
from .types import StopPropagation as StopPropagation
from .types import ToolExecutePostData as ToolExecutePostData
from .types import ToolExecutePreData as ToolExecutePreData
