import type { Command } from "commander";
import type { CliContext } from "../context.js";

/** Each command registers itself; its action resolves the exit code through setCode. */
export type RegisterCommand = (program: Command, context: (cmd: Command) => CliContext, setCode: (code: number) => void) => void;

import { registerEnable } from "./enable.js";
import { registerEvents } from "./events.js";
import { registerImport } from "./import.js";
import { registerInit } from "./init.js";
import { registerList } from "./list.js";
import { registerLog } from "./log.js";
import { registerRun } from "./run.js";
import { registerServe } from "./serve.js";
import { registerTrust } from "./trust.js";
import { registerValidate } from "./validate.js";
import { registerWatch } from "./watch.js";
import { registerAsyncWorker } from "./asyncWorker.js";

/** Every command with the words it registers: main() registers only the one an argv names. */
export const COMMANDS: { names: string[]; register: RegisterCommand }[] = [
  { names: ["run"], register: registerRun },
  { names: ["validate"], register: registerValidate },
  { names: ["list"], register: registerList },
  { names: ["events"], register: registerEvents },
  { names: ["enable", "disable"], register: registerEnable },
  { names: ["trust", "untrust"], register: registerTrust },
  { names: ["log"], register: registerLog },
  { names: ["init"], register: registerInit },
  { names: ["watch"], register: registerWatch },
  { names: ["serve"], register: registerServe },
  { names: ["__async-worker"], register: registerAsyncWorker },
  { names: ["import"], register: registerImport },
];
