import type { RegisterCommand } from "./index.js";

export const registerEvents: RegisterCommand = (program, context, setCode) => {
  program
    .command("events")
    .description("list the event catalog: names, aliases, gate, match field, fields")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }, cmd) => {
      const { printEvents } = await import("../actions/printEvents.js");
      setCode(await printEvents(context(cmd), opts));
    });
};
