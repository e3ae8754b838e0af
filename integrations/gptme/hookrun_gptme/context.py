"""gptme's objects read into hookrun's context (session, turn, last answer, tool fields), and an
updated tool input written back into the raw text gptme's confirm hook can edit."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

# gptme tool → the canonical (Claude) tool name hookrun's matchers use; others keep their name.
TOOL_NAMES = {"shell": "Bash", "save": "Write", "append": "Write", "patch": "Edit"}

_ORIGINAL = "<<<<<<< ORIGINAL\n"
_DIVIDER = "\n=======\n"
_UPDATED = "\n>>>>>>> UPDATED"
_BLOCK = re.compile(r"<<<<<<< ORIGINAL\n(.*?)\n?=======\n(.*?)\n?>>>>>>> UPDATED", re.S)


def messages_of(obj: Any) -> List[Any]:
    """The conversation's messages from a LogManager (`.log.messages`), a Log or a list."""
    if obj is None:
        return []
    log = getattr(obj, "log", obj)
    messages = getattr(log, "messages", log)
    return list(messages) if isinstance(messages, (list, tuple)) else []


def conversation_fields(messages: List[Any]) -> Dict[str, Any]:
    """turn_count: the user messages so far; last_assistant_message: the last assistant text."""
    turns = sum(1 for m in messages if getattr(m, "role", None) == "user")
    last = next((m.content for m in reversed(messages) if getattr(m, "role", None) == "assistant"), None)
    return {"turn_count": turns, "last_assistant_message": last}


def _path_arg(args: Optional[List[str]], kwargs: Optional[Dict[str, str]]) -> Optional[str]:
    if args:
        return args[0]
    if kwargs:
        return kwargs.get("path") or kwargs.get("file_path")
    return None


def _absolute(path: str) -> str:
    p = Path(path).expanduser()
    return str(p if p.is_absolute() else Path(os.getcwd()) / p)


def tool_fields(tool_use: Any) -> Dict[str, Any]:
    """tool_name, tool_input (as the canonical tool expects it) and tool_use_id of a ToolUse."""
    name = getattr(tool_use, "tool", "") or ""
    args = getattr(tool_use, "args", None)
    content = getattr(tool_use, "content", None)
    kwargs = getattr(tool_use, "kwargs", None) or {}
    if name == "shell":
        tool_input: Dict[str, Any] = {"command": content if content is not None else kwargs.get("command", "")}
    elif name in ("save", "append"):
        path = _path_arg(args, kwargs)
        tool_input = {
            "file_path": _absolute(path) if path else None,
            "content": content if content is not None else kwargs.get("content", ""),
        }
    elif name == "patch":
        path = _path_arg(args, kwargs)
        patch = content if content is not None else kwargs.get("patch", "")
        edits = [{"old_string": a, "new_string": b} for a, b in _BLOCK.findall(patch or "")]
        tool_input = {"file_path": _absolute(path) if path else None, "patch": patch}
        if edits:
            tool_input.update(edits[0])
            tool_input["edits"] = edits
    else:
        tool_input = dict(kwargs)
        if args:
            tool_input.setdefault("args", list(args))
        if content is not None:
            tool_input.setdefault("content", content)
    fields = {"tool_name": TOOL_NAMES.get(name, name), "tool_input": tool_input}
    call_id = getattr(tool_use, "call_id", None)
    if call_id:
        fields["tool_use_id"] = call_id
    return fields


def edited_content(tool_use: Any, updated: Any) -> Tuple[Optional[str], Optional[str]]:
    """(new raw content for ConfirmationResult.edit, None) or (None, why it cannot be applied).
    gptme's edit replaces the call's code text only: a changed path cannot be applied."""
    if not isinstance(updated, dict):
        return None, "hookrun's updated input is not an object"
    before = tool_fields(tool_use)["tool_input"]
    name = getattr(tool_use, "tool", "")
    if before.get("file_path") and updated.get("file_path") not in (None, before["file_path"]):
        return None, "hookrun changed the file path, which gptme cannot edit in a tool call"
    if name == "shell":
        text = updated.get("command")
    elif name == "patch":
        if isinstance(updated.get("patch"), str) and updated["patch"] != before.get("patch"):
            text = updated["patch"]
        elif isinstance(updated.get("old_string"), str) and isinstance(updated.get("new_string"), str):
            text = _ORIGINAL + updated["old_string"] + _DIVIDER + updated["new_string"] + _UPDATED
        else:
            text = None
    else:
        text = updated.get("content")
    if not isinstance(text, str):
        return None, f"hookrun's updated input for {name} has no text gptme can put in the call"
    return text, None
