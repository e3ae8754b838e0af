import type { RegisterCommand } from "./index.js";

export const registerList: RegisterCommand = (program, context, setCode) => {
  program
    .command("list")
    .description("list hooks after merging layers: event, priority, async, timeout, state, source FILE:LINE, command")
    .option("--event <event>", "only hooks of this event (any spelling)")
    .option("--json", "print JSON")
    .action(async (opts: { event?: string; json?: boolean }, cmd) => {
      const { listHooks } = await import("../actions/listHooks.js");
      setCode(await listHooks(context(cmd), opts));
    });
};
