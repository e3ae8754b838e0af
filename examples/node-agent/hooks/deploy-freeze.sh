# Stop the whole agent after a deploy: `continue: false` with a reason for the user.
cat > /dev/null
echo '{"continue":false,"stopReason":"deploys are frozen today"}'
