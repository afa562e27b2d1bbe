// Reads a JSON list of texts on stdin and prints, as a JSON list, whether the `agentv` command takes each as a
// project's 'required_version': the `semver` package's `validRange` reads it (the version the agentv CLI 4.42.4
// pins, 7.7.4) and it is more than white space.
// Usage: node ranges.mjs < texts.json
import validRange from "semver/ranges/valid.js";
import { readFileSync } from "node:fs";

const texts = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(texts.map((text) => text.trim() !== "" && validRange(text) !== null)));
