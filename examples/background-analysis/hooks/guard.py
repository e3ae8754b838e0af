#!/usr/bin/env python3
"""A Claude Code guard written in fasthooks' style, with the standard library only.

Shaped like a fasthooks app (github.com/oneryalcin/fasthooks, read at 9262fb2c): typed events
whose required fields are those of fasthooks' models, handlers registered per event and tool
(`@app.pre_tool("Bash")`), `deny(...)` responses, `app.run()` reading Claude Code's JSON on stdin
and printing Claude Code's JSON. It runs unchanged as a Claude Code command hook and as a
hookrun hook with `dialect: claude`, under any host hookrun serves: hookrun hands a claude hook
the payload Claude Code would send (PascalCase hook_event_name, Claude's tool names, tool_use_id,
permission_mode, transcript_path), whoever fired the event. Python 3.9+.

As in fasthooks, a payload without a required field is an error (exit 1: the hook fails open),
and a handler that raises is skipped (fail open). Unlike fasthooks 0.1.3, whose `deny()` prints a
top-level `"decision": "deny"` that Claude Code's schema refuses, `deny()` here answers with
`hookSpecificOutput.permissionDecision`, which Claude Code (and hookrun) read as a block.
"""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Callable, Dict, List, Optional


class ValidationError(Exception):
    """The payload lacks a field the event's model requires (fasthooks: pydantic's error)."""


class BaseEvent:
    """fasthooks.events.base.BaseEvent: every Claude Code hook event."""

    required: Dict[str, type] = {"session_id": str, "cwd": str, "permission_mode": str, "hook_event_name": str}

    def __init__(self, data: Dict[str, Any]):
        missing = [name for name, kind in self.required.items() if not isinstance(data.get(name), kind)]
        if missing:
            raise ValidationError("%s: missing required field%s: %s" % (type(self).__name__, "" if len(missing) == 1 else "s", ", ".join(missing)))
        self.data = data
        self.session_id: str = data["session_id"]
        self.cwd: str = data["cwd"]
        self.permission_mode: str = data["permission_mode"]
        self.hook_event_name: str = data["hook_event_name"]
        self.transcript_path: Optional[str] = data.get("transcript_path")


class ToolEvent(BaseEvent):
    """fasthooks.events.tools.ToolEvent: PreToolUse and PostToolUse."""

    required = {**BaseEvent.required, "tool_name": str, "tool_input": dict, "tool_use_id": str}

    def __init__(self, data: Dict[str, Any]):
        super().__init__(data)
        self.tool_name: str = data["tool_name"]
        self.tool_input: Dict[str, Any] = data["tool_input"]
        self.tool_use_id: str = data["tool_use_id"]

    @property
    def command(self) -> str:
        return str(self.tool_input.get("command", ""))

    @property
    def file_path(self) -> str:
        return str(self.tool_input.get("file_path", ""))


class HookResponse:
    """One answer, serialised as Claude Code reads it (an empty answer prints nothing)."""

    def __init__(self, output: Optional[Dict[str, Any]] = None):
        self.output = output or {}

    def should_return(self) -> bool:
        return bool(self.output)

    def to_json(self) -> str:
        return json.dumps(self.output) if self.output else ""


def allow() -> HookResponse:
    return HookResponse()


def deny(reason: str) -> HookResponse:
    """Refuse the tool call; the reason reaches the model."""
    return HookResponse({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})


Handler = Callable[[Any], Optional[HookResponse]]


class HookApp:
    """fasthooks.HookApp's routing: by hook_event_name, then by exact tool name (or "*").
    (fasthooks also has post_tool, on_stop, on_prompt …: each another table of handlers.)"""

    def __init__(self) -> None:
        self.pre_tool_handlers: Dict[str, List[Handler]] = {}

    def pre_tool(self, *tools: str) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            for tool in tools or ("*",):
                self.pre_tool_handlers.setdefault(tool, []).append(handler)
            return handler

        return register

    def dispatch(self, data: Dict[str, Any]) -> Optional[HookResponse]:
        name = data.get("hook_event_name", "")
        if name == "PreToolUse":
            tool = data.get("tool_name", "")
            handlers = self.pre_tool_handlers.get(tool, []) + self.pre_tool_handlers.get("*", [])
            event: BaseEvent = ToolEvent(data)
        else:
            return None
        for handler in handlers:
            try:
                response = handler(event)
            except Exception as error:  # fail open, as fasthooks does
                print("[guard] handler %s failed: %s" % (handler.__name__, error), file=sys.stderr)
                continue
            if response is not None and response.should_return():
                return response
        return None

    def run(self) -> None:
        text = sys.stdin.read()
        if not text.strip():
            return
        try:
            response = self.dispatch(json.loads(text))
        except ValidationError as error:
            print("[guard] invalid payload: %s" % error, file=sys.stderr)
            sys.exit(1)
        if response is not None and response.to_json():
            print(response.to_json())


app = HookApp()

DESTRUCTIVE = re.compile(r"\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*[fF]|-[a-zA-Z]*[fF][a-zA-Z]*[rR])\b|\bgit\s+push\s+.*--force\b")


@app.pre_tool("Bash")
def no_destructive_commands(event: ToolEvent) -> Optional[HookResponse]:
    if DESTRUCTIVE.search(event.command):
        return deny("destructive command refused by the guard: %s" % event.command[:120])
    return allow()


@app.pre_tool("Write", "Edit", "MultiEdit")
def no_env_files(event: ToolEvent) -> Optional[HookResponse]:
    if os.path.basename(event.file_path).startswith(".env"):
        return deny("%s holds secrets; edit it yourself" % event.file_path)
    return allow()


if __name__ == "__main__":
    app.run()
