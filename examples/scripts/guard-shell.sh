#!/bin/sh
# pre_tool_use: block shell commands that are hard to undo. Exit 2 blocks; stderr is the reason.
here=$(dirname "$0")
command=$("$here/json-field.sh" command)
case "$command" in
  *"rm -rf /"|*"rm -rf / "*|*"rm -rf ~"*|*"rm -rf \$HOME"*)
    echo "recursive delete of / or the home directory" >&2; exit 2 ;;
  *"git push --force"*|*"git push -f"*)
    echo "force push; push a new branch instead" >&2; exit 2 ;;
  *"curl "*"| sh"*|*"curl "*"| bash"*|*"wget "*"| sh"*)
    echo "piping a download into a shell" >&2; exit 2 ;;
esac
exit 0
