"""Deny `rm -rf` with hookSpecificOutput.permissionDecision (Claude Code's PreToolUse output)."""
import json, sys

context = json.load(sys.stdin)
command = (context.get("tool_input") or {}).get("command", "")
if command.startswith("rm -rf"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "rm -rf is not allowed"}}))
