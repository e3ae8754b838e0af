"""The same plugin through `hooks serve --socket` (HOOKRUN_SOCKET): one warm hookrun, the same
answers; a server that is gone falls back to the `hooks` command and says so once."""

import os
import signal
import subprocess
import time
import unittest

from support import HOOKS_JS, Message, PluginTest, ToolUse

CONFIG = """
version: 1
hooks:
  session_start:
    - name: hello
      command: 'echo "{\\"content\\": \\"served\\", \\"pinned\\": true}"'
  pre_tool_use:
    - name: no-rm
      matcher: Bash
      command: 'grep -q "rm -rf" && { echo "not through the socket either" >&2; exit 2; } || exit 0'
  stop:
    - name: once-more
      command: 'grep -q "\\"stop_hook_active\\":false" && echo "{\\"decision\\": \\"block\\", \\"reason\\": \\"check the diff\\"}" || true'
"""


class Served(PluginTest):
    CONFIG = CONFIG

    def serve(self) -> str:
        sock = str(self.tmp / "s.sock")
        proc = subprocess.Popen(["node", str(HOOKS_JS), "serve", "--socket", sock], cwd=str(self.workspace), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def stop() -> None:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            proc.stderr.close()

        self.addCleanup(stop)
        deadline = time.monotonic() + 15
        while not os.path.exists(sock):
            if proc.poll() is not None or time.monotonic() > deadline:
                self.fail(f"hooks serve did not start: {proc.stderr.read().decode()}")
            time.sleep(0.05)
        self.server = proc
        os.environ["HOOKRUN_SOCKET"] = sock
        # Through the socket only: a CLI fallback would hide a broken socket path.
        os.environ["HOOKRUN_BIN"] = str(self.tmp / "no-cli-here")
        return sock

    def test_messages_blocks_and_stop_blocks_come_back_through_the_socket(self):
        self.serve()
        err = self.capture_stderr()
        msgs = self.session_start()
        self.assertEqual([(m.content, m.pinned) for m in msgs], [("served", True)])
        out = self.run_tool(ToolUse("shell", None, "rm -rf build"))
        self.assertEqual((out["ran"], out["confirmation"].message), (False, "not through the socket either"))
        self.assertTrue(self.run_tool(ToolUse("shell", None, "ls"))["ran"])
        m, queue = self.manager([Message("assistant", "done")]), []
        self.loop_continue(m, queue)
        self.assertEqual(queue, [Message("user", "check the diff")])
        self.loop_continue(m, queue)
        self.assertEqual(len(queue), 1, "stop_hook_active reaches the served hook too")
        self.assertEqual(err.getvalue(), "")

    def test_a_server_that_is_gone_falls_back_to_the_cli_once_noted(self):
        self.serve()
        self.server.send_signal(signal.SIGTERM)
        self.server.wait(timeout=10)
        os.environ["HOOKRUN_BIN"] = str(HOOKS_JS)
        err = self.capture_stderr()
        self.assertEqual([m.content for m in self.session_start()], ["served"])
        out = self.run_tool(ToolUse("shell", None, "rm -rf build"))
        self.assertFalse(out["ran"])
        self.assertEqual(err.getvalue().count("cannot be reached"), 1, err.getvalue())
        self.assertIn("using the `hooks` command instead", err.getvalue())


class ServedUntrusted(Served):
    TRUST = False

    def test_an_untrusted_config_is_shown_once(self):
        self.serve()
        err = self.capture_stderr()
        self.session_start()
        self.assertTrue(self.run_tool(ToolUse("shell", None, "rm -rf build"))["ran"])
        self.assertEqual(err.getvalue().count("not trusted"), 1, err.getvalue())

    test_messages_blocks_and_stop_blocks_come_back_through_the_socket = None
    test_a_server_that_is_gone_falls_back_to_the_cli_once_noted = None


if __name__ == "__main__":
    unittest.main()
