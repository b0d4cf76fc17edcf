"""The solver's worker process behind one bounded, fair queue (``worker``: par, and the coach's jobs), and the
freeing of the searches a request let go of between requests (``tidying``)."""
