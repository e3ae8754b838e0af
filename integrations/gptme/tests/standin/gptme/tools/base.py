"""gptme/tools/base.py @ d27f98d3: the ToolUse dataclass's fields."""

from dataclasses import dataclass
from typing import Dict, List, Optional


@dataclass
class ToolUse:
    tool: str
    args: Optional[List[str]]
    content: Optional[str]
    kwargs: Optional[Dict[str, str]] = None
    call_id: Optional[str] = None
    start: Optional[int] = None
