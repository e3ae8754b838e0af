"""PreToolUse (Edit/Write): deny writes to .env files with Claude Code's permissionDecision."""
import json, os, sys

data = json.load(sys.stdin)
path = (data.get("tool_input") or {}).get("file_path", "")
if os.path.basename(path).startswith(".env"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": f"{path} holds secrets; edit it yourself"}}))
