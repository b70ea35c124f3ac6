"""Operations: Prometheus metrics, structured logs, dependency health. Imports nothing else of
the project's, so any layer may report into it."""
