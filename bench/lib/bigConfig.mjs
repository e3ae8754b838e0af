// A 1,000-hook config shaped like a large real one: many events, matchers, paths, priorities,
// timeouts, env and descriptions, so validation walks every kind of field.
const EVENTS = [
  ["pre_tool_use", (i) => `      matcher: "${["Bash", "Write|Edit", "^mcp__.*", "Read"][i % 4]}"\n      on_failure: block\n`],
  ["post_tool_use", (i) => `      matcher: "${["Bash", "Edit", "*"][i % 3]}"\n`],
  ["file_post_save", (i) => `      paths: ["src/**/*.ts", "lib/${i}/**"]\n`],
  ["stop", () => ""],
  ["session_start", (i) => `      matcher: "${["startup", "resume"][i % 2]}"\n`],
  ["user_prompt_submit", () => ""],
  ["notification", () => ""],
  ["post_turn", () => ""],
];

export function bigConfigYaml(count = 1000) {
  const byEvent = new Map(EVENTS.map(([e]) => [e, []]));
  for (let i = 0; i < count; i++) {
    const [event, extra] = EVENTS[i % EVENTS.length];
    const name = `${event.replace(/_/g, "-")}-${String(i).padStart(4, "0")}`;
    byEvent
      .get(event)
      .push(
        `    - name: ${name}\n` +
          `      description: hook number ${i} for ${event}\n` +
          `      command: echo ${name}\n` +
          `      priority: ${i % 7}\n` +
          `      timeout: ${["30s", 45, "2m", "500ms"][i % 4]}\n` +
          (i % 3 === 0 ? `      env: { HOOK_INDEX: "${i}" }\n` : "") +
          (i % 5 === 0 ? `      async: true\n` : "") +
          extra(i),
      );
  }
  let text = "# yaml-language-server: $schema=../schema/hooks.schema.json\nversion: 1\ndefaults:\n  timeout: 60\n  env: { LOG_LEVEL: info }\n  max_output: 1MiB\nhooks:\n";
  for (const [event, hooks] of byEvent) text += `  ${event}:\n${hooks.join("")}`;
  return text;
}
