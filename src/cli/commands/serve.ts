import type { RegisterCommand } from "./index.js";

export interface ServeFlags {
  socket?: string;
  port?: string;
}

export const registerServe: RegisterCommand = (program, context, setCode) => {
  program
    .command("serve")
    .description("serve the HTTP + JSON API on a Unix socket (or 127.0.0.1 with a token), reloading config on change")
    .option("--socket <path>", "Unix socket to listen on (default $HOOKS_STATE_DIR/serve.sock)")
    .option("--port <n>", "listen on 127.0.0.1:N instead, with a bearer token in $HOOKS_STATE_DIR/serve.token (0: any free port)")
    .action(async (opts: ServeFlags, cmd) => {
      const { serve } = await import("../actions/serve.js");
      setCode(await serve(context(cmd), opts));
    });
};
