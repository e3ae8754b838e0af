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

/** One testcase of a JUnit report: a hook of a run, or a fixture of `hooks test`. */
export interface JunitCase {
  name: string;
  classname: string;
  ms: number;
  failure?: { message: string; type: string; detail: string };
  skipped?: string;
  out?: string;
  err?: string;
}

function testcase(c: JunitCase): string {
  const head = `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.classname)}" time="${seconds(c.ms)}"`;
  const body: string[] = [];
  if (c.failure) body.push(`      <failure message="${xmlEscape(c.failure.message)}" type="${xmlEscape(c.failure.type)}">${xmlEscape(c.failure.detail)}</failure>`);
  else if (c.skipped) body.push(`      <skipped message="${xmlEscape(c.skipped)}"/>`);
  if (c.out?.trim()) body.push(`      <system-out>${xmlEscape(c.out)}</system-out>`);
  if (c.err?.trim()) body.push(`      <system-err>${xmlEscape(c.err)}</system-err>`);
  return body.length ? `${head}>\n${body.join("\n")}\n    </testcase>` : `${head}/>`;
}

function hookCase(r: HookResult, event: string): JunitCase {
  const c: JunitCase = { name: r.name, classname: event, ms: r.duration_ms, out: r.stdout, err: r.stderr };
  if (FAILED.has(r.status)) c.failure = { message: failureMessage(r), type: r.status, detail: [failureMessage(r), tail(r.stderr)].filter(Boolean).join("\n") };
  else if (SKIPPED.has(r.status)) c.skipped = r.status;
  return c;
}

/**
 * A JUnit XML report of one or more runs: one testsuite per event, one testcase per hook
 * (async hooks included once delivered). Blocked hooks count as failures, skipped and cancelled
 * ones as skipped; counts and times add up across the runs of an event.
 */
export function formatJunit(results: TriggerResult[], timestamp = new Date()): string {
  const byEvent = new Map<string, { cases: JunitCase[]; ms: number }>();
  const suite = (event: string) => {
    let s = byEvent.get(event);
    if (!s) byEvent.set(event, (s = { cases: [], ms: 0 }));
    return s;
  };
  for (const result of results) {
    const s = suite(result.event);
    s.ms += result.duration_ms;
    for (const r of result.hooks) s.cases.push(hookCase(r, result.event));
    for (const d of result.async_delivered) suite(d.event).cases.push(hookCase(d, d.event));
  }
  return junitXml(
    [...byEvent].map(([name, s]) => ({ name, ...s })),
    timestamp,
  );
}

/** The JUnit XML document of `suites`: counts and times add up; a case with `failure` fails, one with `skipped` is skipped. */
export function junitXml(suites: readonly { name: string; ms: number; cases: readonly JunitCase[] }[], timestamp = new Date()): string {
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  let ms = 0;
  const out: string[] = [];
  for (const s of suites) {
    const f = s.cases.filter((c) => c.failure).length;
    const k = s.cases.filter((c) => !c.failure && c.skipped).length;
    tests += s.cases.length;
    failures += f;
    skipped += k;
    ms += s.ms;
    const attrs = `name="${xmlEscape(s.name)}" tests="${s.cases.length}" failures="${f}" errors="0" skipped="${k}" time="${seconds(s.ms)}" timestamp="${timestamp.toISOString().slice(0, 19)}"`;
    out.push(s.cases.length ? `  <testsuite ${attrs}>\n${s.cases.map(testcase).join("\n")}\n  </testsuite>` : `  <testsuite ${attrs}/>`);
  }
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="hookrun" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(ms)}">`,
    ...out,
    `</testsuites>`,
    "",
  ].join("\n");
}
