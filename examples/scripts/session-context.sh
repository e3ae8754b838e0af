#!/bin/sh
# session_start: tell the agent where it stands (plain text becomes a system message).
cat >/dev/null
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  branch=$(git rev-parse --abbrev-ref HEAD 2>/dev/null)
  changed=$(git status --porcelain 2>/dev/null | wc -l | tr -d ' ')
  echo "Repository on branch ${branch:-unknown}, ${changed} uncommitted change(s)."
else
  echo "Working directory: $(pwd) (not a git repository)."
fi
