// Reads a JSON list of absolute glob patterns on stdin and prints, as a JSON list, the files each matches, sorted,
// as the runner's case-file loader asks fast-glob for them (a suite's file:// pattern of 'tests'), or the error it
// throws (the loader then rejects the suite).
// With --discover CWD, reads a JSON list of lists of patterns instead and prints the files each list matches from
// CWD, as the agentv command's discovery of eval files asks fast-glob for a config file's 'eval_patterns'
// (apps/cli eval/discover.ts).
// Usage: node globs.mjs [--discover CWD] < patterns.json
import fg from "fast-glob";
import { readFileSync } from "node:fs";

const patterns = JSON.parse(readFileSync(0, "utf8"));
const discover = process.argv[2] === "--discover" ? process.argv[3] : null;
const options = discover === null ? { onlyFiles: true, absolute: true } : {
  cwd: discover, absolute: true, onlyFiles: true, ignore: ["**/node_modules/**", "**/dist/**"],
  followSymbolicLinks: true, caseSensitiveMatch: false,
};
const found = await Promise.all(patterns.map((pattern) =>
  fg(pattern, options).then((files) => files.sort(), (error) => ({ error: error.message }))));
console.log(JSON.stringify(found));
