import sys

from evallint.cli import entry

sys.exit(entry())
