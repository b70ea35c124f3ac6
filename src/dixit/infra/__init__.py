"""Infrastructure with no game in it: the WebSocket transport, the fork-server supervisor and
its socket hand-off, the local fan-out broker.

Nothing here imports the game (an import-linter contract in pyproject.toml says so): what a
part needs of the game — which path is a room, what to run on a socket, whom to admit, the
worker's own start — comes in as plain values and callables. Each module's docstring gives
the measured reason it exists instead of the library default.

- :mod:`.frames`: RFC 6455 and RFC 7692 as pure functions and a sans-I/O frame reader;
- :mod:`.websocket`: a socket with an explicit :class:`~.websocket.State`, on asyncio;
- :mod:`.uvicorn_ws`: the glue uvicorn instantiates, and uvicorn's own WebSocket path kept
  selectable for debugging (``dixit serve --ws uvicorn``);
- :mod:`.handoff`, :mod:`.workers`: one host's worker processes and the passing of a room's
  sockets to the worker that owns it;
- :mod:`.broker`: the Unix-socket broker those workers fan out through.
"""
