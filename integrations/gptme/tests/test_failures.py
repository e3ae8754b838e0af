"""When hookrun cannot answer (config untrusted or invalid, no `hooks` command, no answer in
time, a bug in the plugin), gptme is told once per session and goes on: no crash, no skipped
tool call."""

import os
import time
import unittest
from pathlib import Path
from unittest import mock

from support import HookType, Message, PluginTest, ToolUse, trigger_hook
from hookrun_gptme import transport

DUMP = """
version: 1
hooks:
  session_start:
    - name: hello
      command: 'echo hello'
  pre_tool_use:
    - name: no-shell
      command: 'echo "no" >&2; exit 2'
"""


class Untrusted(PluginTest):
    CONFIG = DUMP
    TRUST = False

    def test_an_untrusted_config_is_shown_once_and_every_tool_still_runs(self):
        err = self.capture_stderr()
        self.assertEqual(self.session_start(), [])
        first = self.run_tool(ToolUse("shell", None, "ls"))
        second = self.run_tool(ToolUse("save", ["a"], "x"))
        self.loop_continue(self.manager([Message("assistant", "ok")]), [])
        self.assertTrue(first["ran"] and second["ran"], "an untrusted config does not skip every call")
        self.assertEqual(first["confirmation"].action, "confirm")
        text = err.getvalue()
        self.assertEqual(text.count("not trusted"), 1, text)
        self.assertIn("hooks trust", text)

    def test_a_new_session_is_told_again(self):
        err = self.capture_stderr()
        self.session_start()
        self.logdir = self.logdir.with_name("2026-11-24-second-session")
        self.session_start()
        self.assertEqual(err.getvalue().count("not trusted"), 2)


class Invalid(PluginTest):
    CONFIG = "version: 1\nhooks: {bogus: 3}\n"
    TRUST = False  # `hooks trust` refuses an invalid config

    def test_an_invalid_config_is_shown_once(self):
        err = self.capture_stderr()
        self.session_start()
        self.run_tool(ToolUse("shell", None, "ls"))
        self.assertEqual(err.getvalue().count("config is invalid"), 1, err.getvalue())


class InvalidSaysWhat(PluginTest):
    CONFIG = "version: 1\nhooks:\n  pre_tool_use:\n    - name: slow\n      command: 'true'\n      timeout: banana\n"
    TRUST = False

    def test_the_line_names_the_first_problem_as_hooks_validate_prints_it(self):
        err = self.capture_stderr()
        self.run_tool(ToolUse("shell", None, "ls"))
        lines = [l for l in err.getvalue().splitlines() if "config is invalid" in l]
        self.assertEqual(len(lines), 1, err.getvalue())
        self.assertIn('; first: hooks.yaml:6:16: error: bad duration "banana" for `timeout`', lines[0])

    def test_a_failure_without_diagnostics_keeps_its_message(self):
        failure = transport._error_of({"error": {"code": "trust", "message": "not trusted", "diagnostics": "junk"}}, "x")
        self.assertEqual((failure.code, failure.message), ("trust", "not trusted"))
        failure = transport._error_of({"error": {"code": "config", "message": "invalid", "diagnostics": [{"message": "m"}, 3]}}, "x")
        self.assertEqual(failure.message, "invalid; first: error: m")


class Missing(PluginTest):
    CONFIG = DUMP

    def test_no_hooks_command_is_shown_once_and_nothing_is_skipped(self):
        os.environ["HOOKRUN_BIN"] = str(self.tmp / "no-such-hooks")
        err = self.capture_stderr()
        out = self.run_tool(ToolUse("shell", None, "ls"))
        self.run_tool(ToolUse("shell", None, "pwd"))
        self.assertTrue(out["ran"])
        self.assertEqual(err.getvalue().count("could not be started"), 1, err.getvalue())

    def test_without_hookrun_bin_it_looks_in_node_modules_then_on_path(self):
        del os.environ["HOOKRUN_BIN"]
        deep = self.workspace / "src" / "deep"
        deep.mkdir(parents=True)
        with mock.patch.dict(os.environ, {"PATH": str(self.tmp / "empty")}):
            self.assertIsNone(transport.find_cli(deep))
            bin_dir = self.workspace / "node_modules" / ".bin"
            bin_dir.mkdir(parents=True)
            (bin_dir / "hooks").write_text("#!/bin/sh\n")
            (bin_dir / "hooks").chmod(0o755)
            self.assertEqual(transport.find_cli(deep), [str(bin_dir / "hooks")])
        err = self.capture_stderr()
        with mock.patch.dict(os.environ, {"PATH": str(self.tmp / "empty")}):
            (bin_dir / "hooks").unlink()
            self.run_tool(ToolUse("shell", None, "ls"))
        self.assertIn("`hooks` command was not found", err.getvalue())


class FindsOnlyItsOwn(PluginTest):
    CONFIG = DUMP

    def plant(self, where: Path) -> Path:
        bin_dir = where / "node_modules" / ".bin"
        bin_dir.mkdir(parents=True)
        (bin_dir / "hooks").write_text("#!/bin/sh\necho planted\n")
        (bin_dir / "hooks").chmod(0o755)
        return bin_dir / "hooks"

    def test_stops_at_the_project_root(self):
        del os.environ["HOOKRUN_BIN"]
        self.plant(self.tmp)  # above the workspace, whose hooks.yaml marks the project root
        with mock.patch.dict(os.environ, {"PATH": str(self.tmp / "empty")}):
            self.assertIsNone(transport.find_cli(self.workspace))

    def test_never_a_binary_in_a_folder_others_can_write(self):
        del os.environ["HOOKRUN_BIN"]
        planted = self.plant(self.workspace)
        planted.parent.chmod(0o777)
        with mock.patch.dict(os.environ, {"PATH": str(self.tmp / "empty")}):
            self.assertIsNone(transport.find_cli(self.workspace))
            planted.parent.chmod(0o755)
            self.assertEqual(transport.find_cli(self.workspace), [str(planted)])

    @unittest.skipUnless(hasattr(os, "getuid") and os.getuid() == 0, "only root can make a file of another user's")
    def test_never_another_users_binary(self):
        del os.environ["HOOKRUN_BIN"]
        planted = self.plant(self.workspace)
        os.chown(planted, 65534, 65534)
        with mock.patch.dict(os.environ, {"PATH": str(self.tmp / "empty")}):
            self.assertIsNone(transport.find_cli(self.workspace))


class TimesOut(PluginTest):
    CONFIG = """
    version: 1
    hooks:
      pre_tool_use:
        - name: hangs
          timeout: 1h
          command: 'echo $$ > hang.pid; sleep 60'
    """

    def test_hookrun_that_does_not_answer_in_time_is_stopped_and_shown(self):
        os.environ["HOOKRUN_GPTME_TIMEOUT"] = "2"
        err = self.capture_stderr()
        started = time.monotonic()
        out = self.run_tool(ToolUse("shell", None, "ls"))
        self.assertLess(time.monotonic() - started, 15)
        self.assertTrue(out["ran"])
        self.assertIn("did not answer pre_tool_use within 2 s", err.getvalue())
        pid = int((self.workspace / "hang.pid").read_text())
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            self.fail(f"the hook's process {pid} outlived the timeout")


class PluginBug(PluginTest):
    CONFIG = DUMP

    def test_a_crash_inside_the_plugin_never_becomes_a_skip_or_an_exception(self):
        err = self.capture_stderr()
        with mock.patch.object(transport, "trigger", side_effect=RuntimeError("boom")):
            msgs = list(trigger_hook(HookType.STEP_PRE, manager=self.manager()))
            first = self.run_tool(ToolUse("shell", None, "ls"))
            second = self.run_tool(ToolUse("shell", None, "pwd"))
        self.assertEqual(msgs, [])
        self.assertTrue(first["ran"] and second["ran"], "a crash in the confirm hook would skip every call")
        self.assertEqual(err.getvalue().count("boom"), 1, err.getvalue())



class TerminalSafety(unittest.TestCase):
    """What the plugin prints for the user goes through the same rule as hookrun's terminalSafe."""

    def test_controls_c1_and_invisible_format_characters_are_replaced(self):
        from hookrun_gptme.bridge import _safe

        hostile = "a\x1b[2Jb\x9d8;;http://x\x07c\u202ed\u200be\U000e0101f\u2028g\tok\nok"
        self.assertEqual(_safe(hostile), "a?[2Jb?8;;http://x?c?d?e?f?g\tok\nok")


if __name__ == "__main__":
    unittest.main()
