import type { HookResult, TriggerResult } from "../runner/types.js";

const FAILED = new Set(["blocked", "failed", "timed_out", "spawn_error", "invalid_output"]);
const SKIPPED = new Set(["skipped", "cancelled"]);
const STDERR_TAIL_LINES = 20;

// XML 1.0 forbids most C0 controls, lone surrogates and U+FFFE/U+FFFF even when escaped.
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe inside an XML attribute or element: invalid characters dropped, markup escaped. */
export function xmlEscape(text: string): string {
  return text.replace(INVALID_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;").replace(/\r/g, "&#13;");
}

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);
const tail = (text: string) => text.trimEnd().split("\n").slice(-STDERR_TAIL_LINES).join("\n");

/** Why a hook failed, one line: a block says so (a block fails a CI check like any failure). */
function failureMessage(r: HookResult): string {
  if (r.status === "blocked") return `blocked: ${r.reason ?? "no reason given"}`;
  const code = r.exit_code !== null ? `exit ${r.exit_code}` : r.signal ? `killed by ${r.signal}` : r.status.replace("_", " ");
  return r.error ? `${r.status.replace("_", " ")}: ${r.error}` : `${r.status.replace("_", " ")} (${code})`;
}

function testcase(r: HookResult, event: string): string {
  const head = `    <testcase name="${xmlEscape(r.name)}" classname="${xmlEscape(event)}" time="${seconds(r.duration_ms)}"`;
  const body: string[] = [];
  if (FAILED.has(r.status)) {
    const detail = [failureMessage(r), tail(r.stderr)].filter(Boolean).join("\n");
    body.push(`      <failure message="${xmlEscape(failureMessage(r))}" type="${r.status}">${xmlEscape(detail)}</failure>`);
  } else if (SKIPPED.has(r.status)) {
    body.push(`      <skipped message="${r.status}"/>`);
  }
  if (r.stdout.trim()) body.push(`      <system-out>${xmlEscape(r.stdout)}</system-out>`);
  if (r.stderr.trim()) body.push(`      <system-err>${xmlEscape(r.stderr)}</system-err>`);
  return body.length ? `${head}>\n${body.join("\n")}\n    </testcase>` : `${head}/>`;
}

/**
 * A JUnit XML report of one or more runs: one testsuite per event, one testcase per hook
 * (async hooks included once delivered). Blocked hooks count as failures, skipped and cancelled
 * ones as skipped; counts and times add up across the runs of an event.
 */
export function formatJunit(results: TriggerResult[], timestamp = new Date()): string {
  const byEvent = new Map<string, { cases: { r: HookResult; event: string }[]; ms: number }>();
  const suite = (event: string) => {
    let s = byEvent.get(event);
    if (!s) byEvent.set(event, (s = { cases: [], ms: 0 }));
    return s;
  };
  for (const result of results) {
    const s = suite(result.event);
    s.ms += result.duration_ms;
    for (const r of result.hooks) s.cases.push({ r, event: result.event });
    for (const d of result.async_delivered) suite(d.event).cases.push({ r: d, event: d.event });
  }
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  let ms = 0;
  const suites: string[] = [];
  for (const [event, s] of byEvent) {
    const f = s.cases.filter((c) => FAILED.has(c.r.status)).length;
    const k = s.cases.filter((c) => SKIPPED.has(c.r.status)).length;
    tests += s.cases.length;
    failures += f;
    skipped += k;
    ms += s.ms;
    const attrs = `name="${xmlEscape(event)}" tests="${s.cases.length}" failures="${f}" errors="0" skipped="${k}" time="${seconds(s.ms)}" timestamp="${timestamp.toISOString().slice(0, 19)}"`;
    suites.push(s.cases.length ? `  <testsuite ${attrs}>\n${s.cases.map((c) => testcase(c.r, c.event)).join("\n")}\n  </testsuite>` : `  <testsuite ${attrs}/>`);
  }
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="hookrun" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(ms)}">`,
    ...suites,
    `</testsuites>`,
    "",
  ].join("\n");
}
