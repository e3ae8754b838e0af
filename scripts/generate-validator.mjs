// Compiles schema/hooks.schema.json (and schema/fixture.schema.json, for `hooks test`) with ajv
// into standalone ESM validators, so the CLI validates without paying ajv's compile cost (and
// without loading ajv) at start-up.
// Run: node scripts/generate-validator.mjs   (test/config.schema.test.ts and
// test/prove.fixtures.test.ts check for drift)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const SCHEMA_PATH = path.join(root, "schema/hooks.schema.json");
export const VALIDATOR_PATH = path.join(root, "src/config/validateSchema.generated.ts");
export const FIXTURE_SCHEMA_PATH = path.join(root, "schema/fixture.schema.json");
export const FIXTURE_VALIDATOR_PATH = path.join(root, "src/prove/validateFixture.generated.ts");

// Descriptions are for editors; the validator would only carry them as dead weight.
function withoutDescriptions(node) {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === "description" && typeof v === "string"))
      .map(([k, v]) => [k, withoutDescriptions(v)]),
  );
}

/** The validator's source text, exactly as committed (of `schemaPath`, default hooks.schema.json). */
export function generateValidatorSource(schemaPath = SCHEMA_PATH) {
  const schema = withoutDescriptions(JSON.parse(readFileSync(schemaPath, "utf8")));
  // unicode: false measures minLength with .length, so the output needs no ajv runtime import.
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true, unicode: false, logger: false, code: { source: true, esm: true, lines: true } });
  const validate = ajv.compile(schema);
  const code = standaloneCode.default(ajv, validate);
  return ["// @ts-nocheck", `// generated from ${path.relative(root, schemaPath)} by scripts/generate-validator.mjs: do not edit.`, code.trim(), ""].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const [schema, out] of [
    [SCHEMA_PATH, VALIDATOR_PATH],
    [FIXTURE_SCHEMA_PATH, FIXTURE_VALIDATOR_PATH],
  ]) {
    writeFileSync(out, generateValidatorSource(schema));
    console.log(`wrote ${path.relative(root, out)}`);
  }
}
