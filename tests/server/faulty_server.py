"""``evallint server`` with two faults put in on purpose, for tests/server/test_server_faults.py: every hover
request fails, and so does every change to a buffer whose name holds 'explodes'. The rest is the real
server, so the test sees what an editor sees when one of evallint's handlers breaks."""
from __future__ import annotations

import sys

from evallint.server import app


def broken_hover(*args):
    raise RuntimeError("hover broke on purpose")


class FaultyServer(app.EvallintServer):
    def put(self, uri: str):
        if "explodes" in uri:
            raise ValueError(f"a change to {uri.rsplit('/', 1)[-1]} broke on purpose")
        return super().put(uri)


app.hover = broken_hover
app.EvallintServer = FaultyServer

if __name__ == "__main__":
    sys.exit(app.serve())
