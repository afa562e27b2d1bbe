"""AgentV 4.42's format ("tests"), declared as 2.2's is: the suite and its tests (``suite.py``; a problem of a
value their vars fill in says so: ``filled.py``), their execution settings (``execution.py``), the workspace
(``workspace.py``), messages (``messages.py``),
assertions, one schema per built-in kind (``assertions.py``, ``graders.py``, ``assertion_parts.py``), the
model they build (``model.py``), and `.agentv/targets.yaml` and `.agentv/config.yaml` (``project.py``)."""
