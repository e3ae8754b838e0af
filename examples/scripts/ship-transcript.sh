#!/bin/sh
# Ship the context (session id, last assistant message, …) as one JSON line to a webhook,
# or append it to a local JSON Lines file when TRANSCRIPT_WEBHOOK is not set.
payload=$(cat)
if [ -n "${TRANSCRIPT_WEBHOOK:-}" ] && command -v curl >/dev/null 2>&1; then
  printf '%s' "$payload" | curl -fsS -m 10 -H 'content-type: application/json' --data-binary @- "$TRANSCRIPT_WEBHOOK" >/dev/null
else
  printf '%s\n' "$payload" | tr -d '\n' >>"${TRANSCRIPT_FILE:-${TMPDIR:-/tmp}/hookrun-transcripts.jsonl}"
  printf '\n' >>"${TRANSCRIPT_FILE:-${TMPDIR:-/tmp}/hookrun-transcripts.jsonl}"
fi
