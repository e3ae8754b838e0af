"""One gptme hook per lifecycle event gptme fires, each handing the event to hookrun."""

from __future__ import annotations

from gptme.hooks import HookType, register_hook

from ..bridge import BRIDGE

# Above gptme's own loop.continue hooks (complete's stuck_detect 1000, auto_reply 999): a stop
# block's prompt is queued before auto_reply looks at the queue, and StopPropagation means it.
PRIORITY = 2000

HOOKS = (
    (HookType.SESSION_START, BRIDGE.session_start),
    (HookType.SESSION_END, BRIDGE.session_end),
    (HookType.TURN_PRE, BRIDGE.turn_pre),
    (HookType.TURN_POST, BRIDGE.turn_post),
    (HookType.STEP_PRE, BRIDGE.step_pre),
    (HookType.GENERATION_PRE, BRIDGE.generation_pre),
    (HookType.GENERATION_POST, BRIDGE.generation_post),
    (HookType.TOOL_EXECUTE_PRE, BRIDGE.tool_execute_pre),
    (HookType.TOOL_EXECUTE_POST, BRIDGE.tool_execute_post),
    (HookType.TOOL_CONFIRM, BRIDGE.confirm),
    (HookType.FILE_SAVE_PRE, BRIDGE.file_save_pre),
    (HookType.FILE_SAVE_POST, BRIDGE.file_save_post),
    (HookType.CWD_CHANGED, BRIDGE.cwd_changed),
    (HookType.LOOP_CONTINUE, BRIDGE.loop_continue),
)


def register() -> None:
    for hook_type, func in HOOKS:
        register_hook(f"hookrun.{hook_type.value}", hook_type, func, priority=PRIORITY)
