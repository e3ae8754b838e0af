import { main } from "../cli/main.js";
import { startCli } from "./entry.js";

// The `hooks` command (every command; `hooks run` usually takes src/bin/hooksRun.ts instead, see
// scripts/cliLoader.cjs).
startCli(main);
