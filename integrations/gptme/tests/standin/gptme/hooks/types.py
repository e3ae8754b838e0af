"""gptme/hooks/types.py @ d27f98d3: HookType (every value), StopPropagation, the tool data, Hook."""

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Optional, Tuple


@dataclass
class ToolExecuteData:
    log: Any = None  # Log | None
    workspace: Optional[Path] = None
    tool_use: Any = None  # ToolUse | None


@dataclass
class ToolExecutePreData(ToolExecuteData):
    pass


@dataclass
class ToolExecutePostData(ToolExecuteData):
    result_msgs: Optional[Tuple[Any, ...]] = None


class StopPropagation:
    """Sentinel a hook yields or returns to skip lower-priority hooks."""


class HookType(str, Enum):
    STEP_PRE = "step.pre"
    STEP_POST = "step.post"
    TURN_PRE = "turn.pre"
    TURN_POST = "turn.post"
    MESSAGE_TRANSFORM = "message.transform"
    TOOL_EXECUTE_PRE = "tool.execute.pre"
    TOOL_EXECUTE_POST = "tool.execute.post"
    TOOL_TRANSFORM = "tool.transform"
    FILE_SAVE_PRE = "file.save.pre"
    FILE_SAVE_POST = "file.save.post"
    FILE_PATCH_PRE = "file.patch.pre"
    FILE_PATCH_POST = "file.patch.post"
    SESSION_START = "session.start"
    SESSION_END = "session.end"
    GENERATION_PRE = "generation.pre"
    GENERATION_POST = "generation.post"
    GENERATION_CHUNK = "generation.chunk"
    GENERATION_INTERRUPT = "generation.interrupt"
    LOOP_CONTINUE = "loop.continue"
    CWD_CHANGED = "cwd.changed"
    CACHE_INVALIDATED = "cache.invalidated"
    TOOL_CONFIRM = "tool.confirm"
    ELICIT = "elicit"


@dataclass
class Hook:
    name: str
    hook_type: HookType
    func: Callable[..., Any]
    priority: int = 0
    enabled: bool = True
    async_mode: bool = False

    def __lt__(self, other: "Hook") -> bool:
        # gptme: sort by priority (higher first), then name (descending)
        return (self.priority, self.name) > (other.priority, other.name)
