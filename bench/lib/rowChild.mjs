// Runs one row in a fresh Node process and prints its result as JSON. For rows whose reference
// is absolute (the parallel row against 0.5 s): the kernel copies the parent's page tables on
// every spawn, so spawning from the bench process, bloated by the rows before, would charge
// hookrun for the harness's memory. argv: <repo root> <row module> <export> <quick 0|1>
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadLibrary } from "./library.mjs";
import { cleanupFixtures } from "./fixtures.mjs";

const [root, moduleFile, exportName, quick] = process.argv.slice(2);
const row = (await import(pathToFileURL(path.resolve(moduleFile)).href))[exportName];
try {
  const result = await row({ root, lib: await loadLibrary(root), quick: quick === "1" });
  result.detail = { ...result.detail, measured_in: "a fresh node process", rss_mib_after: process.memoryUsage().rss / 1024 / 1024 };
  process.stdout.write(JSON.stringify(result));
} finally {
  cleanupFixtures();
}
