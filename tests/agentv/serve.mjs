// The serving loop of load.mjs and run.mjs: answers requests one by one, each a line of JSON on stdin ({args, cwd,
// env}: the arguments as the script's command line takes them, and the working folder and the whole environment to
// answer in), with the line `answer(args)` gives, so that a test session pays once for importing @agentv/core.
import readline from "node:readline";

export async function serve(answer) {
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const { args, cwd, env } = JSON.parse(line);
    // each request runs in its own working folder and environment, as a process of its own would
    process.chdir(cwd);
    for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
    Object.assign(process.env, env);
    process.stdout.write(await answer(args));
  }
}
