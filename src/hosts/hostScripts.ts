import { existsSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { WriteError } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";

/**
 * hookrun's hook files for a host that runs one executable per hook type instead of reading a
 * config file (Cline): which to write, which to remove, and which are the user's own (never
 * overwritten). A file is hookrun's when it carries SCRIPT_MARK, as every script a host's
 * `scripts.files` makes does.
 */
export const SCRIPT_MARK = "# hookrun: ";

export interface ScriptPlan {
  /** Files to (re)write: absent, or hookrun's with other text. */
  write: { file: string; text: string }[];
  /** hookrun's files the config no longer needs. */
  remove: string[];
  /** The user's own files where hookrun would write: left alone, and the install refused. */
  foreign: string[];
}

function readScript(file: string): string {
  try {
    return readBoundedText(file, READ_LIMITS.config, { what: "hook file" });
  } catch (error) {
    if (error instanceof FileReadError) throw new WriteError(`${error.message}; nothing was written`, file, { cause: error });
    throw error;
  }
}

/** hookrun's files now in `dir`. */
export function ownedScripts(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => path.join(dir, name))
    .filter((file) => lstatSync(file).isFile() && readScript(file).includes(SCRIPT_MARK));
}

/** What `hooks install` does in `dir` to leave exactly `wanted` (file name → script) as hookrun's files. */
export function planScripts(dir: string, wanted: Readonly<Record<string, string>>): ScriptPlan {
  const plan: ScriptPlan = { write: [], remove: [], foreign: [] };
  for (const [name, text] of Object.entries(wanted)) {
    const file = path.join(dir, name);
    if (!existsSync(file)) plan.write.push({ file, text });
    else {
      const now = readScript(file);
      if (!now.includes(SCRIPT_MARK)) plan.foreign.push(file);
      else if (now !== text) plan.write.push({ file, text });
    }
  }
  plan.remove = ownedScripts(dir).filter((file) => !Object.hasOwn(wanted, path.basename(file)));
  return plan;
}
