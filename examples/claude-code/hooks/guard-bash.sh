# PreToolUse (Bash): block destructive commands by exiting 2; stderr goes to the model.
input=$(cat)
case "$input" in
  *'"command":"rm -rf'*|*'"command":"git push --force'*)
    echo "destructive command refused by guard-bash" >&2
    exit 2 ;;
esac
exit 0
