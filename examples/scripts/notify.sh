#!/bin/sh
# Async notification: a desktop notification when available, else a line in a log file.
message="${1:-Agent finished}"
cat >/dev/null
if command -v notify-send >/dev/null 2>&1 && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  notify-send "hookrun" "$message"
else
  printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$message" >>"${HOOKRUN_EXAMPLE_LOG:-${TMPDIR:-/tmp}/hookrun-example-notify.log}"
fi
