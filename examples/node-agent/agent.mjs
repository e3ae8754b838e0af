#!/usr/bin/env node
// A minimal agent loop that embeds hookrun as a library. The "model" is scripted so the example
// runs offline and deterministically; everything around it is what a real harness does:
// fire each lifecycle event, feed hook messages to the model, honour blocks and `continue: false`.
//
//   node examples/node-agent/agent.mjs "list the files, then clean up" "deploy it"
import path from "node:path";
import { createRunner, lastAssistantText, loadConfig } from "hookrun";

const here = path.dirname(new URL(import.meta.url).pathname);
const config = await loadConfig({ cwd: here });
// This harness ships its own hooks.yaml, so it trusts it; a harness running a user's repository
// config should keep the default ("checked") and let them run `hooks trust`.
const runner = createRunner(config, { trust: "all", cwd: here });
const session_id = `node-agent-${process.pid}`;
const history = []; // Anthropic-style messages: {role, content: string | blocks}
let turn_count = 0;
const say = (line) => process.stdout.write(line + "\n");

/** Fire an event with the fields every hook gets; print and remember what hooks said. */
async function fire(event, fields = {}) {
  const result = await runner.trigger(event, { session_id, turn_count, last_assistant_message: lastAssistantText(history), cwd: here, ...fields });
  for (const m of result.messages) {
    say(`  [${event}] ${m.hook}: ${m.content}`);
    history.push({ role: "user", content: `<hook ${m.hook}> ${m.content}` });
  }
  return result;
}

/** The scripted model: the next assistant turn, given the conversation so far. */
function model(prompt, step, feedback) {
  if (/deploy/.test(prompt)) return step === 0 ? [{ type: "tool_use", id: "t1", name: "Deploy", input: { env: "prod" } }] : [{ type: "text", text: "Deployed." }];
  if (feedback) return [{ type: "text", text: "Summary: listed the files; build/ was kept because a hook refused rm -rf." }];
  const plan = [
    [{ type: "text", text: "Let me look first." }, { type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }],
    [{ type: "tool_use", id: "t2", name: "Bash", input: { command: "rm -rf build" } }],
    [{ type: "text", text: "I listed the files." }],
  ];
  return plan[Math.min(step, plan.length - 1)];
}

/** Our one real tool: pretend to run it and return its output. */
const runTool = (name, input) => (name === "Bash" ? `ran: ${input.command}` : `${name} done`);

/** One user message → model turns and tools until the agent yields; false when a hook stopped the agent. */
async function respond(prompt) {
  const submitted = await fire("user_prompt_submit", { prompt });
  if (submitted.blocked) return say(`prompt refused: ${submitted.reason}`), true;
  history.push({ role: "user", content: prompt });
  let feedback = null;
  let stop_hook_active = false;
  for (let step = 0; ; step++) {
    turn_count++;
    const blocks = model(prompt, step, feedback);
    history.push({ role: "assistant", content: blocks });
    for (const b of blocks) if (b.type === "text") say(`assistant: ${b.text}`);
    const calls = blocks.filter((b) => b.type === "tool_use");
    for (const call of calls) {
      const pre = await fire("pre_tool_use", { tool_name: call.name, tool_input: call.input, tool_use_id: call.id });
      let output;
      if (pre.blocked) output = `blocked by hook ${pre.blocked_by}: ${pre.reason}`;
      else {
        const input = pre.updated_input ?? call.input;
        output = runTool(call.name, input);
        const post = await fire("post_tool_use", { tool_name: call.name, tool_input: input, tool_response: output });
        if (!post.continue) return say(`agent stopped by ${post.stopped_by}: ${post.stop_reason}`), false;
      }
      say(`  tool ${call.name}: ${output}`);
      history.push({ role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: output }] });
    }
    if (calls.length) continue;
    // The model yielded: `stop` fires once per response; a block sends the reason back to the model.
    const stop = await fire("stop", { stop_hook_active });
    if (!stop.continue) return say(`agent stopped by ${stop.stopped_by}: ${stop.stop_reason}`), false;
    if (!stop.blocked) return true;
    say(`  stop blocked: ${stop.reason}`);
    history.push({ role: "user", content: stop.reason });
    feedback = stop.reason;
    stop_hook_active = true;
  }
}

try {
  await fire("session_start", { source: "startup" });
  for (const prompt of process.argv.slice(2)) {
    say(`user: ${prompt}`);
    if (!(await respond(prompt))) break;
  }
  await fire("session_end", { reason: "other" });
  await runner.drain();
} finally {
  await runner.close();
}
