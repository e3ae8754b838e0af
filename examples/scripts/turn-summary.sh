#!/bin/sh
# stop: once per response, summarise what the working tree looks like now.
cat >/dev/null
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  stat=$(git diff --shortstat 2>/dev/null)
  echo "End of turn: ${stat:-no unstaged changes}."
else
  echo "End of turn."
fi
