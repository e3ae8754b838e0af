import { Document, isScalar, Scalar, visit } from "yaml";
import { HookrunError } from "../errors.js";
import { RUN_LOG_REASON_MAX, type RunLogRecord } from "../runner/runLog.js";

/** Statuses of a hook that did not run: left out of a fixture's `hooks_ran`. */
const NOT_RUN = new Set(["skipped", "cancelled"]);

/**
 * A recorded run as a `hooks test` fixture (docs/cli.md#recording-contexts-opt-in): its event, host and recorded payload
 * or context, and as expectations what the run did: the decision, the reason and the hooks that
 * ran, in run order. Replayed, the fixture runs the same hooks on the same input. Throws when the
 * run has no recorded context (recording is opt-in) or is an async run's line.
 */
export function fixtureFromRun(record: RunLogRecord): string {
  const id = record.id ?? "(no id)";
  if (record.async) throw new HookrunError(`run ${id} is an async hook's ${record.async} line, not a trigger; pick the run that started it (\`hooks log\`)`, { code: "run-log" });
  if (record.context === undefined) {
    const why = record.context_omitted
      ? `its context was not recorded (${record.context_omitted})`
      : "its context was not recorded: recording is off by default, since contexts can hold prompts, file contents and secrets";
    throw new HookrunError(
      `run ${id} cannot become a fixture: ${why}; turn recording on with \`log: {context: true}\` in hooks.yaml or hooks.local.yaml, HOOKS_LOG_CONTEXT=1 in the agent's environment, or \`hooks run --record\`, then run the event again`,
      { code: "run-log" },
    );
  }
  const decision = record.decision ?? (record.blocked ? "block" : "none");
  const expect: Record<string, unknown> = { decision };
  // A reason cut to its bound is not the text the run gave: no expectation rather than a wrong one.
  if (record.reason && record.reason.length <= RUN_LOG_REASON_MAX) expect.reason = record.reason;
  expect.hooks_ran = record.hooks.filter((h) => !NOT_RUN.has(h.status)).map((h) => h.name);
  const fixture: Record<string, unknown> = {
    name: `${record.event}${record.host ? ` from ${record.host}` : ""} at ${record.time}`,
    event: record.event,
    ...(record.host ? { host: record.host } : {}),
    // The variables the host's adapter read with the payload: the replay reads the same context.
    ...(record.env && Object.keys(record.env).length > 0 ? { env: record.env } : {}),
    context: record.context,
    expect,
  };
  const doc = new Document(fixture);
  doc.commentBefore = ` recorded run ${id} of ${record.project_dir} (hooks log --fixture ${id})`;
  const ran = doc.getIn(["expect", "hooks_ran"], true) as { flow?: boolean } | undefined;
  if (ran) ran.flow = true;
  // Fixtures are read as hooks.yaml is, with YAML merge keys: a plain `<<:` would merge its value
  // into the map (or be refused when it is no map). A recorded key "<<" is a key: written quoted,
  // it reads back as itself.
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === "<<") pair.key.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
