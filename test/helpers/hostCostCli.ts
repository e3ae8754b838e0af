import { parseArgs } from "node:util";
import { agentOf, costTable, HOST_IDS, type HostCost, type HostId, MODES, measureHost } from "./hostCost.js";

/**
 * hostCost.ts from the command line (the bench runs it this way: `node --import tsx`):
 *
 *   node --import tsx test/helpers/hostCostCli.ts [--hosts claude,codex] [--modes command,warm-http]
 *        [--rounds 3] [--calls 8] [--warmup 2] [--baseline] [--node-floor] [--http-floor] [--stamps] [--json]
 *
 * One host after the other, one agent run at a time. Prints the table (or, with --json, one JSON
 * object: `results` per host measured, `skipped` per host whose CLI is not installed); progress on
 * stderr. Exits 1 when a measurement fails.
 */

const { values } = parseArgs({
  options: {
    hosts: { type: "string" },
    modes: { type: "string" },
    rounds: { type: "string" },
    calls: { type: "string" },
    warmup: { type: "string" },
    baseline: { type: "boolean" },
    "node-floor": { type: "boolean" },
    "http-floor": { type: "boolean" },
    stamps: { type: "boolean" },
    json: { type: "boolean" },
  },
});

const list = (text: string | undefined) => text?.split(",").filter(Boolean);
const hosts = (list(values.hosts) ?? [...HOST_IDS]) as HostId[];
for (const h of hosts) if (!HOST_IDS.includes(h)) throw new Error(`unknown host ${h} (hosts: ${HOST_IDS.join(", ")})`);
const modeIds = list(values.modes);
const modes = modeIds ? MODES.filter((m) => modeIds.includes(m.id)) : MODES;
if (modeIds && modes.length !== modeIds.length) throw new Error(`unknown mode in ${values.modes} (modes: ${MODES.map((m) => m.id).join(", ")})`);
const num = (text: string | undefined) => (text === undefined ? undefined : Number(text));

const results: HostCost[] = [];
const skipped: Record<string, string> = {};
for (const host of hosts) {
  const agent = agentOf(host);
  if (!agent.found) {
    skipped[host] = agent.reason ?? "not installed";
    process.stderr.write(`${agent.name}: skipped: ${skipped[host]}\n`);
    continue;
  }
  if (!modes.some((m) => m.hosts.includes(host))) continue;
  results.push(
    await measureHost(host, {
      rounds: num(values.rounds),
      calls: num(values.calls),
      warmup: num(values.warmup),
      baseline: values.baseline,
      nodeFloor: values["node-floor"],
      httpFloor: values["http-floor"],
      stamps: values.stamps,
      modes,
      log: (line) => process.stderr.write(`${line}\n`),
    }),
  );
}
if (values.stamps && !values.json)
  for (const r of results)
    for (const side of [r.direct, ...(r.nodeFloor ? [r.nodeFloor] : []), ...(r.httpFloor ? [r.httpFloor] : []), ...r.modes.map((m) => m.side)])
      process.stdout.write(`${r.agent} ${side.label}: the hook started ${side.hookStartMedian} ms (median) after the answer carrying its call\n`);
process.stdout.write(
  values.json
    ? `${JSON.stringify({ results: results.map(({ modes: m, ...r }) => ({ ...r, modes: m.map(({ mode, ...x }) => ({ ...x, mode: mode.id, label: mode.label, targetMs: mode.targetMs })) })), skipped })}\n`
    : `${costTable(results)}\n`,
);
