import path from "node:path";
import { fileURLToPath } from "node:url";
import { timeProcess } from "./timeProcess.mjs";

const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Run export `name` of bench/`module` in a fresh Node process (see rowChild.mjs); its result. */
export async function inChild({ root, quick }, module, name) {
  const r = await timeProcess(process.execPath, [path.join(BENCH, "lib/rowChild.mjs"), root, path.join(BENCH, module), name, quick ? "1" : "0"]);
  if (r.code !== 0) throw new Error(`${module} ${name} in a child process exited ${r.code}: ${r.stderr.trim().slice(-800)}`);
  return JSON.parse(r.stdout);
}
