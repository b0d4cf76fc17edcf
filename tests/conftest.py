"""Suite-wide test setup.

Temporary files (every test database) go to /dev/shm where the machine has it: SQLite still runs for
real on real files, but the fsyncs that ``synchronous=FULL`` asks for cost nothing on a RAM disk, which
halves the suite's wall time. Durability against a killed process is still tested
(tests/storage/test_concurrency.py); power loss cannot be tested here either way.
"""

from __future__ import annotations

import os
import tempfile

_RAM_DISK = "/dev/shm"
if os.path.isdir(_RAM_DISK) and os.access(_RAM_DISK, os.W_OK):
    tempfile.tempdir = _RAM_DISK
