import type { Diagnostic } from "../errors.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";
import { didYouMean } from "../text.js";
import validateSchema from "./validateSchema.generated.js";
import type { ConfigPath, ParsedConfigText } from "./positions.js";

/** The shape of an ajv error object, as the standalone validator produces it. */
interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

const TOP_KEYS = ["$schema", "version", "defaults", "events", "hooks", "log"];
export const HOOK_KEYS = ["name", "command", "args", "description", "priority", "async", "timeout", "enabled", "matcher", "if", "paths", "env", "cwd", "shell", "on_failure", "max_output", "dialect"];
const DEFAULTS_KEYS = ["timeout", "shell", "env", "max_output"];
const EVENT_SETTINGS_KEYS = ["parallel", "custom", "description", "gate"];

/**
 * Validate a parsed file against schema/hooks.schema.json (prebuilt validator) and turn each
 * ajv error into one sentence at the LINE:COL of the offending key or value.
 */
export function schemaDiagnostics(parsed: ParsedConfigText): Diagnostic[] {
  const validate = validateSchema as unknown as ((data: unknown) => boolean) & { errors?: SchemaError[] | null };
  if (validate(parsed.value)) return [];
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const e of validate.errors ?? []) {
    // Durations and sizes get one precise sentence from checkConfigFile instead.
    if (/\/\$defs\/(duration|size)\//.test(e.schemaPath)) continue;
    if (e.schemaPath.includes("/propertyNames/")) continue;
    const path = toConfigPath(parsed.value, e.instancePath);
    const last = path[path.length - 1];
    if ((last === "timeout" || last === "max_output") && (path.length === 2 || path.length === 4)) continue;
    const described = describe(e, path, parsed.value);
    if (!described) continue;
    const key = `${described.at.join("\u0000")}|${described.target}|${described.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file: parsed.file, ...parsed.locate(described.at, described.target), severity: "error", message: described.message, path: e.instancePath || "/" });
  }
  return out;
}

/** JSON pointer → segments, numbers where the data holds a list. */
export function toConfigPath(value: unknown, pointer: string): (string | number)[] {
  if (!pointer) return [];
  const out: (string | number)[] = [];
  let node: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      out.push(Number(seg));
      node = node[Number(seg)];
    } else {
      out.push(seg);
      node = node && typeof node === "object" ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

/** The value at `path` in `value` (undefined when the path leaves it). */
export function valueAt(value: unknown, path: ConfigPath): unknown {
  let node = value;
  for (const seg of path) node = node && typeof node === "object" ? (node as Record<string | number, unknown>)[seg] : undefined;
  return node;
}

/** `hooks.stop[0].timeout`: how a path reads in a sentence. */
export function displayPath(path: ConfigPath): string {
  let s = "";
  for (const seg of path) s += typeof seg === "number" ? `[${seg}]` : s ? `.${seg}` : seg;
  return s || "the top level";
}

/** What else a key with a minimum accepts. */
function minimumHint(key: unknown): string {
  return key === "loop_limit" ? " (or null for no limit)" : "";
}

function typeName(v: unknown): string {
  if (v === null) return "empty";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`;
  return `${typeof v} ${String(v)}`;
}

function wantedType(t: unknown): string {
  const names: Record<string, string> = { object: "a map", array: "a list", string: "a string", integer: "a whole number", number: "a number", boolean: "true or false" };
  return String(t)
    .split(",")
    .filter((x) => x !== "null")
    .map((x) => names[x] ?? x)
    .join(" or ");
}

/** Where the hook at `path` is, for sentences: `hook \`lint\`` or `this hook`. */
function hookLabel(value: unknown, path: ConfigPath): string {
  const i = path.findIndex((s, n) => n === 2 && typeof s === "number" && path[0] === "hooks");
  if (i < 0) return "";
  const hook = valueAt(value, path.slice(0, 3)) as { name?: unknown } | undefined;
  return typeof hook?.name === "string" ? ` in hook \`${hook.name}\`` : "";
}

function describe(e: SchemaError, path: (string | number)[], root: unknown): { at: (string | number)[]; target: "key" | "value"; message: string } | null {
  const here = valueAt(root, path);
  const last = path[path.length - 1];
  const name = displayPath(path);
  switch (e.keyword) {
    case "additionalProperties": {
      const key = String(e.params.additionalProperty);
      const at = [...path, key];
      if (path.length === 0) {
        if (tryParseHookEvent(key)) return { at, target: "key", message: `\`${key}\` is an event, not a top-level key: move it under \`hooks:\`` };
        return { at, target: "key", message: `unknown key \`${key}\` at the top level${didYouMean(key, TOP_KEYS) || "; allowed: version, defaults, events, hooks, log (and x-… for extensions)"}` };
      }
      if (path.length === 3 && path[0] === "hooks")
        return { at, target: "key", message: `unknown key \`${key}\`${hookLabel(root, at)}${didYouMean(key, HOOK_KEYS) || `; hook keys are ${HOOK_KEYS.join(", ")} (and x-… for extensions)`}` };
      if (path.length === 2 && path[0] === "events")
        return {
          at,
          target: "key",
          message: `unknown key \`${key}\` in the settings of event \`${String(path[1])}\`${didYouMean(key, EVENT_SETTINGS_KEYS) || `; allowed: ${EVENT_SETTINGS_KEYS.join(", ")}`}`,
        };
      if (path.length === 1 && path[0] === "defaults")
        return { at, target: "key", message: `unknown key \`${key}\` in \`defaults\`${didYouMean(key, DEFAULTS_KEYS) || `; allowed: ${DEFAULTS_KEYS.join(", ")}`}` };
      if (path.length === 1 && path[0] === "log") return { at, target: "key", message: `unknown key \`${key}\` in \`log\`${didYouMean(key, ["context"]) || "; allowed: context"}` };
      return { at, target: "key", message: `unknown key \`${key}\` in \`${name}\`` };
    }
    case "propertyNames":
      return {
        at: [...path, String(e.params.propertyName)],
        target: "key",
        message: `invalid environment variable name \`${String(e.params.propertyName)}\`: use letters, digits and \`_\`, not starting with a digit`,
      };
    case "required":
      return { at: path, target: "value", message: `this hook has no \`name\`: add \`name: <unique-name>\` (lowercase letters, digits, ., _, -)` };
    case "type": {
      if (path.length === 2 && path[0] === "hooks") {
        return { at: path, target: "value", message: `the hooks of \`${String(last)}\` must be a list, but this is ${typeName(here)}: start each hook with \`- name:\`` };
      }
      if (path.length === 3 && path[0] === "hooks") return { at: path, target: "value", message: `each hook must be a map with \`name\` and \`command\`, but this is ${typeName(here)}` };
      if (path.length === 1 && path[0] === "hooks") return { at: path, target: "value", message: `\`hooks\` must be a map from event name to a list of hooks, but it is ${typeName(here)}` };
      if (path.length === 2 && path[0] === "events")
        return { at: path, target: "value", message: `the settings of event \`${String(last)}\` must be a map (e.g. \`{ parallel: true }\`), but they are ${typeName(here)}` };
      const scalar = typeof here === "number" || typeof here === "boolean";
      const quote = scalar && e.params.type === "string" ? ` (quote it: "${String(here)}")` : "";
      return { at: path, target: "value", message: `\`${String(last ?? name)}\`${hookLabel(root, path)} must be ${wantedType(e.params.type)}, not ${typeName(here)}${quote}` };
    }
    case "pattern":
      if (last === "name")
        return {
          at: path,
          target: "value",
          message: `invalid hook name ${JSON.stringify(here)}: use lowercase letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or digit (e.g. ${JSON.stringify(slug(String(here)))})`,
        };
      return { at: path, target: "value", message: `\`${String(last)}\` has an invalid value ${JSON.stringify(here)}` };
    case "const":
      return { at: path, target: "value", message: `\`version\` must be 1 (the only config version), not ${typeName(here)}` };
    case "enum": {
      const allowed = (e.params.allowedValues as unknown[]).map(String);
      return {
        at: path,
        target: "value",
        message: `\`${String(last)}\`${hookLabel(root, path)} must be ${allowed.map((a) => `\`${a}\``).join(" or ")}, not ${typeName(here)}${typeof here === "string" ? didYouMean(here, allowed) : ""}`,
      };
    }
    case "minimum":
      return { at: path, target: "value", message: `\`${String(last)}\`${hookLabel(root, path)} must be at least ${String(e.params.limit)}${minimumHint(last)}, not ${typeName(here)}` };
    case "minLength":
      return { at: path, target: "value", message: `\`${String(last)}\`${hookLabel(root, path)} must not be empty` };
    case "minItems":
      return {
        at: path,
        target: "value",
        message: last === "args" ? `\`args\`${hookLabel(root, path)} must list at least the program to run` : `\`${String(last)}\`${hookLabel(root, path)} must list at least one item`,
      };
    default:
      return { at: path, target: "value", message: `\`${name}\` is invalid (${e.keyword})` };
  }
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^[^a-z0-9]+/, "") || "my-hook"
  );
}
