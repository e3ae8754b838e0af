#!/usr/bin/env python3
"""A minimal Python agent loop that runs hookrun through its CLI (standard library only).

Each event is one `hooks run EVENT --output json` process: the context goes in as JSON on stdin,
hookrun's result comes back as JSON on stdout. Exit code 2 means blocked, and the result
says why. The "model" is scripted so the example runs offline.

    python3 examples/python-agent/agent.py "clean up the build" "what is the admin password?"

HOOKS_BIN names the CLI (default: `hooks` on the PATH, from `npm i -g hookrun`; for a project
install, its path: HOOKS_BIN=/path/to/project/node_modules/.bin/hooks). Not npx: it would add
npm's start-up to every event.
"""
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HOOKS = shlex.split(os.environ.get("HOOKS_BIN", "hooks"))
SESSION = f"python-agent-{os.getpid()}"
state = {"turn_count": 0, "last_assistant_message": None}


def fire(event, **fields):
    """Run the hooks of EVENT; return hookrun's result (a dict). Raises on config/usage errors."""
    context = {"session_id": SESSION, **state, **fields}
    proc = subprocess.run(
        [*HOOKS, "run", event, "--output", "json"],
        input=json.dumps(context), capture_output=True, text=True, cwd=HERE,
    )
    if proc.returncode not in (0, 1, 2):  # 1: a hook failed (fail open); 2: blocked
        raise RuntimeError(f"hooks run {event} exited {proc.returncode}: {proc.stderr.strip()}")
    result = json.loads(proc.stdout)
    for message in result["messages"]:
        print(f"  [{event}] {message['hook']}: {message['content']}")
    return result


def model(prompt, feedback):
    """The scripted model: tool calls, then a final answer."""
    if feedback:
        return [], "Summary: kept build/ because a hook refused rm -rf."
    return [{"name": "Bash", "input": {"command": "rm -rf build"}}], "I could not clean up."


def respond(prompt):
    submitted = fire("user_prompt_submit", prompt=prompt)
    if submitted["blocked"]:
        print(f"prompt refused: {submitted['reason']}")
        return
    feedback, stop_hook_active = None, False
    while True:
        state["turn_count"] += 1
        calls, text = model(prompt, feedback)
        for call in calls:
            pre = fire("pre_tool_use", tool_name=call["name"], tool_input=call["input"])
            if pre["blocked"]:
                print(f"  tool {call['name']} blocked by {pre['blocked_by']}: {pre['reason']}")
                continue
            tool_input = pre["updated_input"] or call["input"]
            print(f"  tool {call['name']}: ran {tool_input}")
            fire("post_tool_use", tool_name=call["name"], tool_input=tool_input, tool_response="ok")
        print(f"assistant: {text}")
        state["last_assistant_message"] = text
        stop = fire("stop", stop_hook_active=stop_hook_active)
        if not stop["blocked"] or stop_hook_active:
            return
        print(f"  stop blocked: {stop['reason']}")
        feedback, stop_hook_active = stop["reason"], True


def main(prompts):
    fire("session_start", source="startup")
    for prompt in prompts:
        print(f"user: {prompt}")
        respond(prompt)
    fire("session_end", reason="other")


if __name__ == "__main__":
    main(sys.argv[1:])
