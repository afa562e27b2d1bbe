// Loads eval files with AgentV 4.42.4's own loader (`loadTests(file, root)` of @agentv/core, its public API)
// and prints, as one JSON object keyed by the file names given, what it made of each: the loaded tests, every
// line it printed (colours taken out) and the error it threw, with keys sorted and the root's absolute path
// taken out of every string, so that the result does not depend on where the files lie.
// Usage: node load.mjs ROOT FILE...   (FILEs relative to ROOT)
import { loadTests } from "@agentv/core";
import path from "node:path";
const [rootArg, ...files] = process.argv.slice(2);
const root = path.resolve(rootArg);
const ansi = /\u001b\[[0-9;]*m/g;
function normal(value) {
  if (typeof value === "string") return value.split(root + path.sep).join("").split(root).join(".");
  if (Array.isArray(value)) return value.map(normal);
  if (value && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = normal(value[key]);
    return out;
  }
  return value;
}
let logs = [];
for (const name of ["log", "warn", "error", "info", "debug"]) {
  console[name] = (...args) => { logs.push(args.map(String).join(" ").replace(ansi, "")); };
}
const out = {};
for (const file of files) {
  logs = [];
  let tests = [], error = null;
  try { tests = await loadTests(path.resolve(root, file), root); }
  catch (e) { error = String((e && e.message) || e); }
  out[file] = normal({ tests, logs, error });
}
process.stdout.write(JSON.stringify(out) + "\n");
