// Reads a JSON list of absolute glob patterns on stdin and prints, as a JSON list, the files each matches, sorted,
// as the runner's case-file loader asks fast-glob for them (a suite's file:// pattern of 'tests'), or the error it
// throws (the loader then rejects the suite).
// Usage: node globs.mjs < patterns.json
import fg from "fast-glob";
import { readFileSync } from "node:fs";

const patterns = JSON.parse(readFileSync(0, "utf8"));
const found = await Promise.all(patterns.map((pattern) =>
  fg(pattern, { onlyFiles: true, absolute: true }).then((files) => files.sort(), (error) => ({ error: error.message }))));
console.log(JSON.stringify(found));
