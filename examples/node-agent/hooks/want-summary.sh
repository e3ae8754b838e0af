# Keep the agent going until its answer ends with a "Summary:" line (once: stop_hook_active).
input=$(cat)
echo "$input" >> "${AGENT_STOP_LOG:-/dev/null}"
case "$input" in
  *'"stop_hook_active":true'*) exit 0 ;;
  *'"last_assistant_message":"Summary:'*) exit 0 ;;
esac
echo '{"decision":"block","reason":"End your answer with a Summary: line."}'
