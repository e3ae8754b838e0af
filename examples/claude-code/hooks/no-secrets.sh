# UserPromptSubmit: refuse prompts that paste a private key (exit 2: stderr is the reason).
if grep -q 'BEGIN [A-Z ]*PRIVATE KEY'; then
  echo "that prompt contains a private key; remove it and try again" >&2
  exit 2
fi
