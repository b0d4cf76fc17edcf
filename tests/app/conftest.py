"""The application layer's tests run on a real store, on both backends, as the storage tests do."""

from tests.storage.conftest import backend, clock, db_path, store  # noqa: F401
