import { nodeCrypto } from "../fs/crypto.js";
import path from "node:path";

/** Short, stable key of a project directory: the first 16 hex digits of sha256 of its absolute path. */
export function projectKey(projectDir: string): string {
  return nodeCrypto().createHash("sha256").update(path.resolve(projectDir)).digest("hex").slice(0, 16);
}
