// Loads eval files with AgentV 4.42.4's own loader (`loadTestSuite(file, root)` of @agentv/core, its public API)
// and prints, as one JSON object keyed by the file names given, what it made of each: the loaded tests, every
// line it printed (colours taken out) and the error it threw, with keys sorted and the root's absolute path
// taken out of every string (its parent's written `../`), so that the result does not depend on where the files lie.
// With --suite, also the suite's settings that loadTestSuite reads besides its tests (targets, workers,
// threshold, ...); with --validate, what AgentV's own `validateEvalFile` says of each file.
// Usage: node load.mjs [--suite] [--validate] ROOT FILE...   (FILEs relative to ROOT)
import { loadTestSuite } from "@agentv/core";
import { validateEvalFile } from "@agentv/core/evaluation/validation";
import path from "node:path";

const args = process.argv.slice(2);
const options = new Set(args.filter((arg) => arg.startsWith("--")));
const [rootArg, ...files] = args.filter((arg) => !arg.startsWith("--"));
const root = path.resolve(rootArg);
const parent = path.dirname(root); // the loader also looks for files above the root
const ansi = /\u001b\[[0-9;]*m/g;

function normal(value) {
  if (typeof value === "string") {
    return value.split(root + path.sep).join("").split(root).join(".").split(parent + path.sep).join("../");
  }
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
  console[name] = (...parts) => { logs.push(parts.map(String).join(" ").replace(ansi, "")); };
}

const results = {};
for (const file of files) {
  logs = [];
  const entry = { tests: [], logs, error: null };
  try {
    const { tests, ...suite } = await loadTestSuite(path.resolve(root, file), root);
    entry.tests = tests;
    if (options.has("--suite")) entry.suite = suite;
  } catch (e) {
    entry.error = String((e && e.message) || e);
  }
  if (options.has("--validate")) {
    const { errors } = await validateEvalFile(path.resolve(root, file));
    entry.validate = errors.map(({ severity, message, location }) => ({ severity, message, location }));
  }
  results[file] = normal(entry);
}
process.stdout.write(JSON.stringify(results) + "\n");
