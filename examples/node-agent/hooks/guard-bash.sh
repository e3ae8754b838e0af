# Block `rm -rf` in Bash tool calls with a JSON decision (Claude Code's output format).
if grep -q '"command":"rm -rf' ; then
  echo '{"decision":"block","reason":"rm -rf is not allowed; delete files one by one"}'
fi
