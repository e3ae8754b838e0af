/** What `hooks init` writes: a commented hooks.yaml, one example per common event. */
export const STARTER_CONFIG = `# yaml-language-server: $schema=./node_modules/hookrun/schema/hooks.schema.json
#
# hookrun: lifecycle events of your coding agent (and CI) mapped to shell commands.
# Each hook gets the event's context as JSON on stdin; what it prints becomes messages
# for the agent. On a gate event (pre_tool_use, stop, …) exit code 2 blocks, with stderr
# as the reason. \`hooks events\` lists every event; \`hooks validate\` checks this file.
# Personal overrides go in hooks.local.yaml (git-ignored), e.g. {name: git-status, enabled: false}.
version: 1

defaults:
  timeout: 30s              # seconds, or "500ms" | "30s" | "2m" | "1h"

hooks:
  session_start:
    # Tell the agent where it stands: plain text output becomes a system message.
    - name: git-status
      command: git status --short --branch 2>/dev/null || true

  pre_tool_use:
    # Refuse \`rm -rf /\` and \`rm -rf ~\` in shell tool calls (exit 2 blocks).
    - name: guard-rm-rf
      matcher: Bash|shell       # exact tool names; anything with other characters is a regex
      priority: 100             # higher runs first
      on_failure: block         # if this guard itself crashes, block rather than allow
      command: |
        if grep -Eq 'rm +-rf +(/|~)( |\\\\|"|$)'; then
          echo "refusing to run rm -rf on / or ~" >&2
          exit 2
        fi

  post_tool_use:
    # Show the agent what its edits changed so far.
    - name: diff-stat
      matcher: Edit|Write|MultiEdit
      command: git diff --stat 2>/dev/null | tail -n 1

  file_post_save:
    # Lint TypeScript files as they are saved (enable once eslint is installed).
    - name: lint-ts
      paths: ["src/**/*.ts"]
      args: [npx, --no-install, eslint, --fix]
      enabled: false

  stop:
    # Once per response: a desktop notification, in the background.
    - name: notify-done
      async: true
      command: command -v notify-send >/dev/null && notify-send "Agent finished" || true
`;
