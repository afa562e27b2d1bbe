"""``evallint server``: a language server over standard input and output (pygls and lsprotocol, the
``server`` extra). It builds on the public API (``evallint/api.py``): a buffer is linted as the file it
will be saved as, and its fixes are the ones ``--fix`` makes."""
