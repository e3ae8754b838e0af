# PostToolUse (Edit/Write): give the model context about the file it just wrote.
input=$(cat)
case "$input" in
  *'"file_path":"'*'.ts"'*) echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"TypeScript file changed: run `pnpm tsc --noEmit` before you finish."}}' ;;
esac
