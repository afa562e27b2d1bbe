"""From findings to what a person reads: positions, suppressions, fixes, and the output formats."""
