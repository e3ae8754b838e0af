#!/bin/sh
# post_tool_use: append one line per tool call to a log (outside the repository).
here=$(dirname "$0")
tool=$("$here/json-field.sh" tool_name)
log="${HOOKRUN_EXAMPLE_LOG:-${TMPDIR:-/tmp}/hookrun-example-tools.log}"
printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${tool:-unknown}" >>"$log"
