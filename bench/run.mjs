#!/usr/bin/env node
// `npm run bench`: every row of docs/performance.md measured side by side in one run — the reference and
// hookrun alternated, medians and ratios — printed as a table and written to bench/results.json.
//   --quick   few iterations, a smoke test: timing never fails the run (a crash still does)
//   --strict  exit 1 when a row misses its target or is not measured
//   --only a,b  run only these row ids (see ROWS), for iterating on one lever
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./lib/ensureBuilt.mjs";
import { cleanupFixtures } from "./lib/fixtures.mjs";
import { loadLibrary } from "./lib/library.mjs";
import { cliCommands } from "./lib/cli.mjs";
import { cells, markdownTable } from "./lib/table.mjs";
import { noMatch } from "./rows/noMatch.mjs";
import { sequential } from "./rows/sequential.mjs";
import { inChild } from "./lib/inChild.mjs";
import { coldRun, coldValidate } from "./rows/coldCli.mjs";
import { serverRoundTrip, lefthookContext } from "./rows/server.mjs";
import { bigOutput } from "./rows/bigOutput.mjs";
import { installCommand, installWarm } from "./rows/install.mjs";
import { agentEvent } from "./rows/agentEvent.mjs";
import { REFERENCES } from "./lib/references.mjs";
import { nodeStartContext } from "./lib/nodeStart.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const strict = args.includes("--strict");
const onlyArg = args.find((a) => a.startsWith("--only"));
const only = onlyArg ? (onlyArg.includes("=") ? onlyArg.split("=")[1] : args[args.indexOf(onlyArg) + 1]).split(",") : null;

// needs: "library" (createRunner exported) or a CLI command name that must be listed by --help.
// Targets as in docs/performance.md. Cold rows (and the CLI side of the parallel row) are judged with
// NODE_EXTRA_CA_CERTS unset, as users run; the cold rows also print the figures with it.
const ROWS = [
  { id: "no_match", measure: "library trigger, no hook matches", referenceLabel: "–", target: { kind: "absolute", max: 5 }, targetLabel: "≤ 5 µs", needs: "library", run: noMatch },
  {
    id: "one_hook",
    measure: "library trigger, one `true` hook",
    referenceLabel: "raw spawn `sh -c true`",
    target: { kind: "ratio", max: 1.2 },
    targetLabel: "≤ 1.2×",
    needs: "library",
    run: (ctx) => sequential(ctx, 1, ctx.quick ? 10 : 101),
  },
  {
    id: "sequential_100",
    measure: "100 sequential `true` hooks, library",
    referenceLabel: "100 raw spawns in a loop",
    target: { kind: "ratio", max: 1.2 },
    targetLabel: "≤ 1.2×",
    needs: "library",
    run: (ctx) => sequential(ctx, 100, ctx.quick ? 2 : 11),
  },
  {
    id: "parallel_100",
    measure: "100 hooks `sleep 0.5`, parallel, `hooks run --max-parallel 100`",
    referenceLabel: "lefthook, same jobs in parallel",
    target: { kind: "ratio", max: 1.1 },
    targetLabel: "≤ 1.1×",
    needs: "run",
    run: (ctx) => inChild(ctx, "rows/parallel.mjs", "parallel"),
  },
  {
    id: "cold_run",
    measure: "cold `hooks run stop`, one `true` hook (no NODE_EXTRA_CA_CERTS)",
    referenceLabel: "`node -e 0`",
    target: { kind: "ratio", max: 1.45 },
    targetLabel: "≤ 1.45×",
    needs: "run",
    run: coldRun,
  },
  {
    id: "validate_1000",
    measure: "`hooks validate`, 1,000-hook config (no NODE_EXTRA_CA_CERTS)",
    referenceLabel: "`node -e 0`",
    target: { kind: "ratio", max: 2.0 },
    targetLabel: "≤ 2.0×",
    needs: "validate",
    run: coldValidate,
  },
  {
    id: "install_command",
    measure: "agent event through `hooks install`'s entry, command mode (`sh -c` the entry, as Claude Code runs it; no NODE_EXTRA_CA_CERTS)",
    referenceLabel: "hook configured directly (`sh -c true`)",
    target: { kind: "added", max: 25 },
    targetLabel: "≤ +25 ms",
    needs: "install",
    run: installCommand,
  },
  {
    id: "install_warm",
    measure: "the same, warm mode (HTTP POST to `hooks serve`, as Claude Code's http hook)",
    referenceLabel: "hook configured directly (`sh -c true`)",
    target: { kind: "added", max: 5 },
    targetLabel: "≤ +5 ms",
    needs: "install",
    run: installWarm,
  },
  ...[
    ["claude", "Claude Code"],
    ["codex", "Codex CLI"],
    ["gemini", "Gemini CLI"],
    ["qwen", "Qwen Code"],
    ["copilot", "Copilot CLI"],
  ].flatMap(([host, name]) => [
    {
      id: `agent_${host}`,
      measure: `agent event through \`hooks install ${host}\`'s entry inside the real ${name} (tool-call cycle, command mode)`,
      referenceLabel: "hook configured directly in the agent",
      target: { kind: "added", max: 25 },
      targetLabel: "≤ +25 ms",
      needs: "install",
      run: agentEvent(host, "command"),
    },
    ...(host === "claude"
      ? [
          {
            id: "agent_claude_warm",
            measure: "the same inside Claude Code, warm mode (`hooks install claude --serve`: http entries answered by `hooks serve`)",
            referenceLabel: "hook configured directly in the agent",
            target: { kind: "added", max: 5 },
            targetLabel: "≤ +5 ms",
            needs: "install",
            run: agentEvent("claude", "warm-http"),
          },
          {
            id: "agent_claude_mcp",
            measure: "the same inside Claude Code, warm mode over MCP (`hooks install claude --warm`: mcp_tool entries answered by the `hooks mcp` Claude Code starts)",
            referenceLabel: "hook configured directly in the agent",
            target: { kind: "added", max: 5 },
            targetLabel: "≤ +5 ms",
            needs: "install",
            run: agentEvent("claude", "warm-mcp"),
          },
        ]
      : []),
    ...(host === "copilot"
      ? [
          {
            id: "agent_copilot_warm",
            measure:
              "the same inside Copilot CLI, warm mode (`hooks install copilot --serve`: its preToolUse http entry answered by `hooks serve`, beside the command entry that steps aside under COPILOT_HOOK_ALLOW_LOCALHOST=1)",
            referenceLabel: "hook configured directly in the agent",
            target: { kind: "added", max: 5 },
            targetLabel: "≤ +5 ms",
            needs: "install",
            run: agentEvent("copilot", "warm-http"),
          },
        ]
      : []),
  ]),
  {
    id: "server",
    measure: "server round trip (curl, Unix socket), one `true` hook",
    referenceLabel: "cold `lefthook run`",
    target: { kind: "ratio", max: 0.8 },
    targetLabel: "≤ 0.8×",
    needs: "serve",
    run: serverRoundTrip,
  },
  {
    id: "big_output",
    measure: "hook printing 200 MiB to stdout: peak RSS (highest run)",
    referenceLabel: "node idle + max_output",
    target: { kind: "slack", max: 64 },
    targetLabel: "≤ +64 MiB",
    needs: "library",
    run: bigOutput,
  },
];

function judge(row, result) {
  if (typeof result.pass === "boolean" && row.target.kind !== "ratio") return result.pass;
  if (row.target.kind === "absolute") return result.hookrun <= row.target.max;
  if (row.target.kind === "ratio") return result.ratio <= row.target.max;
  if (row.target.kind === "added") return result.hookrun - result.reference <= row.target.max;
  return result.slack <= row.target.max;
}

async function main() {
  const rebuilt = ensureBuilt(root);
  const lib = await loadLibrary(root);
  const commands = cliCommands(root);
  const available = (needs) => (needs === "library" ? lib !== null : commands.has(needs));
  const ctx = { root, lib, quick };
  const loadBefore = os.loadavg();
  const started = Date.now();
  const rows = [];
  const context = {};
  const selected = ROWS.filter((r) => !only || only.includes(r.id));
  for (const row of selected) {
    const entry = { id: row.id, measure: row.measure, referenceLabel: row.referenceLabel, target: row.target, targetLabel: row.targetLabel };
    if (available(row.needs) && !row.run) {
      rows.push({ ...entry, status: "n/a", reason: "not measured by the bench yet" });
      process.stderr.write(`bench: ${row.id}: n/a (not measured by the bench yet)\n`);
      continue;
    }
    if (!available(row.needs)) {
      let reference = null;
      try {
        reference = (await REFERENCES[row.id]?.(ctx)) ?? null;
      } catch (error) {
        reference = { error: String(error) };
      }
      rows.push({ ...entry, status: "n/a", reference });
      process.stderr.write(`bench: ${row.id}: n/a (not built yet)\n`);
      continue;
    }
    process.stderr.write(`bench: ${row.id} …`);
    const t0 = Date.now();
    try {
      const result = await row.run(ctx);
      if (result.unavailable) {
        rows.push({ ...entry, status: "n/a", reason: result.unavailable });
        process.stderr.write(` n/a (${result.unavailable})\n`);
        continue;
      }
      const pass = judge(row, result);
      rows.push({ ...entry, status: "measured", result, pass });
      process.stderr.write(` ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    } catch (error) {
      rows.push({ ...entry, status: "error", error: error instanceof Error ? error.message : String(error) });
      process.stderr.write(` error: ${error instanceof Error ? error.stack : error}\n`);
    }
  }
  // Context figures: per-hook overhead at 1, 10 and 100 hooks, and the peer on its own.
  if (lib && (!only || only.includes("overhead"))) {
    const byCount = {};
    for (const r of rows) if (r.status === "measured" && r.result.count) byCount[r.result.count] = r.result;
    try {
      if (!byCount[10]) byCount[10] = await sequential(ctx, 10, quick ? 3 : 31);
      for (const n of [1, 10, 100]) if (byCount[n]) context[`overhead_us_per_hook_${n}`] = byCount[n].overhead_us_per_hook;
    } catch (error) {
      context.overhead_error = String(error);
    }
  }
  if (!only || only.includes("lefthook")) {
    try {
      context.lefthook = await lefthookContext(ctx);
    } catch (error) {
      context.lefthook_error = String(error);
    }
  }
  if (rows.some((r) => r.status === "measured" && (r.id === "cold_run" || r.id === "validate_1000"))) {
    try {
      context.node_start = await nodeStartContext(ctx);
    } catch (error) {
      context.node_start_error = String(error);
    }
  }
  const noMatchRow = rows.find((r) => r.id === "no_match" && r.status === "measured");
  if (noMatchRow) context.no_match = noMatchRow.result.detail;
  const loadAfter = os.loadavg();
  cleanupFixtures();

  const header = ["measure", "reference (median)", "hookrun (median)", "ratio", "target", "result"];
  const table = markdownTable(header, rows.map(cells));
  const lines = [table, ""];
  lines.push(`Per-hook overhead (hookrun minus raw spawns, per hook): ${[1, 10, 100].map((n) => `${n}: ${context[`overhead_us_per_hook_${n}`]?.toFixed(0) ?? "n/a"} µs`).join(", ")}`);
  if (noMatchRow) lines.push(`No-match fast path: ${noMatchRow.result.note}; run log written: ${noMatchRow.result.detail.run_log_written ? "yes" : "no"}`);
  if (context.lefthook)
    lines.push(`lefthook (Go binary, cold): 1 job ${context.lefthook.one_job_ms.median.toFixed(1)} ms, 100 sequential jobs ${context.lefthook.hundred_jobs_ms.median.toFixed(1)} ms`);
  for (const r of rows) if (r.status === "measured" && r.result.note && r.id !== "no_match") lines.push(`${r.id}: ${r.result.note}`);
  if (context.node_start) {
    const { with_extra_ca_certs_ms: withCerts, without_ms: without } = context.node_start;
    lines.push(
      `Node start: NODE_EXTRA_CA_CERTS is set here, and \`node -e 0\` takes ${withCerts.toFixed(1)} ms with it, ${without.toFixed(1)} ms without; the cold rows are judged without it (users do not have it), the figures with it are above`,
    );
  }
  lines.push(
    `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, load average ${loadBefore[0].toFixed(2)} → ${loadAfter[0].toFixed(2)}, ${quick ? "quick" : "full"} mode, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model,
    loadavg_before: loadBefore,
    loadavg_after: loadAfter,
    mode: quick ? "quick" : "full",
    rebuilt,
    rows,
    context,
  };
  writeFileSync(path.join(root, "bench/results.json"), `${JSON.stringify(results, null, 2)}\n`);

  const crashed = rows.some((r) => r.status === "error");
  const missed = rows.some((r) => r.status !== "measured" || !r.pass);
  return crashed || (strict && !quick && missed) ? 1 : 0;
}

process.exitCode = await main();
