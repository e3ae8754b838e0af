// Compiles schema/hooks.schema.json with ajv into a standalone ESM validator, so the CLI
// validates without paying ajv's compile cost (and without loading ajv) at start-up.
// Run: node scripts/generate-validator.mjs   (test/schemaValidator.test.ts checks for drift)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const SCHEMA_PATH = path.join(root, "schema/hooks.schema.json");
export const VALIDATOR_PATH = path.join(root, "src/config/validateSchema.generated.ts");

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

/** The validator's source text, exactly as committed. */
export function generateValidatorSource() {
  const schema = withoutDescriptions(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")));
  // unicode: false measures minLength with .length, so the output needs no ajv runtime import.
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true, unicode: false, logger: false, code: { source: true, esm: true, lines: true } });
  const validate = ajv.compile(schema);
  const code = standaloneCode.default(ajv, validate);
  return ["// @ts-nocheck", "// generated from schema/hooks.schema.json by scripts/generate-validator.mjs: do not edit.", code.trim(), ""].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(VALIDATOR_PATH, generateValidatorSource());
  console.log(`wrote ${path.relative(root, VALIDATOR_PATH)}`);
}
