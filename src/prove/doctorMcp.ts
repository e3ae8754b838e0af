import { spawn } from "node:child_process";
import { registration, mcpServerEntry } from "../hosts/mcpRegistration.js";
import type { HostAdapter } from "../hosts/types.js";
import { MCP_SERVER, MCP_TOOL } from "../hosts/warmMcp.js";
import type { DoctorRun, Layer } from "./doctorReport.js";
import { PROBE_TIMEOUT_MS } from "./fireEntry.js";

// `hooks doctor` on warm MCP entries: the server registered as `hooks install --warm` writes it,
// started as the agent starts it (its command, the project as cwd, $CLAUDE_PROJECT_DIR) with
// HOOKS_EXPLAIN=1, and asked what the agent asks: initialize, tools/list, one call of its tool.
// Nothing runs: under HOOKS_EXPLAIN=1 the server answers which hooks would run.

/** What the probe got back from the server, or why it got nothing usable. */
type McpProbe = { ok: true; tools: string[]; explanation: { hooks?: { name: string; runs: boolean }[]; trusted?: boolean } } | { ok: false; problem: string };

/** Check the warm MCP path of `host` in the project: registered, starts, answers a probe of `hostEvent`. */
export async function checkMcpServer(d: DoctorRun, base: { host: string; layer: Layer }, host: HostAdapter, hostEvent: string): Promise<void> {
  const projectDir = d.config.projectDir;
  let reg: ReturnType<typeof registration>;
  try {
    reg = registration(host.name, projectDir, true);
  } catch (error) {
    d.add({ ...base, level: "error", what: `warm MCP entries, and ${(error as Error).message.replace(/; nothing was written$/, "")}: ${host.title} refuses every guarded action` });
    return;
  }
  if (!reg.current) {
    d.add({
      ...base,
      level: "error",
      what: `warm MCP entries, but ${d.shown(reg.file)} does not register the server "${MCP_SERVER}" as \`hooks install ${host.name} --warm\` writes it: ${host.title} refuses every guarded action; run \`hooks install ${host.name} --warm\``,
    });
    return;
  }
  const probe = await probeServer(d, host, projectDir, hostEvent);
  if (!probe.ok) {
    d.add({
      ...base,
      event: hostEvent,
      level: "error",
      what: `warm MCP: the server "${MCP_SERVER}" of ${d.shown(reg.file)}, started as ${host.title} starts it, ${probe.problem}: ${host.title} refuses every guarded action`,
    });
    return;
  }
  const would = (probe.explanation.hooks ?? []).filter((h) => h.runs).map((h) => h.name);
  d.add({
    ...base,
    event: hostEvent,
    level: "ok",
    what: `warm MCP: ${host.title} starts \`hooks mcp\` from ${d.shown(reg.file)}; it answered initialize, lists ${probe.tools.join(", ")}, and a ${hostEvent} probe (${would.length ? `would run ${would.join(", ")}` : "no hook would run for the probe"}; nothing was run)`,
  });
}

/** Start the registered server with HOOKS_EXPLAIN=1, speak to it as the agent does, and stop it. */
function probeServer(d: DoctorRun, host: HostAdapter, projectDir: string, hostEvent: string): Promise<McpProbe> {
  const entry = mcpServerEntry(host.name) as { command: string; args: string[] };
  return new Promise((resolve) => {
    const child = spawn(entry.command, entry.args, {
      cwd: projectDir,
      env: { ...d.options.env, CLAUDE_PROJECT_DIR: projectDir, HOOKS_EXPLAIN: "1" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    let err = "";
    let settled = false;
    const finish = (result: McpProbe): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      d.options.signal?.removeEventListener("abort", onAbort);
      child.stdin.end();
      // Its own process group: the server and any hook it started go.
      setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }, 1000).unref();
      resolve(result);
    };
    const onAbort = (): void => finish({ ok: false, problem: "was not probed: the doctor was interrupted" });
    d.options.signal?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => finish({ ok: false, problem: `did not answer within ${PROBE_TIMEOUT_MS / 1000} s${tail(err)}` }), d.options.timeoutMs ?? PROBE_TIMEOUT_MS);
    const send = (m: Record<string, unknown>): void => void child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
    let tools: string[] = [];
    child.stdin.on("error", () => {});
    child.on("error", (error) => finish({ ok: false, problem: `could not start (${error.message})` }));
    child.on("exit", (code, signal) => finish({ ok: false, problem: `exited (${signal ?? `exit ${code}`}) before it answered${tail(err)}` }));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err = (err + c).slice(-4096)));
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      if (out.length > 1024 * 1024) return finish({ ok: false, problem: "wrote more than 1 MiB of answers" });
      for (let nl = out.indexOf("\n"); nl !== -1; nl = out.indexOf("\n")) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        let m: { id?: unknown; result?: Record<string, unknown>; error?: { message?: string } };
        try {
          m = JSON.parse(line);
        } catch {
          return finish({ ok: false, problem: `wrote a line that is not JSON-RPC on stdout (${line.slice(0, 80)})` });
        }
        if (m.error) return finish({ ok: false, problem: `refused the probe (${m.error.message ?? "an error"})` });
        if (m.id === 0) {
          send({ method: "notifications/initialized" });
          send({ id: 1, method: "tools/list" });
        } else if (m.id === 1) {
          tools = ((m.result?.tools ?? []) as { name?: string }[]).map((t) => String(t.name));
          if (!tools.includes(MCP_TOOL)) return finish({ ok: false, problem: `does not list its tool "${MCP_TOOL}"` });
          const payload = { session_id: "hookrun-doctor", cwd: projectDir, hook_event_name: hostEvent, tool_name: "Bash", tool_input: JSON.stringify({ command: "true" }) };
          send({ id: 2, method: "tools/call", params: { name: MCP_TOOL, arguments: { host: host.name, event: hostEvent, payload } } });
        } else if (m.id === 2) {
          const result = m.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
          const text = result?.content?.[0]?.text ?? "";
          if (result?.isError) return finish({ ok: false, problem: `answered the probe with an error (${text.slice(0, 200)})` });
          try {
            return finish({ ok: true, tools, explanation: JSON.parse(text) });
          } catch {
            return finish({ ok: false, problem: "answered the probe with no explanation (a hookrun older than this one?)" });
          }
        }
      }
    });
    send({ id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "hookrun-doctor", version: "0" } } });
  });
}

const tail = (stderr: string): string => {
  const t = stderr.trim().split("\n").slice(-2).join(" / ");
  return t ? ` (stderr: ${t.length > 300 ? `…${t.slice(-300)}` : t})` : "";
};
