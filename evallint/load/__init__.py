"""Reading a file: its bytes, its YAML or JSONL, the positions of its nodes, and what kind of file it is."""
