"""``evallint upgrade``: AgentV 2.2 files rewritten in AgentV 4.42.4's format.

The pipeline, one module each: ``files`` reads a file as lint does and tells its kind and version;
``plan_suite`` and ``plan_project`` plan its changes by ``spellings`` (and ``prompts`` for the templates
graders read); ``edits`` makes each change a text edit with the data change it declares; ``plan`` applies
the edits whose result reads back as declared; ``report`` writes or prints them and reports the rest
(the command line is ``evallint upgrade``, in ``commands.py``)."""
