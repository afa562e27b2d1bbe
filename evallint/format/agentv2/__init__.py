"""AgentV 2.2's eval v2 format ("evalcases"), declared once: suites and cases
(``suite.py``), messages (``messages.py``), evaluators, one schema per kind
(``evaluators.py``, ``evaluator_parts.py``), dataset sidecars (``sidecar.py``),
targets and project configuration (``project.py``), the model they build
(``model.py``) and the JSON Schema exported from them (``jsonschema.py``)."""
