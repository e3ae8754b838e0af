"""Each gptme hook event as a hookrun trigger, and hookrun's result as what gptme understands:
Messages, StopPropagation, a ConfirmationResult, a queued prompt, SessionCompleteException.

Nothing here may break gptme: every handler catches everything, and a failure of hookrun is shown
to the user once per session and otherwise ignored (fail open). A crash in a tool.confirm hook
would make gptme skip every tool call, so `confirm` is the most guarded of all."""

from __future__ import annotations

import contextvars
import logging
import os
import re
import unicodedata
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from gptme.hooks import ConfirmationResult, StopPropagation
from gptme.message import Message
from gptme.tools.complete import SessionCompleteException

from . import transport
from .context import conversation_fields, edited_content, messages_of, tool_fields

logger = logging.getLogger(__name__)

_session: "contextvars.ContextVar[Optional[str]]" = contextvars.ContextVar("hookrun_gptme_session", default=None)
# As hookrun's terminalSafe (src/text.ts): C0 but tab and newline, DEL and C1 (CSI, OSC), line and
# paragraph separators, fillers that draw nothing, variation selectors; format characters (Cf:
# bidi overrides, zero-width) and lone surrogates by category below.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u115f\u1160\u3164\uffa0\U000e0100-\U000e01ef]")
_ROLES = ("system", "user", "assistant")


def _safe(text: str) -> str:
    """Text for a terminal: no escape sequences from a hook's output."""
    return "".join("?" if unicodedata.category(c) in ("Cf", "Cs") else c for c in _UNSAFE.sub("?", text))


class Bridge:
    def __init__(self) -> None:
        self.warned: Set[Tuple[str, str]] = set()
        self.stop_active: Dict[str, bool] = {}
        self.end_reason: Dict[str, str] = {}
        # id(ToolUse) → what pre_tool_use answered, until tool.confirm applies it
        self.pending: Dict[int, Dict[str, Any]] = {}
        self.last_session: Optional[str] = None
        self.last_messages: List[Any] = []

    # -- session and context ------------------------------------------------------------------

    def _set_session(self, logdir: Any) -> None:
        if logdir:
            name = Path(str(logdir)).name
            _session.set(name)
            self.last_session = name

    def _session_id(self) -> Optional[str]:
        return _session.get() or self.last_session

    def _note(self, text: str) -> None:
        sys.stderr.write(f"hookrun: {_safe(text)}\n")
        sys.stderr.flush()

    def _warn_once(self, failure: transport.Failure) -> None:
        key = (self._session_id() or "", failure.code)
        logger.debug("hookrun: %s", failure.message)
        if key not in self.warned:
            self.warned.add(key)
            after = "shown once per session" if failure.recovered else "gptme goes on without these hooks; shown once per session"
            self._note(f"{failure.message} ({after})")

    def fire(self, event: str, fields: Dict[str, Any], workspace: Any = None, messages: Any = None) -> Optional[Dict[str, Any]]:
        """Trigger `event`; the result, or None when hookrun gave none (already shown)."""
        if messages is not None:
            self.last_messages = messages
        context: Dict[str, Any] = {"cwd": os.getcwd(), **conversation_fields(self.last_messages)}
        sid = self._session_id()
        if sid:
            context["session_id"] = sid
        context.update(fields)
        cwd = Path(str(workspace)) if workspace else Path(os.getcwd())
        result = None
        for answer in transport.trigger(event, context, cwd):
            if isinstance(answer, transport.Failure):
                self._warn_once(answer)
            else:
                result = answer
        return result

    # -- results --------------------------------------------------------------------------------

    @staticmethod
    def messages(result: Dict[str, Any]) -> List[Any]:
        out = []
        for m in result.get("messages") or []:
            if not isinstance(m, dict) or not isinstance(m.get("content"), str):
                continue
            role = m.get("role") if m.get("role") in _ROLES else "system"
            out.append(Message(role, m["content"], hide=bool(m.get("hide")), pinned=bool(m.get("pinned"))))
        return out

    @staticmethod
    def propagation_stopped(result: Dict[str, Any]) -> bool:
        return any(isinstance(h, dict) and h.get("stop_propagation") for h in result.get("hooks") or [])

    def _ends(self, result: Dict[str, Any]) -> Optional[str]:
        """The reason, when a hook asked to end the session (`continue: false`)."""
        if result.get("continue") is not False:
            return None
        return result.get("stop_reason") or f"hookrun hook {result.get('stopped_by') or '?'} ended the session"

    def _raise_if_ended(self) -> None:
        reason = self.end_reason.pop(self._session_id() or "", None)
        if reason is not None:
            raise SessionCompleteException(reason)

    def _yield_result(self, result: Optional[Dict[str, Any]], *, can_raise: bool = True) -> Iterator[Any]:
        if result is None:
            return
        yield from self.messages(result)
        reason = self._ends(result)
        if reason is not None:
            if can_raise:
                raise SessionCompleteException(reason)
            # Inside a tool call gptme turns any exception into tool output: end at the next step.
            self.end_reason[self._session_id() or ""] = reason
        if self.propagation_stopped(result):
            yield StopPropagation()

    def _guard(self, where: str, gen: Iterator[Any]) -> Iterator[Any]:
        """Run a handler; anything but the end of the session is shown and swallowed."""
        try:
            yield from gen
        except SessionCompleteException:
            raise
        except Exception as e:  # never let a plugin bug reach gptme's loop
            logger.debug("hookrun plugin failed in %s", where, exc_info=True)
            self._warn_once(transport.Failure("plugin", f"the gptme plugin failed in {where}: {e!r}"))

    # -- gptme hooks ----------------------------------------------------------------------------

    def session_start(self, logdir: Any = None, workspace: Any = None, initial_msgs: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            self._set_session(logdir)
            self.stop_active.pop(self._session_id() or "", None)
            result = self.fire("session_start", {"source": "startup"}, workspace, list(initial_msgs or []))
            yield from self._yield_result(result)

        return self._guard("session.start", run())

    def session_end(self, manager: Any = None, logdir: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            self._set_session(logdir or getattr(manager, "logdir", None))
            sid = self._session_id() or ""
            self.end_reason.pop(sid, None)
            self.stop_active.pop(sid, None)
            result = self.fire("session_end", {}, getattr(manager, "workspace", None), messages_of(manager) or None)
            # The session ends anyway: continue:false has nothing left to stop.
            if result is not None:
                yield from self.messages(result)
                if self.propagation_stopped(result):
                    yield StopPropagation()

        return self._guard("session.end", run())

    def _manager_event(self, gptme_event: str, event: str, manager: Any, fields: Dict[str, Any]) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            self._set_session(getattr(manager, "logdir", None))
            self._raise_if_ended()
            messages = messages_of(manager)
            if event == "user_prompt_submit":
                fields["prompt"] = next((m.content for m in reversed(messages) if m.role == "user"), "")
            result = self.fire(event, fields, getattr(manager, "workspace", None), messages)
            if result is not None and result.get("blocked"):
                # gptme has no way to withdraw a prompt at turn.pre: say so instead of pretending.
                self._note(f"{result.get('blocked_by')} asked to block this prompt ({result.get('reason')}); gptme cannot withdraw it")
            yield from self._yield_result(result)

        return self._guard(gptme_event, run())

    def turn_pre(self, manager: Any = None, **_: Any) -> Iterator[Any]:
        return self._manager_event("turn.pre", "user_prompt_submit", manager, {})

    def step_pre(self, manager: Any = None, **_: Any) -> Iterator[Any]:
        return self._manager_event("step.pre", "pre_turn", manager, {})

    def turn_post(self, manager: Any = None, **_: Any) -> Iterator[Any]:
        return self._manager_event("turn.post", "post_turn", manager, {})

    def generation_pre(self, messages: Any = None, workspace: Any = None, model: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            self._raise_if_ended()
            fields = {"model": model} if model else {}
            yield from self._yield_result(self.fire("generation_pre", fields, workspace, list(messages or [])))

        return self._guard("generation.pre", run())

    def generation_post(self, message: Any = None, workspace: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            fields = {"last_assistant_message": getattr(message, "content", None)}
            yield from self._yield_result(self.fire("generation_post", fields, workspace))

        return self._guard("generation.post", run())

    def tool_execute_pre(self, data: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            tool_use = getattr(data, "tool_use", None)
            if tool_use is None:
                return
            result = self.fire("pre_tool_use", tool_fields(tool_use), getattr(data, "workspace", None), messages_of(getattr(data, "log", None)) or None)
            # gptme asks tool.confirm next (for the tools that confirm): the block is applied there.
            self.pending[id(tool_use)] = {"tool_use": tool_use, "result": result, "consumed": False, "skipped": False}
            yield from self._yield_result(result, can_raise=False)

        return self._guard("tool.execute.pre", run())

    def confirm(self, tool_use: Any = None, preview: Any = None, workspace: Any = None, **_: Any) -> Any:
        try:
            return self._confirm(tool_use, workspace)
        except Exception as e:  # an exception here would become a skip of every tool call
            logger.debug("hookrun plugin failed in tool.confirm", exc_info=True)
            self._warn_once(transport.Failure("plugin", f"the gptme plugin failed in tool.confirm: {e!r}"))
            return None

    def _confirm(self, tool_use: Any, workspace: Any) -> Any:
        if tool_use is None:
            return None
        entry = self.pending.get(id(tool_use))
        if entry is not None and entry["tool_use"] is tool_use:
            if entry["consumed"]:
                return None  # a tool's second confirmation of the same call: hookrun answered already
            entry["consumed"] = True
        else:
            # Confirmation without tool.execute.pre before it: ask hookrun now.
            result = self.fire("pre_tool_use", tool_fields(tool_use), workspace)
            entry = {"tool_use": tool_use, "result": result, "consumed": True, "skipped": False}
            self.pending[id(tool_use)] = entry
            reason = self._ends(result) if result else None
            if reason is not None:
                self.end_reason[self._session_id() or ""] = reason
        result = entry["result"]
        ending = self.end_reason.get(self._session_id() or "")
        decision = None
        if ending is not None:
            decision = ConfirmationResult.skip(ending)
        elif result is None:
            return None
        elif result.get("blocked"):
            decision = ConfirmationResult.skip(result.get("reason") or f"blocked by hookrun hook {result.get('blocked_by')}")
        elif result.get("updated_input") is not None:
            text, why = edited_content(tool_use, result["updated_input"])
            if text is None:
                decision = ConfirmationResult.skip(f"{why}; the call was skipped")
            elif text != (tool_use.content or ""):
                return ConfirmationResult.edit(text)
        if decision is not None:
            entry["skipped"] = True
        return decision

    def tool_execute_post(self, data: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            tool_use = getattr(data, "tool_use", None)
            if tool_use is None:
                return
            entry = self.pending.pop(id(tool_use), None)
            if entry is not None and entry["tool_use"] is not tool_use:
                entry = None
            if entry is not None and entry["skipped"]:
                return  # hookrun refused the call: it did not run
            pre = entry["result"] if entry else None
            if pre is not None and pre.get("blocked") and not entry["consumed"]:
                text = (
                    f"hookrun hook {pre.get('blocked_by')} asked to block this {tool_use.tool} call "
                    f"({pre.get('reason')}), but gptme ran it without asking for confirmation"
                )
                self._note(text)
                yield Message("system", text)
            fields = tool_fields(tool_use)
            results = getattr(data, "result_msgs", None) or ()
            fields["tool_response"] = "\n".join(getattr(m, "content", "") for m in results)
            result = self.fire("post_tool_use", fields, getattr(data, "workspace", None), messages_of(getattr(data, "log", None)) or None)
            yield from self._yield_result(result, can_raise=False)

        return self._guard("tool.execute.post", run())

    def file_save_pre(self, log: Any = None, workspace: Any = None, path: Any = None, content: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            p = Path(str(path))
            fields = {"path": str(p), "content": content, "created": not p.exists()}
            result = self.fire("file_pre_save", fields, workspace)
            if result is not None and result.get("blocked"):
                self._note(f"{result.get('blocked_by')} asked to block saving {p} ({result.get('reason')}); gptme saves anyway (block Write in pre_tool_use)")
            yield from self._yield_result(result, can_raise=False)

        return self._guard("file.save.pre", run())

    def file_save_post(self, log: Any = None, workspace: Any = None, path: Any = None, content: Any = None, created: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            fields = {"path": str(path), "created": bool(created)}
            yield from self._yield_result(self.fire("file_post_save", fields, workspace), can_raise=False)

        return self._guard("file.save.post", run())

    def cwd_changed(self, log: Any = None, workspace: Any = None, old_cwd: Any = None, new_cwd: Any = None, tool_use: Any = None, **_: Any) -> Iterator[Any]:
        def run() -> Iterator[Any]:
            fields = {"old_cwd": old_cwd, "new_cwd": new_cwd}
            yield from self._yield_result(self.fire("cwd_changed", fields, workspace), can_raise=False)

        return self._guard("cwd.changed", run())

    def loop_continue(self, manager: Any = None, interactive: Any = None, prompt_queue: Any = None, no_confirm: bool = False, **_: Any) -> Iterator[Any]:
        """gptme has no stop event: the loop deciding what comes next is where the agent stops.
        Only the Messages yielded here reach the model (as queued prompts), so a block becomes one
        user prompt with the reason; other Messages are appended to the log without a new turn."""

        def run() -> Iterator[Any]:
            self._set_session(getattr(manager, "logdir", None))
            self._raise_if_ended()
            sid = self._session_id() or ""
            fields = {"stop_hook_active": self.stop_active.get(sid, False)}
            result = self.fire("stop", fields, getattr(manager, "workspace", None), messages_of(manager))
            if result is None:
                return
            for m in self.messages(result):
                manager.append(m)
            reason = self._ends(result)
            if reason is not None:
                raise SessionCompleteException(reason)
            blocked = bool(result.get("blocked"))
            self.stop_active[sid] = blocked
            if blocked:
                yield Message("user", result.get("reason") or f"hookrun hook {result.get('blocked_by')} asks you to continue")
            if self.propagation_stopped(result):
                yield StopPropagation()

        return self._guard("loop.continue", run())


BRIDGE = Bridge()
