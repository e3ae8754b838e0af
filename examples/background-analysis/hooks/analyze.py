#!/usr/bin/env python3
"""A slow analysis of the file a Write or Edit just changed, run as an async hookrun hook.

hookrun starts it in the background (`async: true`) and the agent goes on at once; what it prints
is delivered, once, to the next event of the same session (the next tool call, or the stop),
where the host gives it to the model. Reads hookrun's context (JSON) on stdin; prints one JSON
output object with `additional_context`, or nothing when the file is clean. Standard library
only, Python 3.9+.

ANALYSIS_DELAY (seconds, default 2) stands for the slow part: a linter, an API call, a sub-agent.
"""
import ast
import json
import os
import sys
import time

MAX_BYTES = 1024 * 1024
LONG_LINE = 120


def analyse_python(text, name):
    """Syntax errors, public functions without a docstring."""
    try:
        tree = ast.parse(text, filename=name)
    except SyntaxError as error:
        return ["syntax error at line %s: %s" % (error.lineno, error.msg)]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            if ast.get_docstring(node) is None:
                found.append("function %s (line %d) has no docstring" % (node.name, node.lineno))
    return found


def analyse_text(text):
    """TODO/FIXME markers and overlong lines, in any text file."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if "TODO" in line or "FIXME" in line:
            found.append("line %d: %s" % (number, line.strip()[:80]))
        if len(line) > LONG_LINE:
            found.append("line %d is %d characters long" % (number, len(line)))
    return found


def main():
    context = json.load(sys.stdin)
    tool_input = context.get("tool_input") or {}
    target = tool_input.get("file_path") or tool_input.get("path")
    if not isinstance(target, str) or not target:
        return 0
    path = os.path.join(context.get("cwd") or os.getcwd(), target)
    time.sleep(float(os.environ.get("ANALYSIS_DELAY", "2")))
    try:
        with open(path, "rb") as handle:
            text = handle.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError as error:
        print(json.dumps({"additional_context": "background analysis of %s: cannot read it (%s)" % (target, error.strerror)}))
        return 0
    findings = analyse_python(text, target) if path.endswith(".py") else []
    findings += analyse_text(text)
    if findings:
        lines = "\n".join("- " + f for f in findings[:20])
        print(json.dumps({"additional_context": "background analysis of %s (%d finding%s):\n%s" % (target, len(findings), "" if len(findings) == 1 else "s", lines)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
