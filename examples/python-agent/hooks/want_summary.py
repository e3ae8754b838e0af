"""Keep the agent going until its answer starts with "Summary:" (only once: stop_hook_active)."""
import json, sys

context = json.load(sys.stdin)
message = context.get("last_assistant_message") or ""
if not context.get("stop_hook_active") and not message.startswith("Summary:"):
    print(json.dumps({"decision": "block", "reason": "Start your answer with a Summary: line."}))
