"""The ``dixit`` command line: the composition root that wires the other packages together."""
