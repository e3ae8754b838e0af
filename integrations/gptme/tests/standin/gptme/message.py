"""gptme/message.py @ d27f98d3: the Message dataclass (fields the plugin touches, same order)."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Dict, List, Optional


@dataclass
class Message:
    role: str  # Literal["system", "user", "assistant"]
    content: str
    timestamp: datetime = field(default_factory=datetime.now)
    files: List[Any] = field(default_factory=list)
    file_hashes: Dict[str, str] = field(default_factory=dict)
    call_id: Optional[str] = None
    pinned: bool = False
    hide: bool = False
    quiet: bool = False
    ephemeral_ttl: Optional[int] = None
    metadata: Optional[Dict[str, Any]] = None

    def __post_init__(self) -> None:
        assert self.role in ("system", "user", "assistant"), self.role

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return False
        return self.role == other.role and self.content == other.content
