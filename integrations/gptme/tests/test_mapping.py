"""Every gptme event reaches hookrun under its catalog name, and every kind of answer comes back
into gptme as gptme understands it. Real hookrun (`hooks run --output json`), real shell hooks."""

import unittest

from support import HookType, Message, PluginTest, ToolUse, register, trigger_hook  # noqa: F401
from gptme.hooks import ConfirmAction, register_hook
from gptme.tools.complete import SessionCompleteException


def dump(event: str, then: str = "") -> str:
    return f"""
  {event}:
    - name: dump-{event}
      command: 'cat > ctx-{event}.json{"; " + then if then else ""}'"""


ALL_EVENTS = [
    "session_start", "session_end", "user_prompt_submit", "pre_turn", "post_turn", "generation_pre",
    "generation_post", "pre_tool_use", "post_tool_use", "file_pre_save", "file_post_save", "cwd_changed", "stop",
]


class EveryEvent(PluginTest):
    CONFIG = "version: 1\nhooks:" + "".join(dump(e) for e in ALL_EVENTS) + "\n"

    def test_each_gptme_event_fires_its_hookrun_event_with_the_session(self):
        m = self.manager([Message("user", "fix the bug"), Message("assistant", "Done, fixed.")])
        self.session_start()
        list(trigger_hook(HookType.TURN_PRE, manager=m))
        list(trigger_hook(HookType.STEP_PRE, manager=m))
        list(trigger_hook(HookType.GENERATION_PRE, m.log.messages, workspace=self.workspace, manager=None, model="openai/gpt-5"))
        list(trigger_hook(HookType.GENERATION_POST, message=Message("assistant", "generated"), workspace=self.workspace))
        self.run_tool(ToolUse("shell", None, "ls -la"))
        target = self.workspace / "a.txt"
        list(trigger_hook(HookType.FILE_SAVE_PRE, log=None, workspace=None, path=target, content="x"))
        list(trigger_hook(HookType.FILE_SAVE_POST, log=None, workspace=None, path=target, content="x", created=True))
        list(trigger_hook(HookType.CWD_CHANGED, log=m.log, workspace=self.workspace, old_cwd="/a", new_cwd="/b", tool_use=ToolUse("shell", None, "cd /b")))
        list(trigger_hook(HookType.TURN_POST, manager=m))
        self.loop_continue(m, [])
        list(trigger_hook(HookType.SESSION_END, logdir=self.logdir, manager=m))

        for event in ALL_EVENTS:
            ctx = self.context_of(event)
            self.assertEqual(ctx["event"], event)
            self.assertEqual(ctx["session_id"], "2026-11-24-sleepy-hookrun-fox", event)
            self.assertEqual(ctx["cwd"], str(self.workspace), event)
        self.assertEqual(self.context_of("user_prompt_submit")["prompt"], "fix the bug")
        self.assertEqual(self.context_of("generation_pre")["model"], "openai/gpt-5")
        self.assertEqual(self.context_of("generation_post")["last_assistant_message"], "generated")
        self.assertEqual(self.context_of("file_pre_save")["path"], str(target))
        self.assertEqual(self.context_of("file_pre_save")["content"], "x")
        self.assertIs(self.context_of("file_post_save")["created"], True)
        self.assertEqual((self.context_of("cwd_changed")["old_cwd"], self.context_of("cwd_changed")["new_cwd"]), ("/a", "/b"))
        stop = self.context_of("stop")
        self.assertEqual((stop["turn_count"], stop["last_assistant_message"], stop["stop_hook_active"]), (1, "Done, fixed.", False))
        post = self.context_of("post_tool_use")
        self.assertEqual((post["tool_name"], post["tool_input"], post["tool_response"]), ("Bash", {"command": "ls -la"}, "ran: ls -la"))


class Tools(PluginTest):
    CONFIG = "version: 1\nhooks:" + dump("pre_tool_use") + "\n"

    def test_tool_names_and_inputs_are_the_canonical_ones(self):
        cases = [
            (ToolUse("shell", None, "git status"), "Bash", {"command": "git status"}),
            (ToolUse("save", ["notes.md"], "hello\n"), "Write", {"file_path": str(self.workspace / "notes.md"), "content": "hello\n"}),
            (ToolUse("append", ["/tmp/log.txt"], "more\n"), "Write", {"file_path": "/tmp/log.txt", "content": "more\n"}),
            (ToolUse("ipython", None, "print(1)"), "ipython", {"content": "print(1)"}),
            (ToolUse("read", None, None, kwargs={"path": "x.py"}, call_id="call_7"), "read", {"path": "x.py"}),
        ]
        for tool_use, name, tool_input in cases:
            with self.subTest(tool=tool_use.tool):
                self.run_tool(tool_use)
                ctx = self.context_of("pre_tool_use")
                self.assertEqual((ctx["tool_name"], ctx["tool_input"]), (name, tool_input))
        self.assertEqual(self.context_of("pre_tool_use")["tool_use_id"], "call_7")

    def test_a_patch_is_an_edit_with_old_and_new_strings(self):
        patch = "<<<<<<< ORIGINAL\nold line\n=======\nnew line\n>>>>>>> UPDATED"
        self.run_tool(ToolUse("patch", ["src/a.py"], patch))
        ctx = self.context_of("pre_tool_use")
        self.assertEqual(ctx["tool_name"], "Edit")
        self.assertEqual(ctx["tool_input"]["file_path"], str(self.workspace / "src/a.py"))
        self.assertEqual((ctx["tool_input"]["old_string"], ctx["tool_input"]["new_string"]), ("old line", "new line"))
        self.assertEqual(ctx["tool_input"]["patch"], patch)


GUARD = """
version: 1
hooks:
  pre_tool_use:
    - name: no-rm
      matcher: Bash
      command: 'grep -q "rm -rf" && { echo "rm -rf is not allowed here" >&2; exit 2; } || exit 0'
    - name: rewrite-writes
      matcher: Write
      command: |
        python3 -c '
        import json, sys
        i = json.load(sys.stdin)["tool_input"]
        if i["file_path"].endswith("log.txt"):
            i["file_path"] = "/elsewhere/log.txt"
        else:
            i["content"] = i["content"].upper()
        print(json.dumps({"updated_input": i}))
        '
    - name: sandbox-rewrite
      matcher: Edit
      command: |
        python3 -c 'import json,sys; c=json.load(sys.stdin); i=c["tool_input"]; print(json.dumps({"updated_input": {"file_path": i["file_path"], "old_string": i["old_string"], "new_string": "patched by hook"}}))'
    - name: no-read
      matcher: read
      command: 'echo "reading is off" >&2; exit 2'
  post_tool_use:
    - name: dump-post
      command: 'cat > ctx-post_tool_use.json'
"""


class Guard(PluginTest):
    CONFIG = GUARD

    def test_a_block_is_a_skip_with_the_reason_and_the_call_does_not_run(self):
        out = self.run_tool(ToolUse("shell", None, "rm -rf /"))
        self.assertFalse(out["ran"])
        self.assertEqual(out["confirmation"].action, ConfirmAction.SKIP)
        self.assertEqual(out["confirmation"].message, "rm -rf is not allowed here")
        self.assertFalse(self.fired("post_tool_use"), "post_tool_use is not fired for a call hookrun refused")

    def test_an_allowed_call_falls_through_to_gptmes_own_confirmation(self):
        asked = []
        register_hook("cli_confirm", HookType.TOOL_CONFIRM, lambda tu, preview=None, workspace=None: asked.append(tu.tool), priority=0)
        out = self.run_tool(ToolUse("shell", None, "ls"))
        self.assertTrue(out["ran"])
        self.assertEqual(asked, ["shell"])
        self.assertTrue(self.fired("post_tool_use"))

    def test_updated_input_is_an_edited_call(self):
        out = self.run_tool(ToolUse("save", ["notes.md"], "quiet text\n"))
        self.assertEqual(out["confirmation"].action, ConfirmAction.EDIT)
        self.assertEqual(out["content"], "QUIET TEXT\n")

    def test_updated_edit_strings_become_a_patch(self):
        out = self.run_tool(ToolUse("patch", ["a.py"], "<<<<<<< ORIGINAL\nx = 1\n=======\nx = 2\n>>>>>>> UPDATED"))
        self.assertEqual(out["content"], "<<<<<<< ORIGINAL\nx = 1\n=======\npatched by hook\n>>>>>>> UPDATED")

    def test_a_changed_path_cannot_be_edited_so_the_call_is_skipped(self):
        out = self.run_tool(ToolUse("append", ["log.txt"], "line\n"))
        self.assertFalse(out["ran"])
        self.assertIn("file path", out["confirmation"].message)

    def test_a_block_on_a_tool_gptme_runs_without_confirmation_is_reported_not_hidden(self):
        err = self.capture_stderr()
        out = self.run_tool(ToolUse("read", None, None, kwargs={"path": "x"}), confirms=False)
        self.assertTrue(out["ran"])
        notes = [m.content for m in out["messages"] if "without asking for confirmation" in m.content]
        self.assertEqual(len(notes), 1)
        self.assertIn("reading is off", notes[0])
        self.assertIn("without asking for confirmation", err.getvalue())


STOP = """
version: 1
hooks:
  stop:
    - name: tests-first
      command: |
        python3 -c '
        import json, sys
        c = json.load(sys.stdin)
        open("ctx-stop-%d.json" % c["turn_count"], "w").write(json.dumps(c))
        if not c["stop_hook_active"]:
            print(json.dumps({"decision": "block", "reason": "run the tests before you stop", "messages": [{"role": "system", "content": "tests: 3 failing", "pinned": True, "hide": True}]}))
        '
"""


class Stop(PluginTest):
    CONFIG = STOP

    def test_a_stop_block_continues_the_turn_once_with_the_reason(self):
        m = self.manager([Message("user", "go"), Message("assistant", "All done.")])
        queue = []
        self.loop_continue(m, queue)
        self.assertEqual(queue, [Message("user", "run the tests before you stop")])
        note = m.log.messages[-1]
        self.assertEqual((note.role, note.content, note.pinned, note.hide), ("system", "tests: 3 failing", True, True))

        m.append(queue.pop(0))
        m.append(Message("assistant", "Tests pass now."))
        self.loop_continue(m, queue)
        self.assertEqual(queue, [], "the second stop has stop_hook_active and lets the agent stop")
        second = self.context_of("stop-2")
        self.assertEqual((second["stop_hook_active"], second["last_assistant_message"]), (True, "Tests pass now."))

    def test_a_stop_block_runs_before_gptmes_auto_reply(self):
        seen = []
        register_hook("auto_reply", HookType.LOOP_CONTINUE, lambda manager, interactive, prompt_queue, no_confirm=False: seen.append(len(prompt_queue)), priority=999)
        queue = []
        self.loop_continue(self.manager([Message("assistant", "x")]), queue)
        self.assertEqual(seen, [1], "auto_reply sees the queued prompt and stays quiet")


MESSAGES = """
version: 1
hooks:
  session_start:
    - name: context
      command: 'echo "{\\"messages\\": [{\\"role\\": \\"user\\", \\"content\\": \\"branch: main\\", \\"pinned\\": true}, \\"plain note\\"]}"'
  pre_turn:
    - name: only-me
      command: 'echo "{\\"stop_propagation\\": true, \\"content\\": \\"first\\"}"'
  post_turn:
    - name: end-it
      command: 'echo "{\\"continue\\": false, \\"stop_reason\\": \\"budget spent\\"}"'
  pre_tool_use:
    - name: end-at-tool
      matcher: Bash
      command: 'echo "{\\"continue\\": false, \\"stop_reason\\": \\"out of time\\"}"'
  stop:
    - name: end-at-stop
      command: 'echo "{\\"continue\\": false, \\"stop_reason\\": \\"enough\\"}"'
"""


class Results(PluginTest):
    CONFIG = MESSAGES

    def test_messages_keep_role_hide_and_pinned(self):
        msgs = self.session_start()
        self.assertEqual([(m.role, m.content, m.pinned, m.hide) for m in msgs], [("user", "branch: main", True, False), ("system", "plain note", False, False)])

    def test_stop_propagation_skips_gptmes_lower_priority_hooks(self):
        later = []
        register_hook("workspace_agents", HookType.STEP_PRE, lambda manager: later.append(1), priority=0)
        msgs = list(trigger_hook(HookType.STEP_PRE, manager=self.manager()))
        self.assertEqual([m.content for m in msgs], ["first"])
        self.assertEqual(later, [])

    def test_continue_false_ends_the_session(self):
        with self.assertRaises(SessionCompleteException) as caught:
            list(trigger_hook(HookType.TURN_POST, manager=self.manager()))
        self.assertEqual(str(caught.exception), "budget spent")
        with self.assertRaises(SessionCompleteException):
            self.loop_continue(self.manager(), [])

    def test_continue_false_inside_a_tool_call_skips_it_and_ends_at_the_next_step(self):
        out = self.run_tool(ToolUse("shell", None, "ls"))
        self.assertFalse(out["ran"])
        self.assertEqual(out["confirmation"].message, "out of time")
        with self.assertRaises(SessionCompleteException) as caught:
            list(trigger_hook(HookType.GENERATION_PRE, [], workspace=self.workspace, manager=None, model=None))
        self.assertEqual(str(caught.exception), "out of time")


class RepositoryConfig(PluginTest):
    """hookrun's own hooks.example.yaml, unchanged, guarding and informing gptme (it has no hook
    that blocks a stop or ends the session: Stop and Results above cover those)."""

    def test_the_example_config_guards_and_informs_gptme(self):
        import os

        from support import REPO, hookrun

        config = str(REPO / "hooks.example.yaml")
        os.environ["HOOKS_CONFIG"] = config
        os.environ["TMPDIR"] = str(self.tmp)  # its log-tool hook writes there
        os.environ["HOOKS_DISABLED"] = "notify-done"  # async: would outlive the test by design
        done = hookrun("--config", config, "trust", "--yes", cwd=self.workspace)
        self.assertEqual(done.returncode, 0, done.stderr)
        err = self.capture_stderr()

        self.assertTrue(any("branch" in m.content.lower() for m in self.session_start()))
        out = self.run_tool(ToolUse("shell", None, "git push --force origin main"))
        self.assertFalse(out["ran"])
        self.assertEqual(out["confirmation"].message, "force push; push a new branch instead")
        self.assertTrue(self.run_tool(ToolUse("shell", None, "git status"))["ran"])
        m = self.manager([Message("user", "go"), Message("assistant", "done")])
        self.loop_continue(m, [])
        self.assertGreater(len(m.log.messages), 2, "turn-summary's message joins the conversation")
        self.assertEqual(err.getvalue(), "")


if __name__ == "__main__":
    unittest.main()
