import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { eventDescription, EVENTS } from "../src/events/catalog.js";
import { DIALECT_NAMES } from "../src/events/dialects.js";
// @ts-expect-error: a plain .mjs build script without types
import { generateValidatorSource, VALIDATOR_PATH } from "../scripts/generate-validator.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const schema = JSON.parse(readFileSync(path.join(ROOT, "schema/hooks.schema.json"), "utf8"));

/** Property names an interface of src/config/types.ts declares, read with the compiler API. */
function interfaceKeys(name: string): string[] {
  const file = path.join(ROOT, "src/config/types.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!found) throw new Error(`interface ${name} not found`);
  return found.members.map((m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : "?")).sort();
}

describe("schema/hooks.schema.json is the one source of the config's shape", () => {
  it("the committed standalone validator is exactly what the schema compiles to (no drift)", () => {
    expect(readFileSync(VALIDATOR_PATH, "utf8")).toBe(generateValidatorSource());
  });

  it("declares one `hooks` property per catalog event, described from the catalog", () => {
    const props = schema.properties.hooks.properties as Record<string, { description: string; $ref: string }>;
    expect(Object.keys(props)).toEqual(EVENTS.map((e) => e.name));
    for (const e of EVENTS) expect(props[e.name]).toEqual({ $ref: "#/$defs/hookList", description: eventDescription(e) });
    expect(schema.properties.hooks.additionalProperties).toEqual({ $ref: "#/$defs/hookList" });
  });

  it("a hook's `dialect` takes exactly the dialect table's names, in its order", () => {
    expect(schema.$defs.hook.properties.dialect.enum).toEqual(DIALECT_NAMES);
  });

  it("HookSpec, DefaultsSpec, EventSettingsSpec and ConfigFileSpec list exactly the schema's properties", () => {
    const keys = (o: { properties: object }) => Object.keys(o.properties).sort();
    expect(interfaceKeys("HookSpec")).toEqual(keys(schema.$defs.hook));
    expect(interfaceKeys("DefaultsSpec")).toEqual(keys(schema.properties.defaults));
    expect(interfaceKeys("EventSettingsSpec")).toEqual(keys(schema.$defs.eventSettings));
    expect(interfaceKeys("ConfigFileSpec")).toEqual(keys(schema));
  });

  it("describes every property, so editors can explain each key", () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string, isPropertyMap = false): void => {
      if (!node || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
        if (isPropertyMap) {
          const s = v as { description?: string; $ref?: string };
          const described = typeof s.description === "string" || (s.$ref && typeof refTarget(s.$ref).description === "string");
          if (!described) missing.push(`${at}/${k}`);
        }
        walk(v, `${at}/${k}`, k === "properties" || k === "patternProperties");
      }
    };
    const refTarget = (ref: string) =>
      ref
        .slice(2)
        .split("/")
        .reduce((n: Record<string, unknown>, s) => n[s] as Record<string, unknown>, schema) as { description?: string };
    walk(schema, "#");
    expect(missing).toEqual([]);
  });

  it("allows x- keys at the top, in defaults, events, hooks and each hook", () => {
    for (const node of [schema, schema.properties.defaults, schema.properties.events, schema.properties.hooks, schema.$defs.hook, schema.$defs.eventSettings]) {
      expect(Object.keys(node.patternProperties)).toEqual(["^x-"]);
    }
  });
});
