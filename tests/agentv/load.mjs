// Loads eval files with AgentV 4.42.4's own loader (`loadTestSuite(file, root)` of @agentv/core, its public API)
// and prints, as one JSON object keyed by the file names given, what it made of each: the loaded tests, every
// line it printed (colours taken out) and the error it threw, with keys sorted and the root's absolute path
// taken out of every string (its parent's written `../`), so that the result does not depend on where the files lie.
// With --suite, also the suite's settings that loadTestSuite reads besides its tests (targets, workers,
// threshold, ...); with --metadata, what `readTestSuiteMetadata` reads of the suite (its target, among others; the
// error it throws, as `metadata.error`);
// with --validate, what AgentV's own `validateEvalFile` says of each file.
// With --targets, the FILEs are targets files, read as the runner reads the one it uses: what `validateTargetsFile`
// says of it (the runner refuses a file with an error), the error `readTargetDefinitions` throws, and for each
// target the kind `resolveTargetDefinition` makes of it or the error it throws (of an agentv target, also the error
// making its provider throws: `createProvider`, which a run meets first), and the target its grader
// resolves to (null: none in the file). Every environment variable the file names reads as set (and no other),
// so that a reference resolves.
// With --config, the FILEs are `.agentv/config.yaml` files: what `loadConfig` makes of each for an eval file in the
// folder above it (null: the runner ignores the file), with the warnings it printed.
// Usage: node load.mjs [--suite] [--metadata] [--validate] [--targets | --config] ROOT FILE...   (FILEs relative to ROOT)
// With --serve alone, answers such requests one by one (serve.mjs), each a line of JSON on stdin ({args: [...as
// above], cwd, env}: the working folder and the whole environment to load in) with the line it would print, so that
// a test session pays once for importing @agentv/core, which takes about half a second.
import { createProvider, loadConfig, loadTestSuite, readTargetDefinitions, readTestSuiteMetadata,
         resolveDelegatedTargetDefinition, resolveTargetDefinition } from "@agentv/core";
import { validateEvalFile, validateTargetsFile } from "@agentv/core/evaluation/validation";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { serve } from "./serve.mjs";

const ansi = /\u001b\[[0-9;]*m/g;

function normal(value, root) {
  const parent = path.dirname(root); // the loader also looks for files above the root
  if (typeof value === "string") {
    return value.split(root + path.sep).join("").split(root).join(".").split(parent + path.sep).join("../");
  }
  if (Array.isArray(value)) return value.map((item) => normal(item, root));
  if (value && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = normal(value[key], root);
    return out;
  }
  return value;
}

let logs = [];
for (const name of ["log", "warn", "error", "info", "debug"]) {
  console[name] = (...parts) => { logs.push(parts.map(String).join(" ").replace(ansi, "")); };
}

async function readTargets(file) {
  const entry = { validate: [], targets: [], error: null };
  const named = (await readFile(file, "utf8")).matchAll(/\$\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g);
  const everySet = Object.fromEntries([...named].map((match) => [match[1], "set"]));
  const unset = Object.keys(everySet).filter((name) => !(name in process.env));
  Object.assign(process.env, everySet); // the validator reads the process's environment
  const { errors } = await validateTargetsFile(file);
  for (const name of unset) delete process.env[name];
  entry.validate = errors.map(({ severity, message, location }) => ({ severity, message, location }));
  let definitions;
  try {
    definitions = await readTargetDefinitions(file);
  } catch (e) {
    entry.error = String((e && e.message) || e);
    return entry;
  }
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const evalFile = path.join(path.dirname(file), "eval.yaml"); // where relative paths resolve from
  for (const definition of definitions) {
    const target = { name: definition.name };
    try {
      const resolved = resolveTargetDefinition(resolveDelegatedTargetDefinition(definition.name, byName, everySet),
                                               everySet, evalFile);
      target.kind = resolved.kind;
      if (resolved.kind === "agentv") createProvider(resolved); // it reads its model when it is made, and runs nothing
      const grader = resolved.graderTarget;
      target.grader = grader === undefined ? undefined
        : (resolveDelegatedTargetDefinition(grader, byName, everySet) || { name: null }).name;
    } catch (e) {
      target.error = String((e && e.message) || e);
    }
    entry.targets.push(target);
  }
  return entry;
}

async function loadAll(args) {
  const options = new Set(args.filter((arg) => arg.startsWith("--")));
  const [rootArg, ...files] = args.filter((arg) => !arg.startsWith("--"));
  const root = path.resolve(rootArg);
  const results = {};
  for (const file of files) {
    results[file] = normal(await loadOne(options, root, file), root);
  }
  return JSON.stringify(results) + "\n";
}

async function loadOne(options, root, file) {
  logs = [];
  if (options.has("--targets")) {
    return { ...(await readTargets(path.resolve(root, file))), logs };
  }
  if (options.has("--config")) {
    const folder = path.dirname(path.dirname(path.resolve(root, file)));
    const config = await loadConfig(path.join(folder, "eval.yaml"), folder);
    return { config: config === undefined ? null : config, logs };
  }
  const entry = { tests: [], logs, error: null };
  try {
    const { tests, ...suite } = await loadTestSuite(path.resolve(root, file), root);
    entry.tests = tests;
    if (options.has("--suite")) entry.suite = suite;
    if (options.has("--metadata")) {
      try {
        entry.metadata = await readTestSuiteMetadata(path.resolve(root, file));
      } catch (e) {
        entry.metadata = { error: String((e && e.message) || e) };
      }
    }
  } catch (e) {
    entry.error = String((e && e.message) || e);
  }
  if (options.has("--validate")) {
    const { errors } = await validateEvalFile(path.resolve(root, file));
    entry.validate = errors.map(({ severity, message, location }) => ({ severity, message, location }));
  }
  return entry;
}

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === "--serve") await serve(loadAll);
else process.stdout.write(await loadAll(args));
