import { existsSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { WriteError } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { isDispatchCommand } from "./dispatch.js";

/**
 * hookrun's hook files for a host that runs one executable per hook type instead of reading a
 * config file (Cline): which to write, which to remove, and which are the user's own (never
 * overwritten). A file is hookrun's only by its exact shape, as every script a host's setup makes
 * it: `#!/bin/sh`, SCRIPT_MARK's line, one dispatch command (isDispatchCommand), nothing else. A
 * user's script that mentions hookrun anywhere (a comment, an echo) stays the user's.
 */
export const SCRIPT_MARK = "# hookrun: ";

const OWN_SCRIPT = /^#!\/bin\/sh\n# hookrun: hands [^\n]* to hooks\.yaml\n([^\n]+)\n$/;

/** Whether a hook file's text is one hookrun wrote. */
export function isOwnScript(text: string): boolean {
  const m = OWN_SCRIPT.exec(text);
  return m !== null && isDispatchCommand(m[1]);
}

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
    .filter((file) => lstatSync(file).isFile() && isOwnScript(readScript(file)));
}

/** What `hooks install` does in `dir` to leave exactly `wanted` (file name → script) as hookrun's files. */
export function planScripts(dir: string, wanted: Readonly<Record<string, string>>): ScriptPlan {
  const plan: ScriptPlan = { write: [], remove: [], foreign: [] };
  for (const [name, text] of Object.entries(wanted)) {
    const file = path.join(dir, name);
    if (!existsSync(file)) plan.write.push({ file, text });
    else {
      const now = readScript(file);
      if (!isOwnScript(now)) plan.foreign.push(file);
      else if (now !== text) plan.write.push({ file, text });
    }
  }
  plan.remove = ownedScripts(dir).filter((file) => !Object.hasOwn(wanted, path.basename(file)));
  return plan;
}
