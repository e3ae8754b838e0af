# Append every tool call to $AGENT_AUDIT_LOG (async: never slows the agent down).
cat >> "${AGENT_AUDIT_LOG:-/dev/null}"
echo >> "${AGENT_AUDIT_LOG:-/dev/null}"
