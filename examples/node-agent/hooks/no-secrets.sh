# Refuse prompts that ask for secrets: exit 2 blocks, stderr is the reason.
if grep -qi 'password' ; then
  echo "prompts about passwords are not allowed here" >&2
  exit 2
fi
