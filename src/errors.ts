import path from "node:path";
import { terminalSafe } from "./text.js";

/** One base class for every error hookrun throws, so callers can catch them all at once. */
export class HookrunError extends Error {
  /** Stable machine-readable kind, e.g. "config", "usage". */
  readonly code: string;
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? "hookrun";
  }
}

/** One problem found in a config file, located by FILE:LINE:COL. */
export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  severity: "error" | "warning";
  message: string;
  /** JSON pointer of the offending value inside the file, when known. */
  path?: string;
}

/** The config is missing or invalid; carries every diagnostic found. */
export class ConfigError extends HookrunError {
  readonly diagnostics: Diagnostic[];
  constructor(message: string, diagnostics: Diagnostic[] = [], options: { cause?: unknown } = {}) {
    super(message, { code: "config", ...options });
    this.diagnostics = diagnostics;
  }
}

/** The caller asked for something malformed (unknown event, bad flag value). */
export class UsageError extends HookrunError {
  readonly suggestions: string[];
  constructor(message: string, suggestions: string[] = [], options: { cause?: unknown } = {}) {
    super(message, { code: "usage", ...options });
    this.suggestions = suggestions;
  }
}

/** The context given to a trigger is not a JSON object. */
export class ContextError extends HookrunError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "context", ...options });
  }
}

/** Project or local config has not been reviewed with `hooks trust`. */
export class TrustError extends HookrunError {
  readonly files: string[];
  constructor(message: string, files: string[], options: { cause?: unknown } = {}) {
    super(message, { code: "trust", ...options });
    this.files = files;
  }
}

/** A hook name given by the user does not exist. */
export class UnknownHookError extends HookrunError {
  readonly names: string[];
  constructor(message: string, names: string[], options: { cause?: unknown } = {}) {
    super(message, { code: "unknown-hook", ...options });
    this.names = names;
  }
}

/** A file could not be written or edited as asked (read-only, exists, lock timeout). */
export class WriteError extends HookrunError {
  readonly file: string;
  constructor(message: string, file: string, options: { cause?: unknown } = {}) {
    super(message, { code: "write", ...options });
    this.file = file;
  }
}

/** The runner was closed, or interrupted by a signal, while hooks ran. */
export class InterruptedError extends HookrunError {
  readonly signal: NodeJS.Signals | null;
  constructor(message: string, signal: NodeJS.Signals | null = null) {
    super(message, { code: "interrupted" });
    this.signal = signal;
  }
}

/** `FILE:LINE:COL: error: message` — the form editors and CI parse; FILE relative to `cwd` when inside it. */
export function formatDiagnostic(d: Diagnostic, cwd?: string): string {
  // Messages quote values from the file: a config must not be able to rewrite the terminal.
  return terminalSafe(`${displayFile(d.file, cwd)}:${d.line}:${d.col}: ${d.severity}: ${d.message}`);
}

/** A path as users want to click it: relative to `cwd` when inside it, else absolute. */
export function displayFile(file: string, cwd?: string): string {
  if (!cwd) return file;
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}
