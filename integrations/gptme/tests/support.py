"""Test support: the stand-in gptme on sys.path, a real hookrun (this checkout's dist/bin/hooks.js)
in a temp workspace with a real, trusted hooks.yaml, and the call sites of gptme the plugin meets,
replayed as gptme's source makes them (cited at each)."""

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any, Dict, List, Optional
from unittest import mock

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
HOOKS_JS = REPO / "dist" / "bin" / "hooks.js"
sys.path[:0] = [str(HERE / "standin"), str(HERE.parent)]

from gptme.hooks import (  # noqa: E402
    ConfirmAction,
    HookType,
    ToolExecutePostData,
    ToolExecutePreData,
    clear_hooks,
    get_confirmation,
    trigger_hook,
)
from gptme.message import Message  # noqa: E402
from gptme.tools.base import ToolUse  # noqa: E402

from hookrun_gptme import bridge  # noqa: E402
from hookrun_gptme.hooks import register  # noqa: E402

if not HOOKS_JS.is_file():
    # Not a skip: a suite that passes without running is worse than one that fails.
    raise RuntimeError(f"{HOOKS_JS} is missing: run `npm run build` first (npm test builds it)")


class Log:
    """gptme/logmanager/manager.py's Log: what the plugin reads is `.messages`."""

    def __init__(self, messages: List[Message]) -> None:
        self.messages = messages


class Manager:
    """LogManager-ish: `.log`, `.logdir` (its name is the conversation id), `.workspace`, append()."""

    def __init__(self, logdir: Path, workspace: Path, messages: Optional[List[Message]] = None) -> None:
        self.logdir = logdir
        self.workspace = workspace
        self.log = Log(list(messages or []))

    def append(self, msg: Message) -> None:
        self.log.messages.append(msg)


def hookrun(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["node", str(HOOKS_JS), *args], cwd=str(cwd), capture_output=True, text=True, check=False)


class PluginTest(unittest.TestCase):
    """A workspace with `hooks.yaml` (CONFIG, trusted unless TRUST is False), hookrun's state in
    the temp dir, the plugin registered into a clean stand-in registry."""

    CONFIG = ""
    TRUST = True

    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="hookrun-gptme-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.workspace = self.tmp / "project"
        self.workspace.mkdir()
        self.logdir = self.tmp / "logs" / "2026-11-24-sleepy-hookrun-fox"
        self.logdir.mkdir(parents=True)
        env = {
            "HOOKS_STATE_DIR": str(self.tmp / "state"),
            "XDG_CONFIG_HOME": str(self.tmp / "config"),
            "XDG_STATE_HOME": str(self.tmp / "xdg-state"),
            "XDG_CACHE_HOME": str(self.tmp / "cache"),
            "HOOKRUN_BIN": str(HOOKS_JS),
        }
        patcher = mock.patch.dict(os.environ, env)
        patcher.start()
        self.addCleanup(patcher.stop)
        # CI and HOOKS_TRUST=1 would trust every config: these tests check hookrun's trust.
        for name in ("CI", "HOOKS_TRUST", "HOOKS_CONFIG", "HOOKS_DISABLED", "HOOKS", "HOOKRUN_SOCKET", "HOOKRUN_GPTME_TIMEOUT", "HOOKS_SESSION_ID"):
            os.environ.pop(name, None)
        cwd = os.getcwd()
        os.chdir(self.workspace)
        self.addCleanup(os.chdir, cwd)
        if self.CONFIG:
            self.write_config(self.CONFIG)
        clear_hooks()
        bridge.BRIDGE.__init__()
        register()
        self.addCleanup(clear_hooks)

    def write_config(self, text: str, trust: Optional[bool] = None) -> None:
        (self.workspace / "hooks.yaml").write_text(textwrap.dedent(text))
        if self.TRUST if trust is None else trust:
            done = hookrun("trust", "--yes", cwd=self.workspace)
            self.assertEqual(done.returncode, 0, done.stderr)

    def context_of(self, name: str) -> Dict[str, Any]:
        """What a hook that ran `cat > ctx-NAME.json` was given on stdin."""
        return json.loads((self.workspace / f"ctx-{name}.json").read_text())

    def fired(self, name: str) -> bool:
        return (self.workspace / f"ctx-{name}.json").exists()

    # -- gptme's call sites ----------------------------------------------------------------------

    def manager(self, messages: Optional[List[Message]] = None) -> Manager:
        return Manager(self.logdir, self.workspace, messages)

    def session_start(self) -> List[Message]:
        # gptme/chat.py: trigger_hook(SESSION_START, logdir=, workspace=, initial_msgs=)
        return list(trigger_hook(HookType.SESSION_START, logdir=self.logdir, workspace=self.workspace, initial_msgs=[]))

    def loop_continue(self, manager: Manager, prompt_queue: List[Message]) -> None:
        # gptme/chat.py: every Message yielded at loop.continue is appended to the prompt queue.
        for msg in trigger_hook(HookType.LOOP_CONTINUE, manager=manager, interactive=False, prompt_queue=prompt_queue, no_confirm=True):
            prompt_queue.append(msg)

    def run_tool(self, tool_use: ToolUse, confirms: bool = True) -> Dict[str, Any]:
        """gptme/tools/base.py ToolUse.execute + gptme/util/ask_execute.py execute_with_confirmation:
        tool.execute.pre, then (for tools that confirm) get_confirmation with the current ToolUse,
        the edit applied to the content, then tool.execute.post (for skipped calls too)."""
        out: Dict[str, Any] = {"ran": False, "content": tool_use.content, "messages": []}
        log = Log([])
        out["messages"] += list(trigger_hook(HookType.TOOL_EXECUTE_PRE, ToolExecutePreData(log=log, workspace=self.workspace, tool_use=tool_use)))
        result_msgs: List[Message] = []
        confirmation = get_confirmation(tool_use, preview=tool_use.content, workspace=self.workspace) if confirms else None
        out["confirmation"] = confirmation
        if confirmation is not None and confirmation.action == ConfirmAction.SKIP:
            result_msgs.append(Message("system", confirmation.message or "Operation aborted"))
        else:
            if confirmation is not None and confirmation.action == ConfirmAction.EDIT and confirmation.edited_content:
                out["content"] = confirmation.edited_content
            out["ran"] = True
            result_msgs.append(Message("system", f"ran: {out['content']}"))
        out["messages"] += result_msgs
        post = ToolExecutePostData(log=log, workspace=self.workspace, tool_use=tool_use, result_msgs=tuple(result_msgs))
        out["messages"] += list(trigger_hook(HookType.TOOL_EXECUTE_POST, post))
        return out

    def capture_stderr(self) -> io.StringIO:
        buf = io.StringIO()
        ctx = redirect_stderr(buf)
        ctx.__enter__()
        self.addCleanup(ctx.__exit__, None, None, None)
        return buf
