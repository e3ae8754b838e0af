"""gptme/hooks/registry.py @ d27f98d3: register_hook, trigger_hook, get_hooks, clear_hooks
(telemetry and async hooks left out: the plugin registers sync hooks only)."""

import inspect
from typing import Any, Dict, Generator, List, Optional

from ..message import Message
from .types import Hook, HookType, StopPropagation

_hooks: Dict[HookType, List[Hook]] = {}


def _filter_kwargs_for_hook(hook: Hook, kwargs: Dict[str, Any]) -> Dict[str, Any]:
    if not kwargs:
        return kwargs
    try:
        parameters = inspect.signature(hook.func).parameters
    except (TypeError, ValueError):
        return kwargs
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return kwargs
    accepted = {n for n, p in parameters.items() if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)}
    return {n: v for n, v in kwargs.items() if n in accepted}


def register_hook(name: str, hook_type: HookType, func: Any, priority: int = 0, enabled: bool = True, async_mode: bool = False) -> None:
    hooks = [h for h in _hooks.get(hook_type, []) if h.name != name]
    hooks.append(Hook(name=name, hook_type=hook_type, func=func, priority=priority, enabled=enabled, async_mode=async_mode))
    hooks.sort()
    _hooks[hook_type] = hooks


def get_hooks(hook_type: Optional[HookType] = None) -> List[Hook]:
    if hook_type:
        return _hooks.get(hook_type, [])
    return [h for hs in _hooks.values() for h in hs]


def clear_hooks(hook_type: Optional[HookType] = None) -> None:
    if hook_type:
        _hooks[hook_type] = []
    else:
        _hooks.clear()


def trigger_hook(hook_type: HookType, *args: Any, **kwargs: Any) -> Generator[Message, None, None]:
    for hook in [h for h in _hooks.get(hook_type, []) if h.enabled]:
        try:
            result = hook.func(*args, **_filter_kwargs_for_hook(hook, kwargs))
            if result is not None and hasattr(result, "__iter__") and not isinstance(result, (str, bytes)):
                for msg in result:
                    if isinstance(msg, StopPropagation):
                        return
                    if isinstance(msg, Message):
                        yield msg
            elif isinstance(result, Message):
                yield result
            elif isinstance(result, StopPropagation):
                return
        except Exception as e:
            if e.__class__.__name__ == "SessionCompleteException":
                raise
            continue  # gptme logs the traceback and goes on with the next hook
