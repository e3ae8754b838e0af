"""Block prompts about passwords: exit 2, the reason on stderr (Claude Code's convention)."""
import json, sys

prompt = json.load(sys.stdin).get("prompt", "")
if "password" in prompt.lower():
    print("prompts about passwords are not allowed here", file=sys.stderr)
    sys.exit(2)
