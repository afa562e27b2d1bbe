"""The order of an AgentV 4.42 suite's tests: each test's 'depends_on' names tests of the same suite, which the
runner checks before it runs any test (orchestrator.ts ``validateDependencyGraph``: an id that names no test, a
test that depends on itself and a cycle each make the whole run fail)."""
from __future__ import annotations

from typing import Iterator, Optional

from evallint.diagnostics import KEY
from evallint.load.case_files import FILE_PREFIX
from evallint.rules.common import Site, finding, is_text
from evallint.rules.grading_targets import suite_target_names, test_target_names
from evallint.rules.kept_tests import kept_by_loader
from evallint.rules.template_vars import filled
from evallint.suggest import did_you_mean, quote

FAILS = "the run fails before any test"


def check_dependencies(data: dict, place) -> Iterator:
    """EV122 for each 'depends_on' id of the suite's tests that names no test the runner keeps, or the test itself,
    and once for each cycle. When the suite reads tests from files too ('file://' items), which may hold the ids, a
    site (``loaded_files``) checks them with those files' tests."""
    key = next((k for k in ("tests", "eval_cases", "evalcases") if k in data), None)
    tests = data.get(key)
    if isinstance(tests, str) and tests.strip():  # a file (or folder) of tests: they are all the suite's
        yield Site("dependencies", [FILE_PREFIX + tests], (key,), {"path": True, "suite": data})
    elif isinstance(tests, list) and any(isinstance(test, str) and test.startswith(FILE_PREFIX) for test in tests):
        yield Site("dependencies", tests, (key,), {"suite": data})
    elif isinstance(tests, list) and any(isinstance(test, dict) and "depends_on" in test for test in tests):
        yield from dependency_findings([(test, (key, i), "") for i, test in enumerate(tests)], data)


# what the runner reads of a test's 'on_dependency_failure' (another value is EV110)
FAILURE_SETTINGS = ("skip", "fail", "run")


def check_failure_setting(test: dict, place) -> Iterator:
    """EV127 for a test's 'on_dependency_failure' without an id in its 'depends_on' (the loader keeps the strings of a
    list alone): the runner reads it only of a test it waits for others to finish (orchestrator.ts)."""
    setting, ids = test.get("on_dependency_failure"), test.get("depends_on")
    if setting in FAILURE_SETTINGS and not (isinstance(ids, list) and any(isinstance(i, str) for i in ids)):
        yield finding("EV127", f"'on_dependency_failure' {quote(setting)} has no effect without a test id in "
                      "'depends_on': the test waits for no test, so the runner never reads it; name the tests it "
                      "waits for in 'depends_on', or remove it", place.at + ("on_dependency_failure",), KEY)


def dependency_findings(tests: list, suite: dict) -> Iterator:
    """EV122 of ``tests``, each (a test, its data path, '' when it is in this file: else what its findings start
    with, naming the file of tests that holds it, and they are at that path, its item), of the suite's mapping
    ``suite``; none without a dependency (the graph is made only for a suite that has one)."""
    if not any(isinstance(test, dict) and "depends_on" in test for test, _, _ in tests):
        return
    graph, places, kept = _graph(tests, suite)
    ids = tuple(sorted(graph))
    targets = {test["id"]: _targets(test, suite) for test, _, _ in reversed(tests)
               if isinstance(test, dict) and is_text(test.get("id"))}  # reversed: the first test of an id counts
    for tid, entries in places.items():
        for dep, at, said in entries:
            missing = _not_run_on(targets.get(tid), targets.get(dep))
            if dep == tid:
                yield finding("EV122", f"{said}test {quote(tid)} depends on itself; {FAILS}", at)
            elif dep not in graph:
                yield finding("EV122", f"{said}'depends_on' names {quote(dep)}, which is no test of this suite"
                              f"{did_you_mean(dep, ids)}; {FAILS}", at)
            elif dep not in kept:
                yield finding("EV122", f"{said}'depends_on' names {quote(dep)}, a test the runner skips (see why "
                              f"there); {FAILS}", at)
            elif missing:
                yield finding("EV122", f"{said}'depends_on' names {quote(dep)}, which does not run on target "
                              f"{quote(missing[0])}: the run on that target has no test of that id and fails before any "
                              f"test; run {quote(dep)} on every target of this test", at)
    in_cycles, on_cycles = set(), _on_cycles(graph)
    for tid in places:
        cycle = _cycle(tid, graph) if tid in on_cycles and tid not in in_cycles else None
        if cycle:
            in_cycles.update(cycle)
            at, said = next((at, said) for dep, at, said in places[tid] if dep == cycle[1])
            yield finding("EV122", f"{said}'depends_on' {quote(cycle[1])} closes a cycle, " + " → ".join(cycle) +
                          f"; {FAILS}", at)


def _graph(tests: list, suite: dict) -> tuple:
    """(each test's id -> the ids it depends on; id -> (each of them, its data path); the ids of the tests the
    loader keeps, with the input files of ``suite``), the first test of an id counting."""
    graph: dict = {}
    places: dict = {}
    kept: set = set()
    for test, at, said in tests:
        if not (isinstance(test, dict) and is_text(test.get("id"))) or test["id"] in graph:
            continue
        deps = filled(test).get("depends_on")
        entries = [(dep, at + ("depends_on", j) if not said else at, said)
                   for j, dep in enumerate(deps if isinstance(deps, list) else ()) if isinstance(dep, str)]
        graph[test["id"]], places[test["id"]] = [dep for dep, _, _ in entries], entries
        if kept_by_loader(test, suite=suite):
            kept.add(test["id"])
    return graph, places, kept


def _not_run_on(dependent: Optional[frozenset], dependency: Optional[frozenset]) -> list:
    """The targets of a test's, sorted, that a test it depends on does not run on (none without a matrix)."""
    return sorted(dependent - dependency) if dependent and dependency is not None else []


def _targets(test: dict, suite: dict) -> Optional[frozenset]:
    """The targets a run of the suite's target matrix (two 'execution.targets' or more) runs ``test`` on: those its
    own 'execution.targets' name, else all (the command line gives each target its tests: run-eval.ts); None without
    a matrix, whose one target runs every test."""
    matrix = suite_target_names(suite)
    if len(matrix) < 2:
        return None
    return frozenset(test_target_names(test) or matrix)


def _cycle(start: str, graph: dict) -> Optional[list]:
    """The ids of a path of dependencies from ``start`` back to it, ``start`` first and last, the first a depth-first
    search meets; None without one. Each id is reached once, its path kept as the id it was reached from."""
    stack, came_from = [start], {start: None}
    while stack:
        node = stack.pop()
        for dep in graph.get(node, ()):
            if dep == start and node != start:
                path = [node]
                while came_from[path[-1]] is not None:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if dep in graph and dep not in came_from:
                came_from[dep] = node
                stack.append(dep)
    return None


def _on_cycles(graph: dict) -> set:
    """The ids on a cycle of two tests or more: those of a strongly connected component of more than one id
    (Tarjan's algorithm, without recursion, so that a chain of thousands of tests is read in linear time)."""
    index: dict = {}
    low: dict = {}
    stack, on_stack, found = [], set(), set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, deps = work[-1]
            dep = next((d for d in deps if d in graph and (d not in index or d in on_stack)), None)
            if dep is not None and dep not in index:
                index[dep] = low[dep] = len(index)
                stack.append(dep)
                on_stack.add(dep)
                work.append((dep, iter(graph[dep])))
                continue
            if dep is not None:
                low[node] = min(low[node], index[dep])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while not component or component[-1] != node:
                    component.append(stack.pop())
                    on_stack.discard(component[-1])
                if len(component) > 1:
                    found.update(component)
    return found
