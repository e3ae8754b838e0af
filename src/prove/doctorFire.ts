import type { HostAdapter } from "../hosts/types.js";
import { foreignBin } from "./doctorBin.js";
import { canonicalOf, type DoctorRun, type EventSummary, type Layer } from "./doctorReport.js";
import { fireEntry, PROBE_TIMEOUT_MS } from "./fireEntry.js";

// Firing one of hookrun's entries as its host fires it (src/prove/fireEntry.ts), and what the
// answer says: whether the event reaches hookrun, and which hooks would run.

/** Fire one entry's command; `tool`: the host's tool the entry is limited to (a shell call when absent). */
export async function probeEntry(d: DoctorRun, host: HostAdapter, layer: Layer, event: string, command: string, isFile = false, tool?: string): Promise<void> {
  if (d.options.signal?.aborted) return;
  const base = { host: host.name, layer, event };
  const foreign = host.probe ? foreignBin(d, command, layer, isFile, host.setup?.walkUp ? host.setup.folder : null) : null;
  if (foreign) {
    const key = `${host.name} ${layer}`;
    if (d.refused.has(key)) return;
    d.refused.add(key);
    const bin = d.shown(foreign.bin);
    if (foreign.untrusted) {
      d.add({ host: host.name, layer, level: "warning", what: `${bin}: not fired (${foreign.why})`, where: bin, fix: "`hooks trust` (in a terminal), then `hooks doctor` again" });
      return;
    }
    d.add({
      host: host.name,
      layer,
      level: "error",
      what: `${bin} is not hookrun (${foreign.why}): not fired; ${host.title} would run it for each of hookrun's entries`,
      where: bin,
      fix: "npm install --save-dev hookrun",
    });
    return;
  }
  const canonical = canonicalOf(host, event) ?? event;
  const summary: EventSummary = { host: host.name, layer, event, canonical, reaches: false, runs: [], filtered: [] };
  d.events.push(summary);
  if (!host.probe) {
    d.add({ ...base, level: "warning", what: `${host.title}: not fired (hookrun does not know how ${host.title} runs a command)` });
    return;
  }
  const outcome = await fireEntry(host, event, command, d.config.projectDir, d.options.env, d.options.timeoutMs ?? PROBE_TIMEOUT_MS, d.options.signal, tool);
  if (d.options.signal?.aborted) return;
  if (!outcome.ok) {
    d.add({ ...base, level: "error", what: `${event} never reaches hookrun: ${outcome.problem}`, fix: outcome.fix });
    return;
  }
  summary.reaches = true;
  const a = outcome.answer;
  if (a.ignored) {
    d.add({ ...base, level: "ok", what: `${event} reaches hookrun, which runs nothing for it: ${a.ignored}` });
    return;
  }
  summary.canonical = a.event;
  for (const h of a.hooks ?? []) {
    if (h.runs) summary.runs.push(h.name);
    else summary.filtered.push({ name: h.name, reasons: h.reasons });
  }
  if (a.trusted === false) {
    d.add({
      ...base,
      level: "error",
      what: `${event} → ${a.event}: reaches hookrun, which runs none of its ${a.hooks?.length ?? 0} hook${a.hooks?.length === 1 ? "" : "s"}: ${(a.untrusted ?? []).join(", ") || "the config"} not trusted`,
      fix: "`hooks trust` (in a terminal)",
    });
    return;
  }
  // The probe is one call of the host's shell tool (or of the entry's tool): a hook whose only reason is its tool matcher
  // waits for other tools, which is no problem; any other reason filters it out for every call.
  const otherTool = (h: { reasons: string[] }): boolean => h.reasons.length > 0 && h.reasons.every((r) => /^matcher .* (does not match tool_name|: the context has no tool_name)/.test(r));
  const waiting = summary.filtered.filter(otherTool).map((h) => `${h.name} (${h.reasons.join("; ").replace(/ does not match tool_name .*$/, "")})`);
  const filtered = summary.filtered.filter((h) => !otherTool(h)).map((h) => `${h.name} (${h.reasons.join("; ")})`);
  d.add({
    ...base,
    level: "ok",
    what: `${event} → ${a.event}: ${summary.runs.length ? `runs ${summary.runs.join(", ")}` : "runs no hook"}${waiting.length ? ` for a ${tool ?? "shell"} call; for other tools: ${waiting.join(", ")}` : ""}${filtered.length ? `; filtered out: ${filtered.join(", ")}` : ""}`,
  });
}
