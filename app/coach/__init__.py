"""The coach: hint and review run in the solver's worker (``advice``); who may have a hint or a review, and when
(``access``)."""
