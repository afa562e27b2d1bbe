// Runs one eval file with AgentV 4.42.4's own runner (`runEvaluation` of @agentv/core, its public API) against a
// recording provider that stands for both the target and the graders, and prints, as one JSON object, what the
// target was sent (each request's question, chat messages and number of images, if it has any, by test), what each
// grader was asked (its prompt and the target asked, by test), the score of each test, the verdict of each of its
// graders and the error the run threw.
// The target answers "answer N" (or RECORDED_ANSWER, when the environment sets it), reporting a run of 5 ms, 15 tokens and $0.001 as a provider reports them; a grader
// answers that every check passes (or RECORDED_GRADE, a reply of JSON text, when the environment sets it). Nothing is run but the eval file's own graders and hooks. Then the results are
// written as the `agentv eval` command writes them (`writeArtifactsFromResults`), to a folder of its own that is
// removed after, and the folders holding a test's grading.json are printed (artifacts), each once.
// With TARGET, the run is on that target of ROOT/.agentv/targets.yaml (its kind is the recording provider's), and
// the file's targets are the ones a grader may name, and the hooks the suite gives that target in `execution.targets`
// run around its tests, as the `agentv eval` command passes them (its suite's `targetRefs`). A replay or copilot-log
// target is the runner's own provider, which runs nothing but reads its recorded file or session (one in HOME); the
// error each failed test has is printed. The suite's trials, budget, fail_on_error and threshold apply, as the
// agentv command passes them; its workers do not (the tests run one by one).
// Usage: node run.mjs ROOT FILE [TARGET]   (FILE relative to ROOT)
// With --serve alone, answers such runs one by one (serve.mjs), each a line of JSON on stdin ({args: [ROOT, FILE, TARGET?], cwd,
// env}: the working folder and the whole environment to run in) with the line it would print, so that a test session
// pays once for importing @agentv/core, which takes most of a second. The runner keeps no state between runs at
// module level, and each run has its own root.
import { createProvider, loadTestSuite, readTargetDefinitions, resolveTargetDefinition, runEvaluation,
  writeArtifactsFromResults } from "@agentv/core";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { serve } from "./serve.mjs";

const OWN = ["replay", "copilot-log"]; // the kinds of target that run nothing but read what was recorded
let logs = [];
for (const name of ["log", "warn", "error", "info"]) {
  console[name] = (...parts) => logs.push(parts.map(String).join(" ").replace(/\u001b\[[0-9;]*m/g, ""));
}

async function runOne(rootArg, file, targetName) {
  const root = path.resolve(rootArg);
  const evalFile = path.join(root, file);
  const sent = [];
  const graded = [];
  logs = [];
  const verdict = process.env.RECORDED_GRADE ?? JSON.stringify({
    score: 1, assertions: [{ text: "ok", passed: true }], checks: [{ id: "criterion-1", satisfied: true, reasoning: "r" }],
    overall_reasoning: "r" });
  const recording = (target) => ({
    id: `recording:${target.name}`, kind: target.kind, targetName: target.name,
    async invoke(request) {
      if (request.systemPrompt !== undefined) {  // a grader's request
        graded.push({ test: request.evalCaseId, prompt: request.question, by: target.name });
        return { output: [{ role: "assistant", content: verdict }] };
      }
      sent.push({ test: request.evalCaseId, question: request.question,
                  messages: (request.chatPrompt ?? []).map((m) => [m.role, m.content]),
                  ...(request.images ? { images: request.images.length } : {}) });
      return { output: [{ role: "assistant", content: process.env.RECORDED_ANSWER ?? `answer ${sent.length}` }],
               durationMs: 5, costUsd: 0.001,
               tokenUsage: { input: 10, output: 5 } };
    },
  });

  let results = [];
  let error = null;
  try {
    const targets = targetName === undefined ? undefined
      : await readTargetDefinitions(path.join(root, ".agentv", "targets.yaml"));
    const definition = targets ? targets.find((t) => t.name === targetName) : { name: "recording", provider: "mock" };
    const target = resolveTargetDefinition(definition, {}, evalFile);
    const suite = await loadTestSuite(evalFile, root);
    const targetHooks = targetName === undefined ? undefined
      : suite.targetRefs?.find((ref) => ref.name === targetName)?.hooks;
    const providerFactory = (asked) => OWN.includes(asked.kind) ? createProvider(asked) : recording(asked);
    // the suite's run settings, as the agentv command passes them (run-eval.ts); its tests are read again
    results = await runEvaluation({ testFilePath: evalFile, repoRoot: root, target, targets, providerFactory,
                                    poolWorkspaces: false, maxConcurrency: 1, ...(targetHooks && { targetHooks }),
                                    trials: suite.trials, budgetUsd: suite.budgetUsd, failOnError: suite.failOnError,
                                    threshold: suite.threshold });
  } catch (thrown) {
    error = String(thrown?.message ?? thrown);
  }
  const artifacts = [];
  if (results.length > 0) {
    const out = await mkdtemp(path.join(os.tmpdir(), "agentv-artifacts-"));
    await writeArtifactsFromResults(results, out, { evalFile });
    for (const entry of await readdir(out, { recursive: true })) {
      if (path.basename(entry) === "grading.json") artifacts.push(path.dirname(entry).split(path.sep).join("/"));
    }
    await rm(out, { recursive: true, force: true });
  }
  const scores = Object.fromEntries(results.map((result) => [result.testId, result.score]));
  const failed = Object.fromEntries(results.filter((result) => result.error)
                                            .map((result) => [result.testId, result.error]));
  const verdicts = Object.fromEntries(results.map((result) => [
    result.testId, Object.fromEntries((result.scores ?? []).map((grader) => [grader.name, grader.verdict]))]));
  return JSON.stringify({ error, sent, graded, scores, verdicts, failed, logs, artifacts: artifacts.sort() }) + "\n";
}

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === "--serve") await serve((asked) => runOne(...asked));
else process.stdout.write(await runOne(...args));
