// Rewrites the generated tables of the docs from the code, via the built library: the event table
// in docs/configuration.md (from the event catalog), the host table in README.md (from the table
// of hosts) and the environment variable table in docs/cli.md (from ENV_VARS in src/env.ts). Run: npm run build && node scripts/update-readme-events.mjs
// test/readme.test.ts fails when a table and the code disagree.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BLOCKS, writeBlock } from "./doc-tables.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { eventTableMarkdown } = await import(path.join(root, "dist/events/catalog.js"));
const { ENV_VARS } = await import(path.join(root, "dist/env.js"));
const { hostTableMarkdown } = await import(path.join(root, "dist/hosts/adapters.js"));
const modules = { eventTableMarkdown, ENV_VARS, hostTableMarkdown };
for (const block of BLOCKS) {
  const file = path.join(root, block.file);
  const text = readFileSync(file, "utf8");
  try {
    writeFileSync(file, writeBlock(text, block.name, block.table(modules)));
  } catch (error) {
    throw new Error(`${block.file} ${error.message}`);
  }
  console.log(`${block.file}: ${block.name} table updated`);
}
