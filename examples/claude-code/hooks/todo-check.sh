# Stop: keep Claude working while TODO.md has open items (once: respect stop_hook_active).
input=$(cat)
case "$input" in *'"stop_hook_active":true'*) exit 0 ;; esac
if [ -f "$CLAUDE_PROJECT_DIR/TODO.md" ] && grep -q '^- \[ \]' "$CLAUDE_PROJECT_DIR/TODO.md"; then
  echo '{"decision":"block","reason":"TODO.md still has open items: finish them first."}'
fi
