"""gptme/hooks/confirm.py @ d27f98d3: ConfirmAction, ConfirmationResult, get_confirmation."""

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Optional


class ConfirmAction(str, Enum):
    CONFIRM = "confirm"
    SKIP = "skip"
    EDIT = "edit"


@dataclass
class ConfirmationResult:
    action: ConfirmAction
    edited_content: Optional[str] = None
    message: Optional[str] = None

    @classmethod
    def confirm(cls) -> "ConfirmationResult":
        return cls(action=ConfirmAction.CONFIRM)

    @classmethod
    def skip(cls, message: Optional[str] = None) -> "ConfirmationResult":
        return cls(action=ConfirmAction.SKIP, message=message or "Operation skipped")

    @classmethod
    def edit(cls, edited_content: str) -> "ConfirmationResult":
        return cls(action=ConfirmAction.EDIT, edited_content=edited_content)


def get_confirmation(
    tool_use: Any = None,
    preview: Optional[str] = None,
    workspace: Optional[Path] = None,
    default_confirm: bool = True,
) -> ConfirmationResult:
    """As gptme's: hooks by priority, None falls through, an exception becomes a skip."""
    from .registry import get_hooks
    from .types import HookType

    enabled_hooks = [h for h in get_hooks(HookType.TOOL_CONFIRM) if h.enabled]
    if not enabled_hooks:
        return ConfirmationResult.confirm() if default_confirm else ConfirmationResult.skip("No confirmation hook registered")
    for hook in enabled_hooks:
        try:
            result = hook.func(tool_use, preview, workspace)
            if result is None:
                continue
            if isinstance(result, ConfirmationResult):
                return result
            if isinstance(result, bool):
                return ConfirmationResult.confirm() if result else ConfirmationResult.skip("Declined by user")
            continue
        except Exception as e:
            return ConfirmationResult.skip(f"Error: {e}")
    if default_confirm:
        return ConfirmationResult.confirm()
    return ConfirmationResult.skip("No confirmation hook handled the request")
