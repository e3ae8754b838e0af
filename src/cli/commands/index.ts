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

export const COMMANDS: RegisterCommand[] = [registerRun, registerValidate, registerList, registerEvents, registerEnable, registerTrust, registerLog, registerInit, registerWatch, registerServe, registerAsyncWorker, registerImport];
